"""Issue 8, item 11: a snapshot is verified before it is trusted, and ``Audit``
compares the state the server serves with the state the events make.

Before: editing a seat's Glory in ``stored_snapshots`` changed what
``GetState`` served (now and at a past version). Now every snapshot is sealed
under a key derived from the server secret and tied to the stored event's
digest at its version (``service.snapshots``); one that fails is ignored with
a warning and the game rebuilt from its events. Against real server processes
on a real SQLite file, edited directly:

- a snapshot edited while the server is down: ``GetState`` serves the true
  state, ``Audit`` names the damaged snapshot, the log says it was ignored;
- the same edit under a running server: a time-travel ``GetState`` (which
  never comes from the cache) serves the true past;
- a snapshot forged *with* the server secret (as someone holding it, or a
  bug, could seal one): it is trusted at first, but ``Audit`` reports the
  served state differing from the events, at its version, and the server
  stops trusting that snapshot.
"""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from arbiter.v1 import game_pb2

from service import auditing
from service.application import ArbiterApp
from service.auth import Credentials
from service.config import Settings
from service.snapshots import SealedSnapshot
from tests.integration.conftest import ServerProcess
from tests.integration.test_replay import finish
from tests.integration.test_store import play_long

pytestmark = pytest.mark.integration

INTERVAL = 100  # the server's snapshot interval: the game's one snapshot, at the
#: end of the move that reached version 100 (``service.application.snapshots_due``)
PAST = 120  # a past version read from that snapshot plus the events after it


def sqlite_file(server: ServerProcess) -> Path:
    return server.data_dir / "arbiter.sqlite"


def seen(state: game_pb2.GameState) -> tuple[Any, ...]:
    """What a reader is served of a state."""
    return (state.version, state.head_digest, json.loads(state.view_json),
            json.loads(state.screen_json or "null"))


def get(server: ServerProcess, game_id: str, version: int | None = None) -> game_pb2.GameState:
    request = game_pb2.GetStateRequest(game_id=game_id, seat=0)
    if version is not None:
        request.version = version
    return server.stub().GetState(request)


class Played:
    """A running Ethnos game past its first snapshot, what the server served of
    it (now and at ``PAST``), and a pristine copy of the store."""

    def __init__(self, server: ServerProcess, game_id: str) -> None:
        self.server = server
        self.game_id = game_id
        self.now = seen(get(server, game_id))
        self.past = seen(get(server, game_id, PAST))
        self.glory = json.loads(get(server, game_id).view_json)["glory"]
        #: The version of the game's one snapshot (read once the server stopped).
        self.snapshot = 0

    def restore(self) -> None:
        """The server stopped and its store put back as it was played."""
        self.server.stop()
        shutil.copy(self.server.data_dir / "pristine.sqlite", sqlite_file(self.server))
        for extra in ("-wal", "-shm"):
            Path(str(sqlite_file(self.server)) + extra).unlink(missing_ok=True)

    def log_since(self, offset: int) -> str:
        return self.server.log_path.read_bytes()[offset:].decode("utf-8", "replace")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[Played]:
    server = ServerProcess(tmp_path_factory.mktemp("trust") / "data", redis_url)
    server.start()
    try:
        rnd = random.Random(5)
        while True:
            game_id, _ = finish(server, "ethnos", 3, rnd, stop_at=150)
            state = get(server, game_id)
            if not state.over and state.version >= 150:
                break
        game = Played(server, game_id)
        server.stop()
        game.snapshot = snapshot_version(sqlite_file(server), game_id)
        shutil.copy(sqlite_file(server), server.data_dir / "pristine.sqlite")
        yield game
    finally:
        server.stop()


def snapshot_version(path: Path, game_id: str) -> int:
    """The version of the game's one stored snapshot: the end of the move
    that reached the interval, before the past version read."""
    with contextlib.closing(sqlite3.connect(path)) as con:
        rows = con.execute("SELECT originator_version FROM stored_snapshots WHERE "
                           "originator_id=?", (game_id.replace("-", ""),)).fetchall()
    assert len(rows) == 1 and INTERVAL <= rows[0][0] < PAST, rows
    return int(rows[0][0])


