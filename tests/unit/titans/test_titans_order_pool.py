"""Titans rulebook, "Managing the Order Cards": both of its worked examples,
the Order Deck of each player count (Game Setup 4), and a round's length."""

from __future__ import annotations

import pytest

from aggregates.kernel import RuleError
from aggregates.titans import testing
from aggregates.titans.commands import TakeOrder
from aggregates.titans.data import ORDERS, order_deck


def test_order_deck_by_player_count() -> None:
    """Game Setup 4: 2 players leave out the "3+" and "4" cards, 3 the "4" card."""
    assert len(ORDERS) == 16
    assert len(order_deck(2)) == 11 and all(ORDERS[c].players == "all" for c in order_deck(2))
    assert len(order_deck(3)) == 15 and all(ORDERS[c].players != "4" for c in order_deck(3))
    assert order_deck(4) == list(range(16))


def test_three_player_example() -> None:
    """3-player example: 5 (A), 4 (B), 3 (C), 2 (A); the last card discarded, 5 cards
    moved down and 5 new drawn; 5 (B)."""
    game = testing.through_setup(testing.new_game(3))
    assert len(game.order_pool) == 5 and len(game.upcoming) == 5
    upcoming = list(game.upcoming)
    played = [testing.quick_turn(game) for _ in range(4)]
    assert played == [(0, 5), (1, 4), (2, 3), (0, 2)]
    assert game.order_pool == upcoming          # the Upcoming Pool slid down
    assert len(game.upcoming) == 5 and not game.order_deck
    assert len(game.order_discard) == 4 + 1     # the four played and the last one
    assert testing.quick_turn(game) == (1, 5)


def test_two_player_example_and_exception() -> None:
    """2-player example: 4 (A), 3 (B), 2 (A); discard, 4 moved down, 3 drawn; 4 (B), 3 (A),
    2 (B); discard; 3 (A), 2 (B); discard, and the Round ends (the 2-player exception)."""
    game = testing.through_setup(testing.new_game(2))
    played = [testing.quick_turn(game) for _ in range(3)]
    assert played == [(0, 4), (1, 3), (0, 2)]
    assert len(game.order_pool) == 4 and len(game.upcoming) == 3
    played = [testing.quick_turn(game) for _ in range(3)]
    assert played == [(1, 4), (0, 3), (1, 2)]
    assert len(game.order_pool) == 3 and game.upcoming == []
    played = [testing.quick_turn(game) for _ in range(2)]
    assert played == [(0, 3), (1, 2)]
    # the last card discarded with no Upcoming Pool: the Round is over (8 turns)
    assert game.round == 2 and game.reinforcing is not None
    assert len(game.order_discard) == 11


@pytest.mark.parametrize(("players", "turns"), [(2, 8), (3, 12), (4, 12)])
def test_round_length(players: int, turns: int) -> None:
    """The rulings: 2 players take 8 turns a round, 3 and 4 players 12."""
    game = testing.through_setup(testing.new_game(players))
    count = 0
    while game.round == 1:
        testing.quick_turn(game)
        count += 1
    assert count == turns


def test_only_a_card_of_the_pool_may_be_taken() -> None:
    """A) Order Phase: the player chooses one Order Card from the Pool."""
    game = testing.through_setup(testing.new_game(2))
    outside = next(c for c in order_deck(2) if c not in game.order_pool)
    with pytest.raises(RuleError, match="not in the Order Pool"):
        testing.play(game, 0, TakeOrder(card=outside))
    with pytest.raises(RuleError, match="NOT_YOUR_TURN"):
        testing.play(game, 1, TakeOrder(card=game.order_pool[0]))
