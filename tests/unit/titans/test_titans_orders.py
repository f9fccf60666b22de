"""Titans rulebook, "A) Order Phase": Movement Actions and their basic rules,
Unit Deployment, Purchasing Nation Card (with the Round 3 discount and the
discounted variant), Stronghold Construction."""

from __future__ import annotations

import pytest

from aggregates.kernel import RuleError
from aggregates.titans import testing
from aggregates.titans.commands import (
    BuildStronghold,
    DeployUnit,
    EndOrders,
    GroupMove,
    MoveUnit,
    PurchaseNationCard,
)
from aggregates.titans.data import NATION_CARDS, ORDERS
from tests.unit.titans.test_titans_battles import ATTACK, arranged, named


def test_an_order_card_actions_in_any_order_each_once() -> None:
    """The player may use the Order's actions in any order, and leave some unused."""
    game = arranged(ATTACK)
    testing.give_order(game, 0)  # move infantry, move cavalry, deploy infantry
    assert ORDERS[0].actions == ("move_infantry", "move_cavalry", "deploy_infantry")
    testing.play(game, 0, DeployUnit(action="deploy_infantry", unit="infantry",
                                     region="krakow"))
    testing.play(game, 0, MoveUnit(action="move_cavalry", unit="cavalry", origin="warsaw",
                                   to="prussia"))
    with pytest.raises(RuleError, match="NO_SUCH_ACTION"):
        testing.play(game, 0, MoveUnit(action="move_cavalry", unit="cavalry",
                                       origin="prussia", to="pomerania"))
    with pytest.raises(RuleError):
        testing.play(game, 0, MoveUnit(action="move_infantry", unit="cavalry",
                                       origin="prussia", to="pomerania"))
    testing.play(game, 0, EndOrders())
    assert named(game, "OrdersEnded")[0]["unused"] == ["move_infantry"]
    assert game.order_discard == [0]


def test_moving_the_last_unit_leaves_a_control_token() -> None:
    """"When a player leaves the last Unit from a Region, he places a Control Token in
    that Region - he still controls that Region"; returning takes the token back."""
    game = arranged(ATTACK)
    testing.give_order(game, 1)
    testing.play(game, 0, GroupMove(origin="warsaw", to="prussia",
                                    units=("infantry", "infantry", "cavalry")))
    moved = named(game, "UnitMoved")[0]
    assert moved["token"] and game.control["warsaw"] == 0 and "warsaw" not in game.armies
    assert game.control["prussia"] == 0
    from aggregates.titans.regions import tokens_in_use
    assert tokens_in_use(game, 0) == 1


def test_seven_control_tokens_at_most() -> None:
    """7 Control Tokens per Nation: a move needing an 8th is refused (the Capitol
    counts as its own token)."""
    game = arranged(ATTACK, control={r: 0 for r in ("pomerania", "prussia", "livonia",
                                                     "belarus", "lwow", "hungary", "poznan")})
    testing.give_order(game, 1)
    with pytest.raises(RuleError, match="NO_CONTROL_TOKEN"):
        testing.play(game, 0, GroupMove(origin="warsaw", to="vilnius",
                                        units=("infantry", "infantry", "cavalry")))
    # into a region with its own token: the token comes back, none is needed
    testing.play(game, 0, GroupMove(origin="warsaw", to="prussia",
                                    units=("infantry", "infantry", "cavalry")))


def test_group_move_up_to_four_units_the_titan_among_them() -> None:
    layout = dict(ATTACK, warsaw=(0, {"infantry": 3, "cavalry": 1, "titan": 1}))
    game = arranged(layout)
    testing.give_order(game, 9)  # group move, move titan
    with pytest.raises(RuleError, match="1 to 4"):
        testing.play(game, 0, GroupMove(origin="warsaw", to="prussia",
                                        units=("infantry",) * 3 + ("cavalry", "titan")))
    testing.play(game, 0, GroupMove(origin="warsaw", to="prussia",
                                    units=("infantry", "infantry", "cavalry", "titan")))
    assert game.armies["prussia"]["units"] == {"infantry": 2, "cavalry": 1, "titan": 1}
    testing.play(game, 0, MoveUnit(action="move_titan", unit="titan", origin="prussia",
                                   to="pomerania"))
    assert game.armies["pomerania"]["units"] == {"titan": 1}


