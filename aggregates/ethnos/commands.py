"""Ethnos commands: one per message of ``protos/arbiter/v1/ethnos.proto``.

Cards are integer card ids (``aggregates/ethnos/data/ethnos.json``); a band's
``cards`` include its ``leader``. ``kingdom`` travels as the lowercase name of
the ``EthnosKingdom`` enum value (``"duris"``, ``"rhea"``...).
"""

from __future__ import annotations

from aggregates.kernel import Command, CommandSet


class RecruitFaceUp(Command):
    """Recruit: take a face-up Ally card (not replaced)."""

    card: int


class RecruitFromDeck(Command):
    """Recruit: draw the top card of the Allies Deck."""


class PlayBand(Command):
    """Play a Band of Allies (same tribe or same colour) with one card as Leader."""

    cards: tuple[int, ...]
    leader: int


class ChooseKingdom(Command):
    """Place a Control marker in a Kingdom (Wingfolk, Merfolk)."""

    kingdom: str


class TakeTrollToken(Command):
    """Trolls: take an unclaimed Troll token of value at most X."""

    value: int


class KeepCards(Command):
    """Elves: keep up to X cards, discard the rest."""

    cards: tuple[int, ...]


class EndBand(Command):
    """Centaurs: play no further band; discard the rest of your hand."""


class ScoreOrcHorde(Command):
    """Orcs, end of the Age: score and clear your Orc Horde board, or keep it."""

    score: bool


class WizardsDraw(Command):
    """Wizards: draw X cards from the Allies Deck (true) or not (false)."""

    draw: bool


COMMANDS = CommandSet(
    RecruitFaceUp, RecruitFromDeck, PlayBand, ChooseKingdom, TakeTrollToken, KeepCards,
    EndBand, ScoreOrcHorde, WizardsDraw,
)
