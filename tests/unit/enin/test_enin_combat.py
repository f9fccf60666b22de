"""Combat, Luck, the Shield of Nines, XP and Levelling Up."""

from __future__ import annotations

import pytest

from aggregates.enin import state as r
from aggregates.enin.commands import AcceptRoll, Attack, Flee, Quest, Reroll, SpendLuck
from aggregates.enin.data import TABLES
from aggregates.enin.reasons import EninReason
from aggregates.enin.testing import act, d10, events, in_combat, new_game, rig
from aggregates.kernel import Reason, RuleError

MONSTERS = [
    (card, level, roll, m.name)
    for card, bands in TABLES.encounter_cards.items()
    for level, band in bands.items()
    for m in band
    for roll in (m.roll.low, m.roll.high)
]


@pytest.mark.parametrize("card,level,roll,name", MONSTERS)
def test_every_encounter_row_is_met_at_its_level__rulebook_Encounter_Cards(
    card: str, level: int, roll: int, name: str
) -> None:
    location, chart_roll = (1, 5) if card == "encounter_1" else (1, 9)
    g = new_game(location=location, stage=r.QUESTING, level=level, xp=[0, 0, 20, 40][level])
    rig(g, *d10(chart_roll, roll))
    act(g, Quest())
    assert g.encounter is not None
    assert g.encounter["monster"]["name"] == name and g.encounter["level"] == level
    assert g.legal_actions(0) == [Attack()]


def fight(hp: int = 8, **monster: object) -> object:
    g = new_game(location=1, hp=hp)
    return in_combat(g, dict(monster))


def test_attack_rolls_2d10_then_waits__rulebook_Combat() -> None:
    g = fight()
    rig(g, *d10(3, 4))
    assert act(g, Attack()) == ["AttackRolled"]
    assert g.stage == r.ATTACK_ROLL
    assert [d["value"] for d in g.view(0)["dice"]] == [3, 4]
    assert AcceptRoll() in g.legal_actions(0)


def test_win_when_total_equals_att__rulebook_Combat() -> None:
    g = fight(att=7, xp="2")
    rig(g, *d10(3, 4))
    act(g, Attack())
    names = act(g, AcceptRoll())
    assert names[:2] == ["ExchangeWon", "XpGained"] and "EncounterEnded" in names
    assert g.xp == 2 and g.encounter is None and g.stage == r.TRAVEL


def test_loss_costs_dam_hp_then_fight_or_flee__rulebook_Combat() -> None:
    g = fight(hp=8, att=8, dam="2")
    rig(g, *d10(3, 4))
    act(g, Attack())
    assert act(g, AcceptRoll()) == ["ExchangeLost"]
    assert g.hp == 6 and g.stage == r.FIGHT_OR_FLEE
    assert g.legal_actions(0) == [Attack(), Flee()]


def test_rolled_damage_is_recorded__rulebook_Encounter_Cards_DAM() -> None:
    g = fight(hp=8, att=20, dam="1D6")
    rig(g, *d10(1, 1), (6, 5))
    act(g, Attack())
    evs = events(g, AcceptRoll())
    assert evs[0].damage_dice == [5] and evs[0].damage == 5 and g.hp == 3


def test_green_dam_poisons__rulebook_Combat() -> None:
    g = fight(att=20, dam="1", poisons=True)
    rig(g, *d10(1, 1))
    act(g, Attack())
    assert act(g, AcceptRoll()) == ["ExchangeLost", "Poisoned"]
    assert g.poisoned


def test_poison_not_cumulative_and_minus_1_attack__rulebook_Combat() -> None:
    g = fight(att=20, dam="1", poisons=True)
    g.poisoned = True
    rig(g, *d10(5, 5))
    act(g, Attack())
    evs = events(g, AcceptRoll())
    assert [type(e).__name__ for e in evs] == ["ExchangeLost"]
    assert evs[0].total == 9 and evs[0].modifier == -1


def test_helm_prevents_poison__rulebook_Treasure_Helm_of_Vitality() -> None:
    g = fight(att=20, dam="1", poisons=True)
    g.magic_items = ["helm_of_vitality"]
    rig(g, *d10(1, 1))
    act(g, Attack())
    assert act(g, AcceptRoll()) == ["ExchangeLost"]
    assert not g.poisoned


def test_helm_does_not_cure_poison__ruling_Helm() -> None:
    from aggregates.enin.commands import ChooseTreasure
    g = new_game(location=1, poisoned=True, stage=r.CHOOSE_TREASURE,
                 treasure_choices=["helm_of_vitality"])
    act(g, ChooseTreasure(item="helm_of_vitality"))
    assert g.poisoned


