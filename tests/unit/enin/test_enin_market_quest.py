"""The Nigh Towns (market and key), Treasure, and the Quest Items chain."""

from __future__ import annotations

import pytest

from aggregates.enin import state as r
from aggregates.enin.commands import (
    AcceptRoll,
    Attack,
    AttemptQuest,
    Buy,
    ChooseTreasure,
    EndTurn,
    LeaveTown,
    Quest,
    StealKey,
)
from aggregates.enin.reasons import EninReason
from aggregates.enin.testing import act, d10, events, in_combat, new_game, rig
from aggregates.kernel import Reason, RuleError


def town(**state: object) -> object:
    return new_game(location=3, stage=r.TOWN, **state)


def refused(g, command, reason: Reason | EninReason) -> None:  # type: ignore[no-untyped-def]
    version = g.version
    with pytest.raises(RuleError) as e:
        g.act(0, command)
    assert e.value.reason == reason, (command, e.value)
    assert g.version == version


# ------------------------------------------------------------------ market

def test_healing_potion_gives_1_hp__rulebook_The_Nigh_Towns() -> None:
    g = town(gold=30, hp=5)
    assert act(g, Buy(item="potion_of_healing")) == ["ItemBought", "Healed", "TurnEnded"]
    assert (g.gold, g.hp, g.last_purchase, g.stage) == (20, 6, "potion_of_healing", r.TRAVEL)


def test_healing_potion_cures_poison_without_hp__ruling_Poison() -> None:
    g = town(gold=30, hp=5, poisoned=True)
    assert act(g, Buy(item="potion_of_healing")) == ["ItemBought", "PoisonCured", "TurnEnded"]
    assert g.hp == 5 and not g.poisoned


def test_fate_potion_gives_1_luck_capped__rulebook_The_Nigh_Towns() -> None:
    g = town(gold=30, luck=3)
    act(g, Buy(item="potion_of_fate"))
    assert (g.luck, g.gold) == (4, 15)
    g = town(gold=30, luck=10)
    act(g, Buy(item="potion_of_fate"))
    assert g.luck == 10


def test_strength_potions_stack_for_the_next_attack_only__ruling_Potion_of_Strength() -> None:
    g = town(gold=30)
    act(g, Buy(item="potion_of_strength"))
    g.stage, g.last_purchase = r.TOWN, "potion_of_fate"
    act(g, Buy(item="potion_of_strength"))
    assert g.strength_bonus == 2
    in_combat(g, {"att": 30})
    rig(g, *d10(1, 1))
    act(g, Attack())
    evs = events(g, AcceptRoll())
    assert evs[0].modifier == 2 and g.strength_bonus == 0


def test_map_is_kept__rulebook_The_Nigh_Towns() -> None:
    g = town(gold=45)
    act(g, Buy(item="map_of_enin"))
    assert g.map_held and g.gold == 5
    g.stage, g.gold, g.last_purchase = r.TOWN, 100, "potion_of_fate"
    refused(g, Buy(item="map_of_enin"), EninReason.ALREADY_HELD)


def test_no_same_item_twice_in_a_row_across_turns__rulebook_The_Nigh_Towns() -> None:
    g = town(gold=50)
    act(g, Buy(item="potion_of_healing"))
    g.stage = r.TOWN  # a later turn back in town
    refused(g, Buy(item="potion_of_healing"), EninReason.REPEAT_PURCHASE)
    assert Buy(item="potion_of_healing") not in g.legal_actions(0)
    act(g, Buy(item="potion_of_fate"))
    g.stage = r.TOWN
    act(g, Buy(item="potion_of_healing"))


def test_must_afford_the_item__rulebook_The_Nigh_Towns() -> None:
    g = town(gold=14)
    refused(g, Buy(item="potion_of_fate"), EninReason.NOT_ENOUGH_GOLD)
    assert g.legal_actions(0) == [
        Buy(item="potion_of_healing"), Buy(item="potion_of_strength"), StealKey(), LeaveTown()]


def test_unknown_market_item_is_bad_argument() -> None:
    refused(town(gold=100), Buy(item="POTION_OF_HEALING"), Reason.BAD_ARGUMENT)
    refused(town(gold=100), Buy(item="damask_sword"), Reason.BAD_ARGUMENT)


def test_buy_or_steal_not_both__rulebook_The_Nigh_Towns() -> None:
    g = town(gold=50)
    act(g, Buy(item="potion_of_healing"))
    refused(g, StealKey(), Reason.WRONG_PHASE)
    refused(g, Buy(item="potion_of_fate"), Reason.WRONG_PHASE)
    refused(g, LeaveTown(), Reason.WRONG_PHASE)
    refused(new_game(location=2, stage=r.QUESTING), Buy(item="potion_of_fate"),
            Reason.WRONG_PHASE)


