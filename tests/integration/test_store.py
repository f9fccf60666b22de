"""The event store under the application: SQLite by default, PostgreSQL when configured.

Snapshots and the aggregate cache must never change what a game is: a long
game reloaded by a fresh application (no cache, from snapshot plus newer
events) has the same version, head digest and view, and still audits clean.
"""

from __future__ import annotations

import random
import uuid
from pathlib import Path

import pytest

from service import auditing
from service.application import ArbiterApp
from service.config import Settings


def play_long(app: ArbiterApp, game_id: str, rnd: random.Random, limit: int = 3000) -> None:
    for _ in range(limit):
        game = app.game(game_id)
        if game.ended:
            return
        seat = game.waiting_on()[0]
        actions = game.legal_actions(seat)
        names = sorted({a.NAME for a in actions})
        name = rnd.choice(names)
        action = rnd.choice([a for a in actions if name == a.NAME])
        app.act(game_id, seat, action.to_json())


#: Every served game, with the seats to play it with.
GAMES_TO_STORE = [("enin", ["solo"]), ("ethnos", ["a", "b", "c"])]


def snapshotted_game(app: ArbiterApp, rules: str, seats: list[str],
                     rnd: random.Random) -> str:
    """A game played long enough to be snapshotted (past version 10).

    A game's dice come from its own secret seed, new each run: now and then
    a random Enin hero dies within ten events (a run of this test failed so),
    and a game that short proves nothing of snapshots; another is played."""
    for _ in range(20):
        game_id = str(app.create_game(rules, seats).id)
        play_long(app, game_id, rnd, limit=400)
        if app.game(game_id).version > 10:
            return game_id
    raise AssertionError(f"twenty {rules} games in a row ended within ten events")


def check_reload(env: dict[str, str]) -> None:
    app = ArbiterApp(env, snapshot_interval=10)
    ids = []
    for rules, seats in GAMES_TO_STORE:
        for n in range(2):
            ids.append(snapshotted_game(app, rules, seats, random.Random(n)))
    fresh = ArbiterApp(env, snapshot_interval=10)
    for gid in ids:
        before, after = app.game(gid), fresh.game(gid)
        assert (after.version, after.head) == (before.version, before.head)
        for seat in (None, *range(len(before.seats))):
            assert after.view(seat) == before.view(seat)
        assert before.version > 10, "the game was long enough to be snapshotted"
        assert fresh.snapshots is not None
        latest = list(fresh.snapshots.get(uuid.UUID(gid), desc=True, limit=1))
        assert latest and latest[0].originator_version > 1, "a snapshot was taken"
        report = auditing.Audits(fresh).audit(gid).report
        assert report.ok, report.problems
    listed = {str(e.game_id) for e in fresh.list_games(limit=1000)}
    assert set(ids) <= listed
    app.close()
    fresh.close()


def test_sqlite_reload_with_snapshots(tmp_path: Path) -> None:
    check_reload(Settings(data_dir=tmp_path).store_env())


@pytest.fixture
def postgres_env(
    postgres_schema: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> dict[str, str]:
    url, schema = postgres_schema
    monkeypatch.setenv("ARBITER_POSTGRES_SCHEMA", schema)
    return Settings(database_url=url).store_env()


@pytest.mark.postgres
@pytest.mark.heavy(10)
def test_postgres_reload_with_snapshots(postgres_env: dict[str, str]) -> None:
    check_reload(postgres_env)


@pytest.mark.postgres
@pytest.mark.integration
def test_server_process_on_postgres(
    postgres_env: dict[str, str], postgres_schema: tuple[str, str], tmp_path: Path,
    redis_url: str,
) -> None:
    """`make run` with a PostgreSQL URL configured: the server stores games there."""
    import os

    from arbiter.v1 import game_pb2

    from tests.integration.conftest import ServerProcess
    from tests.integration.helpers import new_game, play

    url, _ = postgres_schema
    server = ServerProcess(
        tmp_path / "data", redis_url,
        {
            "ARBITER_DATABASE_URL": url,
            "ARBITER_POSTGRES_SCHEMA": os.environ["ARBITER_POSTGRES_SCHEMA"],
        },
    )
    server.start()
    try:
        stub = server.stub()
        game_id = new_game(stub)
        state = play(stub, game_id, 20, random.Random(8))
        server.restart()
        again = server.stub().GetState(game_pb2.GetStateRequest(game_id=game_id))
        assert (again.version, again.head_digest) == (state.version, state.head_digest)
    finally:
        server.stop()
    assert not (tmp_path / "data" / "arbiter.sqlite").exists()
    app = ArbiterApp(postgres_env)
    assert app.game(game_id).version == state.version
    app.close()
