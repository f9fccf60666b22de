"""Setup: Initiative; Phase 1: New Age; Phase 2: Skirmish and Peacetime (the
drafts, recruiting and selling)."""

from __future__ import annotations

from typing import Any

from aggregates.ettin.events.shapes import CardsMoved, GoldGained, GoldPaid
from aggregates.kernel import Game


class InitiativeChoices(Game.Event):
    """Who chooses between each pair of Enemies whether to take the Initiative Token:
    `choosers` (pair, position); at Setup the higher Initiative number, after a War
    its loser. Recorded by rules 1 and 2 only: rules 3 read them from the setup and
    from `AgeEnded`."""

    choosers: list[dict[str, int]]


class InitiativeTaken(Game.Event):
    """The `chooser` of the `pair` takes the Initiative Token: the `holder`."""

    pair: int
    chooser: int
    holder: int


class InitiativeGiven(Game.Event):
    """The `chooser` of the `pair` gives the Initiative Token to its Enemy, the
    `holder`."""

    pair: int
    chooser: int
    holder: int


class AgeBegan(Game.Event):
    """A new Age begins: its number, `age`."""

    age: int


class AgeGold(GoldGained):
    """Every position gains the Age's gold (`gains` by position, `gold` after)."""


class AdventureRevealed(CardsMoved):
    """The Initiative holder (`position`) draws the `age`'s Adventure for the `pair`."""

    pair: int
    age: int | None


class DraftBegan(Game.Event):
    """A draft of the Age begins, its Lineups dealt: its `kind` (skirmish or
    peacetime), its `step` (0-2) and each group's `lineups` (lineup, members, drafting
    order: one pick per card dealt; rules 1 and 2 stated it before the deal)."""

    kind: str
    step: int
    lineups: list[dict[str, Any]]


class SkirmishLineupDealt(CardsMoved):
    """Four mercenaries are dealt face up as a pair of Enemies' Skirmish Lineup."""


class PeacetimeLineupDealt(CardsMoved):
    """Two cards of a position's Nation Deck (or the mercenary deck) join its
    Alliance's Peacetime Lineup."""


class EmptyDecksGold(GoldPaid):
    """Empty Decks: the `position` gains the Age's gold per card it could not draw
    (`amount`, `gold` after), `instead_of` the draw it replaces."""

    instead_of: str | None


class DraftOrderShortened(Game.Event):
    """A lineup short of cards (Empty Decks) shortens its drafting order: the
    `lineups`' orders now. Recorded by rules 1 and 2 only: rules 3 state the order
    once (`DraftBegan`)."""

    lineups: list[dict[str, Any]]


class Drafted(CardsMoved):
    """The `position` drafts a card from its lineup."""

    position: int


class DraftPassed(Game.Event):
    """The `lineup` passes `to` the next drafter (None: its drafting is over).
    Recorded by rules 1 to 3 only: rules 4 read it from each `Drafted`."""

    lineup: str | None
    to: int | None


class UndraftedLost(CardsMoved):
    """The cards left in a lineup go to the Lost Pile."""


class RecruitPaid(GoldPaid):
    """The `position` pays the `card`'s cost to recruit it (`amount` negative, `gold`
    after)."""

    card: int | None


class Recruited(CardsMoved):
    """The recruited card goes to the position's War Camp."""

    position: int


class Sold(GoldPaid):
    """The `position` sells the `card` for its value at once (`amount`, `gold` after)."""

    card: int | None


class SoldCardLost(CardsMoved):
    """The sold card goes to the Lost Pile."""

    position: int
