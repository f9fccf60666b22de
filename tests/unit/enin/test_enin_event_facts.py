"""Issue 9, item 7: each Enin event states its whole fact, so a reader folding
the events needs no rules and no tables to follow the Character Card.

Every test plays one rule and reads the fact from the event itself, never from
the game's state; ``tests/property/test_event_facts.py`` folds whole games.
"""

from __future__ import annotations

from typing import Any

from aggregates.enin import state as r
from aggregates.enin.commands import AcceptRoll, Attack, Buy, ChooseTreasure, Quest, SpendLuck
from aggregates.enin.testing import d10, events, in_combat, new_game, rig
from aggregates.kernel import payload_of

ALL_FOUR = ["damask_sword", "shield_of_nines", "helm_of_vitality", "ring_of_reward"]


def payload(evs: list[Any], name: str) -> dict[str, Any]:
    return payload_of(next(e for e in evs if type(e).__name__ == name))


def test_buying_the_map_says_the_map_is_gained__rulebook_The_Nigh_Towns() -> None:
    """"Map of Enin (move to any location) - 40g": the purchase says the Map is
    now held; a potion's purchase says it is not kept."""
    g = new_game(location=3, stage=r.TOWN, gold=60)
    bought = payload(events(g, Buy(item="map_of_enin")), "ItemBought")
    assert bought == {"item": "map_of_enin", "price": 40, "gold": 20, "gains_map": True}
    g = new_game(location=3, stage=r.TOWN, gold=60)
    bought = payload(events(g, Buy(item="potion_of_fate")), "ItemBought")
    assert bought["gains_map"] is False and bought["gold"] == 45


def test_an_exchange_says_the_strength_potion_is_spent__rulebook_The_Nigh_Towns() -> None:
    """"Potion of strength (+1 attack, single use)": the exchange that uses it
    states the bonus left (0), won or lost."""
    for att, name in ((2, "ExchangeWon"), (20, "ExchangeLost")):
        g = in_combat(new_game(location=1, strength_bonus=1), {"att": att})
        rig(g, *d10(3, 4, 1, 1, 1))
        events(g, Attack())
        fact = payload(events(g, AcceptRoll()), name)
        assert fact["strength_bonus"] == 0 and fact["modifier"] == 1
        assert g.strength_bonus == 0


def test_attack_and_xp_dice_say_rolled_and_counted_alike__rulebook_Luck() -> None:
    """"Luck allows you to add or subtract points from the final result of a
    roll": an exchange and an XP gain both state the dice as rolled
    (``rolled``) and as counted after luck (``dice``)."""
    g = in_combat(new_game(location=1, luck=5), {"att": 2, "xp": "1D10"})
    rig(g, *d10(3, 4, 6))
    events(g, Attack())
    events(g, SpendLuck(die=1, amount=2))
    won = payload(events(g, AcceptRoll()), "ExchangeWon")
    assert (won["rolled"], won["dice"], won["total"]) == ([3, 4], [3, 6], 9)
    events(g, SpendLuck(die=0, amount=-2))
    gained = payload(events(g, AcceptRoll()), "XpGained")
    assert (gained["rolled"], gained["dice"], gained["amount"]) == ([6], [4], 4)


def test_fixed_xp_dice_are_rolled_and_counted_the_same__rulebook_Encounter_Cards_XP() -> None:
    """XP rolled on dice luck cannot touch: as rolled is as counted."""
    g = in_combat(new_game(location=1), {"att": 2, "xp": "3D6"})
    rig(g, *d10(5, 5), (6, 1), (6, 2), (6, 3))
    events(g, Attack())
    gained = payload(events(g, AcceptRoll()), "XpGained")
    assert gained["rolled"] == gained["dice"] == [1, 2, 3] and gained["amount"] == 6


