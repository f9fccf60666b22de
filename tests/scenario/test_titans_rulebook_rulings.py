"""Titans: the project's rulings where the *Titans Rulebook* leaves a choice
(docs/rulings.md, "Titans"), each played through the real flow and named
``__ruling_<name>``.

The map is the 2-player Polish-Lithuanian Commonwealth / Tsardom of Russia
setup (seat 0 Poland, seat 1 Russia), arranged as in the rulebook tests
(``test_titans_rulebook.py``).
"""

from __future__ import annotations

import pytest

from aggregates.kernel import RuleError
from aggregates.titans import testing
from aggregates.titans.commands import (
    AccomplishObjective,
    ChooseBattle,
    EndOrders,
    EndStage,
    GroupMove,
    MoveUnit,
    PlayMoveUnit,
    ReinforcePurchase,
    ReinforceSupport,
    UseNationAbility,
)
from aggregates.titans.data import OBJECTIVES
from aggregates.titans.objectives import met
from tests.scenario.test_titans_rulebook import (
    ATTACK,
    POLAND,
    RUSSIA,
    arranged,
    attack,
    fight,
    named,
)


def test_an_eighth_control_token_is_refused__ruling_control_tokens() -> None:
    """7 Control Tokens a Nation (Game Contents): a move that would leave a region
    empty with all 7 on the map is refused; moving onto one of one's tokens takes it
    back, so that move needs none."""
    tokens = ("pomerania", "prussia", "livonia", "belarus", "lwow", "hungary", "poznan")
    game = arranged(control=dict.fromkeys(tokens, POLAND))
    testing.give_order(game, 1)
    with pytest.raises(RuleError, match="NO_CONTROL_TOKEN"):
        testing.play(game, POLAND, GroupMove(origin="warsaw", to="vilnius",
                                             units=("infantry", "infantry", "cavalry")))
    testing.play(game, POLAND, GroupMove(origin="warsaw", to="prussia",
                                         units=("infantry", "infantry", "cavalry")))
    assert game.control["warsaw"] == POLAND and "warsaw" not in game.armies


def test_an_empty_enemy_stronghold_is_taken_over_intact__ruling_empty_stronghold() -> None:
    """"When the Region with a Stronghold is empty, enemy Units may enter it without
    starting a Battle ... the player takes over the Stronghold": intact, and without
    the +1 VP, which follows a Battle its Defender loses."""
    game = arranged(control={"belarus": RUSSIA}, strongholds=("belarus",))
    testing.give_order(game, 1)
    testing.play(game, POLAND, GroupMove(origin="warsaw", to="belarus", units=("cavalry",)))
    [taken] = named(game, "RegionTaken")
    assert taken["stronghold"] and taken["vp"] == 0
    assert game.strongholds == ["belarus"] and game.vp == [0, 0]


def test_a_damaged_capitol_defends_no_more__ruling_damaged_capitol() -> None:
    """A Capitol taken once "remains destroyed for the rest of the game": it no longer
    has a Stronghold's two defence abilities, nor scores 3 VP again."""
    layout = {"smolensk": (POLAND, {"infantry": 2, "cavalry": 1}),
              "krakow": (POLAND, {"infantry": 1}), "moscow": (RUSSIA, {"infantry": 2}),
              "tver": (RUSSIA, {"infantry": 1})}
    game = arranged(layout)
    game.capitols["moscow"]["damaged"] = True
    attack(game, "smolensk", "moscow", ("infantry", "infantry", "cavalry"))
    assert game.hands[RUSSIA] == []                       # no card drawn on the attack
    assert game.battle is not None and game.battle["order"] == ["defender", "attacker"]
    fight(game, [("infantry", 2), ("infantry", 2), ("cavalry", 2)],
          [("infantry", 0), ("infantry", 0)])
    [resolved] = named(game, "BattleResolved")
    assert resolved["bonus"]["capitol"] == 0 and game.vp[POLAND] == 4


def test_the_fortified_card_is_drawn_once_on_entry__ruling_stronghold_card() -> None:
    """"Immediately after a Region with a Stronghold is attacked, the Defender draws 1
    Support Card": at the first unit's entry, once for the Battle, however many
    units follow."""
    game = arranged(dict(ATTACK, prussia=(POLAND, {"infantry": 1})), strongholds=("vilnius",))
    testing.give_order(game, 0)   # move infantry, move cavalry, deploy infantry
    testing.play(game, POLAND, MoveUnit(action="move_infantry", unit="infantry",
                                        origin="prussia", to="vilnius"))
    assert len(game.hands[RUSSIA]) == 1
    testing.play(game, POLAND, MoveUnit(action="move_cavalry", unit="cavalry",
                                        origin="warsaw", to="vilnius"))
    assert len(game.hands[RUSSIA]) == 1


