"""Review findings: every printed table checked value by value, the roll-stage menu
order, and view details (the Shield's state, the XP roll in the outcome line)."""

from __future__ import annotations

import pytest

from aggregates.enin import state as r
from aggregates.enin.commands import AcceptRoll, Attack, Quest, Reroll, SpendLuck
from aggregates.enin.data import TABLES, lookup
from aggregates.enin.testing import act, d10, in_combat, new_game, rig

# ------------------------------------------------- the rulebook, as printed

# (roll range, name, ATT, DAM, green, XP, flee HP, treasure x) per card and level band.
ENCOUNTER_CARDS = {
    "encounter_1": {
        1: [((1, 4), "Banehound", 7, "1", False, "1", 0, 0),
            ((5, 8), "Minotaur", 8, "1", False, "2", 0, 0),
            ((9, 10), "Reaver", 9, "D2", True, "1D3", 0, 1)],
        2: [((1, 4), "Rock Golem", 9, "1", False, "1D2", 0, 0),
            ((5, 8), "Bone Jelly", 10, "2", False, "1D5", 0, 0),
            ((9, 10), "Thyreme", 11, "D2", False, "1D6", 0, 1)],
        3: [((1, 4), "Shadowmage", 12, "2", False, "1D10", 0, 0),
            ((5, 8), "Wyrm", 12, "D2", True, "2D6", 0, 0),
            ((9, 10), "Leucomance", 13, "D3", False, "3D6", 1, 2)],
    },
    "encounter_2": {
        1: [((1, 3), "Clansman", 9, "1", False, "2", 0, 0),
            ((4, 6), "Ghoul", 10, "2", False, "1D3", 0, 0),
            ((7, 10), "Withe", 11, "D3", True, "1D3", 0, 1)],
        2: [((1, 3), "Djin", 11, "2", False, "1D5", 0, 0),
            ((4, 6), "Creeper", 12, "2", True, "1D5", 0, 0),
            ((7, 10), "Shrike", 12, "D3", False, "1D6", 1, 1)],
        3: [((1, 3), "Dolomorph", 13, "D2", False, "1D10", 0, 0),
            ((4, 6), "Wyvern", 14, "D3", True, "2D6", 0, 0),
            ((7, 10), "Gorgon", 14, "D6", False, "3D6", 2, 2)],
    },
}

# location -> (chart rows as (range, action, detail), quest item, ranges for L1..L3)
LOCATIONS = {
    1: ([((1, 4), "rest", 1), ((5, 8), "encounter", "encounter_1"),
         ((9, 10), "encounter", "encounter_2")], "maiden", [(1, 3), (1, 5), (1, 6)]),
    2: ([((1, 3), "encounter", "encounter_1"), ((4, 5), "encounter", "encounter_2"),
         ((6, 7), "bandits", "2D10"), ((8, 10), "rest", 1)], "watchword",
        [(1, 2), (1, 3), (1, 4)]),
    3: ([], "key", [(1, 3), (1, 4), (1, 5)]),
    4: ([((1, 3), "monster", "dragon"), ((4, 7), "encounter", "encounter_1"),
         ((8, 10), "encounter", "encounter_2")], "lodestone", [(1, 1), (1, 2), (1, 3)]),
    5: ([((1, 2), "encounter", "encounter_1"), ((3, 6), "encounter", "encounter_2"),
         ((7, 9), "treasure", 1), ((10, 10), "trap", "1D6")], "lost_book",
        [(1, 1), (1, 2), (1, 3)]),
}


def _dice(text: str) -> tuple[tuple[int, ...], int]:
    from aggregates.enin.data import Dice
    d = Dice.parse(text)
    return d.sides, d.bonus


def _detail(row) -> object:  # type: ignore[no-untyped-def]
    if row.action == "rest":
        return row.hp
    if row.action == "encounter":
        return row.card
    if row.action == "monster":
        return row.monster
    if row.action == "treasure":
        return row.count
    assert row.dice is not None
    return row.dice.text


