"""Issue 20: a game's snapshot keeps no client command ids, and exactly-once
still holds for every id ever applied.

The window of a game's newest ``COMMAND_WINDOW`` ids was most of a long
game's snapshot (3.5 times the state of a 100-event game at 10,000 events).
A snapshot now keeps only where the ids are (``command_gap``: the newest
``count`` ids of the events up to its version, ``service.snapshots``); a game
loaded from one fills its window from those events before its first command
(``ArbiterApp._fill_window``), and from then on, while it stays cached, an
``Act`` reads nothing more than before. These tests restart the application
on its store (a cold load, from a sealed snapshot) between the commands and
their retries, with a window of 3 and a snapshot every 5 events.
"""

from __future__ import annotations

import contextlib
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.domain import Snapshot
from eventsourcing.persistence import IntegrityError

from aggregates.kernel import RuleError
from aggregates.kernel.record import recording as kernel_recording
from service import auditing
from service import snapshots as service_snapshots
from service.application import ArbiterApp, command_index_id, parse_game_id
from service.auth import Credentials
from service.config import Settings
from service.snapshots import SealedSnapshot
from tests.integration.test_store import postgres_env  # noqa: F401 - a fixture

pytestmark = pytest.mark.integration

WINDOW = 3
INTERVAL = 5


class Store:
    """One store and one server secret, opened as often as asked (a restart)."""

    def __init__(self, data_dir: Path, env: dict[str, str] | None = None) -> None:
        self.data_dir = data_dir
        self.env = env or Settings(data_dir=data_dir).store_env()
        self.credentials = Credentials(secrets.token_bytes(32), "")
        self.opened: list[ArbiterApp] = []

    def open(self) -> ArbiterApp:
        app = ArbiterApp(self.env, INTERVAL, credentials=self.credentials)
        self.opened.append(app)
        return app

    def close(self) -> None:
        for app in self.opened:
            app.close()


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    monkeypatch.setattr(kernel_recording, "COMMAND_WINDOW", WINDOW)
    opened = Store(tmp_path)
    yield opened
    opened.close()


def lasting(app: ArbiterApp, game_id: str) -> dict[str, Any] | None:
    """A legal move that does not end the game (tried on a copy), as JSON."""
    for action in app.game(game_id).legal_actions(0):
        trial = app.game(game_id)
        trial.act(0, action)
        if not trial.ended:
            return action.to_json()  # type: ignore[no-any-return]
    return None


def played(app: ArbiterApp, commands: int = 12) -> tuple[str, dict[str, list[int]]]:
    """An Enin game still under way after ``commands`` commands (its dice may
    leave only moves that end it: then another game) and, by command id, the
    versions of the events each of its commands caused."""
    for _ in range(20):
        game_id = str(app.create_game("enin", ["solo"]).id)
        caused: dict[str, list[int]] = {}
        for n in range(commands):
            action = lasting(app, game_id)
            if action is None:
                break
            result = app.act(game_id, 0, action, command_id=f"c{n}")
            caused[f"c{n}"] = [e.originator_version for e in result.events]
        if len(caused) == commands and lasting(app, game_id) is not None:
            return game_id, caused
    raise AssertionError("no Enin game lasted")


def snapshot_before_the_last(store: Store, game_id: str,
                             caused: dict[str, list[int]]) -> int:
    """The game's newest snapshot at the end of its command before its last
    one (taken unless there is one; any newer one deleted, as if the server
    had stopped before taking it): loaded, the game then holds its last id
    and leaves the window to the gap, whatever the dice made of the versions."""
    app = store.opened[-1]
    version = list(caused.values())[-2][-1]
    with contextlib.suppress(IntegrityError):
        app.take_snapshot(parse_game_id(game_id), version)
    with contextlib.closing(sqlite3.connect(store.data_dir / "arbiter.sqlite")) as con, con:
        con.execute("DELETE FROM stored_snapshots WHERE originator_id=? AND "
                    "originator_version>?", (game_id.replace("-", ""), version))
    return version


def stored_snapshots(app: ArbiterApp, game_id: str) -> list[Any]:
    assert app.snapshots is not None
    return [app.mapper.to_domain_event(row)
            for row in app.snapshots.recorder.select_events(parse_game_id(game_id))]


