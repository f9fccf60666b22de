"""Choices the rulebook gives a player that rules 1.0.0 made itself: the Winter
food from heroes, discarding an unpaid quest, calling for allies, allies'
immunity (Romance of the Nine Empires rulebook; rules 1.0.0 is kept for the
games it recorded, ``v1.NineEmpiresV1``)."""

from __future__ import annotations

from typing import Any

import pytest

from aggregates.kernel import RuleError
from aggregates.nine_empires import cards as t
from aggregates.nine_empires.commands import (
    Absorb,
    AssignUnits,
    CallAllies,
    ChooseAlly,
    DeclareAttack,
    DeclareImmune,
    Engage,
    Pass,
    PlayCard,
    Redistribute,
)
from aggregates.nine_empires.state import EARLIER_BY_VERSION, EARLIER_IMMUNITY
from aggregates.nine_empires.testing import (
    Table,
    allied_battle,
    new_table,
    put_in_play,
    set_hand,
    winter_begins,
)

# ------------------------------------------- Summer Phase: a quest unpaid


def test_a_quest_one_cannot_or_does_not_pay_is_discarded_as_the_action__Summer_Phase(
) -> None:
    """"If you can't or don't, discard the quest immediately": no Renown, the
    quest in the discard pile (not buried: a copy may come again), the action
    taken (the next player acts)."""
    table = new_table(["holden", "malchior"])
    vanguard = put_in_play(table, 0, "vanguard_of_guild_10_42")   # 1G: can't pay 2
    offer, = set_hand(table, 0, ["a_desperate_offer"])
    assert PlayCard(card=offer) in table.legal(0)
    with pytest.raises(RuleError, match="name none to discard it"):
        table.act(0, PlayCard(card=offer, glory_from=(vanguard,)))
    table.act(0, PlayCard(card=offer))
    assert table.last("CardsDiscarded") == {"seat": 0, "cards": [offer],
                                            "keys": ["a_desperate_offer"],
                                            "why": "quest unpaid"}
    assert offer in table.zones["discard:0"] and table.renown[0] == 5
    assert not t.bowed(table, vanguard) and table.pending() == [(1, "summer")]
    # A hero who could pay may still not ("or don't"): the quest goes all the same.
    table.act(1, Pass())
    coeli = put_in_play(table, 0, "coeli_quando")                  # 2G, a Questor
    again = set_hand(table, 0, ["a_desperate_offer"])[0]
    assert PlayCard(card=again, glory_from=(coeli,)) in table.legal(0)
    table.act(0, PlayCard(card=again))
    assert again in table.zones["discard:0"] and not t.cards_in_play(table, 0, "quest")


# --------------------------------------------- Winter Phase: food from heroes


def _two_castles_and_a_carrier() -> tuple[Table, str, str, str]:
    table = new_table(["holden", "malchior"], castles=[["border_keep", "outpost"],
                                                      ["border_keep"]])
    keep, outpost = t.castles(table, 0)
    table.instances[keep]["food"] = 1                  # Border Keep 1/3, Outpost 1/2
    table.instances[outpost]["food"] = 1
    jack = put_in_play(table, 0, "jack_newcomer")
    table.instances[jack]["food"] = 3                  # as if stolen in raids
    return table, keep, outpost, jack


def test_winter_the_player_places_the_food_from_heroes__Winter_Phase() -> None:
    """"All players place any food from their heroes onto their castles. In
    addition, players can redistribute food tokens between their castles. Food
    tokens that can't be stored in castles are discarded." One choice: the food
    each castle holds after; 5 tokens, room for 5."""
    table, keep, outpost, jack = _two_castles_and_a_carrier()
    winter_begins(table)
    assert table.pending() == [(0, "redistribute")] and t.food(table, jack) == 3
    with pytest.raises(RuleError, match="5 food"):
        table.act(0, Redistribute(food=(2, 2)))        # no food is given up
    spreads = {c.food for c in table.legal(0) if isinstance(c, Redistribute)}
    assert spreads == {(3, 2)}                         # 5 in 3 + 2: one way
    table.act(0, Redistribute(food=(3, 2)))
    assert table.last("FoodStored") == {"seat": 0, "moves": [[jack, keep], [jack, keep],
                                                            [jack, outpost]],
                                        "discarded": 0, "heroes": [jack]}
    assert (t.food(table, keep), t.food(table, outpost), t.food(table, jack)) == (3, 2, 0)


