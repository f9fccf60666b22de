"""The Act hot path (issue 13): one read of the game, no copy of it, and still
nothing half-applied or half-refused is ever served.

``ArbiterApp.act`` decides a command on the cached game itself, under the
game's lock, instead of on a deep copy. These tests pin what the copy used to
guarantee: a command refused after it triggered events, or a save the store
refuses, leaves the served state exactly as it was; a reader never sees a
command half-applied; and the access record is read once, outside the
aggregate cache. No timings are asserted here (``make bench`` measures).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import PersistenceError

from aggregates.enin import Enin
from aggregates.kernel import Reason, RuleError
from service import auditing
from service.application import TRANSIENT_STATE, ArbiterApp, command_index_id, parse_game_id
from service.auth import GameAccess
from service.config import Settings
from service.errors import ServiceError
from tests.spies import calls_to

pytestmark = pytest.mark.integration


def state_of(app: ArbiterApp, game_id: str) -> str:
    """The served game's whole state (what ``GetState`` renders from), canonical."""
    game: Any = app.game(game_id)
    kept = {k: v for k, v in vars(game).items()
            if k not in {*TRANSIENT_STATE, "_pending_events"}}
    return json.dumps(json.loads(app.mapper.transcoder.encode(kept)), sort_keys=True)


def play(app: ArbiterApp, game_id: str, moves: int) -> None:
    for n in range(moves):
        game = app.game(game_id)
        action = game.legal_actions(0)[0]
        app.act(game_id, 0, action.to_json(), command_id=f"move-{game.version}-{n}")


def new_game(app: ArbiterApp, moves: int = 1) -> str:
    game_id = str(app.create_game("enin", ["solo"]).id)
    play(app, game_id, moves)
    return game_id


def test_a_command_refused_after_its_events_leaves_the_served_state_unchanged(
    app: ArbiterApp, monkeypatch: pytest.MonkeyPatch,
) -> None:
    game_id = new_game(app)
    before, version = state_of(app, game_id), app.game(game_id).version
    triggered: list[int] = []
    decide = Enin._carry_out

    def refuse_after_events(self: Enin, decision: Any, command: Any) -> None:
        decide(self, decision, command)
        triggered.append(len(self.pending_events))
        raise RuleError(Reason.ILLEGAL_MOVE, "refused after it changed the game")

    monkeypatch.setattr(Enin, "_carry_out", refuse_after_events)
    action = app.game(game_id).legal_actions(0)[0]
    with pytest.raises(RuleError):
        app.act(game_id, 0, action.to_json(), command_id="refused")
    assert triggered and triggered[0] >= 1, "the refused command had triggered events"
    assert app.game(game_id).version == version
    assert state_of(app, game_id) == before
    assert app.game(game_id).command_version(0, "refused") is None

    monkeypatch.setattr(Enin, "_carry_out", decide)
    reply = app.act(game_id, 0, action.to_json(), command_id="accepted")
    assert reply.events[0].originator_version == version + 1, "nothing was recorded before"
    report = auditing.Audits(app).audit(game_id).report
    assert report.replay_ok and report.chain_ok, report.problems


def test_a_save_the_store_refuses_leaves_the_served_state_unchanged(
    app: ArbiterApp, monkeypatch: pytest.MonkeyPatch,
) -> None:
    game_id = new_game(app)
    before, version = state_of(app, game_id), app.game(game_id).version
    action = app.game(game_id).legal_actions(0)[0]

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise PersistenceError("disk full")

    monkeypatch.setattr(app.events, "put", refuse)
    with pytest.raises(ServiceError) as refused:
        app.act(game_id, 0, action.to_json(), command_id="lost")
    assert refused.value.reason == "STORE_UNAVAILABLE"
    monkeypatch.undo()
    assert app.game(game_id).version == version
    assert state_of(app, game_id) == before
    app.act(game_id, 0, action.to_json(), command_id="lost")  # the retry is recorded
    assert app.game(game_id).version > version


def test_a_reader_never_sees_a_command_half_applied(
    app: ArbiterApp, monkeypatch: pytest.MonkeyPatch,
) -> None:
    game_id = new_game(app)
    version = app.game(game_id).version
    halfway, resume = threading.Event(), threading.Event()
    decide = Enin._carry_out

    def pause_halfway(self: Enin, decision: Any, command: Any) -> None:
        decide(self, decision, command)
        halfway.set()  # events applied to the cached game, not yet saved
        assert resume.wait(30)

    monkeypatch.setattr(Enin, "_carry_out", pause_halfway)
    action = app.game(game_id).legal_actions(0)[0]
    written: list[int] = []
    writer = threading.Thread(target=lambda: written.append(
        app.act(game_id, 0, action.to_json()).game.version))
    writer.start()
    assert halfway.wait(30)
    seen: list[int] = []
    reader = threading.Thread(target=lambda: seen.append(app.game(game_id).version))
    reader.start()
    # The game's lock is held by the writer: every reader of the cached game
    # (a copy, a borrow, a catch-up) waits for it, so none can see this state.
    lock = app._lock(parse_game_id(game_id))
    assert not lock.acquire(blocking=False)
    assert not seen
    resume.set()
    writer.join(30)
    reader.join(30)
    assert written and written[0] > version
    assert seen == written, "the reader saw the command whole, never part of it"


