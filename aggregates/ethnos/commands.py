"""Ethnos commands: one per message of ``protos/arbiter/v1/ethnos.proto``.

Cards are integer card ids (``aggregates/ethnos/data/ethnos.json``); a band's
``cards`` include its ``leader``. ``kingdom`` travels as the lowercase name of
the ``EthnosKingdom`` enum value (``"duris"``, ``"rhea"``...).
"""

from __future__ import annotations

import dataclasses

from aggregates.kernel import Command, CommandSet


@dataclasses.dataclass(frozen=True)
class RecruitFaceUp(Command):
    """Recruit: take a face-up Ally card (not replaced)."""

    NAME = "recruit_face_up"
    card: int


@dataclasses.dataclass(frozen=True)
class RecruitFromDeck(Command):
    """Recruit: draw the top card of the Allies Deck."""

    NAME = "recruit_from_deck"


@dataclasses.dataclass(frozen=True)
class PlayBand(Command):
    """Play a Band of Allies (same tribe or same colour) with one card as Leader."""

    NAME = "play_band"
    cards: tuple[int, ...]
    leader: int


@dataclasses.dataclass(frozen=True)
class ChooseKingdom(Command):
    """Place a Control marker in a Kingdom (Wingfolk, Merfolk)."""

    NAME = "choose_kingdom"
    kingdom: str


@dataclasses.dataclass(frozen=True)
class TakeTrollToken(Command):
    """Trolls: take an unclaimed Troll token of value at most X."""

    NAME = "take_troll_token"
    value: int


@dataclasses.dataclass(frozen=True)
class KeepCards(Command):
    """Elves: keep up to X cards, discard the rest."""

    NAME = "keep_cards"
    cards: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class EndBand(Command):
    """Centaurs: play no further band; discard the rest of your hand."""

    NAME = "end_band"


@dataclasses.dataclass(frozen=True)
class ScoreOrcHorde(Command):
    """Orcs, end of the Age: score and clear your Orc Horde board, or keep it."""

    NAME = "score_orc_horde"
    score: bool


@dataclasses.dataclass(frozen=True)
class WizardsDraw(Command):
    """Wizards: draw X cards from the Allies Deck (true) or not (false)."""

    NAME = "wizards_draw"
    draw: bool


COMMANDS = CommandSet(
    RecruitFaceUp, RecruitFromDeck, PlayBand, ChooseKingdom, TakeTrollToken, KeepCards,
    EndBand, ScoreOrcHorde, WizardsDraw,
)