@pytest.mark.parametrize("card", sorted(ENCOUNTER_CARDS))
@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_encounter_row_transcribed_value_by_value__rulebook_Encounter_Cards(
    card: str, level: int
) -> None:
    printed = ENCOUNTER_CARDS[card][level]
    rows = TABLES.encounter_cards[card][level]
    assert len(rows) == len(printed)
    for m, (rng, name, att, dam, green, xp, flee, treasure) in zip(rows, printed, strict=True):
        assert (m.roll.low, m.roll.high) == rng, name
        assert (m.name, m.att, m.poisons, m.flee, m.treasure) == (
            name, att, green, flee, treasure)
        assert (m.dam.sides, m.dam.bonus) == _dice(dam), name
        assert (m.xp.sides, m.xp.bonus) == _dice(xp), name


def test_dragon_transcribed__rulebook_Dragon() -> None:
    d = TABLES.monsters["dragon"]
    assert ((d.roll.low, d.roll.high), d.name, d.att, d.poisons, d.flee, d.treasure) == (
        (1, 3), "Dragon", 16, False, 1, 3)
    assert (d.dam.sides, d.dam.bonus) == ((), 3) and d.xp.sides == (6, 6, 6, 6)


@pytest.mark.parametrize("number", sorted(LOCATIONS))
def test_every_location_card_transcribed__rulebook_Location_Cards(number: int) -> None:
    chart, item, ranges = LOCATIONS[number]
    loc = TABLES.location(number)
    assert [((row.roll.low, row.roll.high), row.action, _detail(row)) for row in loc.chart] \
        == chart
    assert loc.quest.item == item
    assert [(loc.quest.ranges[lv].low, loc.quest.ranges[lv].high) for lv in (1, 2, 3)] == ranges


def test_quest_prerequisites__rulebook_Location_Cards_quest_text() -> None:
    requires = {TABLES.location(n).quest.item: set(TABLES.location(n).quest.requires)
                for n in LOCATIONS}
    assert requires == {"key": set(), "watchword": set(), "maiden": {"key", "watchword"},
                        "lodestone": {"maiden"}, "lost_book": {"lodestone"}}


def test_traps_treasure_items_market_start_transcribed__rulebook_tables() -> None:
    assert [((t.roll.low, t.roll.high), t.trap, t.hp) for t in TABLES.traps] == [
        ((1, 2), "poison_gas", 0), ((3, 4), "spiked_pit", 2), ((5, 6), "imp", 0)]
    assert TABLES.trap_dice.sides == (6,)
    assert [((t.roll.low, t.roll.high), t.find, t.dice.sides if t.dice else None)
            for t in TABLES.treasure] == [
        ((1, 4), "gold", (6,)), ((5, 6), "gold", (10,)), ((7, 8), "gold", (10, 6)),
        ((9, 9), "gold", (10, 10)), ((10, 10), "magic_item", None)]
    assert {k: (m.attack, m.hp, m.luck, m.poison_resist, m.reroll)
            for k, m in TABLES.magic_items.items()} == {
        "damask_sword": (2, 0, 0, False, False), "helm_of_vitality": (0, 2, 0, True, False),
        "ring_of_reward": (0, 0, 2, False, False), "shield_of_nines": (0, 0, 0, False, True)}
    assert {k: (m.price, m.effect) for k, m in TABLES.market.items()} == {
        "potion_of_healing": (10, "heal"), "potion_of_strength": (10, "strength"),
        "potion_of_fate": (15, "luck"), "map_of_enin": (40, "map")}
    assert [((rng.low, rng.high), loc) for rng, loc in TABLES.start_table] == [
        ((1, 4), 1), ((5, 6), 2), ((7, 8), 3), ((9, 10), 4)]
    assert [(lv.level, lv.xp, lv.attack_bonus, lv.hp_bonus) for lv in TABLES.levels] == [
        (1, 0, 0, 0), (2, 20, 1, 1), (3, 40, 1, 1)]
    assert (TABLES.setup_hp.sides, TABLES.setup_hp.bonus) == ((6,), 4)
    assert (TABLES.setup_luck.sides, TABLES.setup_luck.bonus) == ((6,), 0)
    assert TABLES.poison_attack_penalty == 1 and TABLES.gold_min == 0
    assert lookup(TABLES.treasure, 10).find == "magic_item"


