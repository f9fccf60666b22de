"""Titans rulebook, "B) Resolving Battles": each Battle Outcome tier, the Titan's
defeat, "Stronghold in Battles", "Capitol", and each withdrawal choice.

Each scenario arranges the map of the 2-player Polish-Lithuanian/Russian setup
(seat 0 Poland attacks, seat 1 Russia defends), fights through the commands,
and sets the dice pools after they are rolled, as if they had come up so.
"""

from __future__ import annotations

import pytest

from aggregates.kernel import RuleError
from aggregates.titans import testing
from aggregates.titans.commands import (
    DestroyUnits,
    EndOrders,
    GroupMove,
    MoveUnit,
    Withdraw,
)
from aggregates.titans.testing import arranged, attack, fight, named

ATTACK = {"warsaw": (0, {"infantry": 2, "cavalry": 1}), "krakow": (0, {"infantry": 1}),
          "vilnius": (1, {"infantry": 2}), "moscow": (1, {"infantry": 1, "titan": 1})}


def test_the_battle_begins_with_the_units_dice_and_the_defender_first() -> None:
    """1) Beginning of the Battle: a die per unit in the Battle; the Defender's stage first."""
    game = arranged(ATTACK)
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    begun = named(game, "BattleBegun")[0]
    dice = {r: sorted(d["die"] for d in begun["sides"][r]["pool"]) for r in begun["sides"]}
    assert dice == {"attacker": ["cavalry", "infantry", "infantry"],
                    "defender": ["infantry", "infantry"]}
    assert begun["order"] == ["defender", "attacker"]
    assert game.pending()[0].seat == 1 and game.pending()[0].kind == "battle_stage"
    assert "vilnius" not in game.armies  # the Defender's units are in the Battle


def test_the_dice_reserve_limits_the_pool() -> None:
    """Battle Rules: 3 Infantry dice in a set; a fourth Infantry rolls no die."""
    layout = dict(ATTACK, warsaw=(0, {"infantry": 4}))
    game = arranged(layout)
    attack(game, "warsaw", "vilnius", ("infantry",) * 4)
    begun = named(game, "BattleBegun")[0]
    assert len(begun["sides"]["attacker"]["pool"]) == 3
    assert begun["sides"]["attacker"]["reserve"]["infantry"] == 0


def test_a_tie_goes_to_the_defender_and_the_attacker_withdraws() -> None:
    """Battle Outcome 0-2: the attacker withdraws to his region, draws 1 card; +1 VP."""
    game = arranged(ATTACK)
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 1), ("infantry", 1), ("cavalry", 0)],
          [("infantry", 1), ("infantry", 1)])
    won = named(game, "BattleWon")
    assert won[0]["winner"] == 1 and won[0]["difference"] == 0 and won[0]["destroy"] == 0
    assert game.armies["warsaw"] == {"nation": 0, "units": {"infantry": 2, "cavalry": 1}}
    assert game.armies["vilnius"] == {"nation": 1, "units": {"infantry": 2}}
    assert game.vp == [0, 1] and len(game.hands[0]) == 1 and game.battles_won == [0, 1]


def test_difference_0_to_2_destroys_nothing() -> None:
    """0-2: the loser destroys no unit, withdraws, draws 1 card; the winner scores 1 VP.
    Russia controls no region beside Vilnius: it chooses one of the Empty Regions."""
    game = arranged(ATTACK)
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 2), ("infantry", 1), ("cavalry", 1)],
          [("infantry", 1), ("infantry", 1)])
    assert game.pending()[0].kind == "withdraw"
    options = sorted(c.region for c in testing.legal(game, 1))  # type: ignore[attr-defined]
    assert options == ["belarus", "livonia", "prussia"]
    testing.play(game, 1, Withdraw(region="prussia"))
    assert game.armies["prussia"] == {"nation": 1, "units": {"infantry": 2}}
    assert game.armies["vilnius"] == {"nation": 0, "units": {"infantry": 2, "cavalry": 1}}
    assert game.control["vilnius"] == 0 and game.control["prussia"] == 1
    assert game.vp == [1, 0] and len(game.hands[1]) == 1


