"""The clock's watch list (Kernel 2's clocked decisions): every watched game's
deadline fires, however many are watched, and an idle clocked game costs
nothing until its deadline is due (a timer heap, not a scan).

Before: past 10,000 watched games ``ClockKeeper.watch`` silently ignored new
ones (its docstring said the oldest were dropped), so their deadlines never
fired; and every tick (twice a second) loaded every watched game, idle or not.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from aggregates.catalog import GAMES
from service.application import ArbiterApp
from service.clock import ClockKeeper, due_at
from tests.unit.test_clock import SealedBid

BID = {"name": "bid", "args": {"amount": 2}}


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ArbiterApp:
    monkeypatch.setitem(GAMES, SealedBid.RULES_ID, SealedBid)
    return ArbiterApp({
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(tmp_path / "clock.sqlite"),
        "CREATE_TABLE": "y",
    })


def clocked_game(app: ArbiterApp) -> str:
    return str(app.create_game(SealedBid.RULES_ID, ["a", "b"], '{"clock": true}').id)


def test_a_deadline_fires_past_ten_thousand_watched_games(app: ArbiterApp) -> None:
    keeper = ClockKeeper(app)
    app.on_clocked = keeper.watch
    for _ in range(10_000):
        keeper.watch(str(uuid.uuid4()))  # games this process heard of (gone since)
    gid = clocked_game(app)
    app.act(gid, 0, BID)
    assert keeper.tick(now=time.time() + 6) > 0, "the 10,001st game's deadline fired"
    assert app.game(gid).ended
    assert len(keeper) == 0, "the finished game and the unknown ones left the watch"


@pytest.mark.heavy(2)
def test_idle_clocked_games_are_not_loaded_until_a_deadline_is_due(
    app: ArbiterApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    keeper = ClockKeeper(app)
    app.on_clocked = keeper.watch
    games = [clocked_game(app) for _ in range(200)]
    loads: list[str] = []
    load = app.game

    def counted(game_id: str, **kwargs: Any) -> Any:
        loads.append(game_id)
        return load(game_id, **kwargs)

    first = min(due for due in (due_at(app.game(g)) for g in games) if due is not None)
    monkeypatch.setattr(app, "game", counted)
    for n in range(10):  # ten ticks before the first deadline (5 s from creation)
        assert keeper.tick(now=first - 1 + n * 0.1) == 0
    assert loads == [], f"{len(loads)} loads of idle games in 10 ticks"
    # Their deadlines come (the second seat's restarted by the first's default):
    # each is loaded and defaulted.
    assert keeper.tick(now=time.time() + 60) > 0
    assert set(games) <= set(loads)
    assert [g for g in games if not app.game(g).ended] == []


def test_a_move_files_the_game_at_its_new_deadline(app: ArbiterApp) -> None:
    """Kernel 2: a decision's clock runs from the game's last move."""
    keeper = ClockKeeper(app)
    app.on_clocked = keeper.watch
    gid = clocked_game(app)
    created = due_at(app.game(gid))
    time.sleep(0.2)
    app.act(gid, 0, BID)
    moved = due_at(app.game(gid))
    assert created is not None and moved is not None and moved >= created + 0.2
    assert keeper.tick(now=moved - 0.1) == 0 and not app.game(gid).ended
    assert keeper.tick(now=moved + 0.01) > 0 and app.game(gid).ended
