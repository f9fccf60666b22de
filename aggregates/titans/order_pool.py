"""Managing the Order Cards: the Order Deck, the Order Pool and the Upcoming Pool.

Rulebook, "Managing the Order Cards": the Starting Player draws a Pool of the
player count's size (2: 4, 3: 5, 4: 4) and as many above it (the Upcoming
Pool). Each turn one Order Card is taken from the Pool, which is not
replenished. When only 1 card is left in the Pool it is discarded, the
Upcoming Pool slides down and a new Upcoming Pool is drawn (fewer cards, or
none, when the Order Deck runs short). When the second-to-last card has been
played and the last discarded with no Upcoming Pool left, the Round ends
after the Active Player's turn.

The Order Deck of each player count follows from "Prepare the Order Deck":
11 cards for 2 players, 15 for 3, 16 for 4 — which gives the 2-player
exception (the third Pool holds 3 cards) by itself.
"""

from __future__ import annotations

from aggregates.kernel import NOBODY, Command, RuleError
from aggregates.titans.commands import TakeOrder
from aggregates.titans.data import ORDERS, TABLES, order_deck
from aggregates.titans.reasons import TitansReason
from aggregates.titans.state import State


def pool_size(game: State) -> int:
    return TABLES.order_pool_size[len(game.seats)]


def begin_round(game: State) -> None:
    """Decide: shuffle every Order Card of the player count into the Order Deck,
    and the Starting Player draws the Pool and the Upcoming Pool above it."""
    deck = game.shuffled(order_deck(len(game.seats)))
    game.emit("OrderDeckShuffled", audience=NOBODY,
              public={"round": game.round, "count": len(deck)}, round=game.round, deck=deck)
    size = pool_size(game)
    game.emit("OrderPoolDrawn", round=game.round, cards=deck[:size], first=game.start_player)
    game.emit("UpcomingPoolDrawn", round=game.round, cards=deck[size:2 * size])


def slide_down(game: State) -> None:
    """Decide: the last card of the Pool is discarded, the Upcoming Pool becomes
    the Pool, and a new Upcoming Pool is drawn from what the Order Deck holds."""
    size = pool_size(game)
    game.emit("OrderPoolSlid", card=game.order_pool[0], cards=list(game.order_deck[:size]))


def needs_slide(game: State) -> bool:
    return len(game.order_pool) == 1


def round_over(game: State) -> bool:
    """The last card was discarded with no Upcoming Pool to slide down."""
    return not game.order_pool and not game.upcoming


# ------------------------------------------------------------------ take_order


def check_take_order(game: State, seat: int, command: TakeOrder) -> None:
    if command.card not in game.order_pool:
        raise RuleError(TitansReason.NOT_HELD,
                        f"Order Card {command.card} is not in the Order Pool "
                        f"{sorted(game.order_pool)}")


def run_take_order(game: State, seat: int, command: TakeOrder) -> None:
    game.emit("OrderTaken", seat=seat, card=command.card,
              actions=list(ORDERS[command.card].actions))


def legal_take_order(game: State, seat: int) -> list[Command]:
    return [TakeOrder(card=c) for c in sorted(game.order_pool)]