def test_one_read_of_the_game_per_act(app: ArbiterApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cached game's command is decided on the cached object, with no read
    (the store's optimistic concurrency vouches for it at the save); a game
    not cached is read once."""
    game_id = new_game(app)
    reads = calls_to(monkeypatch, app.repository, "get")
    action = app.game(game_id).legal_actions(0)[0]
    reads.clear()
    app.act(game_id, 0, action.to_json(), command_id="counted")
    assert reads == []
    action = app.game(game_id).legal_actions(0)[0]
    app.repository.forget(parse_game_id(game_id))
    reads.clear()
    app.act(game_id, 0, action.to_json(), command_id="counted again")
    assert len(reads) == 1


def test_the_access_record_is_read_once_and_kept_out_of_the_game_cache(app: ArbiterApp) -> None:
    game_id = app.create_game("enin", ["solo"]).id
    first = app.access(game_id)
    assert isinstance(first, GameAccess) and app.access(game_id) is first
    cache = app.repository.cache
    assert cache is not None
    with pytest.raises(KeyError):
        cache.get(GameAccess.create_id(game_id))
    assert app.access(parse_game_id("00000000-0000-4000-8000-000000000000")) is None


def test_a_snapshot_is_taken_after_the_reply_and_sealed(tmp_path: Path) -> None:
    """The Act that reaches the snapshot interval is answered while its
    snapshot is still being taken (here: held up); the snapshot then stored is
    sealed, trusted on load, and agrees with the events (the audit). Without
    ``defer_snapshots`` (in-process callers) it is taken before the reply."""
    app = ArbiterApp(Settings(data_dir=tmp_path).store_env(), snapshot_interval=5)
    taking, release = threading.Event(), threading.Event()
    take = app._take_snapshot_now

    def held_up(game_id: Any, version: int) -> None:
        taking.set()
        assert release.wait(30)
        take(game_id, version)

    app.snapshotter._take = held_up
    try:
        game_id = app.create_game("enin", ["solo"]).id
        while (game := app.game(str(game_id))).version < 5:
            action = game.legal_actions(0)[0].to_json()
            app.act(str(game_id), 0, action, defer_snapshots=True)  # as the servicer does
        assert taking.wait(30), "a snapshot was asked for"
        replied = app.game(str(game_id)).version  # the Act returned: the snapshot waits
        assert app.snapshots is not None and app.snapshot_seal is not None
        assert not list(app.snapshots.get(game_id)), "not taken inside the request"
        release.set()
        app.snapshotter.close()
        taken = list(app.snapshots.get(game_id))
        assert taken and all(app.snapshot_seal.problem(s) is None for s in taken)
        assert max(s.originator_version for s in taken) <= replied
        report = auditing.Audits(app).audit(str(game_id)).report
        assert report.replay_ok and report.chain_ok, report.problems
    finally:
        release.set()
        app.close()


class _Positions:
    """The relay's position store, recording what it is asked to save."""

    def __init__(self) -> None:
        self.saved: list[int] = []

    def acquire(self) -> bool:
        return True

    def release(self) -> None:
        pass

    def load(self) -> int:
        return self.saved[-1] if self.saved else 0

    def save(self, position: int) -> None:
        self.saved.append(position)

    def peek(self) -> int:
        return self.load()


class _Publisher:
    def __init__(self, published: list[bytes]) -> None:
        self.published = published

    def publish(self, messages: list[tuple[bytes, bytes]]) -> None:
        self.published.extend(channel for channel, _ in messages)


def test_the_relay_records_its_position_once_per_interval_never_ahead(
    app: ArbiterApp, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not a write per batch: the position is recorded at most every
    ``POSITION_SECONDS`` (here: never, until forced), and only ever one
    already published, so a restarted relay may repeat events, never skip one."""
    from service import relay as relay_module

    new_game(app, moves=3)
    monkeypatch.setattr(relay_module, "BATCH", 2)
    monkeypatch.setattr(relay_module, "POSITION_SECONDS", 3600.0)
    positions = _Positions()
    relay = relay_module.FeedRelay(app, "redis://127.0.0.1:1/0", positions)
    published: list[bytes] = []
    relay.publisher = _Publisher(published)  # type: ignore[assignment]
    assert relay._lead()
    batches = 0
    while relay.publish_pending():
        batches += 1
    assert batches > 2 and published
    assert positions.saved == [], "no write per batch"
    relay._record_position(force=True)
    newest = app.recorder.max_notification_id()
    assert positions.saved == [relay.position] and relay.position == newest
    relay._record_position(force=True)
    assert positions.saved == [newest], "nothing new, nothing written"


def test_a_retry_is_answered_once_even_after_its_id_left_the_window(
    app: ArbiterApp, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Exactly-once past the game's window: the id is found in the store's
    command index, and the retry gets the original result, recording nothing."""
    from aggregates.kernel.record import recording as kernel_recording

    monkeypatch.setattr(kernel_recording, "COMMAND_WINDOW", 3)
    game_id = str(app.create_game("enin", ["solo"]).id)
    first: dict[str, tuple[int, list[int]]] = {}
    for n in range(8):
        game = app.game(game_id)
        if game.ended:
            break
        result = app.act(game_id, 0, game.legal_actions(0)[0].to_json(), command_id=f"c{n}")
        first[f"c{n}"] = (result.game.version, [e.originator_version for e in result.events])
        if n == 2:  # the window just filled: nothing has left it, nothing indexed
            assert not list(app.events.get(command_index_id(parse_game_id(game_id), "0:c0")))
    game = app.game(game_id)
    assert len(first) > 4 and game.command_window_full() and len(game.command_ids) == 3
    indexed = [list(app.events.get(command_index_id(parse_game_id(game_id), f"0:c{n}")))
               for n in range(len(first))]
    assert [bool(i) for i in indexed] == [True] * (len(first) - 3) + [False] * 3, (
        "each id that left the window was indexed by the command that pushed it out")
    assert game.command_version(0, "c0") is None, "c0 has left the game's window"
    version = game.version
    again = app.act(game_id, 0, {"name": "no-such-move"}, command_id="c0")
    assert again.replayed and [e.originator_version for e in again.events] == first["c0"][1]
    assert app.game(game_id).version == version, "the retry recorded nothing"
    # Another seat's id, or an id never used, is not taken for it.
    assert app._command_version(app.game(game_id), 1, "c0") is None
    assert app._command_version(app.game(game_id), 0, "never-sent") is None
    # The index's records are no games.
    with pytest.raises(ServiceError) as not_a_game:
        app.game(str(command_index_id(parse_game_id(game_id), "0:c0")))
    assert not_a_game.value.reason == "UNKNOWN_GAME"


def test_an_in_process_act_takes_its_snapshot_before_it_returns(tmp_path: Path) -> None:
    app = ArbiterApp(Settings(data_dir=tmp_path).store_env(), snapshot_interval=5)
    try:
        game_id = app.create_game("enin", ["solo"]).id
        while app.game(str(game_id)).version < 5:
            play(app, str(game_id), 1)
        assert app.snapshots is not None
        assert list(app.snapshots.get(game_id)), "taken inside the save"
    finally:
        app.close()


def test_a_snapshot_is_of_the_game_at_its_moves_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A move whose events reach a multiple of the interval, there or inside
    the move, is snapshotted at the move's end, from the writer's cached game
    (the store is not read to rebuild the game at the multiple), and the
    snapshots are sealed, trusted and agree with the events."""
    from service.application import Move

    app = ArbiterApp(Settings(data_dir=tmp_path).store_env(), snapshot_interval=3)
    rebuilt = calls_to(monkeypatch, app, "take_snapshot")
    try:
        game_id = str(app.create_game("ethnos", ["a", "b", "c"]).id)
        ends = [app.game(game_id).version]  # the creation's save is one too
        for n in range(40):
            game = app.game(game_id)
            seat = game.waiting_on()[0]
            command = game.legal_actions(seat)[0].to_json()
            answer = app.act_moves([Move(game_id, seat, command, command_id=f"m{n}")])[0]
            assert not isinstance(answer, Exception), answer
            ends.append(answer.version)
        app.snapshotter.close()
        assert app.snapshots is not None and app.snapshot_seal is not None
        taken = sorted(s.originator_version for s in app.snapshots.get(parse_game_id(game_id)))
        assert taken and set(taken) <= set(ends), (taken, ends)
        assert any(v % 3 for v in taken[1:]), "some move passed a multiple inside it"
        # (the creation's, saved before the game is first read into the cache, is rebuilt)
        assert [v for _, v in rebuilt if v > ends[0]] == [], "taken from the cached game"
        assert all(app.snapshot_seal.problem(s) is None
                   for s in app.snapshots.get(parse_game_id(game_id)))
        report = auditing.Audits(app).audit(game_id).report
        assert report.replay_ok and report.chain_ok, report.problems
    finally:
        app.close()
