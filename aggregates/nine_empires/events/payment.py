"""Paying Costs: cards bowed and straightened, food spent."""

from __future__ import annotations

from aggregates.kernel import Game


class Bowed(Game.Event):
    """The `seat` bows these `cards` (`why`: a cost, an action, an effect)."""

    cards: list[str]
    seat: int
    why: str


class Straightened(Game.Event):
    """The `seat`'s `cards` are straightened."""

    cards: list[str]
    seat: int


class FoodSpent(Game.Event):
    """The `seat` spends one food from each of these `castles` (`why`), `left` on
    each after it."""

    castles: list[str]
    left: dict[str, int]
    seat: int
    why: str
