"""Ethnos' own reason codes (the kernel's ``Reason`` keeps only what every game shares)."""

from __future__ import annotations

from aggregates.kernel import GameReason


class EthnosReason(GameReason):
    """Ethnos' own reason code (the kernel's enum keeps only what every game shares).

    Its value is the code Ethnos always sent, so clients see no change.
    """

    NOT_HELD = "NOT_HELD"  # a band's or a kept card is not in the player's hand


REASONS = tuple(r.value for r in EthnosReason)
