"""The rulebook's Example of Play (Mark plays Malchior, Shawn plays Holden),
move by move below the aggregate, with the gold, food, Renown and buried cards
it states.

Two readings of the transcription are made explicit here: the actions printed
under "Autumn Phase" before the raid (The Biggest Turnip, a quest, is a Summer
action; Shawn "considers attacking", a Summer action) are the end of the
Summer Phase, so Mark's "passes" and "As the Ordained, Mark goes first ... he
passes" are one Autumn pass; and the example's Sanctuary and Winter "Border
Keep" are not in the printed Holden castle list (the Border Keep was buried in
the battle), so Shawn starts with Border Keep, Sanctuary and Outpost, and
Shawn stores Jack's stolen food on the Sanctuary.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from aggregates.nine_empires import cards as t
from aggregates.nine_empires import frequency
from aggregates.nine_empires.commands import (
    Absorb,
    AssignRaid,
    AssignUnits,
    ChooseBattle,
    DeclareAttack,
    DeclareRaid,
    Engage,
    Pass,
    PlayCard,
    Redistribute,
    UseAbility,
)
from aggregates.nine_empires.testing import in_play, new_game, new_table, set_hand

MARK, SHAWN = 0, 1


def _table(make: Callable[..., Any]) -> Any:
    table = make(["malchior", "holden"], castles=[
        ["hammerdooms_roost", "border_keep", "outpost"],
        ["border_keep", "sanctuary", "outpost"]], ordained=MARK)
    set_hand(table, MARK, ["hektor", "zahir", "touch_of_shad_hujem", "at_your_command",
                           "caught", "beknine"])
    set_hand(table, SHAWN, ["jack_newcomer", "training_grounds", "blight", "blight",
                            "undermarket_dealings", "the_biggest_turnip"])
    return table


def _card(table: Any, seat: int, key: str) -> str:
    for iid in t.hand(table, seat):
        if table.instances[iid]["card"] == key:
            return iid
    return in_play(table, seat, key)


@pytest.mark.parametrize("make", [new_table, new_game], ids=["rules", "aggregate"])
def test_the_example_of_play_move_by_move(make: Callable[..., Any]) -> None:
    """Below the aggregate (the rules' table) and through the aggregate (the
    kernel routing every command and running the flow)."""
    table = _table(make)
    assert table.phase == "summer" and table.pending() == [(MARK, "summer")]
    # Spring Phase: since no cards are bowed, nothing happens.
    assert table.last("SpringBegan")["straightened"] == []
    m_strong, s_strong = t.stronghold(table, MARK), t.stronghold(table, SHAWN)
    m_motte, s_motte = in_play(table, MARK, "motte_and_bailey"), in_play(table, SHAWN,
                                                                            "motte_and_bailey")
    roost, m_keep = in_play(table, MARK, "hammerdooms_roost"), in_play(table, MARK,
                                                                          "border_keep")
    s_keep, sanctuary = in_play(table, SHAWN, "border_keep"), in_play(table, SHAWN,
                                                                         "sanctuary")
    hektor, zahir = _card(table, MARK, "hektor"), _card(table, MARK, "zahir")
    jack = _card(table, SHAWN, "jack_newcomer")

    # Mark bows Motte and Bailey and his stronghold for 6 gold, and a food from
    # Hammerdoom's Roost, for Hektor; Hektor comes into play unbowed, at home.
    assert t.production(table, m_strong) + t.production(table, m_motte) == 6
    table.act(MARK, PlayCard(card=hektor, gold_from=(m_strong, m_motte), food_from=(roost,)))
    assert t.bowed(table, m_strong) and t.bowed(table, m_motte)
    assert not t.bowed(table, hektor) and t.location(table, hektor) == "home"
    assert t.food(table, roost) == 2
    # Shawn bows stronghold and Motte and Bailey for Jack Newcomer, a food off Sanctuary.
    table.act(SHAWN, PlayCard(card=jack, gold_from=(s_strong, s_motte), food_from=(sanctuary,)))
    assert t.food(table, sanctuary) == 2
    # Mark plays Zahir, paying a food from his Border Keep (and no gold).
    table.act(MARK, PlayCard(card=zahir, food_from=(m_keep,)))
    assert t.food(table, m_keep) == 2
    # Shawn plays Training Grounds: it costs nothing; it comes into play bowed.
    grounds = _card(table, SHAWN, "training_grounds")
    table.act(SHAWN, PlayCard(card=grounds))
    assert t.bowed(table, grounds)

    # Mark attacks: an Attack Phase. Hektor and Zahir attack Shawn's Border Keep.
    table.act(MARK, DeclareAttack(defender=SHAWN))
    table.act(MARK, AssignUnits(heroes=(hektor, zahir), castles=(s_keep, s_keep)))
    assert frequency.stat(table, hektor, "S") == 4     # because he is attacking
    assert frequency.stat(table, zahir, "S") == 0      # because he's a weenie
    table.act(SHAWN, AssignUnits(heroes=(jack,), castles=(s_keep,)))
    # There is a battle at each of Shawn's castles; Mark resolves the Border Keep first.
    assert table.pending() == [(MARK, "choose")]
    table.act(MARK, ChooseBattle(castle=s_keep))
    # As the defender, Shawn has the first action; he passes.
    assert table.pending() == [(SHAWN, "battle")]
    table.act(SHAWN, Pass())
    # Touch of Shad-Hujem on Hektor: more Strength, and a -1W marker.
    touch = _card(table, MARK, "touch_of_shad_hujem")
    table.act(MARK, UseAbility(source=touch, targets=(hektor,)))
    assert frequency.stat(table, hektor, "S") == 5 and frequency.stat(table, hektor, "W") == 2
    assert table.instances[hektor]["markers"] == {"W": -1}
    table.act(SHAWN, Pass())
    table.act(MARK, Engage(cards=(hektor,)))
    assert table.last("Engaged")["damage"] == 5
    # The Training Grounds is bowed: its React cannot be used; Blight's can.
    assert table.pending() == [(SHAWN, "react")]
    reacts = [c for c in table.legal(SHAWN) if isinstance(c, UseAbility)]
    assert reacts and all(table.instances[c.source]["card"] == "blight" for c in reacts)
    blight = next(c for c in t.hand(table, SHAWN) if table.instances[c]["card"] == "blight")
    dealings = _card(table, SHAWN, "undermarket_dealings")
    table.act(SHAWN, UseAbility(source=blight, discard=(dealings,)))
    assert table.last("DamageReduced")["amount"] == 2
    assert table.last("DamageReduced")["damage"] == 3
    # The window goes on after the Blight (rules 1.7.0: React abilities give
    # the defender precedence whenever players wish to React): Shawn is asked
    # again, could play his other Blight, and "in the end" passes. He absorbs
    # the damage with the food on the Border Keep: empty, still intact.
    assert table.pending() == [(SHAWN, "react")]
    assert any(isinstance(c, UseAbility) for c in table.legal(SHAWN))
    table.act(SHAWN, Pass())
    assert table.pending() == [(SHAWN, "absorb")]
    for _ in range(3):
        table.act(SHAWN, Absorb(card=f"food:{s_keep}"))
    assert t.food(table, s_keep) == 0 and t.in_play(table, s_keep)
    assert t.in_play(table, jack)
    table.act(SHAWN, Pass())
    command = _card(table, MARK, "at_your_command")
    table.act(MARK, UseAbility(source=command, targets=(zahir,)))
    assert frequency.stat(table, zahir, "S") == 2
    # Zahir could be declared immune to Jack's 1 Strength engagement: Shawn passes.
    assert frequency.stat(table, zahir, "S") > frequency.stat(table, jack, "S")
    table.act(SHAWN, Pass())
    table.act(MARK, Engage(cards=(zahir,)))
    assert table.last("Engaged")["damage"] == 2
    table.act(SHAWN, Pass())                     # no second Blight this time
    table.act(SHAWN, Absorb(card=s_keep))        # the castle absorbs all: buried
    assert table.last("CastleBuried")["castle"] == s_keep
    assert s_keep in table.zones[f"buried:{SHAWN}"]
    # Hammerdoom's Roost: one food. Hektor and Zahir home bowed; Jack home unbowed.
    assert t.food(table, roost) == 3
    assert t.bowed(table, hektor) and t.bowed(table, zahir) and not t.bowed(table, jack)
    assert {t.location(table, h) for h in (hektor, zahir, jack)} == {"home"}
    # Mark chooses the battles at the other castles: nobody has anything to do
    # there, so they end immediately.
    assert table.pending() == [(MARK, "choose")]
    table.act(MARK, ChooseBattle(castle=sanctuary))
    assert table.conflict is None
    assert len(table.named("BattleEnded")) == 3

    # Summer (continued): Shawn plays The Biggest Turnip, paid by Jack's Glory
    # without bowing (a Questor); Renown 5 to 7.
    assert table.pending() == [(SHAWN, "summer")]
    turnip = _card(table, SHAWN, "the_biggest_turnip")
    assert table.renown[SHAWN] == 5
    table.act(SHAWN, PlayCard(card=turnip, glory_from=(jack,)))
    assert table.renown[SHAWN] == 7 and not t.bowed(table, jack)
    table.act(MARK, Pass())
    table.act(SHAWN, Pass())                     # he considers attacking; he passes
    # Autumn: Mark, the Ordained, goes first: no unbowed heroes, he passes.
    assert table.phase == "autumn" and table.pending() == [(MARK, "autumn")]
    assert not [c for c in table.legal(MARK) if isinstance(c, DeclareRaid)]
    table.act(MARK, Pass())
    table.act(SHAWN, DeclareRaid(defender=MARK))
    stealth = next(c for c in t.hand(table, SHAWN) if table.instances[c]["card"] == "blight")
    table.act(SHAWN, AssignRaid(heroes=(jack,), castles=(roost,), stealth=(stealth,)))
    # Mark has no unbowed heroes: he cannot defend, nor play a stealth card; as the
    # defender he has the first raid action and passes (Caught! needs a defending hero).
    caught = _card(table, MARK, "caught")
    assert caught in t.hand(table, MARK)
    resolved = table.last("RaidResolved")
    assert resolved["defending_hero"] is None and resolved["raider_stealth"] == stealth
    assert (resolved["raider_fate"], resolved["raider_bonus"], resolved["against"]) == (1, 1, 1)
    assert resolved["success"] and resolved["stolen"] == 1
    assert t.food(table, roost) == 2
    assert t.bowed(table, jack) and t.location(table, jack) == "home"
    assert stealth in table.zones[f"discard:{SHAWN}"]
    # The Biggest Turnip is completed by the raid won.
    assert table.last("QuestCompleted")["quest"] == turnip
    # Autumn (continued): Mark passes; Shawn also passes.
    table.act(MARK, Pass())
    table.act(SHAWN, Pass())
    # Winter: Shawn moves the food token from Jack Newcomer to a castle of his
    # choice (the Sanctuary: the example's Border Keep was buried); Mark keeps his
    # food where it is. Placing and redistributing are one choice each.
    assert sorted(table.pending()) == [(MARK, "redistribute"), (SHAWN, "redistribute")]
    assert t.food(table, jack) == 1
    table.act(MARK, Redistribute(food=tuple(t.food(table, c) for c in t.castles(table, MARK))))
    food = tuple(t.food(table, c) + (c == sanctuary) for c in t.castles(table, SHAWN))
    table.act(SHAWN, Redistribute(food=food))
    assert table.last("FoodStored")["moves"] == [[jack, sanctuary]]
    assert t.food(table, jack) == 0 and t.food(table, sanctuary) == 3
    assert [p["seat"] for p in table.named("CardsDrawn") if p["why"] == "winter"] == [
        MARK, SHAWN]                                  # four each, from the Ordained
    while table.phase == "winter":
        seat, kind = table.pending()[0]
        assert kind == "discard"
        table.act(seat, table.legal(seat)[0])
    assert table.last("OrdainedPassed") == {"seat": MARK, "to": SHAWN}
    assert table.ordained == SHAWN and table.turn == 2
    assert len(t.hand(table, SHAWN)) <= 4 + 2 and len(t.hand(table, MARK)) <= 4 + 3
