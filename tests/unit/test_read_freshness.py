"""A read of a cached game skips the store's catch-up query only within the
freshness bound (``ArbiterApp.read_freshness``): it still sees every write of
its own process at once, every write of another process on the store once the
bound has passed, and a game the cache dropped is read from the store again.
A write asks the store nothing first: it is decided on the cached game, and
the store's optimistic concurrency refuses its save when another process
wrote meanwhile; it is then decided again on the newest game, as is a
refusal (or a command that records nothing) decided on a game perhaps
behind. And a spectator's ``GetState`` identifies its caller once."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from arbiter.v1 import game_pb2
from arbiter.wire import json_to_command

from service.application import ArbiterApp
from service.auth import Credentials
from service.envelope import SPECTATOR
from service.feeds import FeedHub
from service.servicer import GameServicer
from tests.unit.test_application_hardening import FakeContext

SECRET = b"read-freshness-test-secret-0123456789"


def make_app(path: Path, freshness_ms: str) -> ArbiterApp:
    """One server process's application on the store at ``path``."""
    return ArbiterApp({
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(path),
        "CREATE_TABLE": "y",
        "AGGREGATE_CACHE_MAXSIZE": "100",
        "AGGREGATE_CACHE_FASTFORWARD": "y",
        "ARBITER_READ_FRESHNESS_MS": freshness_ms,
    }, credentials=Credentials(SECRET, ""))


def two_processes(tmp_path: Path) -> tuple[ArbiterApp, ArbiterApp, str]:
    """Two processes' applications on one store, and a game the first one
    has cached (its reads caught up now, with a bound that outlasts the test)."""
    store = tmp_path / "shared.sqlite"
    one, other = make_app(store, "60000"), make_app(store, "60000")
    game_id = str(one.create_game("enin", ["solo"]).id)
    one.seat_state(game_id, SPECTATOR)
    return one, other, game_id


def first_move(app: ArbiterApp, game_id: str) -> dict[str, Any]:
    return app.legal_actions(game_id, 0).actions[0].command


def count_queries(app: ArbiterApp, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The catch-up queries the repository makes from now on."""
    seen: list[Any] = []
    store = app.repository.event_store
    original = store.get

    def counting(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("originator_id", args[0] if args else None))
        return original(*args, **kwargs)

    monkeypatch.setattr(store, "get", counting)
    return seen


def test_reads_within_the_bound_ask_the_store_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path / "one.sqlite", "60000")
    game_id = str(app.create_game("enin", ["solo"]).id)
    app.seat_state(game_id, SPECTATOR)  # caught up once
    queries = count_queries(app, monkeypatch)
    for _ in range(50):
        app.seat_state(game_id, SPECTATOR)
        app.facts(game_id)
    assert queries == []


def test_with_no_bound_every_read_asks_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path / "one.sqlite", "0")
    game_id = str(app.create_game("enin", ["solo"]).id)
    app.seat_state(game_id, SPECTATOR)
    queries = count_queries(app, monkeypatch)
    for _ in range(5):
        app.seat_state(game_id, SPECTATOR)
    assert len(queries) == 5


def test_a_write_of_this_process_is_read_at_once_within_the_bound(tmp_path: Path) -> None:
    app = make_app(tmp_path / "one.sqlite", "60000")
    game_id = str(app.create_game("enin", ["solo"]).id)
    before = app.seat_state(game_id, SPECTATOR)
    written = app.act(game_id, 0, first_move(app, game_id))
    after = app.seat_state(game_id, SPECTATOR)
    assert after.version == written.version > before.version
    assert app.facts(game_id).version == written.version


def test_another_process_write_is_read_once_the_bound_has_passed(tmp_path: Path) -> None:
    store = tmp_path / "shared.sqlite"
    reader, writer = make_app(store, "50"), make_app(store, "50")
    game_id = str(reader.create_game("enin", ["solo"]).id)
    reader.seat_state(game_id, SPECTATOR)  # the reader's cache caught up now
    written = writer.act(game_id, 0, first_move(writer, game_id))
    time.sleep(0.06)
    assert reader.seat_state(game_id, SPECTATOR).version == written.version


def test_with_no_bound_another_process_write_is_read_at_once(tmp_path: Path) -> None:
    store = tmp_path / "shared.sqlite"
    reader, writer = make_app(store, "0"), make_app(store, "0")
    game_id = str(reader.create_game("enin", ["solo"]).id)
    reader.seat_state(game_id, SPECTATOR)
    written = writer.act(game_id, 0, first_move(writer, game_id))
    assert reader.seat_state(game_id, SPECTATOR).version == written.version


def test_a_game_the_cache_dropped_is_read_from_the_store_within_the_bound(
    tmp_path: Path,
) -> None:
    store = tmp_path / "shared.sqlite"
    reader, writer = make_app(store, "60000"), make_app(store, "60000")
    game = reader.create_game("enin", ["solo"])
    game_id = str(game.id)
    reader.seat_state(game_id, SPECTATOR)
    written = writer.act(game_id, 0, first_move(writer, game_id))
    reader.repository.forget(game.id)  # as a refused command or an untrusted snapshot does
    assert reader.seat_state(game_id, SPECTATOR).version == written.version


def test_a_write_catches_up_with_another_process_whatever_the_bound(tmp_path: Path) -> None:
    one, other, game_id = two_processes(tmp_path)
    theirs = other.act(game_id, 0, first_move(other, game_id))
    ours = one.act(game_id, 0, first_move(other, game_id))
    # Decided on the other process's move: the stale cached game's save was
    # refused by the store (or its refusal decided again), never recorded.
    assert ours.recorded and ours.version > theirs.version
    assert [e.originator_version for e in ours.events] == list(
        range(theirs.version + 1, ours.version + 1))
    assert one.seat_state(game_id, SPECTATOR).version == ours.version
    assert other.game(game_id).version == ours.version


def test_a_write_to_a_game_only_this_process_writes_asks_the_store_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path / "one.sqlite", "0")
    game_id = str(app.create_game("enin", ["solo"]).id)
    app.act(game_id, 0, first_move(app, game_id), command_id="first")
    move = first_move(app, game_id)
    queries = count_queries(app, monkeypatch)
    written = app.act(game_id, 0, move, command_id="second")
    assert queries == [] and written.recorded


def test_a_refusal_by_a_game_behind_is_decided_again_on_the_newest(tmp_path: Path) -> None:
    """The expected version another process's move reached is refused as
    ``VERSION_MISMATCH`` by a cached game behind it; the store's newest accepts it."""
    one, other, game_id = two_processes(tmp_path)
    theirs = other.act(game_id, 0, first_move(other, game_id))
    ours = one.act(game_id, 0, first_move(other, game_id), expected_version=theirs.version)
    assert ours.recorded and ours.events[0].originator_version == theirs.version + 1


def test_a_retry_of_another_process_command_is_answered_at_the_newest_version(
    tmp_path: Path,
) -> None:
    one, other, game_id = two_processes(tmp_path)
    move = first_move(other, game_id)
    theirs = other.act(game_id, 0, move, command_id="sent-twice")
    again = one.act(game_id, 0, move, command_id="sent-twice")
    assert again.replayed
    assert again.version == theirs.version
    assert [e.originator_version for e in again.events] == [
        e.originator_version for e in theirs.events]


def test_a_spectators_get_state_identifies_its_caller_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path / "one.sqlite", "60000")
    servicer = GameServicer(app, FeedHub("redis://127.0.0.1:1/0"))
    game = app.create_game("ethnos", ["a", "b", "c"])
    token = app.credentials.spectator_token(game.id)
    calls: list[str] = []
    original = app.credentials.identify
    monkeypatch.setattr(app.credentials, "identify",
                        lambda *args: (calls.append("identify"), original(*args))[1])
    state = servicer.GetState(game_pb2.GetStateRequest(game_id=str(game.id)),
                              FakeContext(token))
    assert calls == ["identify"]
    assert state.version == game.version and state.seed == ""  # read as a spectator


