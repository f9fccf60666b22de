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
    NOT_HELD = "NOT_HELD"
    STALE_DECISION = "STALE_DECISION"
    NO_DEFAULT = "NO_DEFAULT"


class GameReason(StrEnum):
    """Base of a game's own reason codes (declared in its package, listed in
    its ``REASONS``): the kernel's enum holds only what every game shares."""


class RuleError(Exception):
    """A command the rules refuse. Raised before any event is triggered.

    ``reason`` is a kernel ``Reason`` or one of the game's own ``GameReason``
    codes; both are strings on the wire.
    """

    def __init__(self, reason: StrEnum, message: str) -> None:
        super().__init__(f"{reason.value}: {message}")
        self.reason = reason
        self.message = message
