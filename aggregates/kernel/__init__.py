"""What every game shares: the Game aggregate, seats, dice, visibility, errors."""

from aggregates.kernel.commands import Command, CommandSet
from aggregates.kernel.errors import Reason, RuleError
from aggregates.kernel.game import (
    EVERYONE,
    NOBODY,
    Audience,
    Decision,
    DiceTray,
    Game,
    event_type,
    payload_of,
)

__all__ = [
    "EVERYONE",
    "NOBODY",
    "Audience",
    "Command",
    "CommandSet",
    "Decision",
    "DiceTray",
    "Game",
    "Reason",
    "RuleError",
    "event_type",
    "payload_of",
]
