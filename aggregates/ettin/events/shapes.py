"""The shapes several facts share: cards moved between zones, gold paid and
gained; the recorded setup and outcome; the facts whose public form is a
count."""

from __future__ import annotations

from typing import TypedDict

from aggregates.kernel import Game

#: A card move's public form: the number of cards instead of the cards.
CARD_COUNT = (("cards", "count"),)


class Setup(TypedDict):
    """The setup: each position's nation (the Mercenary mat last, when there is one)
    and every deck in its shuffled order (the public form gives each deck's size)."""

    nations: list[str]
    decks: dict[str, list[int] | int]


class Team(TypedDict):
    """An Alliance's total: its `team` name, its `positions` and `seats`, its `score`
    (VP) and its `gold` (the tie-break)."""

    team: str
    positions: list[int]
    seats: list[int]
    score: int
    gold: int


class Outcome(TypedDict):
    """How the game ended (the Ended event's ``outcome``): every position's VP, the
    Alliances' totals, the winning Alliance and its seats."""

    result: str
    positions: list[int]
    scores: list[int]
    teams: list[Team]
    winner_team: int
    winners: list[int]


class CardsMoved(Game.Event):
    """The shape of a card move (not an event itself): the `cards` leave `source`
    for `target`; `position`, whose they are (re-declared ``int`` where the rules
    always name one)."""

    PUBLIC_COUNTS = CARD_COUNT

    position: int | None
    source: str
    target: str
    cards: list[int]


class GoldPaid(Game.Event):
    """The shape of one position's gold changing (not an event itself): the
    `amount` and the `gold` after."""

    position: int
    amount: int
    gold: int | None


class GoldGained(Game.Event):
    """The shape of several positions' gold changing at once (not an event itself):
    `gains` and the `gold` after, by position."""

    gains: dict[str, int]
    gold: dict[str, int] | None
