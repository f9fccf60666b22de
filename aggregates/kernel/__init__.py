"""What every game shares: the Game aggregate, seats, dice, visibility, errors,
structured decisions, flow, zones, teams, the ability engine and presentation."""

from arbiter.decisions import (
    Assign,
    Branch,
    Choice,
    Decision,
    Number,
    PickCards,
    PickOne,
    PickPath,
)

from aggregates.kernel.abilities import Ability, Book, Vocabulary, holds, read_ability
from aggregates.kernel.commands import Command, CommandSet
from aggregates.kernel.errors import GameReason, Reason, RuleError
from aggregates.kernel.flow import Flow, Move, Phase, Step
from aggregates.kernel.game import Game
from aggregates.kernel.record.entropy import DiceTray
from aggregates.kernel.record.recording import event_type, payload_of, recorded_audience
from aggregates.kernel.released import released_versions
from aggregates.kernel.seating import EVERYONE, NOBODY, Audience, Seating
from aggregates.kernel.zones import Visibility, Zones, ZoneSpec

__all__ = [
    "EVERYONE",
    "NOBODY",
    "Assign",
    "Ability",
    "Audience",
    "Book",
    "Branch",
    "Choice",
    "Command",
    "CommandSet",
    "Decision",
    "DiceTray",
    "Flow",
    "Game",
    "GameReason",
    "Move",
    "Number",
    "Phase",
    "PickCards",
    "PickOne",
    "PickPath",
    "Reason",
    "RuleError",
    "Seating",
    "Step",
    "Visibility",
    "Vocabulary",
    "ZoneSpec",
    "Zones",
    "event_type",
    "holds",
    "payload_of",
    "read_ability",
    "recorded_audience",
    "released_versions",
]
