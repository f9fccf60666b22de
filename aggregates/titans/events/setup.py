"""Game Setup: the opening purchases, the Secret Objectives dealt, kept and passed in the draft."""

from __future__ import annotations

from aggregates.kernel import Game
from aggregates.titans.events.shapes import CARD_COUNT, Purchase


class OpeningPurchaseChosen(Game.Event):
    """The `seat` secretly chooses its Opening Purchase: the Nation `card` (null:
    none), the Support Cards to `pay` and the card put at the `bottom` of its
    Nation Deck."""

    seat: int
    card: int | None
    pay: list[int]
    bottom: int


class OpeningPurchasesRevealed(Game.Event):
    """The Opening Purchases are revealed together: every seat's purchase."""

    purchases: list[Purchase]


class ObjectivesDealt(Game.Event):
    """The `seat` is dealt Secret Objective `cards` for the draft."""

    PUBLIC_COUNTS = CARD_COUNT

    seat: int
    cards: list[int]


class ObjectiveKept(Game.Event):
    """The `seat` keeps the Secret Objective `card`; the cards `returned` go back
    to the Objective deck (at the draft's last pick, or a Reinforcement)."""

    PUBLIC_COUNTS = (("returned", "count"),)

    seat: int
    card: int
    returned: list[int]


class ObjectivesPassed(Game.Event):
    """The `seat` passes the rest of its Objective `cards` to the seat `to` its left."""

    PUBLIC_COUNTS = CARD_COUNT

    seat: int
    to: int
    cards: list[int]


class DraftPassed(Game.Event):
    """The passed Objective cards are picked up: the draft's `pick` begins (recorded
    by rules 1.0.0 and 1.1.0 only; since, the last `ObjectivesPassed` begins it)."""

    pick: int


class DraftEnded(Game.Event):
    """The Objective draft is over: how many each player `kept` (recorded by rules
    1.0.0 and 1.1.0 only; since, the last `ObjectiveKept` ends it)."""

    kept: list[int]
