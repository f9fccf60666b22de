"""The game's own reason codes (kernel feature: ``GameReason``, listed in the
aggregate's ``REASONS`` and served by ``ListRules``). The kernel's ``Reason``
keeps only what every game shares (``NOT_YOUR_TURN``, ``WRONG_PHASE``...)."""

from __future__ import annotations

from aggregates.kernel import GameReason


class TideReason(GameReason):
    BID_TOO_HIGH = "BID_TOO_HIGH"
    NOT_ON_SHORE = "NOT_ON_SHORE"
    NOT_IN_HAND = "NOT_IN_HAND"
    WRONG_SUIT = "WRONG_SUIT"
    TOO_DEEP = "TOO_DEEP"
    BANK_SIZE = "BANK_SIZE"


REASONS = tuple(r.value for r in TideReason)
