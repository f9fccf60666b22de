"""What every game shares: the Game aggregate, seats, dice, visibility, errors,
structured decisions, flow, zones, teams, effects and presentation."""

from aggregates.kernel.commands import Command, CommandSet
from aggregates.kernel.decisions import Assign, Choice, Decision, Number, PickCards, PickOne
from aggregates.kernel.effects import Effect, EffectBook
from aggregates.kernel.errors import GameReason, Reason, RuleError
from aggregates.kernel.flow import Flow, Move
from aggregates.kernel.game import (
    DiceTray,
    Game,
    event_type,
    payload_of,
    recorded_audience,
)
from aggregates.kernel.seating import EVERYONE, NOBODY, Audience, Seating
from aggregates.kernel.zones import Visibility, Zones, ZoneSpec

__all__ = [
    "EVERYONE",
    "NOBODY",
    "Assign",
    "Audience",
    "Choice",
    "Command",
    "CommandSet",
    "Decision",
    "DiceTray",
    "Effect",
    "EffectBook",
    "Flow",
    "Game",
    "GameReason",
    "Move",
    "Number",
    "PickCards",
    "PickOne",
    "Reason",
    "RuleError",
    "Seating",
    "Visibility",
    "ZoneSpec",
    "Zones",
    "event_type",
    "payload_of",
    "recorded_audience",
]