def test_death_at_hp_0_ends_the_game__rulebook_Combat() -> None:
    g = fight(hp=2, att=20, dam="3")
    rig(g, *d10(1, 1))
    act(g, Attack())
    assert act(g, AcceptRoll()) == ["ExchangeLost", "Ended"]
    assert g.hp == 0 and g.ended and g.outcome["result"] == "lost"  # type: ignore[index]
    with pytest.raises(RuleError) as e:
        g.act(0, Attack())
    assert e.value.reason == Reason.GAME_OVER


def test_attack_modifiers_level_sword_strength_poison__rulebook_Combat_Levelling_Up() -> None:
    g = fight(att=30, dam="1")
    g.level, g.xp = 3, 45
    g.magic_items = ["damask_sword"]
    g.strength_bonus = 2
    g.poisoned = True
    rig(g, *d10(4, 4))
    act(g, Attack())
    evs = events(g, AcceptRoll())
    assert evs[0].modifier == 2 + 2 + 2 - 1 and evs[0].total == 8 + 5
    assert g.strength_bonus == 0  # consumed by the accepted attack


def test_strength_bonus_is_spent_on_a_win_too__ruling_Potion_of_Strength() -> None:
    g = fight(att=9, xp="1")
    g.strength_bonus = 1
    rig(g, *d10(4, 4))
    act(g, Attack())
    act(g, AcceptRoll())
    assert g.strength_bonus == 0 and g.xp == 1


def test_luck_adds_or_subtracts_on_a_d10__rulebook_Luck() -> None:
    g = fight(att=12, xp="1")
    g.luck = 5
    rig(g, *d10(5, 4))
    act(g, Attack())
    assert act(g, SpendLuck(die=0, amount=3)) == ["LuckSpent"]
    assert g.luck == 2 and g.view(0)["dice"][0]["value"] == 8
    act(g, SpendLuck(die=1, amount=-1))
    assert g.luck == 1 and g.view(0)["dice"][1]["value"] == 3
    act(g, AcceptRoll())
    assert g.xp == 0  # 8 + 3 = 11 < 12


def test_luck_refusals__rulebook_Luck() -> None:
    g = fight()
    g.luck = 2
    rig(g, *d10(1, 9))
    act(g, Attack())
    cases = [
        (SpendLuck(die=0, amount=3), EninReason.NOT_ENOUGH_LUCK),
        (SpendLuck(die=0, amount=-3), EninReason.NOT_ENOUGH_LUCK),
        (SpendLuck(die=0, amount=0), Reason.BAD_ARGUMENT),
        (SpendLuck(die=0, amount=-2), Reason.ILLEGAL_MOVE),  # below 0
        (SpendLuck(die=2, amount=1), EninReason.NO_SUCH_DIE),
        (SpendLuck(die=-1, amount=1), EninReason.NO_SUCH_DIE),
    ]
    for command, reason in cases:
        version = g.version
        with pytest.raises(RuleError) as e:
            g.act(0, command)
        assert e.value.reason == reason, command
        assert g.version == version
    act(g, SpendLuck(die=0, amount=-1))  # down to exactly 0 is fine
    act(g, SpendLuck(die=1, amount=1))  # no upper cap: 10
    assert [d["value"] for d in g.view(0)["dice"]] == [0, 10]


def test_luck_outside_combat_roll_is_wrong_phase__ruling_Luck() -> None:
    g = new_game(location=1, stage=r.QUESTING, luck=5)
    for command in (SpendLuck(die=0, amount=1), Reroll(die=0), AcceptRoll()):
        with pytest.raises(RuleError) as e:
            g.act(0, command)
        assert e.value.reason == Reason.WRONG_PHASE


def test_shield_rerolls_one_d10_once_per_encounter__rulebook_Treasure_Shield_of_Nines() -> None:
    g = fight(att=20, dam="1")
    g.magic_items = ["shield_of_nines"]
    g.luck = 4
    rig(g, *d10(2, 3, 7))
    act(g, Attack())
    act(g, SpendLuck(die=0, amount=2))
    assert Reroll(die=0) in g.legal_actions(0)
    assert act(g, Reroll(die=0)) == ["Rerolled"]
    die = g.view(0)["dice"][0]
    assert (die["rolled"], die["luck"], die["value"]) == (7, 0, 7)  # luck on it forfeited
    assert g.luck == 2 and g.shield_used
    with pytest.raises(RuleError) as e:
        g.act(0, Reroll(die=1))
    assert e.value.reason == EninReason.SHIELD_USED
    act(g, AcceptRoll())
    act(g, Attack())  # fight on, same encounter: still used
    assert not any(isinstance(a, Reroll) for a in g.legal_actions(0))


def test_shield_resets_with_a_new_encounter__rulebook_Shield_of_Nines() -> None:
    g = new_game(location=1, stage=r.QUESTING, shield_used=True, magic_items=["shield_of_nines"])
    rig(g, *d10(5, 1))
    act(g, Quest())
    assert not g.shield_used


