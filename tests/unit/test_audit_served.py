"""Which served state an audit compares with the events (issue 32: ``audit
--all``'s throughput).

The audit reads a game's rows once, for its verdict's key and for the
proofs, and compares the state the server serves only where that is not the
fold of the stored events: the cached game, or a verified snapshot plus newer
events. A game in neither place is not loaded into the aggregate cache by
its audit (every game an ``audit --all`` passed took a cached game's place).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service import auditing
from service.application import ArbiterApp, parse_game_id
from service.config import Settings


@pytest.fixture
def app(tmp_path: Path) -> Iterator[ArbiterApp]:
    """The server's application on its own store settings (the aggregate cache on)."""
    application = ArbiterApp(Settings(data_dir=tmp_path).store_env())
    yield application
    application.close()


def played(app: ArbiterApp, moves: int) -> str:
    game_id = str(app.create_game("enin", ["solo"]).id)
    for n in range(moves):
        move(app, game_id, n)
    return game_id


def move(app: ArbiterApp, game_id: str, n: int) -> None:
    game = app.game(game_id)
    action = game.legal_actions(0)[0]
    app.act(game_id, 0, action.to_json(), command_id=f"move-{n}")


def cached(app: ArbiterApp, game_id: str) -> Any:
    cache = app.repository.cache
    assert cache is not None
    try:
        return cache.get(parse_game_id(game_id))
    except KeyError:
        return None


def test_a_game_neither_cached_nor_snapshotted_is_audited_without_loading_it(
    app: ArbiterApp,
) -> None:
    game_id = played(app, 3)
    version = app.game(game_id).version
    app.repository.forget(parse_game_id(game_id))
    assert cached(app, game_id) is None
    stored = auditing.Audits(app).audit(game_id)
    assert stored.report.ok, stored.report.problems
    assert stored.version == version
    assert cached(app, game_id) is None, "the audit put the game in the aggregate cache"


def test_a_cached_game_that_parted_from_its_events_is_still_caught(app: ArbiterApp) -> None:
    game_id = played(app, 3)
    version = app.game(game_id).version
    with app.game_lock(game_id):
        cached(app, game_id).gold += 7  # as a server bug would change it in memory
    stored = auditing.Audits(app).audit(game_id)
    assert not stored.report.replay_ok
    assert any(f"state served at version {version} differs" in p
               for p in stored.report.problems), \
        stored.report.problems
    assert cached(app, game_id) is None, "the parted game stays in the cache"


def test_rows_read_before_a_move_are_read_again_to_reach_the_served_game(
    app: ArbiterApp,
) -> None:
    game_id = played(app, 2)
    read = auditing.read_stored(app, game_id)
    move(app, game_id, 2)  # the cached game moves past the rows read
    version = app.game(game_id).version
    assert read.rows[-1].originator_version < version
    stored = auditing.audit_stored(app, game_id, read)
    assert stored.report.ok, stored.report.problems
    assert stored.version == version
    assert stored.stored == auditing.stored_digest(
        app, parse_game_id(game_id), auditing.stored_rows(app, game_id))


def cut_after(data_dir: Path, game_id: str, version: int) -> None:
    """The stored events after ``version`` deleted, by hand, as a lost write or a
    hand on the database would leave the log: what is left still chains."""
    with sqlite3.connect(data_dir / "arbiter.sqlite") as con:
        con.execute("DELETE FROM stored_events WHERE originator_id=? AND originator_version>?",
                    (game_id.replace("-", ""), version))


def command_ends(app: ArbiterApp, game_id: str, moves: int) -> list[int]:
    """The game's version after each of ``moves`` moves (a command's last event)."""
    ends = []
    for n in range(moves):
        move(app, game_id, n)
        ends.append(app.game(game_id).version)
    return ends


def test_events_missing_after_the_served_games_version_are_caught(
    app: ArbiterApp, tmp_path: Path,
) -> None:
    """The hash chain proves each event follows the one before, not that none
    is missing at the end: a log cut at a command's end still chains and
    replays. The cached game went further, so the audit says events are missing."""
    game_id = str(app.create_game("enin", ["solo"]).id)
    ends = command_ends(app, game_id, 4)
    cut_after(tmp_path, game_id, ends[1])
    stored = auditing.Audits(app).audit(game_id)
    assert not stored.report.chain_ok
    assert stored.report.first_failure == ends[1] + 1
    assert any(f"state served at version {ends[-1]} is past the stored events, which end "
               f"at version {ends[1]}" in p for p in stored.report.problems), \
        stored.report.problems


def test_events_missing_after_a_stored_snapshot_are_caught(tmp_path: Path) -> None:
    """The same cut seen by a snapshot taken further on, the game not cached."""
    app = ArbiterApp(Settings(data_dir=tmp_path).store_env(), snapshot_interval=5)
    try:
        game_id = str(app.create_game("enin", ["solo"]).id)
        ends = command_ends(app, game_id, 8)
        snapshots = [row.originator_version for row in
                     auditing.stored_snapshots(app, parse_game_id(game_id))]
        assert snapshots, "no snapshot taken"
        cut = max(v for v in [1, *ends] if v < snapshots[-1])
        cut_after(tmp_path, game_id, cut)
        app.repository.forget(parse_game_id(game_id))
        stored = auditing.Audits(app).audit(game_id)
        assert not stored.report.chain_ok
        assert any(f"the snapshot at version {snapshots[-1]} is past the stored events, "
                   f"which end at version {cut}" in p for p in stored.report.problems), \
            stored.report.problems
    finally:
        app.close()


def test_a_snapshotted_game_not_cached_is_compared_without_entering_the_cache(
    tmp_path: Path,
) -> None:
    """Its served state (the newest snapshot and the events after it) is
    compared, and the game stays out of the aggregate cache, where the games
    being played are."""
    app = ArbiterApp(Settings(data_dir=tmp_path).store_env(), snapshot_interval=5)
    try:
        game_id = str(app.create_game("enin", ["solo"]).id)
        command_ends(app, game_id, 8)
        assert auditing.stored_snapshots(app, parse_game_id(game_id))
        app.repository.forget(parse_game_id(game_id))
        stored = auditing.Audits(app).audit(game_id)
        assert stored.report.ok, stored.report.problems
        assert cached(app, game_id) is None, "the audit put the game in the aggregate cache"
    finally:
        app.close()
