"""``Play``'s moves are applied by the process's one writer
(``ArbiterApp.act_moves``): several moves of several games decided one after
the other and saved in one transaction, each answered as ``act`` would answer
it alone (exactly once by command id, expected versions, refusals with their
reasons, a game's moves in the order sent), and a batch whose save fails
decided again move by move (DESIGN: one write path; group commit). The
writer's CPU on a stream's moves is charged to the stream's caller
(DESIGN principle 11)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError

from aggregates.kernel import RuleError
from service import limits
from service.application import ActResult, ArbiterApp, Move
from service.config import Settings
from service.errors import ServiceError
from service.play import Inbox


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[ArbiterApp]:
    """A store as the server keeps it (its aggregate cache included)."""
    application = ArbiterApp(Settings(data_dir=tmp_path).store_env())
    yield application
    application.close()


def next_move(app: ArbiterApp, game_id: str, command_id: str = "") -> Move:
    game = app.game(game_id)
    seat = game.waiting_on()[0]
    return Move(game_id, seat, game.legal_actions(seat)[0].to_json(), command_id=command_id)


def games(app: ArbiterApp, count: int) -> list[str]:
    """Games a move past their creation: cached, as a game being played is
    (a game not cached goes through ``act`` alone, which caches it)."""
    made = [str(app.create_game("ethnos", ["a", "b", "c"]).id) for _ in range(count)]
    for game_id in made:
        move = next_move(app, game_id)
        app.act(game_id, move.seat, move.action)
    return made


def test_moves_of_several_games_are_saved_in_one_transaction(app: ArbiterApp) -> None:
    ids = games(app, 3)
    before = {g: app.game(g).version for g in ids}
    commits = app.group_commit.commits
    answers = app.act_moves([next_move(app, g, f"c-{n}") for n, g in enumerate(ids)])
    assert app.group_commit.commits == commits + 1, "one transaction for the three moves"
    for game_id, answer in zip(ids, answers, strict=True):
        assert isinstance(answer, ActResult) and answer.recorded and not answer.replayed
        assert answer.version == app.game(game_id).version > before[game_id]
        assert answer.positions and set(answer.positions) == {
            e.originator_version for e in answer.events}


def test_each_move_is_answered_as_act_would_answer_it_alone(app: ArbiterApp) -> None:
    ids = games(app, 2)
    applied = next_move(app, ids[0], "once")
    first = app.act(applied.game_id, applied.seat, applied.action,
                    command_id=applied.command_id)
    stale = next_move(app, ids[1])
    stale = Move(stale.game_id, stale.seat, stale.action, expected_version=1)
    wrong = Move(ids[1], 9, {"name": "nothing", "args": {}})
    good = next_move(app, ids[1], "good")
    answers = app.act_moves([applied, stale, wrong, good])
    replayed = answers[0]
    assert isinstance(replayed, ActResult) and replayed.replayed, "exactly once by command id"
    assert replayed.version == app.game(ids[0]).version == first.version
    assert isinstance(answers[1], ServiceError) and answers[1].reason == "VERSION_MISMATCH"
    assert isinstance(answers[2], (RuleError, ServiceError)), "refused with its reason"
    assert isinstance(answers[3], ActResult) and answers[3].recorded, \
        "a game's move after a refused one is still applied, after it"
    assert app.game(ids[1]).version == answers[3].version


def test_a_game_s_moves_keep_their_order_through_both_paths(app: ArbiterApp) -> None:
    """A move that goes through ``act`` alone (here: its command id applied
    before) takes every later move of its game with it, in order."""
    game_id = games(app, 1)[0]
    first = next_move(app, game_id, "first")
    app.act(first.game_id, first.seat, first.action, command_id=first.command_id)
    second = next_move(app, game_id, "second")
    answers = app.act_moves([first, second])
    assert isinstance(answers[0], ActResult) and answers[0].replayed
    assert isinstance(answers[1], ActResult) and answers[1].recorded
    assert answers[1].version == app.game(game_id).version


def test_a_batch_whose_save_fails_is_decided_again_move_by_move(
        app: ArbiterApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another server's write first (the store refuses the batch's versions):
    no move is lost or applied twice; each is decided again on its own."""
    ids = games(app, 2)
    moves = [next_move(app, g, f"m-{n}") for n, g in enumerate(ids)]
    versions = {g: app.game(g).version for g in ids}
    real = app.group_commit.save
    failed: list[int] = []

    def save_once(*objs: Any, defer: bool = False) -> list[Any]:
        if not failed:
            failed.append(len(objs))
            raise IntegrityError("another writer's version first")
        return real(*objs, defer=defer)

    monkeypatch.setattr(app.group_commit, "save", save_once)
    answers = app.act_moves(moves)
    assert failed == [2], "the batch was one save"
    for game_id, answer in zip(ids, answers, strict=True):
        assert isinstance(answer, ActResult) and answer.recorded
        assert app.game(game_id).version == answer.version > versions[game_id]
        events = app.game_events(game_id, after=versions[game_id])
        assert [e.originator_version for e in events] == list(
            range(versions[game_id] + 1, answer.version + 1)), "applied once"


