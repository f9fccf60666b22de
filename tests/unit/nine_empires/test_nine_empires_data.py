"""The designed card data (Romance of the Nine Empires rulebook, Components,
Deck Lists, Customizing Your Decks; the project's rulings on the designed data)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aggregates.kernel.data import DataError
from aggregates.nine_empires import data
from aggregates.nine_empires.data import CARDS, DECKS, Deck, deck_problems


def test_the_data_says_it_is_designed() -> None:
    assert data.DESIGNED.startswith("DESIGNED")


def test_every_card_carries_the_numbers_of_its_type_and_its_text() -> None:
    for card in CARDS.values():
        for ability in card.abilities:
            assert ability.text
        if card.type == "castle":
            assert card.might == 1 and card.storage >= 1
        if card.type == "tactic":
            assert card.abilities, f"{card.title} has its ability (and its cost in it)"
        if card.type == "quest":
            assert card.completion is not None and card.glory >= 1


def test_every_designed_card_is_in_a_deck_list() -> None:
    used = {k for d in DECKS.values() for k in (*d.cards, *d.castles, d.stronghold)}
    used.add(data.MOTTE_AND_BAILEY)
    assert set(CARDS) == used


def test_the_example_of_play_constraints_hold() -> None:
    c = CARDS
    assert c["iron_citadel_of_malchior"].production + c["motte_and_bailey"].production == 6
    assert c["hektor"].S + 2 == 4 and "While attacking" in c["hektor"].abilities[0].text
    assert (c["zahir"].S, c["zahir"].W, c["zahir"].food, c["zahir"].gold) == (0, 1, 1, 0)
    jack = c["jack_newcomer"]
    assert jack.S == 1 and "Questor" in jack.keywords and jack.raid == 1
    grounds = c["training_grounds"]
    assert (grounds.food, grounds.gold) == (0, 0) and grounds.abilities[0].timing == "react"
    assert c["blight"].fate == 1 and c["undermarket_dealings"].fate == 2
    assert c["blight"].abilities[0].steps[0].verb == "reduce_damage"
    touch = [s.verb for s in c["touch_of_shad_hujem"].abilities[0].steps]
    assert touch == ["modify", "marker"]
    assert c["at_your_command"].abilities[0].steps[0].params == {"stat": "S", "amount": 2}
    assert c["hammerdooms_roost"].abilities[0].when["event"] == "CastleBuried"
    turnip = c["the_biggest_turnip"]
    assert (turnip.glory, turnip.renown, c["throne_of_holden"].renown) == (1, 2, 5)
    assert c["caught"].abilities[0].condition == {"defending_here": True}


def _deck(**cards: int) -> Deck:
    return Deck("custom", "iron_citadel_of_malchior", ("border_keep", "outpost"),
                ("border_keep", "outpost"), cards)


def test_customizing_your_decks() -> None:
    base = dict(DECKS["malchior"].cards)
    assert not deck_problems(_deck(**base), CARDS)
    short = dict(base, beknine=2)
    assert any("55" in p for p in deck_problems(_deck(**short), CARDS))
    four = dict(base, beknine=4, zahir=2)
    assert any("copies" in p for p in deck_problems(_deck(**four), CARDS))
    epic = dict(base, zahir=1, skafla=2)
    problems = deck_problems(_deck(**epic), CARDS)
    assert any("Epic" in p for p in problems) and any("faction" in p for p in problems)
    holden = dict(base, zahir=2, the_queens_chamber=1)
    assert any("faction" in p for p in deck_problems(_deck(**holden), CARDS))
    castles = Deck("custom", "iron_citadel_of_malchior", ("border_keep", "sanctuary",
                                                          "fortified_market_town",
                                                          "hammerdooms_roost"),
                   ("border_keep", "sanctuary", "fortified_market_town",
                    "hammerdooms_roost"), base)
    assert any("castle points" in p for p in deck_problems(castles, CARDS))


def test_a_bad_replacement_file_fails_at_load(tmp_path: Path) -> None:
    raw = json.loads(data.CARDS_FILE.read_text())
    raw["cards"][0]["abilities"][0]["effects"][0]["do"] = "summon_dragon"
    with pytest.raises(DataError, match="unknown verb"):
        data._load_cards(raw)
    raw = json.loads(data.CARDS_FILE.read_text())
    raw["designed"] = "printed"
    with pytest.raises(DataError, match="designed"):
        data._load_cards(raw)
