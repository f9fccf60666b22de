"""Playing Cards, Food on cards, Burying Cards."""

from __future__ import annotations

from aggregates.kernel import Game


class CardPlayed(Game.Event):
    """The `seat` plays the `card` (`key`, of `type`) from hand, attached to
    `attach_to` if an attachment, `bowed` if it enters play bowed."""

    attach_to: str | None
    bowed: bool
    card: str
    key: str
    seat: int
    type: str


class TokenMade(Game.Event):
    """A token `token` of the `card` is made for the `seat`, attached to
    `attached_to`."""

    attached_to: str
    card: str
    seat: int
    token: str


class FoodAdded(Game.Event):
    """The `source` adds `amount` food to the `castle` (`total` after it)."""

    amount: int
    castle: str
    seat: int
    source: str
    total: int


class FoodLost(Game.Event):
    """The `castle` loses `amount` food to the `source` (`total` after it)."""

    amount: int
    castle: str
    seat: int
    source: str
    total: int


class HeroBuried(Game.Event):
    """The `hero` (`key`) of the `seat` is buried (`why`) with the attachments
    `buried` and those `discarded`, and the `food` it carried is lost."""

    buried: list[str]
    discarded: list[str]
    food: int
    hero: str
    key: str
    seat: int
    why: str


class CardBuried(Game.Event):
    """The `card` (`key`, a `token` or not) of the `seat` is buried (`why`)."""

    card: str
    key: str
    seat: int
    token: bool
    why: str
