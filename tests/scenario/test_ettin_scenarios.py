"""The rulebook's worked examples, played through the real flow.

One 4-player table: you are the Dommorian Giants (position 1), your Ally the
Kingdom of Joymore (position 0), your Enemy the Dwarves of Skyhold (position
2), and the Orcs of Ud (position 3) are Joymore's Enemy. Decks are stacked so
the rulebook's cards come up; each example checks the gold, tokens and cards
the rulebook states: Example Skirmish, Example Peacetime, Example Battles,
Example Adventure (the die stacked to 3), Example Spoils, Example Defense
Spoils, Example Retire, Example Produce and Example War Victory.
"""

from __future__ import annotations

from typing import Any

import pytest

from aggregates.ettin import Ettin
from aggregates.ettin import zones as zn
from aggregates.ettin.commands import (
    Deploy,
    Draft,
    Initiative,
    PlaceDefense,
    Produce,
    Recruit,
    Sell,
    Spoil,
)
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.testing import act, autoplay, card, due, stack

JOYMORE, GIANTS, DWARVES, ORCS = 0, 1, 2, 3


@pytest.fixture(scope="module")
def story() -> dict[str, Any]:
    """Play Age I up to the end of its War, keeping snapshots of what matters."""
    g = Ettin.start(["ally", "you", "enemy", "orc"], seed="e" * 64,
                    options={"nations": ["joymore", "giants", "dwarves", "orcs"]})
    notes: dict[str, Any] = {"game": g}
    merc = zn.merc(0, 1)
    stack(g, merc, ["Guard Tower", "Swordsmiths", "Militia", "Ogre Bashers"])
    stack(g, zn.adv_deck(0, 1), [C.name(next(a for a in C.adventure_deck(1)
                                              if C.adventures[a].name != "Goblin Trading Post")),
                                "Goblin Trading Post"])
    stack(g, zn.deck(JOYMORE), ["Paladin Kendrick", "Old Vets"])
    stack(g, zn.deck(GIANTS), ["Arc Tower", "Dommorian Mages"])
    stack(g, zn.deck(DWARVES), ["Dwarf Warriors"])
    # Setup: the higher Initiative number chooses; the Dwarves (5) take it from
    # the Giants (4), Joymore (7) gives it to the Orcs (1).
    assert sorted(due(g)) == [JOYMORE, DWARVES]
    act(g, DWARVES, Initiative(True))
    act(g, JOYMORE, Initiative(False))
    assert g.initiative == [DWARVES, ORCS]
    notes["new_age_gold"] = list(g.gold)
    notes["adventure"] = list(g.zones[zn.adventure(1)])
    # Example Skirmish
    assert set(g.zones[zn.lineup(0)]) == {card(n) for n in
                                         ["Guard Tower", "Swordsmiths", "Militia", "Ogre Bashers"]}
    assert due(g) == [ORCS, DWARVES] or set(due(g)) == {ORCS, DWARVES}
    act(g, DWARVES, Draft(card("Ogre Bashers")))
    act(g, GIANTS, Draft(card("Guard Tower")))
    act(g, GIANTS, Draft(card("Swordsmiths")))
    act(g, DWARVES, Draft(card("Militia")))
    act(g, GIANTS, Recruit(card("Guard Tower")))
    act(g, GIANTS, Recruit(card("Swordsmiths")))
    act(g, DWARVES, Recruit(card("Ogre Bashers")))
    act(g, DWARVES, Recruit(card("Militia")))
    notes["skirmish_gold"] = list(g.gold)
    autoplay(g, {JOYMORE, ORCS}, until=lambda g: g.step == 1)
    # Example Peacetime: lineup Paladin Kendrick, Old Vets, Arc Tower, Dommorian Mages
    assert set(g.zones[zn.lineup(0)]) == {card(n) for n in [
        "Paladin Kendrick", "Old Vets", "Arc Tower", "Dommorian Mages"]}
    act(g, JOYMORE, Draft(card("Paladin Kendrick")))
    act(g, JOYMORE, Draft(card("Dommorian Mages")))
    act(g, GIANTS, Draft(card("Old Vets")))
    act(g, GIANTS, Draft(card("Arc Tower")))
    act(g, GIANTS, Sell(card("Old Vets")))
    act(g, GIANTS, Recruit(card("Arc Tower")))
    act(g, JOYMORE, Sell(card("Dommorian Mages")))
    act(g, JOYMORE, Recruit(card("Paladin Kendrick")))
    notes["peacetime_gold"] = list(g.gold)
    assert card("Dwarf Warriors") in g.zones[zn.lineup(1)]
    act(g, DWARVES, Draft(card("Dwarf Warriors")))
    autoplay(g, {DWARVES, ORCS}, until=lambda g: g.due(DWARVES) == "recruit")
    act(g, DWARVES, Recruit(card("Dwarf Warriors")))
    autoplay(g, {JOYMORE, GIANTS, DWARVES, ORCS}, until=lambda g: g.phase == "deploy")
    assert g.phase == "deploy"
    # Deploy: the Dwarves (Initiative) place one, then two at a time.
    assert DWARVES in due(g) and GIANTS not in due(g)
    act(g, DWARVES, Deploy(card("Dwarf Warriors"), 2, 0))
    act(g, GIANTS, Deploy(card("Guard Tower"), 2, 0))
    act(g, GIANTS, Deploy(card("Swordsmiths"), 1, 0))
    act(g, DWARVES, Deploy(card("Ogre Bashers"), 0, 0))
    act(g, DWARVES, Deploy(card("Militia"), 3, 0))
    act(g, GIANTS, Deploy(card("Arc Tower"), 0, 0))
    assert JOYMORE in due(g)
    act(g, JOYMORE, Deploy(card("Paladin Kendrick"), 3, 0))
    # Example Adventure: the Enemy's die shows 3.
    g.roll = lambda sides: C.die.index(3) + 1  # type: ignore[method-assign]
    autoplay(g, {ORCS, JOYMORE, DWARVES, GIANTS}, until=lambda g: g.phase != "deploy")
    notes["results"] = [list(x) for x in g.results]
    notes["won"] = list(g.zones[zn.won(JOYMORE)])
    # Example Spoils
    assert g.phase == "spoils"
    notes["spoil_options"] = {p: g.legal_actions(g.seating().controller[p]) for p in due(g)}
    act(g, DWARVES, Spoil(card("Guard Tower")))
    notes["giants_deck_top"] = g.zones[zn.deck(GIANTS)][0]
    notes["dwarves_deck_top"] = g.zones[zn.deck(DWARVES)][0]
    act(g, GIANTS, Spoil(0))
    act(g, DWARVES, Spoil(0))
    autoplay(g, {JOYMORE, ORCS}, until=lambda g: g.phase != "spoils")
    # Example Defense Spoils: Joymore places the Goblin Trading Post.
    assert g.phase == "adventure_defense"
    before_retire = list(g.gold)
    act(g, JOYMORE, PlaceDefense(card("Goblin Trading Post"), 1))
    notes["before_retire"] = before_retire
    notes["after_produce_gold"] = None
    notes["camp_after"] = {p: list(g.zones[zn.camp(p)]) for p in range(4)}
    # Produce: Joymore's defended Village pays; decline other optional abilities.
    for _ in range(20):
        if g.phase != "produce":
            break
        p = due(g)[0]
        act(g, p, Produce(False, 0))
    notes["end"] = list(g.gold)
    notes["tokens"] = [list(x) for x in g.tokens]
    return notes


