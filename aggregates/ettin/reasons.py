"""Ettin's own reason codes (never rename one)."""

from __future__ import annotations

from aggregates.kernel import GameReason


class EttinReason(GameReason):
    NOT_IN_LINEUP = "NOT_IN_LINEUP"
    NOT_DRAFTED = "NOT_DRAFTED"
    CANNOT_AFFORD = "CANNOT_AFFORD"
    NOT_IN_CAMP = "NOT_IN_CAMP"
    BAD_SLOT = "BAD_SLOT"
    NO_SCOUTING = "NO_SCOUTING"
    BAD_TARGET = "BAD_TARGET"
    NOT_A_SPOIL = "NOT_A_SPOIL"
    BAD_CHOICE = "BAD_CHOICE"


REASONS = tuple(r.value for r in EttinReason)
