"""The Questing Phase: every row of every Location Card, and the traps."""

from __future__ import annotations

import pytest

from aggregates.enin import state as r
from aggregates.enin.commands import LeaveTown, LoseItem, Quest
from aggregates.enin.data import TABLES
from aggregates.enin.reasons import EninReason
from aggregates.enin.testing import act, d10, new_game, rig
from aggregates.kernel import Reason, RuleError

CHART = [
    # (location, roll, first events, stage after)
    (1, 1, ["QuestRolled", "Rested"], r.TRAVEL),
    (1, 4, ["QuestRolled", "Rested"], r.TRAVEL),
    (1, 5, ["QuestRolled", "MonsterMet"], r.COMBAT),
    (1, 9, ["QuestRolled", "MonsterMet"], r.COMBAT),
    (2, 1, ["QuestRolled", "MonsterMet"], r.COMBAT),
    (2, 4, ["QuestRolled", "MonsterMet"], r.COMBAT),
    (2, 6, ["QuestRolled", "Robbed"], r.QUEST_ATTEMPT),
    (2, 8, ["QuestRolled", "Rested"], r.QUEST_ATTEMPT),
    (4, 1, ["QuestRolled", "MonsterMet"], r.COMBAT),
    (4, 4, ["QuestRolled", "MonsterMet"], r.COMBAT),
    (4, 8, ["QuestRolled", "MonsterMet"], r.COMBAT),
    (5, 1, ["QuestRolled", "MonsterMet"], r.COMBAT),
    (5, 3, ["QuestRolled", "MonsterMet"], r.COMBAT),
    (5, 7, ["QuestRolled", "TreasureRolled"], None),
    (5, 10, ["QuestRolled", "TrapSprung"], None),
]


@pytest.mark.parametrize("location,roll,first,stage", CHART)
def test_location_chart_rows__rulebook_Location_Cards(
    location: int, roll: int, first: list, stage: str | None
) -> None:
    g = new_game(location=location, stage=r.QUESTING, hp=5)
    rig(g, *d10(roll))
    names = act(g, Quest())
    assert names[:2] == first
    if stage:
        assert g.stage == stage


@pytest.mark.parametrize("location,roll,card", [
    (1, 5, "encounter_1"), (1, 9, "encounter_2"), (2, 3, "encounter_1"), (2, 5, "encounter_2"),
    (4, 7, "encounter_1"), (4, 10, "encounter_2"), (5, 2, "encounter_1"), (5, 6, "encounter_2"),
])
def test_encounter_rows_roll_on_the_right_card__rulebook_Combat(
    location: int, roll: int, card: str
) -> None:
    g = new_game(location=location, stage=r.QUESTING)
    rig(g, *d10(roll, 1))
    act(g, Quest())
    assert g.encounter is not None and g.encounter["card"] == card
    assert g.encounter["monster"]["name"] == TABLES.encounter_cards[card][1][0].name


def test_crags_dragon_needs_no_monster_roll__rulebook_Dragon() -> None:
    g = new_game(location=4, stage=r.QUESTING)
    rig(g, *d10(2))
    evs = g.act(0, Quest()) or g.collect_events()
    met = evs[1]
    assert met.monster["name"] == "Dragon" and met.roll is None
    assert len(evs[0].meta["draws"]) == 1 and met.meta["draws"] == []


def test_rest_gains_1_hp_capped_at_10__rulebook_Iron_Hills() -> None:
    g = new_game(location=1, stage=r.QUESTING, hp=6)
    rig(g, *d10(2))
    act(g, Quest())
    assert g.hp == 7
    g = new_game(location=1, stage=r.QUESTING, hp=10)
    rig(g, *d10(2))
    act(g, Quest())
    assert g.hp == 10


def test_bandits_steal_2d10_gold_floor_0__rulebook_Wood_of_Wyr() -> None:
    g = new_game(location=2, stage=r.QUESTING, gold=50)
    rig(g, *d10(6, 3, 4))
    act(g, Quest())
    assert g.gold == 43
    g = new_game(location=2, stage=r.QUESTING, gold=5)
    rig(g, *d10(7, 9, 9))
    evs = g.act(0, Quest()) or g.collect_events()
    assert g.gold == 0 and evs[1].amount == 18 and evs[1].dice == [9, 9]