def edit_snapshot(path: Path, game_id: str, version: int,
                  edit: Callable[[dict[str, Any]], None]) -> None:
    """Change a stored snapshot's state in the SQLite file, as an intruder would."""
    with contextlib.closing(sqlite3.connect(path)) as con, con:
        oid = game_id.replace("-", "")
        row = con.execute("SELECT state FROM stored_snapshots WHERE originator_id=? AND "
                          "originator_version=?", (oid, version)).fetchone()
        assert row is not None, f"no snapshot at version {version}"
        stored = json.loads(row[0])
        edit(stored["state"])
        con.execute("UPDATE stored_snapshots SET state=? WHERE originator_id=? AND "
                    "originator_version=?", (json.dumps(stored).encode(), oid, version))


def more_glory(state: dict[str, Any]) -> None:
    state["glory"][0] += 50


def check_audit_names(server: ServerProcess, game_id: str, version: int) -> None:
    audit = server.stub().Audit(game_pb2.AuditRequest(game_id=game_id))
    assert list(audit.bad_snapshots) == [version] and audit.first_failure == version
    assert not audit.chain_ok
    assert any(f"snapshot at version {version}" in p for p in audit.problems), audit.problems


def test_an_edited_snapshot_is_not_served_and_the_audit_names_it(played: Played) -> None:
    played.restore()
    edit_snapshot(sqlite_file(played.server), played.game_id, played.snapshot, more_glory)
    offset = played.server.log_path.stat().st_size
    played.server.start()
    now = get(played.server, played.game_id)
    assert seen(now) == played.now, "the true state, rebuilt from the events"
    assert json.loads(now.view_json)["glory"] == played.glory
    assert seen(get(played.server, played.game_id, PAST)) == played.past
    check_audit_names(played.server, played.game_id, played.snapshot)
    log = played.log_since(offset)
    assert (f"snapshot of game {played.game_id} at version {played.snapshot} not trusted: "
            "its seal does not match its state") in log


def test_a_time_travel_read_never_trusts_an_edited_snapshot(played: Played) -> None:
    played.restore()
    played.server.start()
    assert seen(get(played.server, played.game_id)) == played.now  # loaded and cached
    # edited under the running server: a read of the past is never served from the cache
    edit_snapshot(sqlite_file(played.server), played.game_id, played.snapshot, more_glory)
    assert seen(get(played.server, played.game_id, PAST)) == played.past
    check_audit_names(played.server, played.game_id, played.snapshot)


def test_a_snapshot_sealed_with_the_secret_is_caught_by_the_audit(played: Played) -> None:
    played.restore()
    data_dir = played.server.data_dir
    app = ArbiterApp(Settings(data_dir=data_dir).store_env(), snapshot_interval=INTERVAL,
                     credentials=Credentials.configure(data_dir))
    try:
        assert app.snapshots is not None and app.snapshot_seal is not None
        game: Any = app.repository.get(uuid.UUID(played.game_id), version=played.snapshot)
        game.glory[0] += 50
        forged = app.snapshot_seal.take(game)
        assert isinstance(forged, SealedSnapshot)
    finally:
        app.close()
    with contextlib.closing(sqlite3.connect(sqlite_file(played.server))) as con, con:
        con.execute("DELETE FROM stored_snapshots WHERE originator_id=? AND "
                    "originator_version=?", (played.game_id.replace("-", ""), played.snapshot))
    app = ArbiterApp(Settings(data_dir=data_dir).store_env(), snapshot_interval=INTERVAL,
                     credentials=Credentials.configure(data_dir))
    try:
        assert app.snapshots is not None
        app.snapshots.put([forged])
    finally:
        app.close()
    played.server.start()
    # A seal made with the secret is trusted (the secret is the limit of the seal) ...
    forged_view = json.loads(get(played.server, played.game_id).view_json)
    assert forged_view["glory"][0] != played.glory[0]
    # ... but the audit replays the events, and says where the served state is wrong.
    audit = played.server.stub().Audit(game_pb2.AuditRequest(game_id=played.game_id))
    assert not audit.replay_ok and list(audit.bad_snapshots) == [played.snapshot]
    assert audit.first_failure == played.snapshot
    assert any(f"state served at version {played.now[0]} differs" in p
               for p in audit.problems), audit.problems
    # That server no longer trusts the snapshot: the true state again, now and in the past.
    assert seen(get(played.server, played.game_id)) == played.now
    assert seen(get(played.server, played.game_id, PAST)) == played.past