def test_an_act_identifies_its_caller_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat's ``Act`` with no seat named: the token is hashed and looked up once,
    for the seat it names and for the check that it may act for it."""
    app = make_app(tmp_path / "one.sqlite", "60000")
    servicer = GameServicer(app, FeedHub("redis://127.0.0.1:1/0"))
    game = app.create_game("enin", ["solo"])
    token = app.credentials.seat_token(game.id, 0)
    calls: list[str] = []
    original = app.credentials.identify
    monkeypatch.setattr(app.credentials, "identify",
                        lambda *args: (calls.append("identify"), original(*args))[1])
    command = json_to_command("enin", first_move(app, str(game.id)))
    reply = servicer.Act(game_pb2.ActRequest(game_id=str(game.id), command=command),
                         FakeContext(token))
    assert calls == ["identify"]
    assert reply.version > game.version


def test_the_store_checks_kept_stay_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from service import application

    monkeypatch.setattr(application, "CHECKS_KEPT", 3)
    app = make_app(tmp_path / "one.sqlite", "60000")
    games = [str(app.create_game("enin", ["solo"]).id) for _ in range(8)]
    for game_id in games:
        app.seat_state(game_id, SPECTATOR)
        assert len(app._checked) <= 3
    assert app.seat_state(games[-1], SPECTATOR).game_id == games[-1]


def test_a_catch_up_that_failed_half_way_is_not_read_as_fresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A catch-up applies another process's events one at a time: one that
    fails part of the way through a command leaves the cached game in the
    middle of it. The read that failed must not leave its game's earlier
    catch-up standing for the next read to trust: that read sees the whole
    command (it asks the store), never a half-applied one."""
    here = make_app(tmp_path / "shared.sqlite", "60000")
    there = make_app(tmp_path / "shared.sqlite", "60000")
    game_id = str(here.create_game("ettin", ["a", "b"]).id)
    here.seat_state(game_id, SPECTATOR)  # caught up: fresh for a minute
    seat = there.game(game_id).waiting_on()[0]
    moved = there.act(game_id, seat, there.legal_actions(game_id, seat).actions[0].command)
    assert len(moved.events) >= 2, "a command of several events"
    store = here.repository.event_store
    original = store.get

    def failing_after_one(*args: Any, **kwargs: Any) -> Any:
        events = iter(original(*args, **kwargs))
        yield next(events)
        raise RuntimeError("the store's read broke off")

    monkeypatch.setattr(store, "get", failing_after_one)
    with pytest.raises(RuntimeError):
        here.game(game_id, borrow=True)  # a read of another kind (a write's) catches up
    monkeypatch.setattr(store, "get", original)
    read = here.seat_state(game_id, SPECTATOR)
    assert read.version == moved.version, "a read saw half of another process's command"
