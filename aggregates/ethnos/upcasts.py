"""Ethnos events recorded before each Glory event stated the new scores,
read in the shape the rules record now (``aggregates.kernel.record.upcast``).

A Glory event now states every seat's Glory after it (``totals``) beside the
Glory it gives. An old event alone cannot tell the scores before it, so its
totals were never recorded: they read as None and re-execution derives them.
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel.game import _event_class
from aggregates.kernel.record.upcast import Step, versioned

#: The events that give Glory.
GLORY_EVENTS = ("GiantTokenTaken", "KingdomScored", "GiantScored", "MerfolkScored",
                "OrcHordeScored", "BandsScored")


def _glory(p: dict[str, Any]) -> None:
    """v2 adds ``totals``, the Glory after; v1 stated only the Glory given."""


def install(game_class: Any) -> None:
    """Declare the versions and upcasts on ``game_class``'s event classes."""
    for name in GLORY_EVENTS:
        versioned(_event_class(game_class, name),
                  Step(_glory, added=("totals",), unrecorded=("totals",)))