def test_difference_3_to_4_destroys_one_unit() -> None:
    """3-4: 1 unit destroyed, 2 cards, 2 VP (two Infantry: one choice, made for him)."""
    game = arranged(ATTACK)
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 2), ("infantry", 1), ("cavalry", 2)],
          [("infantry", 1), ("infantry", 0)])
    testing.play(game, 1, Withdraw(region="belarus"))
    destroyed = named(game, "UnitsDestroyed")
    assert [d["units"] for d in destroyed] == [{"infantry": 1}]
    assert game.vp == [2, 0] and len(game.hands[1]) == 2
    assert game.reserve[1]["infantry"] == 6 - 2 - 1 + 1


def test_difference_5_or_more_destroys_two_units() -> None:
    """5+: 2 units destroyed, 3 cards, 4 VP; nothing is left to withdraw."""
    game = arranged(ATTACK)
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 2), ("infantry", 1), ("cavalry", 2)],
          [("infantry", 0), ("infantry", 0)])
    assert named(game, "UnitsDestroyed")[0]["units"] == {"infantry": 2}
    assert game.vp == [4, 0] and len(game.hands[1]) == 3
    assert game.armies["vilnius"]["nation"] == 0


def test_five_or_more_against_one_unit_counts_as_four() -> None:
    """"If the losing player was not able to destroy 2 Units ... treat the Strength
    Difference as if it was 4": 1 unit lost, 2 cards, 2 VP."""
    game = arranged(dict(ATTACK, vilnius=(1, {"infantry": 1})))
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 2), ("infantry", 2), ("cavalry", 2)], [("infantry", 0)])
    won = named(game, "BattleWon")[0]
    assert (won["difference"], won["effective"], won["destroy"]) == (6, 4, 1)
    assert game.vp == [2, 0] and len(game.hands[1]) == 2


def test_the_loser_chooses_and_a_destroyed_titan_scores_one_more() -> None:
    """A. the loser chooses his units; D. +1 VP if his Titan was destroyed; a defending
    Titan destroyed stands on its Nation Board."""
    game = arranged(dict(ATTACK, vilnius=(1, {"infantry": 1, "titan": 1}),
                         moscow=(1, {"infantry": 1})))
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 2), ("infantry", 1), ("cavalry", 2)],
          [("infantry", 0), ("titan", 1)])
    assert game.pending()[0].kind == "destroy_units" and game.pending()[0].seat == 1
    assert game.battle is not None
    titan = next(i for i, t in enumerate(game.battle["sides"]["defender"]["troops"])
                 if t["unit"] == "titan")
    testing.play(game, 1, DestroyUnits(troops=(titan,)))
    assert game.titan[1] == "standing" and game.reserve[1]["titan"] == 1
    testing.play(game, 1, Withdraw(region="livonia"))
    resolved = named(game, "BattleResolved")[0]
    assert resolved["tier_vp"] == 2 and resolved["bonus"]["titan"] == 1
    assert game.vp == [3, 0]


def test_an_attacking_titan_destroyed_lies_then_rises_then_returns() -> None:
    """A destroyed attacking Titan lies on its Nation Board; Clean-Up raises it, and the
    next Clean-Up deploys it onto a controlled region."""
    layout = dict(ATTACK, warsaw=(0, {"titan": 1}), vilnius=(1, {"infantry": 2}))
    game = arranged(layout)
    attack(game, "warsaw", "vilnius", ("titan",))
    fight(game, [("titan", 1)], [("infantry", 2), ("infantry", 2)])
    assert game.titan[0] == "lying" and game.reserve[0]["titan"] == 1
    testing.finish_turn(game)
    assert game.titan[0] == "standing"  # raised in this turn's Clean-Up, not deployed
    assert "TitanRaised" in [n for n, _p in testing.events(game)]
    testing.quick_turn(game)  # Russia's turn
    testing.quick_turn(game)  # Poland's: its Clean-Up deploys the standing Titan
    assert game.titan[0] == "map"
    assert any(a["nation"] == 0 and a["units"].get("titan") for a in game.armies.values())


