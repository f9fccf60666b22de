"""Winning the War, the end of an Age and of the game."""

from __future__ import annotations

from typing import Any

from aggregates.ettin.events.shapes import CardsMoved, GoldGained
from aggregates.kernel import Game


class TiedWarGold(GoldGained):
    """A fully tied War: both Enemies of the `pair` gain the Age's gold (`gains`,
    `gold` after)."""

    pair: int | None


class LoserDrew(CardsMoved):
    """The War's loser draws the top card of its Nation Deck to its War Camp."""

    position: int


class AgeEnded(Game.Event):
    """The Age's Wars are decided (`wars`: pair, winner, battles won): each winner
    takes the `age`'s Victory Token; a fully tied War passes the Initiative Token."""

    age: int
    wars: list[dict[str, Any]]


class GameOver(Game.Event):
    """The third Age is over: the game ends and is scored."""