def test_reroll_without_shield_is_not_held() -> None:
    g = fight()
    rig(g, *d10(2, 3))
    act(g, Attack())
    with pytest.raises(RuleError) as e:
        g.act(0, Reroll(die=0))
    assert e.value.reason == EninReason.NOT_HELD
    g.magic_items = ["shield_of_nines"]
    with pytest.raises(RuleError) as e:
        g.act(0, Reroll(die=5))
    assert e.value.reason == EninReason.NO_SUCH_DIE


def test_flee_pays_printed_penalty_no_xp__rulebook_Combat_flee() -> None:
    g = fight(hp=8, att=20, dam="1", flee=2, xp="5", treasure=2)
    rig(g, *d10(1, 1))
    act(g, Attack())
    act(g, AcceptRoll())
    assert act(g, Flee()) == ["Fled", "TurnEnded"]
    assert g.hp == 5 and g.xp == 0 and g.gold == 0 and g.encounter is None


def test_flee_without_printed_penalty_is_free__ruling_Fleeing() -> None:
    g = fight(hp=8, att=20, dam="1")
    rig(g, *d10(1, 1))
    act(g, Attack())
    act(g, AcceptRoll())
    act(g, Flee())
    assert g.hp == 7


def test_flee_penalty_can_kill__rulebook_Combat() -> None:
    g = fight(hp=3, att=20, dam="1", flee=2)
    rig(g, *d10(1, 1))
    act(g, Attack())
    act(g, AcceptRoll())
    assert act(g, Flee()) == ["Fled", "Ended"]
    assert g.outcome["result"] == "lost"  # type: ignore[index]


def test_flee_only_after_a_lost_exchange__rulebook_Combat() -> None:
    g = fight()
    with pytest.raises(RuleError) as e:
        g.act(0, Flee())
    assert e.value.reason == Reason.WRONG_PHASE
    with pytest.raises(RuleError) as e:
        g.act(0, AcceptRoll())
    assert e.value.reason == Reason.WRONG_PHASE


def test_fight_on_rolls_again__rulebook_Combat() -> None:
    g = fight(att=20, dam="1")
    rig(g, *d10(1, 1))
    act(g, Attack())
    act(g, AcceptRoll())
    assert act(g, Attack()) == ["AttackRolled"]


def test_rolled_xp_non_d10_is_automatic__rulebook_Encounter_Cards_XP() -> None:
    g = fight(att=2, xp="3D6")
    rig(g, *d10(5, 5), (6, 1), (6, 2), (6, 3))
    act(g, Attack())
    evs = events(g, AcceptRoll())
    gained = next(e for e in evs if type(e).__name__ == "XpGained")
    assert gained.dice == [1, 2, 3] and gained.amount == 6 and g.xp == 6


def test_d10_xp_waits_for_luck_and_shield__ruling_Luck_on_XP_die() -> None:
    g = fight(att=2, xp="1D10")
    g.luck = 3
    g.magic_items = ["shield_of_nines"]
    rig(g, *d10(5, 5, 4))
    act(g, Attack())
    assert act(g, AcceptRoll()) == ["ExchangeWon", "XpRolled"]
    assert g.stage == r.XP_ROLL and g.view(0)["dice"][0]["value"] == 4
    assert Reroll(die=0) in g.legal_actions(0)
    act(g, SpendLuck(die=0, amount=3))
    names = act(g, AcceptRoll())
    assert names[0] == "XpGained" and g.xp == 7 and g.luck == 0


def test_level_2_at_20_xp_gives_hp_and_attack__rulebook_Levelling_Up() -> None:
    g = fight(hp=5, att=2, xp="3")
    g.xp = 18
    rig(g, *d10(5, 5))
    act(g, Attack())
    names = act(g, AcceptRoll())
    assert "LevelGained" in names
    assert (g.level, g.hp, g.xp) == (2, 6, 21)
    from aggregates.enin.character import attack_modifier
    assert attack_modifier(g) == 1


def test_two_levels_at_once_give_two_hp__rulebook_Levelling_Up() -> None:
    g = fight(hp=5, att=2, xp="4D6")
    g.xp = 19
    rig(g, *d10(5, 5), (6, 6), (6, 6), (6, 6), (6, 6))
    act(g, Attack())
    names = act(g, AcceptRoll())
    assert names.count("LevelGained") == 2
    assert (g.level, g.hp, g.xp) == (3, 7, 43)


def test_xp_capped_at_100__rulebook_Character_Card() -> None:
    g = fight(att=2, xp="3")
    g.xp, g.level = 99, 3
    rig(g, *d10(5, 5))
    act(g, Attack())
    act(g, AcceptRoll())
    assert g.xp == 100


def test_level_band_is_the_current_level__rulebook_Combat() -> None:
    g = new_game(location=1, stage=r.QUESTING, level=2, xp=25)
    rig(g, *d10(5, 1))
    act(g, Quest())
    assert g.encounter["monster"]["name"] == "Rock Golem"  # type: ignore[index]