def test_the_attacker_withdraws_to_the_regions_he_came_from() -> None:
    """B. the Attacking player withdraws his units into the region(s) they came from."""
    layout = dict(ATTACK, prussia=(0, {"infantry": 1}))
    game = arranged(layout)
    testing.give_order(game, 0)  # move infantry, move cavalry, deploy infantry
    testing.play(game, 0, MoveUnit(action="move_infantry", unit="infantry", origin="prussia",
                                   to="vilnius"))
    testing.play(game, 0, MoveUnit(action="move_cavalry", unit="cavalry", origin="warsaw",
                                   to="vilnius"))
    assert game.control["prussia"] == 0 and "prussia" not in game.armies  # a Control Token
    testing.play(game, 0, EndOrders())
    fight(game, [("infantry", 1), ("cavalry", 1)], [("infantry", 2), ("infantry", 1)])
    assert game.armies["prussia"] == {"nation": 0, "units": {"infantry": 1}}
    assert game.armies["warsaw"] == {"nation": 0, "units": {"infantry": 2, "cavalry": 1}}


def test_the_defender_withdraws_into_a_region_he_controls_not_an_empty_one() -> None:
    """"The Defending player may not decide to retrieve his Units to an empty adjacent
    Region if he controls an adjacent Region"; with two, he chooses."""
    game = arranged(dict(ATTACK, belarus=(1, {"cavalry": 1})), control={"livonia": 1})
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 2), ("infantry", 1), ("cavalry", 1)],
          [("infantry", 1), ("infantry", 1)])
    assert sorted(c.region for c in testing.legal(game, 1)) == [  # type: ignore[attr-defined]
        "belarus", "livonia"]
    with pytest.raises(RuleError, match="withdraw into one of"):
        testing.play(game, 1, Withdraw(region="prussia"))
    testing.play(game, 1, Withdraw(region="livonia"))
    assert game.armies["livonia"] == {"nation": 1, "units": {"infantry": 2}}


def test_one_controlled_region_is_withdrawn_to_without_asking() -> None:
    game = arranged(dict(ATTACK, belarus=(1, {"cavalry": 1})))
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 2), ("infantry", 1), ("cavalry", 1)],
          [("infantry", 1), ("infantry", 1)])
    assert game.armies["belarus"] == {"nation": 1, "units": {"infantry": 2, "cavalry": 1}}


def test_with_nowhere_to_withdraw_the_units_are_destroyed() -> None:
    """"If there are no adjacent Regions that are controlled by that player nor Empty
    ones, all of his withdrawing Units are destroyed.\""""
    game = arranged(dict(ATTACK, vilnius=(1, {"infantry": 1, "titan": 1}),
                         moscow=(1, {"infantry": 1})),
                    control={"livonia": 0, "prussia": 0, "belarus": 0})
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 2), ("infantry", 1), ("cavalry", 1)],
          [("infantry", 1), ("titan", 1)])
    destroyed = named(game, "UnitsDestroyed")
    assert destroyed[-1]["why"] == "no retreat"
    assert destroyed[-1]["units"] == {"infantry": 1, "titan": 1}
    assert game.vp == [1 + 1, 0]  # the tier's 1 VP and the Titan's
    assert game.titan[1] == "standing"


