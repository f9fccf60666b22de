"""The application's commands and queries, in-process (no server, no Redis):
one write path for commands and contributions, one reading per game, version
and audience shared by every caller of that audience, and an Act reply that
carries the state only when asked (an older client, never asking, still gets it)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from arbiter.v1 import game_pb2
from arbiter.wire import json_to_command

from aggregates.kernel.record.entropy import ENTROPY_EVENT
from service.application import ArbiterApp
from service.envelope import SPECTATOR, Reader
from service.feeds import FeedHub
from service.servicer import GameServicer
from tests.spies import calls_to
from tests.unit.test_application_hardening import FakeContext


@pytest.fixture
def app(tmp_path: Path) -> ArbiterApp:
    return ArbiterApp({
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(tmp_path / "reads.sqlite"),
        "CREATE_TABLE": "y",
        "AGGREGATE_CACHE_MAXSIZE": "100",  # as the server runs: readings of the cached game
    })


def first_move(app: ArbiterApp, game_id: str) -> dict[str, Any]:
    return app.legal_actions(game_id, 0).actions[0].command


def test_a_reading_is_made_once_per_version_and_audience(app: ArbiterApp) -> None:
    game_id = str(app.create_game("enin", ["solo"]).id)
    made = app.reads.made
    spectators = [app.seat_state(game_id, SPECTATOR) for _ in range(100)]
    assert all(s is spectators[0] for s in spectators) and app.reads.made == made + 1
    seat = app.seat_state(game_id, Reader(0))
    assert seat is not spectators[0] and app.reads.made == made + 2
    app.act(game_id, 0, first_move(app, game_id))
    after = app.seat_state(game_id, SPECTATOR)
    assert after.version > spectators[0].version
    assert app.seat_state(game_id, SPECTATOR) is after


def test_a_contribution_takes_the_one_write_path_and_is_recorded_once(
    app: ArbiterApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = str(app.create_game("enin", ["solo"]).id)
    saves = calls_to(monkeypatch, app.group_commit, "save")
    first = app.contribute(game_id, 0, "ab" * 16)
    again = app.contribute(game_id, 0, "ab" * 16)  # a retried request
    assert first.recorded and not again.recorded
    assert len(saves) == 1 and again.version == first.version
    assert [type(e).__name__ for e in first.events] == [ENTROPY_EVENT]


def act(servicer: GameServicer, app: ArbiterApp, game_id: str, token: str,
        **fields: Any) -> game_pb2.ActResponse:
    command = json_to_command("enin", first_move(app, game_id))
    request = game_pb2.ActRequest(game_id=game_id, seat=0, command=command, **fields)
    return servicer.Act(request, FakeContext(token))


def test_an_act_reply_carries_the_state_unless_the_caller_declines_it(app: ArbiterApp) -> None:
    servicer = GameServicer(app, FeedHub("redis://127.0.0.1:1/0"))
    game = app.create_game("enin", ["solo"])
    game_id, token = str(game.id), app.credentials.seat_token(game.id, 0)
    older = act(servicer, app, game_id, token)  # no with_state: as every older client
    assert older.HasField("state") and older.state.version == older.version
    without = act(servicer, app, game_id, token, with_state=False)
    assert not without.HasField("state") and without.version == older.version + len(
        without.events) and without.events
    asked = act(servicer, app, game_id, token, with_state=True, command_id="once")
    assert asked.state.version == asked.version
    again = act(servicer, app, game_id, token, command_id="once")  # a retry: its first result
    assert again.replayed and again.version == asked.version == again.state.version
    read = servicer.GetState(game_pb2.GetStateRequest(game_id=game_id, seat=0),
                             FakeContext(token))
    assert read == asked.state  # the reading the reply carried, shared


def test_an_act_resolves_its_caller_once(app: ArbiterApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 34 item 6: the caller of a seat's write is resolved once, from
    one read of the game's access record, before the rules see the command."""
    servicer = GameServicer(app, FeedHub("redis://127.0.0.1:1/0"))
    game = app.create_game("enin", ["solo"])
    token = app.credentials.seat_token(game.id, 0)
    reads = calls_to(monkeypatch, app, "access")
    identified = calls_to(monkeypatch, app.credentials, "identify")
    act(servicer, app, str(game.id), token)
    assert len(reads) == 1 and len(identified) == 1


def test_a_reading_that_must_not_wait_is_refused_while_the_writer_holds_the_game(
    app: ArbiterApp,
) -> None:
    """A ``Play`` round reads its turns on the event loop: ``turns_at_cached``
    never waits for the game's lock (its writer's save) nor reads the store;
    it answers None and the round asks ``turns_at`` from a thread."""
    game = app.create_game("enin", ["solo"])
    game_id, version = str(game.id), app.game(str(game.id)).version
    ready = app.turns_at_cached(game.id, [0], version)
    assert ready is not None and ready == app.turns_at(game_id, [0], version)
    held = threading.Event()
    release = threading.Event()

    def writer() -> None:
        with app._lock(game.id):
            held.set()
            release.wait(5)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert held.wait(5)
        assert app.turns_at_cached(game.id, [0], version) is None
    finally:
        release.set()
        thread.join(5)
    assert app.turns_at_cached(game.id, [0], version + 5) is None  # behind: the store's