def test_move_one_unit_not_from_a_region_whose_battle_waits__ruling_move_one_unit_origin(
) -> None:
    """A Move 1 Unit card may not take a Defender's unit from a region where another
    Battle of this turn waits: its units must stay to fight it."""
    layout = dict(ATTACK, belarus=(RUSSIA, {"cavalry": 1}), livonia=(RUSSIA, {"cavalry": 1}))
    game = arranged(layout)
    testing.set_hand(game, RUSSIA, [2])               # Move 1 Unit: opponent's Infantry
    testing.give_order(game, 2)   # move any, move any, stronghold
    testing.play(game, POLAND, MoveUnit(action="move_any", unit="infantry", origin="warsaw",
                                        to="vilnius"))
    testing.play(game, POLAND, MoveUnit(action="move_any", unit="cavalry", origin="warsaw",
                                        to="belarus"))
    testing.play(game, POLAND, EndOrders())
    testing.play(game, POLAND, ChooseBattle(region="vilnius"))
    joins = [c for c in testing.legal(game, RUSSIA) if isinstance(c, PlayMoveUnit)]
    assert {c.origin for c in joins} == {"livonia"}
    with pytest.raises(RuleError, match="NO_UNITS"):
        testing.play(game, RUSSIA, PlayMoveUnit(card=2, unit="cavalry", origin="belarus"))


def test_an_empty_region_is_active_and_controlled_by_nobody__ruling_empty_region() -> None:
    """The Defender's withdrawal "into a single Empty Region": an active region with no
    units and no one's Control Token; an Inactive Region is none."""
    layout = {"livonia": (POLAND, {"infantry": 2, "cavalry": 1}),
              "krakow": (POLAND, {"infantry": 1}), "novgorod": (RUSSIA, {"infantry": 2}),
              "moscow": (RUSSIA, {"infantry": 1})}
    game = arranged(layout, control={"smolensk": POLAND})
    assert "ingria" in game.inactive                     # Novgorod's fourth neighbour
    attack(game, "livonia", "novgorod", ("infantry", "infantry"))
    fight(game, [("infantry", 2), ("infantry", 1)], [("infantry", 1), ("infantry", 1)])
    assert game.armies["tver"] == {"nation": RUSSIA, "units": {"infantry": 2}}  # the only one
    game = arranged(layout, control={"smolensk": POLAND, "tver": POLAND})
    attack(game, "livonia", "novgorod", ("infantry", "infantry"))
    fight(game, [("infantry", 2), ("infantry", 1)], [("infantry", 1), ("infantry", 1)])
    assert named(game, "UnitsDestroyed")[-1]["why"] == "no retreat"


def test_an_objective_at_the_active_players_decisions_outside_battles__ruling_objective_timing(
) -> None:
    """"A player may accomplish 1 Secret Objective on his Turn": at any of his decisions
    outside a Battle (the Order Phase, the Support draw, the Clean-Up), not in one."""
    game = arranged(control=dict.fromkeys(("prussia", "pomerania", "livonia", "poznan",
                                           "hungary"), POLAND))
    card = next(o.id for o in OBJECTIVES if met(game, POLAND, o.condition))
    for zone in (game.objective_deck, *game.objectives):
        if card in zone:
            zone.remove(card)
    game.objectives[POLAND].append(card)
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    assert game.battle is not None
    assert AccomplishObjective(card=card) not in testing.legal(game, POLAND)
    fight(game, [("infantry", 2), ("infantry", 2), ("cavalry", 2)],
          [("infantry", 0), ("infantry", 0)])
    assert game.pending()[0].kind == "draw_support"
    testing.play(game, POLAND, AccomplishObjective(card=card))
    assert game.accomplished[POLAND] == [card]


def test_the_2nd_reinforcement_is_one_of_its_two_options__ruling_second_reinforcement(
) -> None:
    """"2nd Reinforcement: Player chooses 1 of 2 options": buying nothing is refused
    while a Support Card can be discarded for a unit."""
    game = arranged()
    while game.round == 1:
        testing.quick_turn(game)
    testing.play(game, RUSSIA, ReinforceSupport(row=()))
    assert game.hands[RUSSIA]
    with pytest.raises(RuleError, match="ILLEGAL_MOVE"):
        testing.play(game, RUSSIA, ReinforcePurchase(card=-1, bottom=-1))


def test_the_starting_ability_is_used_in_ones_stage__ruling_starting_ability() -> None:
    """The Nation Starting Ability is used like the Titan's, once per Battle in the
    player's own Stage when its requirement is met (Russia's: defending); it is not
    added by itself as the Battle begins."""
    game = arranged()
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    [begun] = named(game, "BattleBegun")
    assert begun["sides"]["defender"]["bonus"] == 0
    testing.play(game, RUSSIA, UseNationAbility())
    assert game.battle is not None and game.battle["sides"]["defender"]["bonus"] > 0
    with pytest.raises(RuleError):
        testing.play(game, RUSSIA, UseNationAbility())
    testing.play(game, RUSSIA, EndStage())
    with pytest.raises(RuleError, match="NOT_YOUR_TURN"):  # his Stage is over
        testing.play(game, RUSSIA, UseNationAbility())
