"""Time travel and global positions on both stores (SQLite and PostgreSQL):
the past is served from the nearest snapshot plus the events since, the
positions are the recorder's notification ids, and ``changed_games`` finds
the games with events after a position."""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import pytest

from service import auditing, timetravel
from service.application import ArbiterApp
from service.config import Settings
from tests.integration.test_store import postgres_env  # noqa: F401 - a fixture

pytestmark = pytest.mark.integration


def check_store(env: dict[str, str]) -> None:
    app = ArbiterApp(env, snapshot_interval=10)
    game = app.create_game("ethnos", ["a", "b", "c"])
    gid = str(game.id)
    other = str(app.create_game("enin", ["solo"]).id)
    rnd = random.Random(3)
    acted: dict[int, int] = {}
    while app.game(gid).version < 120:
        now = app.game(gid)
        seat = now.waiting_on()[0]
        result = app.act(gid, seat, rnd.choice(now.legal_actions(seat)).to_json())
        acted.update(result.positions)
    # positions: the ones the store gave each save, found again by one query
    found = timetravel.positions(app, gid)
    assert set(found) == set(range(1, app.game(gid).version + 1))
    for version, position in acted.items():
        assert found[version] == position
    assert timetravel.positions(app, gid, after=100) == {
        v: p for v, p in found.items() if v > 100}
    # the past: from the snapshot at or below it, plus the events since
    reads: list[Any] = []
    store = app.repository.event_store
    original = store.get

    def spy(*args: Any, **kwargs: Any) -> Any:
        reads.append(kwargs)
        return original(*args, **kwargs)

    store.get = spy  # type: ignore[method-assign]
    _, past = timetravel.game_at(app, gid, 57)
    store.get = original  # type: ignore[method-assign]
    assert past.version == 57
    # (each snapshot at the end of the move that reached a multiple of 10)
    assert app.snapshots is not None
    nearest = max(s.originator_version for s in app.snapshots.get(game.id, lte=57))
    assert nearest >= 40, "read from a snapshot near it, not from the start"
    assert nearest == 57 or any(r.get("gt") == nearest and r.get("lte") == 57
                                for r in reads), reads
    events = list(app.events.get(game.id, lte=57))
    folded: Any = functools.reduce(lambda agg, ev: ev.mutate(agg), events, None)
    assert (folded.version, folded.head) == (past.version, past.head)
    for seat in (None, 0, 1, 2):
        assert folded.view(seat) == past.view(seat)
    # the games changed after a position, and the position covered
    mark = found[100]
    changed, covered = auditing.changed_games(app, mark, limit=10)
    assert changed == [game.id] and covered == max(found.values())
    everything, _ = auditing.changed_games(app, 0, limit=10)
    assert [str(g) for g in everything] == [gid, other]
    first, upto = auditing.changed_games(app, 0, limit=1)
    assert [str(g) for g in first] == [gid] and 0 < upto < covered
    app.close()


def test_sqlite_time_travel_and_positions(tmp_path: Path) -> None:
    check_store(Settings(data_dir=tmp_path).store_env())


@pytest.mark.postgres
def test_postgres_time_travel_and_positions(postgres_env: dict[str, str]) -> None:  # noqa: F811
    check_store(postgres_env)
