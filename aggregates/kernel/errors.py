"""Rule errors with stable, machine-readable reason codes.

A refused command is never a bare exception: the service maps a RuleError to a
gRPC status and sends its code, so a bot can react to the reason, not parse prose.
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """Stable reason codes. Never rename one; add new ones instead."""

    ILLEGAL_MOVE = "ILLEGAL_MOVE"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    WRONG_PHASE = "WRONG_PHASE"
    GAME_OVER = "GAME_OVER"
    UNKNOWN_SEAT = "UNKNOWN_SEAT"
    UNKNOWN_COMMAND = "UNKNOWN_COMMAND"
    BAD_ARGUMENT = "BAD_ARGUMENT"
    BAD_OPTIONS = "BAD_OPTIONS"
    BAD_SEATS = "BAD_SEATS"
    NOT_ENOUGH_GOLD = "NOT_ENOUGH_GOLD"
    NOT_ENOUGH_LUCK = "NOT_ENOUGH_LUCK"
    NOT_ADJACENT = "NOT_ADJACENT"
    REPEAT_PURCHASE = "REPEAT_PURCHASE"
    ALREADY_HELD = "ALREADY_HELD"
    NOT_HELD = "NOT_HELD"
    MISSING_QUEST_ITEM = "MISSING_QUEST_ITEM"
    SHIELD_USED = "SHIELD_USED"
    NO_SUCH_DIE = "NO_SUCH_DIE"


class RuleError(Exception):
    """A command the rules refuse. Raised before any event is triggered."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(f"{reason.value}: {message}")
        self.reason = reason
        self.message = message
