"""Titans rulebook, "End of the Round" (Victory Points for Regions, the new
Starting Player and Round, both Reinforcements with each of their options,
Preparing Cards for the new Round) and "End of the Game" with its tie-breaks."""

from __future__ import annotations

import pytest

from aggregates.kernel import RuleError
from aggregates.titans import testing
from aggregates.titans.commands import (
    KeepObjective,
    ReinforceObjectives,
    ReinforcePurchase,
    ReinforceSupport,
    ReinforceUnit,
)
from aggregates.titans.data import NATION_CARDS, order_deck
from aggregates.titans.game import Titans
from aggregates.titans.purchase import cost


def to_round_end(players: int = 2) -> tuple[Titans, list[int]]:
    options = {"setup": "2-poland-russia"} if players == 2 else {}
    game = testing.through_setup(testing.new_game(players, **options))
    held: list[int] = []
    while game.round == 1:
        held = [sum(1 for s in game.control.values() if s == seat) for seat in range(players)]
        testing.quick_turn(game)
    return game, held


def test_regions_score_and_the_token_passes_counter_clockwise() -> None:
    """1. 1 VP per controlled region; 2. the Starting Player Token passes to the next
    player counter-clockwise, the Round Tracker moves on."""
    game, _held = to_round_end(3)
    events = dict(testing.events(game))
    scored = events["RoundScored"]
    assert scored["round"] == 1 and not scored["final"]
    assert scored["vp"] == scored["regions"] == [len([r for r, s in game.control.items()
                                                      if s == seat]) for seat in range(3)]
    assert events["StartingPlayerPassed"] == {"round": 2, "start_player": 2}
    assert game.reinforcing is not None and game.reinforcing["order"] == [2, 0, 1]
    assert game.pending()[0].seat == 2 and game.pending()[0].kind == "first_reinforcement"


def test_both_reinforcements_each_option_then_the_new_round() -> None:
    """3. Reinforcements, from the new Starting Player clockwise, each taking both:
    (1st) 2 Support Cards, or 2 Secret Objectives keeping 1; (2nd) a Nation Card, or a
    Support Card discarded for 1 unit onto a controlled region. 4. the row replaced,
    the Order Cards reshuffled, the once-per-Round cards turned back."""
    game, _held = to_round_end(2)
    if 36 in game.nation_decks[0]:  # Poland's once-per-Round card, used this Round
        game.nation_decks[0].remove(36)
        game.nation_cards[0].append(36)
    game.rotated[0] = [36]
    assert game.reinforcing is not None and game.reinforcing["order"] == [1, 0]
    # seat 1: 2 Support Cards, one face up and one from the Deck
    row = list(game.support_row)
    hand = len(game.hands[1])
    testing.play(game, 1, ReinforceSupport(row=(row[0],)))
    assert len(game.hands[1]) == hand + 2 and row[0] in game.hands[1]
    assert len(game.support_row) == 4
    with pytest.raises(RuleError, match="WRONG_PHASE"):
        testing.play(game, 1, ReinforceSupport(row=()))
    # seat 1: discard 1 Support Card, add 1 unit
    region = next(r for r, s in sorted(game.control.items()) if s == 1)
    before = dict(game.armies.get(region, {"units": {}})["units"])
    card = sorted(game.hands[1])[0]
    testing.play(game, 1, ReinforceUnit(discard=card, unit="infantry", region=region))
    assert game.armies[region]["units"]["infantry"] == before.get("infantry", 0) + 1
    assert card in game.support_discard
    # seat 0: 2 Secret Objectives, keep 1, the other to the bottom
    testing.play(game, 0, ReinforceObjectives())
    assert game.reinforcing is not None
    drawn = list(game.reinforcing["drawn"])
    assert len(drawn) == 2 and game.pending()[0].kind == "keep_objective"
    testing.play(game, 0, KeepObjective(card=drawn[1]))
    assert drawn[1] in game.objectives[0] and game.objective_deck[-1] == drawn[0]
    # seat 0: a Nation Card
    top = game.nation_decks[0][:3]
    affordable = [c for c in top if cost(game, c) <= len(game.hands[0])]
    buy = affordable[0]
    old_row = list(game.support_row)
    testing.play(game, 0, ReinforcePurchase(card=buy, bottom=-1,
                                            pay=tuple(sorted(game.hands[0])[:cost(game, buy)])))
    assert buy in game.nation_cards[0]
    # 4. Preparing Cards for the new Round, and Round 2's first turn
    assert game.reinforcing is None and game.rotated == [[], []]
    assert all(c in game.support_discard for c in old_row)
    assert len(game.support_row) == 4 and not set(game.support_row) & set(old_row)
    assert game.round == 2 and game.current == 1 and game.pending()[0].kind == "order"
    assert sorted(game.order_deck + game.order_pool + game.upcoming) == order_deck(2)