def test_a_snapshot_off_the_stored_chain_is_not_trusted(tmp_path: Path) -> None:
    """In process: a sealed snapshot whose head is not the digest of the stored
    event at its version (the events under it changed) is passed over for the
    older one."""
    env = Settings(data_dir=tmp_path).store_env()
    credentials = Credentials(b"k" * 32, "")
    app = ArbiterApp(env, snapshot_interval=10, credentials=credentials)
    gid = app.create_game("ethnos", ["a", "b", "c"]).id
    play_long(app, str(gid), random.Random(2), limit=25)
    assert app.snapshots is not None
    # Each at the end of the move that reached 10, then 20.
    first, second = sorted(s.originator_version for s in app.snapshots.get(gid))[:2]
    app.close()
    with contextlib.closing(sqlite3.connect(tmp_path / "arbiter.sqlite")) as con, con:
        row = con.execute("SELECT state FROM stored_events WHERE originator_id=? AND "
                          "originator_version=?", (gid.hex, second)).fetchone()
        event = json.loads(row[0])
        event["meta"]["digest"] = "0" * 64
        con.execute("UPDATE stored_events SET state=? WHERE originator_id=? AND "
                    "originator_version=?", (json.dumps(event).encode(), gid.hex, second))
    app = ArbiterApp(env, snapshot_interval=10, credentials=credentials)
    try:
        assert app.repository.snapshot_store is not None
        trusted = list(app.repository.snapshot_store.get(gid, desc=True, limit=1, lte=second))
        assert [s.originator_version for s in trusted] == [first]
        assert app.snapshots is not None and app.snapshot_seal is not None
        at_second = next(s for s in app.snapshots.get(gid) if s.originator_version == second)
        assert "head digest" in str(app.snapshot_seal.problem(at_second))
    finally:
        app.close()


def test_an_older_releases_snapshots_are_not_trusted_but_its_games_load(tmp_path: Path) -> None:
    """The store written before snapshots were sealed (``tests/fixtures/store_v1``,
    see test_upgrade_store): its snapshots are passed over, each game is rebuilt
    from its events, exactly as recorded, and they still audit clean."""
    from tests.integration.test_upgrade_store import GAMES, copy_store

    data_dir = copy_store(tmp_path / "data")
    app = ArbiterApp(Settings(data_dir=data_dir).store_env(), snapshot_interval=100,
                     credentials=Credentials.configure(data_dir))
    try:
        assert app.snapshots is not None and app.repository.snapshot_store is not None
        snapshotted = 0
        for recorded in GAMES:
            gid = uuid.UUID(recorded["game_id"])
            if list(app.snapshots.get(gid)):
                snapshotted += 1
                assert list(app.repository.snapshot_store.get(gid, desc=True, limit=1)) == []
            game = app.game(recorded["game_id"])
            assert (game.version, game.head) == (recorded["version"], recorded["head_digest"])
            stored = auditing.Audits(app).audit(recorded["game_id"])
            report = stored.report
            assert report.ok and stored.bad_snapshots == [], report.problems
        assert snapshotted, "the old store has snapshots"
    finally:
        app.close()


def test_every_games_sealed_snapshots_verify_after_the_store(tmp_path: Path) -> None:
    """The seal is over the state as canonical JSON through the store's own
    transcoder, so every game's state reads back with the seal it was given
    (a state that did not would always be rebuilt from its events)."""
    from aggregates.catalog import GAMES as SERVED

    env = Settings(data_dir=tmp_path).store_env()
    credentials = Credentials(b"k" * 32, "")
    app = ArbiterApp(env, snapshot_interval=10, credentials=credentials)
    ids = {}
    for rules, cls in SERVED.items():
        # A game long enough for two snapshots (every 10 events): each game's
        # dice are its own, and an Enin hero may die before version 20.
        for _ in range(20):
            gid = app.create_game(rules, [f"p{n}" for n in range(cls.MIN_SEATS)]).id
            play_long(app, str(gid), random.Random(4), limit=40)
            if app.game(str(gid)).version > 20:
                break
        ids[rules] = gid
    app.close()
    fresh = ArbiterApp(env, snapshot_interval=10, credentials=credentials)
    try:
        assert fresh.snapshots is not None and fresh.repository.snapshot_store is not None
        for rules, gid in ids.items():
            stored = [s.originator_version for s in fresh.snapshots.get(gid)]
            assert len(stored) >= 2, rules
            for version in stored:
                trusted = list(fresh.repository.snapshot_store.get(
                    gid, desc=True, limit=1, lte=version))
                assert [s.originator_version for s in trusted] == [version], (rules, version)
    finally:
        fresh.close()
