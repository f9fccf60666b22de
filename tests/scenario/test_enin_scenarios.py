"""The Land of Enin: the rulebook's described situations, step by step.

The rulebook has no numbered worked examples; each test follows one passage.
Dice are arranged with ``aggregates.enin.testing.rig`` (real draws of the seed).
"""

from __future__ import annotations

from aggregates.enin import Enin
from aggregates.enin import state as r
from aggregates.enin.commands import (
    AcceptRoll,
    Attack,
    AttemptQuest,
    Buy,
    ChooseTreasure,
    Flee,
    LeaveTown,
    Quest,
    RollStart,
    SpendLuck,
    StealKey,
    Travel,
)
from aggregates.enin.testing import act, d10, new_game, rig


def test_setup_then_first_travel__rulebook_Setup_and_Travel_Phase() -> None:
    """Roll 1D6+4 HP and 1D6 luck; XP and gold at 0; roll 1D10 for the first location."""
    g = Enin.start(["solo"], seed="ab" * 32)
    created = g.collect_events()[0]
    (_, _, hp_die), (_, _, luck_die) = created.meta["draws"]
    assert (g.hp, g.luck, g.xp, g.gold) == (hp_die + 4, luck_die, 0, 0)
    rig(g, *d10(9))
    act(g, RollStart())
    assert g.view(0)["location"]["name"] == "The Darkling Crags"
    assert g.stage == r.QUESTING


def test_reaver_fight_that_poisons_then_win__rulebook_Combat() -> None:
    """Iron Hills 5-8: Encounter 1; L1 roll 9-0: the Reaver (ATT 9, DAM D2 green, XP 1D3, 1x
    treasure). A lost exchange costs D2 HP and poisons (-1 attack); fight on; win."""
    g = new_game(location=1, stage=r.QUESTING, hp=8, luck=2)
    rig(g, *d10(6, 10))
    act(g, Quest())
    assert g.encounter["monster"]["name"] == "Reaver"  # type: ignore[index]
    rig(g, *d10(3, 4), (2, 2))
    act(g, Attack())
    assert act(g, AcceptRoll()) == ["ExchangeLost", "Poisoned"]
    assert g.hp == 6 and g.poisoned and g.stage == r.FIGHT_OR_FLEE
    rig(g, *d10(4, 5), (3, 3), (10, 2), (6, 4))
    act(g, Attack())
    act(g, SpendLuck(die=0, amount=1))  # 5 + 5 - 1 (poison) = 9: exactly ATT
    names = act(g, AcceptRoll())
    assert names[:2] == ["ExchangeWon", "XpGained"]
    assert g.xp == 3 and g.gold == 4 and g.luck == 1 and g.poisoned
    assert g.stage == r.TRAVEL and g.turn == 2


def test_levelling_up_at_20_xp__rulebook_Levelling_Up() -> None:
    """At 20 XP: Level 2, +1 HP at once, +1 attack, and the L2 band of monsters."""
    g = new_game(location=2, stage=r.QUESTING, hp=6, xp=18)
    rig(g, *d10(2, 2))  # Wood 1-3: Encounter 1; L1 1-4: Banehound (XP 1)
    act(g, Quest())
    assert g.encounter["monster"]["name"] == "Banehound"  # type: ignore[index]
    rig(g, *d10(5, 5))
    act(g, Attack())
    act(g, AcceptRoll())  # XP 1 -> 19
    assert g.level == 1
    g.stage, g.location = r.QUESTING, 1  # a later turn in the Iron Hills
    rig(g, *d10(5, 5))  # 5-8: Encounter 1; L1 5-8: Minotaur (XP 2)
    act(g, Quest())
    rig(g, *d10(5, 5))
    act(g, Attack())
    names = act(g, AcceptRoll())
    assert "LevelGained" in names and (g.level, g.xp, g.hp) == (2, 21, 7)
    assert g.view(0)["attack_modifier"] == 1
    g.stage = r.QUESTING
    rig(g, *d10(5, 1))
    act(g, Quest())
    assert g.encounter["monster"]["name"] == "Rock Golem"  # type: ignore[index]


def test_nigh_towns_market_choice__rulebook_The_Nigh_Towns() -> None:
    """Buy one item OR steal the key; never the same item twice in a row."""
    g = new_game(location=2, stage=r.TRAVEL, gold=40, hp=5, poisoned=True)
    act(g, Travel(to=3))
    act(g, Buy(item="potion_of_healing"))  # cures the poison, no HP
    assert (g.poisoned, g.hp, g.gold, g.stage) == (False, 5, 30, r.TRAVEL)
    act(g, Travel(to=2))
    g.stage = r.TRAVEL
    act(g, Travel(to=3))
    legal = g.legal_actions(0)
    assert Buy(item="potion_of_healing") not in legal and StealKey() in legal
    rig(g, *d10(2))
    assert act(g, StealKey()) == ["QuestAttempted", "QuestItemGained", "TurnEnded"]
    assert g.quest_items == ["key"] and g.gold == 30


def test_flee_from_the_dragon__rulebook_Combat_and_Dragon() -> None:
    g = new_game(location=4, stage=r.QUESTING, hp=6)
    rig(g, *d10(1))
    act(g, Quest())
    rig(g, *d10(5, 5))
    act(g, Attack())
    act(g, AcceptRoll())  # 10 < 16: 3 HP
    assert g.hp == 3
    act(g, Flee())  # Flee -1HP
    assert g.hp == 2 and g.xp == 0 and g.stage == r.TRAVEL


def test_whole_quest_chain_to_the_lost_book__rulebook_Quest_Items() -> None:
    """Key (town) and Watchword (Wood) -> Maiden (Iron Hills) -> Lodestone (Crags) ->
    Lost Book (Wastes): the game is won."""
    g = new_game(hp=10, luck=5)
    rig(g, *d10(7))
    act(g, RollStart())  # Nigh Towns
    rig(g, *d10(1))
    act(g, StealKey())
    act(g, Travel(to=2))
    rig(g, *d10(8, 1))  # rest, then the watchword (1-2 at L1)
    act(g, Quest())
    act(g, AttemptQuest())
    assert g.quest_items == ["key", "watchword"]
    act(g, Travel(to=1))
    rig(g, *d10(1, 2))  # rest, then the maiden (1-3)
    act(g, Quest())
    act(g, AttemptQuest())
    assert g.quest_items[-1] == "maiden"
    act(g, Travel(to=2))
    rig(g, *d10(9))
    act(g, Quest())
    assert g.stage == r.TRAVEL  # watchword held: nothing to attempt in the Wood
    act(g, Travel(to=3))
    act(g, LeaveTown())
    act(g, Travel(to=4))
    rig(g, *d10(4, 1))  # Encounter 1: Banehound ATT 7
    act(g, Quest())
    rig(g, *d10(5, 5))
    act(g, Attack())
    act(g, AcceptRoll())
    assert g.stage == r.QUEST_ATTEMPT
    rig(g, *d10(1))  # the lodestone (1 at L1)
    act(g, AttemptQuest())
    assert g.quest_items[-1] == "lodestone"
    act(g, Travel(to=5))
    rig(g, *d10(9, 10))  # treasure: a magic item
    act(g, Quest())
    act(g, ChooseTreasure(item="damask_sword"))
    rig(g, *d10(1))
    names = act(g, AttemptQuest())
    assert names[-2:] == ["QuestItemGained", "Ended"]
    assert g.outcome == {"result": "won", "reason": "found the Lost Book", "turns": g.turn}
    assert g.view(0)["stage"] == r.OVER and g.legal_actions(0) == []