def test_the_2nd_reinforcement_is_one_of_its_two_options() -> None:
    """3. Reinforcements, "2nd Reinforcement: Player chooses 1 of 2 options": purchase
    a Nation Card, or discard 1 Support Card and add 1 unit. Buying nothing is no third
    option while either can be taken; it is the answer only when neither can (and then
    no card goes to the bottom of the Nation Deck: that follows a purchase, "Purchasing
    Nation Card Action")."""
    game, _held = to_round_end(2)
    testing.play(game, 1, ReinforceSupport(row=()))
    seat = 1
    # a Support Card in hand: the unit option can be taken, so something must be
    assert game.hands[seat]
    with pytest.raises(RuleError, match="ILLEGAL_MOVE"):
        testing.play(game, seat, ReinforcePurchase(card=-1, bottom=-1))
    names = {c.NAME for c in testing.legal(game, seat)}
    assert names == {"reinforce_unit"} or names == {"reinforce_unit", "reinforce_purchase"}
    assert all(c.card != -1 for c in testing.legal(game, seat)  # type: ignore[attr-defined]
               if c.NAME == "reinforce_purchase")
    # no Support Card and only costly cards on top: neither option can be taken
    testing.set_hand(game, seat, [])
    costly = [c for c in game.nation_decks[seat] if NATION_CARDS[c].cost > 0]
    game.nation_decks[seat] = costly + [c for c in game.nation_decks[seat] if c not in costly]
    assert len(costly) >= 3
    top = game.nation_decks[seat][:3]
    assert testing.legal(game, seat) == [ReinforcePurchase(card=-1, pay=(), bottom=-1)]
    with pytest.raises(RuleError, match="BAD_ARGUMENT"):
        testing.play(game, seat, ReinforcePurchase(card=-1, bottom=top[0]))
    testing.play(game, seat, ReinforcePurchase(card=-1, bottom=-1))
    assert game.nation_decks[seat][:3] == top and game.pending()[0].seat == 0


def test_the_second_round_discount_applies_after_round_two() -> None:
    """"After the end of the 2nd Round, the Round Tracker was already moved to the 3rd
    Round, and the 1 Card Discount applies.\""""
    game, _held = to_round_end(2)
    game.round = 3
    assert all(cost(game, c) == max(0, NATION_CARDS[c].cost - 1) for c in range(40))


def test_the_game_ends_after_three_rounds_with_region_vp_apart() -> None:
    """End of the Game: after the 3rd Round's region VP (kept apart), the most VP wins."""
    game = testing.through_setup(testing.new_game(2))
    while not game.over:
        if game.reinforcing is not None:
            seat = game.pending()[0].seat
            kind = game.pending()[0].kind
            command = (ReinforceSupport(row=()) if kind == "first_reinforcement"
                       else testing.legal(game, seat)[0])
            testing.play(game, seat, command)
        else:
            testing.quick_turn(game)
    outcome = game.finished()
    assert outcome is not None and game.round == 3
    assert game.region_vp == outcome["regions"]
    assert outcome["winner"] == outcome["ranking"][0]
    assert game.pending() == []