def test_a_save_that_may_have_gone_through_is_answered_not_decided_again(
        app: ArbiterApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save that fails other than by another writer's version first (a
    connection lost at the commit: saved or not, nobody knows) is each
    move's answer, as ``act`` answers it: deciding the moves again on the
    store's newest would apply a move without a command id twice if the
    commit had gone through."""
    ids = games(app, 2)
    versions = {g: app.game(g).version for g in ids}
    moves = [next_move(app, g) for g in ids]
    real = app.group_commit.save

    def commit_then_lose_the_connection(*objs: Any, defer: bool = False) -> list[Any]:
        real(*objs, defer=defer)
        raise OSError("the connection dropped after the commit")

    monkeypatch.setattr(app.group_commit, "save", commit_then_lose_the_connection)
    answers = app.act_moves(moves)
    monkeypatch.setattr(app.group_commit, "save", real)
    assert all(isinstance(a, OSError) for a in answers), answers
    for game_id in ids:  # saved once, the cache dropped and read again
        assert app.game(game_id).version == versions[game_id] + len(
            app.game_events(game_id, after=versions[game_id]))
        assert len({e.originator_version for e in app.game_events(game_id)}) == len(
            app.game_events(game_id)), "applied once"


def test_a_pass_takes_a_few_moves_of_each_caller_while_others_wait() -> None:
    """Fairness (DESIGN principle 11): one caller's thousand queued moves
    hold another caller's move up by one pass of a few of them
    (``MOVES_A_CALLER_A_PASS``), each stream's moves in their order; a caller
    alone keeps its moves together, up to ``MOVES_A_PASS``."""
    from service.play import MOVES_A_CALLER_A_PASS, MOVES_A_PASS, fair_share

    def box(caller: str) -> Inbox:
        return Inbox(_no_requests(), lambda: None, lambda *_: None, lambda _: None, caller)

    flood = [box("ipv4:10.0.0.1") for _ in range(4)]
    honest = box("ipv4:10.0.0.2")
    queue: list[Any] = [(flood[n % 4], f"f{n}", Move("g", 0, {})) for n in range(1000)]
    queue.append((honest, "h", Move("g", 0, {})))
    batch, rest = fair_share(queue)
    assert [c for _, c, _ in batch] == [f"f{n}" for n in range(MOVES_A_CALLER_A_PASS)] + ["h"]
    assert [c for _, c, _ in rest] == [f"f{n}" for n in range(MOVES_A_CALLER_A_PASS, 1000)]
    alone, later = fair_share(queue[:-1])
    assert len(alone) == MOVES_A_PASS and alone + later == queue[:-1]


def test_the_writer_s_cpu_on_a_stream_s_moves_is_charged_to_its_caller() -> None:
    """The moves' CPU, spent on the writer's thread, reaches the stream's
    own reading of its work (``StreamWork``) when the stream takes their
    results, on its own thread."""
    work = limits.StreamWork(limits.Buckets(1.0, 10.0), "ipv4:10.0.0.3", 0.0)
    charged: list[float] = []
    work.work.charge = lambda key, cost: charged.append(cost)  # type: ignore[method-assign]
    limits._streaming.work = work
    try:
        inbox = Inbox(_no_requests(), lambda: None, lambda *_: None, lambda _: None)
        inbox.answered(("c", ServiceError("ABORTED", "VERSION_MISMATCH", "stale", 3)), 0.25)
        assert [o[0] for o in inbox.take()] == ["c"]
        work.settle()
    finally:
        limits._streaming.work = None
    assert charged and charged[0] >= 0.25, "the writer's quarter second is the caller's"


async def _no_requests() -> AsyncIterator[Any]:
    """A request stream that has nothing (the tests hand the inbox its answers)."""
    for _ in ():
        yield


def test_a_second_join_ends_the_stream_only_once_its_moves_are_answered() -> None:
    class Request:
        def __init__(self, item: str) -> None:
            self.item, self.move = item, object()

        def WhichOneof(self, _: str) -> str:  # noqa: N802 - protobuf's name
            return self.item

    async def requests() -> AsyncIterator[Any]:
        for item in ("move", "join"):
            yield Request(item)

    async def read() -> Inbox:
        inbox = Inbox(requests(), lambda: None, lambda box, move: submitted.append(move),
                      lambda _: None)
        inbox.start()
        await asyncio.wait_for(inbox._task, 5)  # type: ignore[arg-type]
        return inbox

    submitted: list[Any] = []
    inbox = asyncio.run(read())
    assert inbox.error is not None and len(submitted) == 1
    assert inbox.failed() is None, "its move is not answered yet"
    inbox.answered(("m", ServiceError("ABORTED", "VERSION_MISMATCH", "stale", 3)), 0.0)
    assert inbox.failed() is None, "answered, but its result not taken yet"
    inbox.take()
    assert inbox.failed() is inbox.error


def test_each_store_has_a_writer_of_its_own_that_ends_when_idle(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a store sharded by game, a shard that does not answer holds up only
    its own games' moves: each store's moves go to a writer of its own. A
    writer with nothing to do ends, and the next move starts another."""
    from service import play

    monkeypatch.setattr(play, "WRITER_IDLE_SECONDS", 0.05)
    stores = [ArbiterApp(Settings(data_dir=tmp_path / name).store_env()) for name in "ab"]
    try:
        answered: list[Any] = []
        inbox = Inbox(_no_requests(), lambda: None, lambda *_: None, lambda _: None)
        inbox.answered = lambda outcome, seconds: answered.append(outcome)  # type: ignore[method-assign]
        refusal = ServiceError("ABORTED", "VERSION_MISMATCH", "stale", 3)
        for store in stores:
            play.submit(store, inbox, "c", refusal)
        writers = [play._writers[store] for store in stores]
        assert writers[0] is not writers[1] and {w.store for w in writers} == set(stores)
        deadline = time.monotonic() + 5
        while not all(w.stopped for w in writers) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert all(w.stopped for w in writers), "idle writers end"
        assert [o[0] for o in answered] == ["c", "c"]
        play.submit(stores[0], inbox, "d", refusal)
        assert play._writers[stores[0]] is not writers[0], "a new writer for the next move"
        while len(answered) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert [o[0] for o in answered] == ["c", "c", "d"]
    finally:
        for store in stores:
            store.close()