@pytest.mark.parametrize("level,roll,success", [
    (1, 3, True), (1, 4, False), (2, 4, True), (2, 5, False), (3, 5, True), (3, 6, False),
])
def test_steal_key_ranges_per_level__rulebook_The_Nigh_Towns(
    level: int, roll: int, success: bool
) -> None:
    g = town(level=level, xp=[0, 0, 20, 40][level])
    rig(g, *d10(roll))
    names = act(g, StealKey())
    assert names == (["QuestAttempted", "QuestItemGained", "TurnEnded"] if success
                     else ["QuestAttempted", "TurnEnded"])
    assert ("key" in g.quest_items) == success


def test_steal_key_when_held_is_refused() -> None:
    g = town(quest_items=["key"])
    refused(g, StealKey(), EninReason.ALREADY_HELD)
    assert StealKey() not in g.legal_actions(0)


# ---------------------------------------------------------------- treasure

@pytest.mark.parametrize("roll,dice,amount", [
    (1, [(6, 3)], 3), (4, [(6, 6)], 6), (5, [(10, 7)], 7), (6, [(10, 10)], 10),
    (7, [(10, 4), (6, 2)], 6), (8, [(10, 1), (6, 1)], 2), (9, [(10, 9), (10, 8)], 17),
])
def test_treasure_gold_rows__rulebook_Treasure_Card(roll: int, dice: list, amount: int) -> None:
    g = new_game(location=5, stage=r.QUESTING, gold=90)
    rig(g, (10, 7), (10, roll), *dice)
    evs = events(g, Quest())
    found = next(e for e in evs if type(e).__name__ == "GoldFound")
    assert found.amount == amount and g.gold == min(100, 90 + amount)


def test_treasure_magic_item_choice__rulebook_Treasure_Card() -> None:
    g = new_game(location=5, stage=r.QUESTING, magic_items=["damask_sword"], hp=5, luck=9)
    rig(g, (10, 9), (10, 10))
    assert act(g, Quest()) == ["QuestRolled", "TreasureRolled"]  # the find enters the choice
    assert g.stage == r.CHOOSE_TREASURE
    assert [c.item for c in g.legal_actions(0)] == [  # type: ignore[attr-defined]
        "helm_of_vitality", "ring_of_reward", "shield_of_nines"]
    refused(g, ChooseTreasure(item="damask_sword"), EninReason.ALREADY_HELD)
    refused(g, ChooseTreasure(item="cloak"), Reason.BAD_ARGUMENT)
    act(g, ChooseTreasure(item="ring_of_reward"))
    assert g.luck == 10 and g.magic_items == ["damask_sword", "ring_of_reward"]


def test_helm_gives_2_hp_once__rulebook_Treasure_Helm() -> None:
    g = new_game(location=1, hp=5, stage=r.CHOOSE_TREASURE, treasure_choices=["helm_of_vitality"])
    act(g, ChooseTreasure(item="helm_of_vitality"))
    assert g.hp == 7


def test_all_four_items_held_means_nothing__ruling_Treasure() -> None:
    items = ["damask_sword", "helm_of_vitality", "ring_of_reward", "shield_of_nines"]
    g = new_game(location=5, stage=r.QUESTING, magic_items=items)
    rig(g, (10, 9), (10, 10))
    assert act(g, Quest()) == ["QuestRolled", "TreasureRolled", "TurnEnded"]


def test_monster_treasure_rolls_continue_after_a_choice__rulebook_Combat_treasure() -> None:
    g = new_game(location=1, hp=5, gold=0)
    in_combat(g, {"att": 2, "xp": "1", "treasure": 3})
    rig(g, *d10(5, 5, 10))
    act(g, Attack())
    assert act(g, AcceptRoll())[-1] == "TreasureRolled"
    assert g.treasure_left == 2 and g.stage == r.CHOOSE_TREASURE
    rig(g, (10, 1), (6, 4), (10, 2), (6, 5))
    names = act(g, ChooseTreasure(item="shield_of_nines"))
    assert names.count("GoldFound") == 2 and "EncounterEnded" in names
    assert g.gold == 9 and g.encounter is None and g.stage == r.TRAVEL


def test_choose_treasure_outside_treasure_is_wrong_phase() -> None:
    refused(new_game(location=1, stage=r.QUESTING), ChooseTreasure(item="damask_sword"),
            Reason.WRONG_PHASE)


# ------------------------------------------------------------------ quests