# ------------------------------------------------------- roll-stage menu

def _expected_roll_menu(luck: int, values: list[int], shield: bool) -> set[object]:
    menu: set[object] = {AcceptRoll()}
    if shield:
        menu |= {Reroll(die=i) for i in range(len(values))}
    for i, v in enumerate(values):
        menu |= {SpendLuck(die=i, amount=a) for a in range(-min(luck, v), luck + 1) if a}
    return menu


@pytest.mark.parametrize("luck,shield", [(0, False), (3, False), (2, True), (10, True)])
def test_roll_stage_lists_accept_roll_first_and_stays_complete__rulebook_Luck(
    luck: int, shield: bool
) -> None:
    """Standing on the dice is option 1; every luck amount and re-roll is still listed."""
    g = new_game(location=1, hp=8, luck=luck,
                 magic_items=["shield_of_nines"] if shield else [])
    in_combat(g, {"att": 30, "xp": "1D10"})
    rig(g, *d10(2, 9))
    act(g, Attack())
    legal = g.legal_actions(0)
    assert legal[0] == AcceptRoll()
    assert len(legal) == len(set(legal))
    assert set(legal) == _expected_roll_menu(luck, [2, 9], shield)
    if shield:
        assert legal[1:3] == [Reroll(die=0), Reroll(die=1)]
    if luck:  # adding luck comes before taking it off
        spends = [a for a in legal if isinstance(a, SpendLuck) and a.die == 0]
        assert spends[0] == SpendLuck(die=0, amount=1)
    assert g.pending()[0].prompt.startswith("Combat: stand on the attack dice")


def test_xp_roll_stage_lists_accept_roll_first__rulebook_Luck() -> None:
    g = new_game(location=1, hp=8, luck=2, magic_items=["shield_of_nines"])
    in_combat(g, {"att": 2, "xp": "1D10"})
    rig(g, *d10(5, 5, 3))
    act(g, Attack())
    act(g, AcceptRoll())
    assert g.stage == r.XP_ROLL
    legal = g.legal_actions(0)
    assert legal[0] == AcceptRoll()
    assert set(legal) == _expected_roll_menu(2, [3], True)


# -------------------------------------------------------------------- view

def test_view_shows_the_shield_ready_again_after_the_encounter__rulebook_Shield_of_Nines() -> None:
    """"Once during an encounter": once the encounter is over the view must not report
    the Shield as spent (it is ready for the next one)."""
    g = new_game(location=1, hp=8, magic_items=["shield_of_nines"])
    in_combat(g, {"att": 2, "xp": "1"})
    rig(g, *d10(5, 5, 6))
    act(g, Attack())
    act(g, Reroll(die=0))
    assert g.view(0)["shield_used"] is True
    act(g, AcceptRoll())
    assert g.encounter is None and g.stage == r.TRAVEL
    assert g.view(0)["shield_used"] is False


def test_view_outcome_line_reports_the_xp_roll__rulebook_Combat_XP() -> None:
    g = new_game(location=1, hp=8)
    in_combat(g, {"att": 2, "xp": "1D10"})
    rig(g, *d10(5, 5, 7))
    act(g, Attack())
    act(g, AcceptRoll())
    assert "XP roll 7" in g.view(0)["last_outcome"]


def test_quest_roll_from_town_is_wrong_phase_not_listed() -> None:
    g = new_game(location=3, stage=r.TOWN)
    assert Quest() not in g.legal_actions(0)