def replayed_window(app: ArbiterApp, game_id: str,
                    version: int | None = None) -> list[tuple[str, int]]:
    """The window a replay of the game's events (up to ``version``) makes."""
    game: Any = None
    events: Any = app.events.get(parse_game_id(game_id), lte=version)
    for ev in events:
        game = ev.mutate(game)
    return list(game.command_ids.items())


def test_snapshots_keep_no_command_id_only_where_they_are(store: Store) -> None:
    app = store.open()
    game_id, _ = played(app)
    snapshots = stored_snapshots(app, game_id)
    assert snapshots and all(isinstance(s, SealedSnapshot) for s in snapshots)
    for snapshot in snapshots:
        version = snapshot.originator_version
        assert snapshot.state["command_ids"] == {}, version
        past: Any = app.repository.get(parse_game_id(game_id), version=version)
        assert past.command_gap == [version, len(replayed_window(app, game_id, version))]
        assert app.snapshot_seal is not None and app.snapshot_seal.problem(snapshot) is None


def test_a_release_before_this_one_does_not_trust_a_snapshot_without_the_ids(
    store: Store, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """It would take the empty ``command_ids`` for the whole window and apply
    a retried command again: its seal check (the message it seals, ``SEAL_V1``)
    fails instead, and it loads the game from its events."""
    app = store.open()
    game_id, _ = played(app)
    monkeypatch.setattr(service_snapshots, "SEAL_V2", service_snapshots.SEAL_V1)
    for snapshot in stored_snapshots(app, game_id):
        assert app.snapshot_seal is not None
        assert "seal does not match" in str(app.snapshot_seal.problem(snapshot))


def test_a_retry_after_a_restart_gets_its_original_result(store: Store) -> None:
    """Exactly-once for every id: one pushed out of the window long ago (the
    store's index), ones in the loaded snapshot's gap (filled from the events),
    and ones applied after the snapshot (in the loaded game), each retried on
    a game just loaded cold from its snapshot."""
    game_id, caused = played(store.open())
    version = store.opened[-1].game(game_id).version
    snapshot = snapshot_before_the_last(store, game_id, caused)
    last = list(caused)[-1]
    for command_id, versions in caused.items():
        app = store.open()
        loaded = app.game(game_id)
        assert loaded.command_gap == [snapshot, WINDOW], "loaded from that snapshot"
        assert list(loaded.command_ids) == [f"0:{last}"]
        again = app.act(game_id, 0, {"name": "no-such-move"}, command_id=command_id)
        assert again.replayed, command_id
        assert [e.originator_version for e in again.events] == versions, command_id
        assert app.game(game_id).version == version, "the retry recorded nothing"
        assert app.game(game_id).command_gap is None, "the window is filled now"
    # An id never applied is no retry: the command is decided (and refused here).
    app = store.open()
    with pytest.raises(RuleError):
        app.act(game_id, 0, {"name": "no-such-move"}, command_id="never-sent")


def test_a_command_after_a_restart_indexes_the_ids_it_pushes_out(store: Store) -> None:
    """The window's oldest id, known only from the events after a cold load,
    is indexed by the command that pushes it out, as on a cached game."""
    game_id, caused = played(store.open())
    snapshot_before_the_last(store, game_id, caused)
    oldest = replayed_window(store.opened[-1], game_id)[0][0]
    gid = parse_game_id(game_id)
    assert not list(store.opened[-1].events.get(command_index_id(gid, oldest)))
    app = store.open()
    game = app.game(game_id)
    assert game.command_gap is not None
    action = lasting(app, game_id)
    assert action is not None
    app.act(game_id, 0, action, command_id="new")
    assert list(app.events.get(command_index_id(gid, oldest))), "indexed as it left"
    assert list(app.game(game_id).command_ids.items()) == replayed_window(app, game_id)
    again = store.open().act(game_id, 0, {"name": "no-such-move"},
                             command_id=oldest.split(":", 1)[1])
    assert again.replayed
    assert [e.originator_version for e in again.events] == caused[oldest.split(":", 1)[1]]


def test_a_snapshot_sealed_with_its_command_ids_still_loads(
    store: Store, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Snapshots sealed before this change hold the window itself: trusted,
    loaded with a whole window (no gap), retries answered, audit clean."""
    with monkeypatch.context() as before:
        before.setattr(service_snapshots, "window_left_to_events",
                       lambda state, version: dict(state))
        game_id, caused = played(store.open())
    app = store.open()
    snapshots = stored_snapshots(app, game_id)
    assert snapshots and all("command_gap" not in s.state for s in snapshots)
    assert any(s.state["command_ids"] for s in snapshots)
    assert app.snapshot_seal is not None
    assert all(app.snapshot_seal.problem(s) is None for s in snapshots), "still trusted"
    loaded = app.game(game_id)
    assert loaded.command_gap is None
    assert list(loaded.command_ids.items()) == replayed_window(app, game_id)
    for command_id, versions in caused.items():
        again = app.act(game_id, 0, {"name": "no-such-move"}, command_id=command_id)
        assert again.replayed and [e.originator_version for e in again.events] == versions
    stored = auditing.Audits(app).audit(game_id)
    assert stored.report.ok and not stored.bad_snapshots, stored.report.problems


def test_the_audit_compares_a_gap_with_the_window_its_events_make(store: Store) -> None:
    """A snapshot's gap, and a served game still holding one, agree with the
    events (filled from them, as the server fills them); a gap that counts
    wrong, even sealed with the secret, is a snapshot differing from its events."""
    game_id, caused = played(store.open())
    snapshot_before_the_last(store, game_id, caused)
    app = store.open()
    assert app.game(game_id).command_gap is not None, "served with its gap"
    stored = auditing.Audits(app).audit(game_id)
    assert stored.report.ok and not stored.bad_snapshots, stored.report.problems

    snapshot = stored_snapshots(app, game_id)[-1]
    version, count = snapshot.state["command_gap"]
    assert count == WINDOW
    state = {**snapshot.state, "command_gap": [version, count - 1]}
    seal = app.snapshot_seal
    assert seal is not None
    forged = SealedSnapshot(
        originator_id=snapshot.originator_id, originator_version=version,
        timestamp=Snapshot.create_timestamp(), topic=snapshot.topic, state=state,
        seal=seal._mac(snapshot.originator_id, version, snapshot.topic, state))
    with contextlib.closing(sqlite3.connect(store.data_dir / "arbiter.sqlite")) as con, con:
        con.execute("DELETE FROM stored_snapshots WHERE originator_id=? AND "
                    "originator_version=?", (game_id.replace("-", ""), version))
    assert app.snapshots is not None
    app.snapshots.put([forged])
    stored = auditing.Audits(store.open()).audit(game_id)
    assert version in stored.bad_snapshots, stored.report.problems


def check_retries_after_a_restart(store: Store) -> None:
    """Every id retried on a game loaded cold from a snapshot at its newest
    version (the whole window in the gap, filled from the store's events read
    newest first), then a new command applied once and answered once."""
    game_id, caused = played(store.open())
    app = store.opened[-1]
    version = app.game(game_id).version
    with contextlib.suppress(IntegrityError):
        app.take_snapshot(parse_game_id(game_id), version)
    app = store.open()
    assert app.game(game_id).command_gap == [version, WINDOW]
    for command_id, versions in caused.items():
        again = app.act(game_id, 0, {"name": "no-such-move"}, command_id=command_id)
        assert again.replayed and [e.originator_version for e in again.events] == versions
    action = lasting(app, game_id)
    assert action is not None
    first = app.act(game_id, 0, action, command_id="new")
    assert not first.replayed and first.events
    again = store.open().act(game_id, 0, {"name": "no-such-move"}, command_id="new")
    assert again.replayed and again.events == first.events
    assert store.opened[-1].game(game_id).version == first.version


def test_retries_after_a_restart_on_sqlite(store: Store) -> None:
    check_retries_after_a_restart(store)


@pytest.mark.postgres
def test_retries_after_a_restart_on_postgres(
    tmp_path: Path, postgres_env: dict[str, str], monkeypatch: pytest.MonkeyPatch,  # noqa: F811
) -> None:
    monkeypatch.setattr(kernel_recording, "COMMAND_WINDOW", WINDOW)
    store = Store(tmp_path, postgres_env)
    try:
        check_retries_after_a_restart(store)
    finally:
        store.close()