def test_moves_cross_one_border_into_active_regions() -> None:
    game = arranged(ATTACK)
    testing.give_order(game, 1)
    with pytest.raises(RuleError, match="NOT_ADJACENT"):
        testing.play(game, 0, GroupMove(origin="warsaw", to="kiev", units=("infantry",)))
    with pytest.raises(RuleError, match="INACTIVE_REGION"):  # Sweden's home, not in play
        testing.play(game, 0, GroupMove(origin="prussia", to="gotaland",
                                        units=("infantry",)))


def test_deployment_onto_controlled_regions_from_a_finite_reserve() -> None:
    """Unit Deployment: onto a controlled region (an army, or one with a Control Token);
    no unit of a type is left once all are on the map."""
    layout = dict(ATTACK, warsaw=(0, {"infantry": 5, "cavalry": 1}))
    game = arranged(layout, control={"prussia": 0})
    testing.give_order(game, 7)  # deploy infantry, deploy cavalry, move any
    with pytest.raises(RuleError, match="NOT_CONTROLLED"):
        testing.play(game, 0, DeployUnit(action="deploy_cavalry", unit="cavalry",
                                         region="vilnius"))
    testing.play(game, 0, DeployUnit(action="deploy_cavalry", unit="cavalry",
                                     region="prussia"))
    assert game.armies["prussia"] == {"nation": 0, "units": {"cavalry": 1}}
    game.reserve[0]["infantry"] = 0
    game.armies["krakow"]["units"]["infantry"] = 1
    assert not [c for c in testing.legal(game, 0) if isinstance(c, DeployUnit)]


def test_purchase_pays_the_cost_less_the_round_3_discount() -> None:
    """Purchasing Nation Card: pay its cost in Support Cards; Round 3 lowers it by 1, the
    discounted action by 1 more, never below 0; one of the others may go to the bottom."""
    game = arranged(ATTACK)
    testing.set_hand(game, 0, [20, 21, 22, 23])
    top = game.nation_decks[0][:3]
    card = max(top, key=lambda c: NATION_CARDS[c].cost)
    cost = NATION_CARDS[card].cost
    testing.give_order(game, 4)  # move titan, move infantry, purchase
    if cost:
        with pytest.raises(RuleError, match="CANNOT_PAY"):
            testing.play(game, 0, PurchaseNationCard(action="purchase", card=card, bottom=-1))
    other = next(c for c in top if c != card)
    testing.play(game, 0, PurchaseNationCard(action="purchase", card=card,
                                             pay=tuple([20, 21, 22, 23][:cost]), bottom=other))
    assert game.nation_cards[0] == [card] and game.nation_decks[0][-1] == other
    assert len(game.hands[0]) == 4 - cost
    bought = named(game, "NationCardPurchased")[0]
    assert bought["cost"] == cost and bought["bottom"] == other
    game.round = 3
    from aggregates.titans.purchase import cost as cost_now
    assert all(cost_now(game, c) == max(0, NATION_CARDS[c].cost - 1) for c in range(40))
    assert all(cost_now(game, c, 1) == max(0, NATION_CARDS[c].cost - 2) for c in range(40))
    game.rounds = 4
    game.round = 4  # Extended Gameplay: Round 4, 2 cards off
    assert all(cost_now(game, c) == max(0, NATION_CARDS[c].cost - 2) for c in range(40))


def test_stronghold_construction() -> None:
    """A Stronghold in a region with the player's units or Control Token, one per region,
    3 in all."""
    game = arranged(ATTACK, control={"prussia": 0})
    testing.give_order(game, 2)  # move any, move any, stronghold
    with pytest.raises(RuleError, match="NOT_CONTROLLED"):
        testing.play(game, 0, BuildStronghold(region="vilnius"))
    testing.play(game, 0, BuildStronghold(region="prussia"))
    assert game.strongholds == ["prussia"] and game.strongholds_left == 2


def test_an_empty_stronghold_is_entered_without_a_battle_and_taken_over() -> None:
    """"When the Region with a Stronghold is empty, enemy Units may enter it without
    starting a Battle. In that case the player takes over the Stronghold.\""""
    game = arranged(ATTACK, control={"belarus": 1}, strongholds=("belarus",))
    testing.give_order(game, 1)
    testing.play(game, 0, GroupMove(origin="warsaw", to="belarus", units=("cavalry",)))
    taken = named(game, "RegionTaken")[0]
    assert taken["stronghold"] and not named(game, "BattleDeclared")
    assert game.control["belarus"] == 0 and game.strongholds == ["belarus"]
