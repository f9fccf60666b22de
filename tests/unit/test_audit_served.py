"""Which served state an audit compares with the events (issue 32: ``audit
--all``'s throughput).

The audit reads a game's rows once, for its verdict's key and for the
proofs, and compares the state the server serves only where that is not the
fold of the stored events: the cached game, or a verified snapshot plus newer
events. A game in neither place is not loaded into the aggregate cache by
its audit (every game an ``audit --all`` passed took a cached game's place).
"""

from __future__ import annotations

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
