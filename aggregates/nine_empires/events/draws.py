"""Decks, Discard Piles, and Hands: cards drawn, decks reshuffled, cards discarded."""

from __future__ import annotations

from aggregates.kernel import Game


class CardsDrawn(Game.Event):
    """The `seat` draws `count` cards (`cards`, read by the drawer alone) (`why`)."""

    cards: list[str]
    count: int
    seat: int
    why: str


class DeckReshuffled(Game.Event):
    """The `seat`'s discard pile is shuffled into a new deck in this `order` (read
    by nobody), `count` cards."""

    count: int
    order: list[str]
    seat: int


class CardsDiscarded(Game.Event):
    """The `seat` discards the `cards` (`keys`) from hand (`why`)."""

    cards: list[str]
    keys: list[str]
    seat: int
    why: str
