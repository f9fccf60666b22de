"""Support Cards: drawn, unavailable, the row refilled, the deck reshuffled, discarded."""

from __future__ import annotations

from aggregates.kernel import Game
from aggregates.titans.events.shapes import CARD_COUNT


class SupportDrawn(Game.Event):
    """The `seat` draws Support `cards` from the `source` (``deck`` or the face-up
    ``row``), `why` (``setup``, ``turn``, ``battle lost``, ``stronghold``,
    ``ability``, ``reinforcement``)."""

    PUBLIC_COUNTS = CARD_COUNT

    seat: int
    cards: list[int]
    source: str
    why: str


class SupportUnavailable(Game.Event):
    """The Active Player (`seat`) can draw no Support Card this turn: the deck,
    its discards and the row are empty. Recorded by rules 1.2.0 and before only:
    rules 1.3.0 pass the Support step, nothing drawn, in the apply of the fact
    that enters it (`OrdersEnded`, the turn's last `BattleResolved`)."""

    seat: int


class SupportRowRefilled(Game.Event):
    """The face-up Support row is refilled with `cards` from the deck."""

    cards: list[int]


class SupportDeckReshuffled(Game.Event):
    """The Support discards are shuffled into a new `deck` (in its order)."""

    PUBLIC_COUNTS = (("deck", "count"),)

    deck: list[int]


class SupportDiscarded(Game.Event):
    """The `seat` discards Support `cards`, `why` (``reroll``, ``hand limit``,
    ``reinforcement``, or paid for a purchase)."""

    seat: int
    cards: list[int]
    why: str
