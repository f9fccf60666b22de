"""Setup: the opening tables, the hands dealt and kept or mulliganed, the first Ordained."""

from __future__ import annotations

from typing import TypedDict

from aggregates.kernel import Game


class PlayerSetup(TypedDict):
    """A player's opening table: the `deck`, its `stronghold`, starting
    `castles` and their `food`, the stronghold's starting `renown`, and the
    deck's shuffled `cards` (their count in the public form)."""

    deck: str
    stronghold: str
    castles: list[str]
    renown: int
    food: list[int]
    cards: list[str] | int


class Setup(TypedDict):
    """The setup: each player's deck and opening table, and the first Ordained."""

    players: list[PlayerSetup]
    ordained: int


class HandsDealt(Game.Event):
    """The opening hands are dealt to the `seats`."""

    seats: list[int]


class Mulliganed(Game.Event):
    """The `seat` mulligans: its hand is `discarded` (`keys`), one food paid from
    each castle of `food_from`, and a new hand drawn."""

    seat: int
    discarded: list[str]
    keys: list[str]
    food_from: list[str]


class HandKept(Game.Event):
    """The `seat` keeps its opening hand."""

    seat: int


class OrdainedTaken(Game.Event):
    """The `seat` takes the Ordained token."""

    seat: int
