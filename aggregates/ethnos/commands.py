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
    NAME = "recruit_face_up"
    LABEL = "Recruit: take a face-up Ally card (not replaced)"
    card: int


@dataclasses.dataclass(frozen=True)
class RecruitFromDeck(Command):
    NAME = "recruit_from_deck"
    LABEL = "Recruit: draw the top card of the Allies Deck"


@dataclasses.dataclass(frozen=True)
class PlayBand(Command):
    NAME = "play_band"
    LABEL = "Play a Band of Allies (same tribe or same colour) with one card as Leader"
    cards: tuple[int, ...]
    leader: int


@dataclasses.dataclass(frozen=True)
class ChooseKingdom(Command):
    NAME = "choose_kingdom"
    LABEL = "Place a Control marker in a Kingdom (Wingfolk, Merfolk)"
    kingdom: str


@dataclasses.dataclass(frozen=True)
class TakeTrollToken(Command):
    NAME = "take_troll_token"
    LABEL = "Trolls: take an unclaimed Troll token of value at most X"
    value: int


@dataclasses.dataclass(frozen=True)
class KeepCards(Command):
    NAME = "keep_cards"
    LABEL = "Elves: keep up to X cards, discard the rest"
    cards: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class EndBand(Command):
    NAME = "end_band"
    LABEL = "Centaurs: play no further band; discard the rest of your hand"


@dataclasses.dataclass(frozen=True)
class ScoreOrcHorde(Command):
    NAME = "score_orc_horde"
    LABEL = "Orcs, end of the Age: score and clear your Orc Horde board, or keep it"
    score: bool


@dataclasses.dataclass(frozen=True)
class WizardsDraw(Command):
    NAME = "wizards_draw"
    LABEL = "Wizards: draw X cards from the Allies Deck (true) or not (false)"
    draw: bool


COMMANDS = CommandSet(
    RecruitFaceUp, RecruitFromDeck, PlayBand, ChooseKingdom, TakeTrollToken, KeepCards,
    EndBand, ScoreOrcHorde, WizardsDraw,
)
