"""A read that needs no wait is answered on the server's loop, without the hop
to a thread of the pool and back (``service.aio.at_hand``): ``GetState`` of
the current version and ``LegalActions``, when the game is cached, caught up
lately and its lock free this instant. Any other (its lock held, not cached,
not caught up lately, a past version) runs on the pool as before, and waits
there, never on the loop. Either way each interceptor runs once for the call
(the access line and the metrics, the caller's call token and CPU), and a
refusal leaves with the same status, reason and version. A game read
without pause is looked at in the store before its look lapses (``Lookout``),
off its lock and off the loop, so its reads are not sent to the pool by a
lapse; a look that finds another server's write notes nothing.

A real asyncio server in this process, with the server's own interceptors in
the server's order (``service.main``), on a SQLite store."""

from __future__ import annotations

import concurrent.futures
import logging
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from arbiter.v1 import game_pb2, game_pb2_grpc

from service import limits
from service.aio import LoopServer
from service.application import ArbiterApp
from service.auth import Credentials
from service.config import Settings
from service.decoding import MalformedRequests
from service.drain import Drain
from service.feeds import FeedHub
from service.limits import CallerShares
from service.logs import ACCESS
from service.metrics import CALLS, CallObserver
from service.servicer import GameServicer, StreamCap, add_to_server
from service.status import abort
from tests.unit.test_read_freshness import make_app

SECRET = b"reads-at-hand-test-secret-0123456789abcdef"
LOOP = "grpc-loop"
GET_STATE = "/arbiter.v1.GameService/GetState"
LEGAL = "/arbiter.v1.GameService/LegalActions"


@dataclass
class Served:
    app: ArbiterApp
    servicer: GameServicer
    shares: CallerShares
    drain: Drain
    stub: Any
    channel: grpc.Channel
    #: The thread each GetState / LegalActions read on, in call order.
    threads: list[str]


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    env = dict(Settings(data_dir=tmp_path).store_env(), ARBITER_READ_FRESHNESS_MS="60000")
    app = ArbiterApp(env, credentials=Credentials(SECRET, ""))
    servicer = GameServicer(app, FeedHub("redis://127.0.0.1:1/0"))
    threads: list[str] = []
    reads_of = servicer.reads_of

    def noted(context: Any, game_id: uuid.UUID) -> Any:
        threads.append(threading.current_thread().name)
        return reads_of(context, game_id)

    monkeypatch.setattr(servicer, "reads_of", noted)
    drain = Drain()
    shares = CallerShares(app.credentials, abort, 64, 1000, 60)
    server = LoopServer(
        concurrent.futures.ThreadPoolExecutor(8, thread_name_prefix="pool"),
        [CallObserver(), drain, MalformedRequests(abort), StreamCap(32), shares], [])
    add_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        yield Served(app, servicer, shares, drain, game_pb2_grpc.GameServiceStub(channel),
                     channel, threads)
    finally:
        channel.close()
        server.stop(None).wait()
        shares.idle.stopping.set()
        app.close()