@pytest.mark.parametrize("location,held,item,ranges", [
    (2, [], "watchword", {1: 2, 2: 3, 3: 4}),
    (1, ["key", "watchword"], "maiden", {1: 3, 2: 5, 3: 6}),
    (4, ["key", "watchword", "maiden"], "lodestone", {1: 1, 2: 2, 3: 3}),
    (5, ["key", "watchword", "maiden", "lodestone"], "lost_book", {1: 1, 2: 2, 3: 3}),
])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_quest_attempt_ranges__rulebook_Location_Cards_quest_tables(
    location: int, held: list, item: str, ranges: dict, level: int
) -> None:
    for roll, success in ((ranges[level], True), (ranges[level] + 1, False)):
        g = new_game(location=location, stage=r.QUEST_ATTEMPT, quest_items=list(held),
                     level=level, xp=[0, 0, 20, 40][level])
        rig(g, *d10(roll))
        names = act(g, AttemptQuest())
        assert (item in g.quest_items) == success
        if success and item == "lost_book":
            assert names[-1] == "Ended" and g.outcome["result"] == "won"  # type: ignore[index]
        else:
            assert names[-1] == "TurnEnded" and g.stage == r.TRAVEL


def test_attempt_offered_after_the_action_when_items_held__rulebook_Questing_Phase() -> None:
    """The attempt waits after the action's last fact; no event of its own."""
    g = new_game(location=1, stage=r.QUESTING, quest_items=["key", "watchword"])
    rig(g, *d10(1))
    assert act(g, Quest()) == ["QuestRolled", "Rested"]
    assert g.stage == r.QUEST_ATTEMPT and g.pending()[0].kind == r.QUEST_ATTEMPT
    assert g.legal_actions(0) == [AttemptQuest(), EndTurn()]
    assert act(g, EndTurn()) == ["TurnEnded"]


def test_attempt_offered_after_a_won_fight__rulebook_Questing_Phase() -> None:
    g = new_game(location=2, hp=5)
    in_combat(g, {"att": 2, "xp": "1"})
    rig(g, *d10(5, 5))
    act(g, Attack())
    assert act(g, AcceptRoll())[-1] == "EncounterEnded"
    assert g.stage == r.QUEST_ATTEMPT and g.legal_actions(0) == [AttemptQuest(), EndTurn()]


def test_attempt_offered_after_flight__rulebook_Questing_Phase() -> None:
    from aggregates.enin.commands import Flee
    g = new_game(location=2, hp=5)
    in_combat(g, {"att": 30, "dam": "1"})
    rig(g, *d10(1, 1))
    act(g, Attack())
    act(g, AcceptRoll())
    assert act(g, Flee())[-1] == "Fled"
    assert g.stage == r.QUEST_ATTEMPT and g.legal_actions(0) == [AttemptQuest(), EndTurn()]


def test_no_items_no_attempt_turn_ends__rulebook_Questing_Phase() -> None:
    for location, held in ((1, ["key"]), (4, ["key", "watchword"]), (5, []), (2, ["watchword"])):
        g = new_game(location=location, stage=r.QUESTING, quest_items=held, hp=5)
        rig(g, *d10(4 if location == 1 else 8 if location == 2 else 7), (10, 1), (6, 1))
        if location == 4:
            g.stage = r.QUEST_ATTEMPT  # no rest on the Crags: check the guard directly
            refused(g, AttemptQuest(), EninReason.MISSING_QUEST_ITEM)
            continue
        act(g, Quest())
        assert g.stage == r.TRAVEL, (location, held)


def test_attempt_refusals__rulebook_Quest_Items() -> None:
    refused(new_game(location=1, stage=r.QUESTING, quest_items=["watchword"]), AttemptQuest(),
            EninReason.MISSING_QUEST_ITEM)
    refused(new_game(location=2, stage=r.QUESTING, quest_items=["watchword"]), AttemptQuest(),
            EninReason.ALREADY_HELD)
    refused(new_game(location=2, stage=r.QUESTING), AttemptQuest(), Reason.WRONG_PHASE)
    refused(new_game(location=3, stage=r.TOWN), AttemptQuest(), Reason.WRONG_PHASE)
    refused(new_game(location=2, stage=r.TRAVEL), AttemptQuest(), Reason.WRONG_PHASE)
    refused(new_game(location=2, stage=r.QUESTING), EndTurn(), Reason.WRONG_PHASE)


def test_town_with_no_gold_says_why_nothing_can_be_bought__rulebook_The_Nigh_Towns() -> None:
    """Issue 23: in the Nigh Towns with too little gold the menu offered only the
    Key and leaving, and nothing said why. The prompt (and the screen's "Now")
    now says it, with the price of the cheapest item."""
    g = town(gold=0)
    assert not [c for c in g.legal_actions(0) if isinstance(c, Buy)]
    prompt = g.pending()[0].prompt
    assert "with 0 gold nothing can be bought (the cheapest item costs" in prompt
    assert prompt.endswith("try to steal the Key, or leave")
    now = g.present(0).to_json()["sections"][0]["items"][0]["text"]
    assert "nothing can be bought" in now
    rich = town(gold=50)
    assert rich.pending()[0].prompt == r.PROMPTS[r.TOWN]