def test_wastes_treasure_roll_gold__rulebook_Lost_Wastes_7_9() -> None:
    g = new_game(location=5, stage=r.QUESTING, gold=10)
    rig(g, (10, 8), (10, 1), (6, 2))
    act(g, Quest())
    assert g.gold == 12
    assert g.stage == r.TRAVEL  # no Lodestone: the turn ends


def test_trap_poison_gas_poisons__rulebook_Lost_Wastes_Trap() -> None:
    g = new_game(location=5, stage=r.QUESTING)
    rig(g, (10, 10), (6, 1))
    assert act(g, Quest()) == ["QuestRolled", "TrapSprung", "Poisoned", "TurnEnded"]
    assert g.poisoned


def test_trap_poison_gas_resisted_by_helm__rulebook_Treasure_Helm() -> None:
    g = new_game(location=5, stage=r.QUESTING, magic_items=["helm_of_vitality"])
    rig(g, (10, 10), (6, 2))
    assert "Poisoned" not in act(g, Quest())
    assert not g.poisoned


def test_trap_spiked_pit_costs_2_hp__rulebook_Lost_Wastes_Trap() -> None:
    g = new_game(location=5, stage=r.QUESTING, hp=6)
    rig(g, (10, 10), (6, 3))
    act(g, Quest())
    assert g.hp == 4


def test_trap_spiked_pit_can_kill__rulebook_HP_0() -> None:
    g = new_game(location=5, stage=r.QUESTING, hp=2)
    rig(g, (10, 10), (6, 4))
    names = act(g, Quest())
    assert names[-1] == "Ended" and "TurnEnded" not in names
    assert g.outcome == {"result": "lost", "reason": "HP fell to 0", "turns": 1}
    assert g.legal_actions(0) == [] and g.pending() == []


def test_trap_imp_takes_an_item_of_your_choice__rulebook_Lost_Wastes_Trap() -> None:
    g = new_game(location=5, stage=r.QUESTING, magic_items=["damask_sword", "ring_of_reward"])
    rig(g, (10, 10), (6, 5))
    assert act(g, Quest()) == ["QuestRolled", "TrapSprung"]  # the trap names the Imp's choice
    assert g.stage == r.LOSE_ITEM
    assert g.legal_actions(0) == [LoseItem(item="damask_sword"), LoseItem(item="ring_of_reward")]
    with pytest.raises(RuleError) as e:
        g.act(0, LoseItem(item="shield_of_nines"))
    assert e.value.reason == EninReason.NOT_HELD
    with pytest.raises(RuleError) as e:
        g.act(0, LoseItem(item="excalibur"))
    assert e.value.reason == Reason.BAD_ARGUMENT
    assert act(g, LoseItem(item="ring_of_reward")) == ["ItemLost", "TurnEnded"]
    assert g.magic_items == ["damask_sword"]


def test_trap_imp_with_one_item_is_still_a_decision__ruling_Imp() -> None:
    g = new_game(location=5, stage=r.QUESTING, magic_items=["shield_of_nines"])
    rig(g, (10, 10), (6, 6))
    act(g, Quest())
    assert g.legal_actions(0) == [LoseItem(item="shield_of_nines")]


def test_trap_imp_with_no_item_does_nothing__ruling_Imp() -> None:
    g = new_game(location=5, stage=r.QUESTING)
    rig(g, (10, 10), (6, 5))
    assert act(g, Quest()) == ["QuestRolled", "TrapSprung", "TurnEnded"]


def test_lose_item_outside_imp_is_wrong_phase() -> None:
    g = new_game(location=5, stage=r.QUESTING, magic_items=["damask_sword"])
    with pytest.raises(RuleError) as e:
        g.act(0, LoseItem(item="damask_sword"))
    assert e.value.reason == Reason.WRONG_PHASE


def test_quest_roll_refused_in_nigh_towns__rulebook_The_Nigh_Towns() -> None:
    g = new_game(location=3, stage=r.TOWN)
    with pytest.raises(RuleError) as e:
        g.act(0, Quest())
    assert e.value.reason == Reason.WRONG_PHASE
    assert act(g, LeaveTown()) == ["TownLeft", "TurnEnded"]
    assert g.turn == 2 and g.stage == r.TRAVEL