def test_winter_the_player_chooses_where_and_what_finds_no_room_is_discarded() -> None:
    table, keep, outpost, jack = _two_castles_and_a_carrier()
    table.instances[jack]["food"] = 1                  # 3 tokens: room for 5
    winter_begins(table)
    assert {c.food for c in table.legal(0) if isinstance(c, Redistribute)} == {
        (1, 2), (2, 1), (3, 0)}
    assert table.legal(0)[0] == Redistribute(food=(2, 1))  # the most room first
    table.act(0, Redistribute(food=(1, 2)))
    assert table.last("FoodStored")["moves"] == [[jack, outpost]]
    assert (t.food(table, keep), t.food(table, outpost)) == (1, 2)
    # With one castle there is nothing to choose: onto it, the rest discarded.
    table = new_table(["holden", "malchior"], castles=[["outpost"], ["border_keep"]])
    outpost, = t.castles(table, 0)
    table.instances[outpost]["food"] = 1
    jack = put_in_play(table, 0, "jack_newcomer")
    table.instances[jack]["food"] = 2
    winter_begins(table)
    assert table.named("FoodStored")[0] == {"seat": 0, "moves": [[jack, outpost]],
                                            "discarded": 1, "heroes": [jack]}
    assert t.food(table, outpost) == 2 and t.food(table, jack) == 0


def test_rules_1_0_0_placed_the_heroes_food_itself() -> None:
    """The earlier version, kept for the games it recorded: the most room first,
    before the redistribution (which then moves only the castles' food)."""
    table, keep, outpost, jack = _two_castles_and_a_carrier()
    table.EARLIER = EARLIER_BY_VERSION["1.0.0"]
    winter_begins(table)
    assert table.named("FoodStored") == [{"seat": 0, "moves": [[jack, keep], [jack, keep],
                                                               [jack, outpost]],
                                          "discarded": 0, "heroes": [jack]}]
    assert table.pending() == [(0, "redistribute")]
    assert table.legal(0) == [Redistribute(food=(3, 2))]


# ------------------------------------- Declare Attack: calling for allies


def _three(table: Table) -> None:
    for s in range(3):
        set_hand(table, s, [["zahir"], ["bazaar"], ["library"]][s])
        put_in_play(table, s, ["beknine", "keshie", "coeli_quando"][s])


def test_the_attacker_and_the_defender_call_for_allies__Declare_Attack() -> None:
    """"The attacker and the defender may call for allies from the other
    players. In clockwise order from the attacker (not the Ordained), each
    player chooses whether or not to ally ... and which side": only a side that
    called can be joined; when neither calls, nobody is asked."""
    table = new_table(["malchior", "ord", "holden", "ixhasa"], ordained=2)
    _three(table)
    table.act(2, Pass())                               # the Ordained passes: seat 3
    table.act(3, Pass())
    table.act(0, DeclareAttack(defender=1))
    assert table.pending() == [(0, "call")]
    assert table.legal(0) == [CallAllies(call=False), CallAllies(call=True)]
    with pytest.raises(RuleError):
        table.act(1, CallAllies(call=True))            # the attacker calls first
    table.act(0, CallAllies(call=False))
    assert table.pending() == [(1, "call")]
    table.act(1, CallAllies(call=True))
    assert table.last("AlliesCalled") == {"seat": 1, "call": True}
    assert table.pending() == [(2, "ally")]            # clockwise from the attacker
    assert table.legal(2) == [ChooseAlly(side="none"), ChooseAlly(side="defend")]
    with pytest.raises(RuleError, match="called for allies"):
        table.act(2, ChooseAlly(side="attack"))        # the attacker did not call
    table.act(2, ChooseAlly(side="defend"))
    table.act(3, ChooseAlly(side="none"))
    assert table.conflict is not None and table.conflict["allies"] == {"2": "defend"}
    assert table.pending() == [(0, "assign")]


def test_no_call_for_allies_asks_no_one() -> None:
    table = new_table(["malchior", "ord", "holden"])
    _three(table)
    table.act(0, DeclareAttack(defender=1))
    table.act(0, CallAllies(call=False))
    table.act(1, CallAllies(call=False))
    assert table.pending() == [(0, "assign")] and table.conflict is not None
    assert table.conflict["allies"] == {}


# ------------------------------------ Engaging and Damage: allies' immunity


def _allied_battle(ally_side: str, ally_deck: str, ally_hero: str
                   ) -> tuple[Table, str, str, str]:
    """Seat 0 (Beknine, 3S) attacks seat 1 (Keshie, 2S); seat 2 allies with
    ``ally_side`` with ``ally_hero``; all at one castle, the battle chosen."""
    table, _castle, units = allied_battle(["malchior", "ord", ally_deck],
                                          [["beknine"], ["keshie"], [ally_hero]], ally_side)
    return table, units[0][0], units[1][0], units[2][0]