def token(value: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {value}"),)


def ethnos(served: Served) -> game_pb2.CreateGameResponse:
    """A 3-seat Ethnos game, read once from the pool (its first read catches
    up from the store: from then on it is at hand for a minute)."""
    created = served.stub.CreateGame(
        game_pb2.CreateGameRequest(rules="ethnos", seats=["a", "b", "c"]))
    served.stub.GetState(game_pb2.GetStateRequest(game_id=created.game_id, spectator=True),
                         metadata=token(created.spectator_token))
    return created


def seat_of_turn(created: game_pb2.CreateGameResponse) -> int:
    return int(created.state.pending[0].seat)


def test_a_read_of_a_free_cached_game_is_answered_on_the_loop(served: Served) -> None:
    created = ethnos(served)
    assert served.threads[-1].startswith("pool"), "its first read catches up from the store"
    request = game_pb2.GetStateRequest(game_id=created.game_id, spectator=True)
    on_loop = served.stub.GetState(request, metadata=token(created.spectator_token))
    seat = seat_of_turn(created)
    legal = served.stub.LegalActions(
        game_pb2.LegalActionsRequest(game_id=created.game_id, seat=seat),
        metadata=token(created.seat_tokens[seat].token))
    assert served.threads[-2:] == [LOOP, LOOP]
    assert on_loop.version == created.version and on_loop.view_json
    assert legal.actions and legal.version == created.version
    # The same answers as the pool's (the game not caught up lately: the pool reads it).
    served.app._checked.clear()
    on_pool = served.stub.GetState(request, metadata=token(created.spectator_token))
    assert served.threads[-1].startswith("pool")
    assert on_pool == on_loop


def test_a_read_falls_back_to_the_pool_while_its_game_lock_is_held(served: Served) -> None:
    """Its game's lock held (a writer's save): the read waits for it on a thread
    of the pool, and the loop goes on answering reads of other games meanwhile."""
    busy, free = ethnos(served), ethnos(served)
    spectator = game_pb2.GetStateRequest(game_id=busy.game_id, spectator=True)
    with served.app.game_lock(busy.game_id):
        waiting = served.stub.GetState.future(spectator, metadata=token(busy.spectator_token))
        time.sleep(0.3)
        assert not waiting.done()
        other = served.stub.GetState(game_pb2.GetStateRequest(game_id=free.game_id,
                                                              spectator=True),
                                     metadata=token(free.spectator_token), timeout=2)
        assert other.game_id == free.game_id
        assert served.threads[-1] == LOOP, "the loop answers while another game is busy"
    assert waiting.result(timeout=5).game_id == busy.game_id
    assert served.threads[-2].startswith("pool"), "the busy game's read ran on the pool"


def test_a_read_of_a_game_not_cached_or_a_past_version_runs_on_the_pool(
        served: Served) -> None:
    created = ethnos(served)
    served.app.repository.forget(uuid.UUID(created.game_id))
    request = game_pb2.GetStateRequest(game_id=created.game_id, spectator=True)
    served.stub.GetState(request, metadata=token(created.spectator_token))
    assert served.threads[-1].startswith("pool"), "not cached: read from the store"
    served.stub.GetState(request, metadata=token(created.spectator_token))
    assert served.threads[-1] == LOOP, "cached again by that read"
    past = game_pb2.GetStateRequest(game_id=created.game_id, spectator=True, version=1)
    assert served.stub.GetState(past, metadata=token(created.spectator_token)).version == 1
    assert served.threads[-1].startswith("pool"), "time travel reads the store"


class Counted:
    """Counts the calls of one method of an object, passing them on."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> None:
        self.calls: list[tuple[Any, ...]] = []
        method = getattr(owner, name)

        def counted(*args: Any) -> Any:
            self.calls.append(args)
            return method(*args)

        monkeypatch.setattr(owner, name, counted)


def test_each_call_is_charged_and_observed_once_on_the_loop_or_the_pool(
        served: Served, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Whichever way a call runs, and a call that falls back included: one call
    token taken from its caller's bucket, its CPU charged once, one count in
    the metrics and one access line."""
    created = ethnos(served)
    # No free part: every call's CPU is charged (one shorter than the free
    # part owes nothing, and is not charged at all).
    monkeypatch.setattr(limits, "FREE_WORK_SECONDS", 0.0)
    taken = Counted(monkeypatch, served.shares.calls, "take")
    charged = Counted(monkeypatch, served.shares, "_charge_work")
    ok = CALLS.labels("arbiter.v1.GameService", "GetState", "OK")
    counted_before = ok._value.get()
    request = game_pb2.GetStateRequest(game_id=created.game_id, spectator=True)
    caplog.set_level(logging.INFO, logger=ACCESS.name)

    def lines() -> int:
        return sum(1 for r in caplog.records
                   if r.name == ACCESS.name and r.getMessage().startswith("GetState"))

    before = lines()
    served.stub.GetState(request, metadata=token(created.spectator_token))  # on the loop
    with served.app.game_lock(created.game_id):  # falls back: waits on the pool
        waiting = served.stub.GetState.future(request, metadata=token(created.spectator_token))
        time.sleep(0.2)
    waiting.result(timeout=5)
    assert [served.threads[-2], served.threads[-1][:4]] == [LOOP, "pool"]
    assert len(taken.calls) == 2 and len(charged.calls) == 2
    assert all(args[0] == "ipv4:127.0.0.1" and args[1] > 0 for args in charged.calls)
    assert ok._value.get() - counted_before == 2
    deadline = time.monotonic() + 2
    while lines() - before < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert lines() - before == 2


def refusal(call: Any) -> tuple[Any, ...]:
    """A refused call's status as its client sees it: code, sentence, trailers."""
    try:
        call()
    except grpc.RpcError as error:
        return (error.code(), error.details(), tuple(error.trailing_metadata() or ()))
    raise AssertionError("not refused")


def test_a_refusal_on_the_loop_leaves_as_on_the_pool(served: Served) -> None:
    """An unknown seat, another seat's legal moves, a forged token, the drain:
    the same status, sentence, reason and version whether the call was
    refused on the loop or on the pool (its game not caught up lately)."""
    created = ethnos(served)
    seat = seat_of_turn(created)
    other = (seat + 1) % 3
    calls = {
        "unknown seat": lambda: served.stub.GetState(
            game_pb2.GetStateRequest(game_id=created.game_id, seat=7),
            metadata=token(created.seat_tokens[seat].token)),
        "another seat's moves": lambda: served.stub.LegalActions(
            game_pb2.LegalActionsRequest(game_id=created.game_id, seat=other),
            metadata=token(created.seat_tokens[seat].token)),
        "forged token": lambda: served.stub.GetState(
            game_pb2.GetStateRequest(game_id=created.game_id, seat=seat),
            metadata=token("not-a-token")),
    }
    spectator = game_pb2.GetStateRequest(game_id=created.game_id, spectator=True)
    for name, call in calls.items():
        served.stub.GetState(spectator, metadata=token(created.spectator_token))  # caught up
        on_loop = refusal(call)
        assert served.threads[-1] == LOOP, name
        served.app._checked.clear()
        on_pool = refusal(call)
        assert served.threads[-1].startswith("pool"), name
        assert on_loop == on_pool, name
        reasons = dict(on_loop[2])
        assert reasons["arbiter-version"] == str(created.version), name
    served.drain.draining.set()
    drained = refusal(calls["unknown seat"])
    assert drained[0] == grpc.StatusCode.UNAVAILABLE
    assert dict(drained[2])["arbiter-reason"] == "DRAINING"


def test_malformed_bytes_are_refused_as_ever(served: Served) -> None:
    ethnos(served)
    raw = served.channel.unary_unary(GET_STATE)
    code, details, trailers = refusal(lambda: raw(b"\xff\xff\xff"))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert dict(trailers)["arbiter-reason"] == "BAD_MESSAGE"


def test_a_game_is_held_only_when_all_its_read_needs_is_at_hand(tmp_path: Path) -> None:
    """``ArbiterApp.hold_cached``: the game's lock free, the game caught up
    lately and its access record kept; nothing held otherwise, and a lobby
    table's game (its record caught up from the store on each call) never."""
    env = dict(Settings(data_dir=tmp_path).store_env(), ARBITER_READ_FRESHNESS_MS="60000")
    app = ArbiterApp(env, credentials=Credentials(SECRET, ""))
    try:
        game = app.create_game("enin", ["solo"])
        gid = game.id
        app.facts(str(gid))
        assert app.hold_cached(gid) is None, "its access record not read yet"
        app._checked.clear()
        app.access(gid)
        assert app.hold_cached(gid) is None, "not caught up lately"
        app.facts(str(gid))  # a read on the pool's way: caught up from the store
        held = app.hold_cached(gid)
        assert held is not None and held.game is app._cached(gid)
        assert held.facts(str(gid).upper()).version == game.version
        with pytest.raises(AssertionError):
            held.facts(str(uuid.uuid4()))  # another game's call: never its answer
        result: list[Any] = []
        busy = threading.Thread(target=lambda: result.append(app.hold_cached(gid)))
        busy.start()
        busy.join()
        assert result == [None], "its lock is held (here, by this thread)"
        held.release()
        again = app.hold_cached(gid)
        assert again is not None, "free again"
        again.release()
        table = app.create_game("enin", ["solo"], seat_tokens=["a-lobby-holder-token"])
        app.access(table.id)
        app.facts(str(table.id))
        assert app.hold_cached(table.id) is None, "a lobby table's game"
    finally:
        app.close()


def looked(app: ArbiterApp, gid: uuid.UUID) -> None:
    """A read held at hand, half its look's age old: admitted (its first read),
    it asks the lookout to look; until that look is made."""
    held = app.hold_cached(gid)
    assert held is not None
    try:
        held.facts(str(gid))
    finally:
        held.release()
    deadline = time.monotonic() + 5
    while app.lookout._asked and time.monotonic() < deadline:
        time.sleep(0.005)


def test_a_game_read_without_pause_is_looked_at_before_its_look_lapses(
        tmp_path: Path) -> None:
    """``Lookout``: a read held at hand when the game's look at the store is
    half its age asks another look, off the game's lock and off the loop;
    nothing newer in the store, the game is caught up from then on."""
    app = make_app(tmp_path / "one.sqlite", "1000")
    try:
        gid = app.create_game("enin", ["solo"]).id
        app.access(gid)
        app.facts(str(gid))
        first = app._checked[gid][1]
        time.sleep(0.6)  # past half of a second
        looked(app, gid)
        renewed = app._checked[gid][1]
        assert renewed > first + 0.5
        time.sleep(0.5)  # the first look has lapsed by now; the new one has not
        held = app.hold_cached(gid)
        assert held is not None
        held.release()
    finally:
        app.close()


def test_a_look_that_finds_another_server_write_notes_nothing(tmp_path: Path) -> None:
    """Another process wrote since: the look notes nothing, the game's reads
    go to the store once its look lapses, and they see that write."""
    one, other = (make_app(tmp_path / "s.sqlite", "1000"),
                  make_app(tmp_path / "s.sqlite", "1000"))
    try:
        game_id = str(one.create_game("enin", ["solo"]).id)
        gid = uuid.UUID(game_id)
        one.access(gid)
        one.facts(game_id)
        first = one._checked[gid][1]
        move = other.legal_actions(game_id, 0).actions[0].command
        version = other.act(game_id, 0, move).version
        time.sleep(0.6)
        looked(one, gid)
        assert one._checked[gid][1] == first, "not noted: the store holds newer events"
        time.sleep(0.5)
        assert one.hold_cached(gid) is None, "lapsed: the next read looks at the store"
        assert one.facts(game_id).version == version
    finally:
        one.close()
        other.close()
