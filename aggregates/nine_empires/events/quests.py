"""Quests: glory paid, quests completed, renown gained."""

from __future__ import annotations

from aggregates.kernel import Game


class GloryPaid(Game.Event):
    """The `seat` pays the quest's `glory` with the `heroes` at home, `bowed` those
    it bows."""

    bowed: list[str]
    glory: int
    heroes: list[str]
    seat: int


class QuestCompleted(Game.Event):
    """The `seat` completes the `quest` (`key`), gaining its `renown` (`total` after
    it)."""

    key: str
    quest: str
    renown: int
    seat: int
    total: int


class RenownGained(Game.Event):
    """The `seat` gains `amount` Renown (`why`), `total` after it."""

    amount: int
    seat: int
    total: int
    why: str