def _reacts_passed(table: Table) -> None:
    while table.pending()[0][1] == "react":
        table.act(table.pending()[0][0], Pass())


def test_attacking_allies_declare_their_own_cards_immune__Engaging_and_Damage() -> None:
    """"Allies (both attacking and defending) can choose whether or not to
    declare their own cards immune": the attacker for its own cards, then the
    attacking ally for its own; the attacker still chooses what absorbs, an
    ally's card included ("may select cards belonging to allies")."""
    table, beknine, keshie, vanguard = _allied_battle("attack", "holden",
                                                      "vanguard_of_guild_10_42")
    assert table.pending() == [(1, "battle")]
    table.act(1, Engage(cards=(keshie,)))               # 2 damage
    _reacts_passed(table)
    assert table.pending() == [(0, "immunity")]
    assert set(table.legal(0)) == {DeclareImmune(cards=(beknine,)), DeclareImmune()}
    with pytest.raises(RuleError, match="your own cards"):
        table.act(0, DeclareImmune(cards=(vanguard,)))  # the ally's, not the attacker's
    table.act(0, DeclareImmune(cards=(beknine,)))
    assert table.pending() == [(2, "immunity")]         # the ally's own Vanguard (3S)
    table.act(2, DeclareImmune(cards=()))
    assert table.last("ImmunityDeclared") == {"seat": 2, "cards": []}
    assert table.pending() == [(0, "absorb")]           # the attacker absorbs
    table.act(0, Absorb(card=vanguard))                 # with the ally's hero
    assert vanguard in table.zones["buried:2"] and t.in_play(table, beknine)


def test_defending_allies_declare_immunity_the_defender_never() -> None:
    table, beknine, keshie, baker = _allied_battle("defend", "displaced", "colonel_baker")
    while table.pending()[0] != (0, "battle"):
        table.act(table.pending()[0][0], Pass())
    table.act(0, Engage(cards=(beknine,)))              # 3 damage
    _reacts_passed(table)
    assert table.pending() == [(2, "immunity")]         # Colonel Baker 4S > 3; not seat 1
    table.act(2, DeclareImmune(cards=(baker,)))
    assert table.pending() == [(1, "absorb")]
    assert Absorb(card=keshie) in table.legal(1)


def test_rules_1_0_0_the_attacker_declared_for_the_whole_army() -> None:
    table, beknine, keshie, vanguard = _allied_battle("attack", "holden",
                                                      "vanguard_of_guild_10_42")
    table.EARLIER = frozenset({EARLIER_IMMUNITY})
    table.act(1, Engage(cards=(keshie,)))
    _reacts_passed(table)
    assert table.pending() == [(0, "immunity")]
    table.act(0, DeclareImmune(cards=(beknine, vanguard)))   # the ally's card too
    # All immune: none absorbs, the engagement is over, its 2 damage unabsorbed.
    assert not table.named("DamageAbsorbed") and not table.stack
    assert not table.named("ImmunityStep")[1:]               # the ally was not asked


# --------------------------------- Attacker Assigns Units: every assignment


def test_the_assign_choice_reaches_every_assignment__Attacker_Assigns_Units() -> None:
    """"Attacking players can send multiple units to attack one castle, while
    sending nothing to attack another castle": the decision's ``Assign`` gives
    each hero a castle or home, and what it builds is accepted through the
    aggregate (the legal list names only some assignments)."""
    from aggregates.kernel import Assign
    from aggregates.nine_empires.testing import new_game

    # The aggregate behind the table's interface (the arranging helpers take either).
    table: Any = new_game(["malchior", "holden"], castles=[["outpost"], ["border_keep",
                                                                        "outpost"]])
    set_hand(table, 0, ["zahir"])
    heroes = [put_in_play(table, 0, k) for k in ("beknine", "hektor", "nicoletta")]
    table.act(0, DeclareAttack(defender=1))
    keep, outpost = t.castles(table, 1)
    choice, = table.game.choices(0)
    assert isinstance(choice, Assign) and choice.items == tuple(heroes)
    assert choice.slots == (keep, outpost, "home")
    assert not table.game.legal_list_complete(0)
    with pytest.raises(RuleError, match="to stay at home"):
        table.act(0, AssignUnits(heroes=(heroes[0],), castles=("nowhere",)))
    built = choice.build([outpost, "home", outpost])
    table.act(0, AssignUnits(**{k: tuple(v) for k, v in built["args"].items()}))
    assert table.named("UnitsAssigned")[0] == {"seat": 0, "side": "attack",
                                               "heroes": [heroes[0], heroes[2]],
                                               "castles": [outpost, outpost]}
    assert t.location(table, heroes[1]) == "home"
    assert t.location(table, heroes[0]) == outpost