def test_a_stronghold_draws_a_card_reverses_the_stages_and_falls() -> None:
    """Stronghold in Battles: the Defender draws 1 card at once, the Attacker's stage
    comes first; a lost Stronghold is destroyed, +1 VP."""
    game = arranged(ATTACK, strongholds=("vilnius",))
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    assert len(game.hands[1]) == 1
    assert game.battle is not None and game.battle["order"] == ["attacker", "defender"]
    assert game.pending()[0].seat == 0
    fight(game, [("infantry", 2), ("infantry", 1), ("cavalry", 1)],
          [("infantry", 1), ("infantry", 1)])
    testing.play(game, 1, Withdraw(region="livonia"))
    assert "vilnius" not in game.strongholds and game.vp == [1 + 1, 0]


def test_a_stronghold_that_holds_stays() -> None:
    game = arranged(ATTACK, strongholds=("vilnius",))
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    fight(game, [("infantry", 0), ("infantry", 0), ("cavalry", 0)],
          [("infantry", 1), ("infantry", 1)])
    assert game.strongholds == ["vilnius"] and game.vp == [0, 1]


def test_a_capitol_defends_like_a_stronghold_and_its_fall_scores_three() -> None:
    """Capitol: the two defence abilities of a Stronghold; taking it damages it, +3 VP."""
    layout = {"smolensk": (0, {"infantry": 2, "cavalry": 1}), "krakow": (0, {"infantry": 1}),
              "moscow": (1, {"infantry": 1}), "vilnius": (1, {"infantry": 1})}
    game = arranged(layout)
    attack(game, "smolensk", "moscow", ("infantry", "infantry", "cavalry"))
    assert len(game.hands[1]) == 1
    assert game.battle is not None and game.battle["order"] == ["attacker", "defender"]
    fight(game, [("infantry", 2), ("infantry", 1), ("cavalry", 1)], [("infantry", 1)])
    assert game.capitols["moscow"] == {"owner": 1, "damaged": True}
    assert game.control["moscow"] == 0
    resolved = named(game, "BattleResolved")[0]
    assert resolved["bonus"]["capitol"] == 3 and game.vp == [2 + 3, 0]


def test_an_empty_enemy_capitol_is_taken_for_three_vp() -> None:
    """Movement: an empty enemy region is taken (the owner takes back his token); an
    enemy Capitol is damaged, +3 VP at once; the damaged Capitol no longer defends."""
    layout = {"smolensk": (0, {"infantry": 2}), "krakow": (0, {"infantry": 1}),
              "vilnius": (1, {"infantry": 1}), "tver": (1, {"infantry": 1})}
    game = arranged(layout, control={"moscow": 1})
    testing.give_order(game, 0)
    testing.play(game, 0, MoveUnit(action="move_infantry", unit="infantry",
                                   origin="smolensk", to="moscow"))
    taken = named(game, "RegionTaken")[0]
    assert taken["capitol"] and taken["vp"] == 3 and game.vp == [3, 0]
    assert game.control["moscow"] == 0 and game.capitols["moscow"]["damaged"]


def test_last_region_may_not_be_attacked() -> None:
    """Last Region: a Nation's only region may not be attacked; of two, one per turn."""
    layout = {"warsaw": (0, {"infantry": 2, "cavalry": 1}), "krakow": (0, {"infantry": 1}),
              "vilnius": (1, {"infantry": 2})}
    game = arranged(layout)
    game.control.pop("moscow", None)
    testing.give_order(game, 1)
    with pytest.raises(RuleError, match="Last Region"):
        testing.play(game, 0, GroupMove(origin="warsaw", to="vilnius", units=("infantry",)))
    game = arranged(dict(layout, prussia=(0, {"infantry": 1})), control={"belarus": 1})
    game.control.pop("moscow", None)
    testing.give_order(game, 0)
    testing.play(game, 0, MoveUnit(action="move_infantry", unit="infantry", origin="prussia",
                                   to="vilnius"))
    with pytest.raises(RuleError, match="Last Region"):
        testing.play(game, 0, MoveUnit(action="move_cavalry", unit="cavalry",
                                       origin="warsaw", to="belarus"))
