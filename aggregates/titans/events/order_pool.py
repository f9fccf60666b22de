"""Order Cards: the Round begun, the Order Deck shuffled, the Order Pools drawn
and slid, an Order taken, the Orders ended."""

from __future__ import annotations

from aggregates.kernel import Game


class RoundBegan(Game.Event):
    """The `round` begins with its Starting Player (`start_player`)."""

    round: int
    start_player: int


class OrderDeckShuffled(Game.Event):
    """The Order Cards are shuffled into the `round`'s `deck` (in its order)."""

    PUBLIC_COUNTS = (("deck", "count"),)

    round: int
    deck: list[int]


class OrderPoolDrawn(Game.Event):
    """The Order Pool's `cards` are drawn for the `round`; the `first` seat plays."""

    round: int
    cards: list[int]
    first: int


class UpcomingPoolDrawn(Game.Event):
    """The Upcoming Pool's `cards` are drawn for the `round`."""

    round: int
    cards: list[int]


class OrderPoolSlid(Game.Event):
    """The last Order Pool `card` is discarded, the Upcoming Pool slides into the
    Order Pool, and new Upcoming `cards` are drawn."""

    card: int
    cards: list[int]


class OrderTaken(Game.Event):
    """The `seat` takes the Order `card` from the Pool: its `actions`."""

    seat: int
    card: int
    actions: list[str]


class OrdersEnded(Game.Event):
    """The `seat` is done with its Order `card`: the actions left `unused` and the
    regions whose `battles` follow."""

    seat: int
    card: int
    unused: list[str]
    battles: list[str]
