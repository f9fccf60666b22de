"""Titans rulebook, "Playing the Game": a player may accomplish 1 Secret Objective
on his turn (shown, scored, discarded); each designed condition is read from the
state."""

from __future__ import annotations

import pytest

from aggregates.kernel import RuleError
from aggregates.titans import objectives, testing
from aggregates.titans.commands import AccomplishObjective
from aggregates.titans.data import OBJECTIVES
from tests.unit.titans.test_titans_battles import ATTACK, arranged


def by_name(name: str) -> int:
    return next(o.id for o in OBJECTIVES if o.name == name)


def hold(game: object, seat: int, cards: list[int]) -> None:
    for c in cards:
        for zone in (game.objective_deck, *game.objectives):  # type: ignore[attr-defined]
            if c in zone:
                zone.remove(c)
        game.objectives[seat].append(c)  # type: ignore[attr-defined]


def test_one_objective_per_turn_scored_and_shown() -> None:
    game = arranged(ATTACK, control={"prussia": 0, "pomerania": 0, "livonia": 0,
                                     "poznan": 0, "hungary": 0})
    expansion, baltic = by_name("Expansion"), by_name("Baltic Coast")
    hold(game, 0, [expansion, baltic])
    testing.play(game, 0, AccomplishObjective(card=expansion))  # 7 regions
    assert game.vp == [OBJECTIVES[expansion].vp, 0]
    assert game.accomplished[0] == [expansion] and expansion not in game.objectives[0]
    assert testing.events(game)[-1][0] == "ObjectiveAccomplished"
    with pytest.raises(RuleError, match="ALREADY_USED"):
        testing.play(game, 0, AccomplishObjective(card=baltic))


def test_an_objective_not_met_is_refused() -> None:
    game = arranged(ATTACK)
    dominion = by_name("Dominion")
    hold(game, 0, [dominion])
    with pytest.raises(RuleError, match="NOT_ACCOMPLISHED"):
        testing.play(game, 0, AccomplishObjective(card=dominion))
    assert AccomplishObjective(card=dominion) not in testing.legal(game, 0)


def test_conditions() -> None:
    game = arranged({"warsaw": (0, {"infantry": 4, "cavalry": 4, "artillery": 2}),
                     "krakow": (0, {"titan": 1}), "lwow": (1, {"infantry": 1}),
                     "moscow": (1, {"infantry": 1})})
    met = {o.name for o in OBJECTIVES if objectives.met(game, 0, o.condition)}
    assert {"Great Army", "Cavalry Reserve", "Artillery Park", "Grand Host",
            "Titan at the Gates"} <= met
    assert {"Dominion", "Warlord", "Fall of a Capital", "Fortified Realm"}.isdisjoint(met)
    game.control["moscow"] = 0
    game.capitols["moscow"]["damaged"] = True
    assert objectives.met(game, 0, OBJECTIVES[by_name("Fall of a Capital")].condition)