def test_a_magic_find_with_all_four_held_says_nothing_is_found__rulebook_Treasure() -> None:
    """"You may only ever own one of each item at a time": with all four held,
    the magic find offers no choice, and the roll says so."""
    g = new_game(location=5, stage=r.QUESTING, magic_items=list(ALL_FOUR))
    rig(g, (10, 8), (10, 10))
    evs = events(g, Quest())
    assert [type(e).__name__ for e in evs] == ["QuestRolled", "TreasureRolled", "TurnEnded"]
    assert payload(evs, "TreasureRolled") == {
        "roll": 10, "find": "magic_item", "left": 0, "choices": []}
    g = new_game(location=5, stage=r.QUESTING, magic_items=ALL_FOUR[:3])
    rig(g, (10, 8), (10, 10))
    evs = events(g, Quest())
    assert payload(evs, "TreasureRolled")["choices"] == ["ring_of_reward"]


def test_the_imp_says_what_it_may_take__rulebook_Lost_Wastes_Trap() -> None:
    """"5-6 Imp (lose 1 magic item)": the trap names the items it may take
    (the player picks one); with none held it names none and takes nothing."""
    g = new_game(location=5, stage=r.QUESTING, magic_items=["damask_sword", "ring_of_reward"])
    rig(g, (10, 10), (6, 5))
    sprung = payload(events(g, Quest()), "TrapSprung")
    assert sprung == {"roll": 5, "trap": "imp", "takeable": ["damask_sword", "ring_of_reward"]}
    g = new_game(location=5, stage=r.QUESTING)
    rig(g, (10, 10), (6, 5))
    assert payload(events(g, Quest()), "TrapSprung")["takeable"] == []
    g = new_game(location=5, stage=r.QUESTING, magic_items=["damask_sword"])
    rig(g, (10, 10), (6, 3))
    assert payload(events(g, Quest()), "TrapSprung")["takeable"] == []  # a spiked pit


def test_potions_state_their_plus_one_and_the_value_after__rulebook_The_Nigh_Towns() -> None:
    """"Potion effects are instantaneous": each states its +1 and the track after
    (capped: 10 HP stay 10)."""
    cases = (("potion_of_healing", "Healed", {"hp": 10}, {"hp": 10, "amount": 1}),
             ("potion_of_fate", "LuckGained", {"luck": 4}, {"luck": 5, "amount": 1}),
             ("potion_of_strength", "Strengthened", {}, {"bonus": 1, "amount": 1}))
    for item, name, state, fact in cases:
        g = new_game(location=3, stage=r.TOWN, gold=30, **state)
        assert payload(events(g, Buy(item=item)), name) == fact


def test_levels_and_items_state_what_they_give__rulebook_Levelling_Up_and_Treasure() -> None:
    """A level states the HP it gives; the Helm its +2 HP, the Ring its +2 luck."""
    g = in_combat(new_game(location=1, hp=5, xp=18), {"att": 2, "xp": "3"})
    rig(g, *d10(5, 5))
    events(g, Attack())
    level = payload(events(g, AcceptRoll()), "LevelGained")
    assert level == {"level": 2, "hp": 6, "hp_gained": 1}
    g = new_game(stage=r.CHOOSE_TREASURE, treasure_choices=["helm_of_vitality"], hp=9,
                 location=1)
    chosen = payload(events(g, ChooseTreasure(item="helm_of_vitality")), "MagicItemChosen")
    assert chosen == {"item": "helm_of_vitality", "hp": 10, "luck": g.luck, "hp_gained": 2,
                      "luck_gained": 0}


def test_a_void_find_and_an_empty_handed_imp_are_told__rulebook_Treasure_and_Lost_Wastes() -> None:
    """The sentences say what the facts say: nothing found with all four held,
    nothing taken with no item held; an old event (``null``) reads as before."""
    from aggregates.enin import Enin

    find = {"roll": 10, "find": "magic_item", "left": 0}
    assert "you hold all four" in Enin.describe("TreasureRolled", {**find, "choices": []}, [])
    assert "all four" not in Enin.describe("TreasureRolled", {**find, "choices": None}, [])
    imp = {"roll": 5, "trap": "imp"}
    assert "no magic item" in Enin.describe("TrapSprung", {**imp, "takeable": []}, [])
    assert "no magic item" not in Enin.describe("TrapSprung", {**imp, "takeable": None}, [])