def test_new_age_gold_and_adventures(story: dict[str, Any]) -> None:
    assert story["new_age_gold"] == [5, 5, 5, 5]
    assert story["adventure"] == [card("Goblin Trading Post")]


def test_example_skirmish(story: dict[str, Any]) -> None:
    assert story["skirmish_gold"][GIANTS] == 4   # Guard Tower 1, Swordsmiths 0
    assert story["skirmish_gold"][DWARVES] == 1  # Ogre Bashers 4, Militia 0


def test_example_peacetime(story: dict[str, Any]) -> None:
    assert story["peacetime_gold"][GIANTS] == 1  # sold Old Vets for 2, Arc Tower for 5


def test_example_battles(story: dict[str, Any]) -> None:
    results = {r["slot"]: r for r in story["results"][0]}
    assert results[2]["result"] == "win" and results[2]["winner"] == DWARVES
    assert results[2]["scores"] == [2, 3]               # Ruins 0 + Guard Tower 2 vs 1 + 2
    assert results[1]["result"] == "win" and results[1]["winner"] == GIANTS
    assert results[0]["result"] == "none" and results[0]["why"] == "protected"
    assert results[0]["scores"] == [6, 7]               # Arc Tower 3 + City 3 vs 5 + Town 2
    assert results[3]["result"] == "win" and results[3]["winner"] == DWARVES
    assert [r["slot"] for r in story["results"][0]] == [2, 1, 0, 3]


def test_example_adventure(story: dict[str, Any]) -> None:
    # Paladin Kendrick's 6 against base 2 + a die of 3: completed; it becomes a Defense.
    joymore = {r["slot"]: r for r in story["results"][1]}
    assert joymore[3]["winner"] == JOYMORE
    assert story["won"] == [card("Goblin Trading Post")]


def test_example_spoils(story: dict[str, Any]) -> None:
    options = story["spoil_options"]
    assert Spoil(card("Guard Tower")) in options[DWARVES]
    g = story["game"]
    assert card("Guard Tower") in g.zones[zn.retired(DWARVES)]
    assert story["dwarves_deck_top"] in g.zones[zn.retired(GIANTS)]
    assert story["giants_deck_top"] in g.zones[zn.retired(DWARVES)]


def test_example_defense_spoils(story: dict[str, Any]) -> None:
    g = story["game"]
    assert card("Goblin Trading Post") in g.zones[zn.loc(JOYMORE, 1)]


def test_example_retire_produce_and_war_victory(story: dict[str, Any]) -> None:
    g = story["game"]
    # Retire: Swordsmiths' Wealthy 5; Paladin Kendrick returns to your War Camp;
    # the Arc Tower stays at your City. Produce: the City's Prosperous 2 for both.
    assert card("Paladin Kendrick") in story["camp_after"][GIANTS] or \
        card("Paladin Kendrick") in g.zones[zn.camp(GIANTS)]
    assert card("Arc Tower") in g.zones[zn.loc(GIANTS, 0)]
    assert story["end"][GIANTS] - story["before_retire"][GIANTS] == 7  # "you earned 7 Gold"
    # War Victory: the Dwarves have more Battle Won tokens: 5 VP; you take a Nation card.
    assert story["tokens"][DWARVES] == [1] and story["tokens"][GIANTS] == []
    assert g.phase == "initiative" and GIANTS in due(g) and DWARVES not in due(g)
