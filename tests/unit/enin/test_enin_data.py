"""The printed tables as data: loaded, validated, and refused when malformed."""

from __future__ import annotations

import copy
import json

import pytest

from aggregates.enin.data import DATA_FILE, TABLES, DataError, Dice, load, lookup


def raw() -> dict:
    return json.loads(DATA_FILE.read_text())


def test_dice_specs_parse_as_printed__rulebook_Encounter_Cards() -> None:
    assert Dice.parse("D2").sides == (2,)
    assert Dice.parse("1D3").sides == (3,)
    assert Dice.parse("4D6").sides == (6, 6, 6, 6)
    assert Dice.parse("3").fixed and Dice.parse("3").total([]) == 3
    box = Dice.parse("1D10+1D6")
    assert box.sides == (10, 6) and box.total([7, 2]) == 9
    assert Dice.parse("1D6+4").total([6]) == 10
    assert Dice.parse("1D10").single_d10 and not Dice.parse("2D6").single_d10
    for bad in ("", "D", "2X6", "1D0"):
        with pytest.raises(DataError):
            Dice.parse(bad)


def test_every_d10_chart_covers_1_to_10__rulebook_Location_Cards() -> None:
    for number, loc in TABLES.locations.items():
        if number == TABLES.market_location:
            assert loc.chart == ()
            continue
        assert all(roll in lookup(loc.chart, roll).roll for roll in range(1, 11))
    for card in TABLES.encounter_cards.values():
        assert set(card) == {1, 2, 3}
        for band in card.values():
            assert all(lookup(band, roll) for roll in range(1, 11))
    assert all(lookup(TABLES.treasure, roll) for roll in range(1, 11))
    assert all(lookup(TABLES.traps, roll) for roll in range(1, 7))


def test_printed_values_transcribed__rulebook_Encounter_Cards() -> None:
    e1, e2 = TABLES.encounter_cards["encounter_1"], TABLES.encounter_cards["encounter_2"]
    assert [(m.name, m.att) for m in e1[1]] == [("Banehound", 7), ("Minotaur", 8), ("Reaver", 9)]
    assert lookup(e1[1], 10).poisons and lookup(e1[1], 10).treasure == 1
    assert [m.name for m in e1[2]] == ["Rock Golem", "Bone Jelly", "Thyreme"]
    assert [m.name for m in e1[3]] == ["Shadowmage", "Wyrm", "Leucomance"]
    assert lookup(e1[3], 9).flee == 1 and lookup(e1[3], 9).treasure == 2
    assert [m.name for m in e2[1]] == ["Clansman", "Ghoul", "Withe"]
    assert [m.name for m in e2[2]] == ["Djin", "Creeper", "Shrike"]
    assert lookup(e2[2], 4).poisons and lookup(e2[2], 4).dam.fixed
    assert [m.name for m in e2[3]] == ["Dolomorph", "Wyvern", "Gorgon"]
    assert lookup(e2[3], 7).flee == 2 and lookup(e2[3], 7).dam.text == "1D6"
    dragon = TABLES.monsters["dragon"]
    assert (dragon.att, dragon.dam.total([]), dragon.xp.text, dragon.flee, dragon.treasure) == (
        16, 3, "4D6", 1, 3)
    assert {k: m.price for k, m in TABLES.market.items()} == {
        "potion_of_healing": 10, "potion_of_strength": 10, "potion_of_fate": 15,
        "map_of_enin": 40}
    assert [lv.xp for lv in TABLES.levels] == [0, 20, 40]
    assert (TABLES.hp_max, TABLES.luck_max, TABLES.xp_max, TABLES.gold_max) == (10, 10, 100, 100)


def _broken(mutate) -> dict:  # type: ignore[no-untyped-def]
    data = copy.deepcopy(raw())
    mutate(data)
    return data


@pytest.mark.parametrize("mutate", [
    lambda d: d["locations"][0]["chart"].pop(),
    lambda d: d["locations"][1]["chart"][0].update(roll=[1, 4]),
    lambda d: d["encounter_cards"]["encounter_1"].pop("3"),
    lambda d: d["encounter_cards"]["encounter_2"]["1"][0].update(att="nine"),
    lambda d: d["treasure"].pop(0),
    lambda d: d["traps"][0].update(roll=[1, 1]),
    lambda d: d["start_table"][3].update(roll=[9, 9]),
    lambda d: d["market"].pop(),
    lambda d: d["magic_items"][0].update(item="vorpal_blade"),
    lambda d: d["locations"][0]["quest"]["ranges"].pop("2"),
    lambda d: d["locations"][0]["chart"][0].update(action="dance"),
    lambda d: d["levels"].reverse(),
    lambda d: d.pop("caps"),
])
def test_malformed_data_is_refused_loudly(mutate) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(DataError):
        load(_broken(mutate))


def test_shipped_data_loads() -> None:
    assert load(raw()) == TABLES
