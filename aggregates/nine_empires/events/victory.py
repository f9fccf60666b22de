"""Winning the Game: a player eliminated, the game won, and how it ended (the outcome)."""

from __future__ import annotations

from typing import Literal, TypedDict

from aggregates.kernel import Game


class Outcome(TypedDict):
    """How the game ended (the Ended event's ``outcome``): the result as read,
    the winner and how they won."""

    result: str
    winner: int
    how: Literal["dominance", "popular", "conquest", "last standing"]
    winners: list[int]


class PlayerEliminated(Game.Event):
    """The `seat` is eliminated (`why`)."""

    seat: int
    why: str


class GameWon(Game.Event):
    """The `winner` wins by the victory `how`, with the `renown` of every seat."""

    how: str
    renown: list[int]
    winner: int
