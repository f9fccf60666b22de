"""Ettin events recorded before each event stated its whole fact (issue 9,
item 7), read in the shape the rules record now (``aggregates.kernel.upcast``).

``GoldChanged`` now states each position's gold after the change beside the
change itself. An old event alone cannot tell the gold before it, so its
totals were never recorded: they read as None and re-execution derives them.
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel.game import _event_class
from aggregates.kernel.upcast import Step, versioned


def _gold_changed(p: dict[str, Any]) -> None:
    """v2 adds ``totals``, the gold after; v1 stated only the deltas."""


def install(game_class: Any) -> None:
    """Declare the versions and upcasts on ``game_class``'s event classes."""
    versioned(_event_class(game_class, "GoldChanged"),
              Step(_gold_changed, added=("totals",), unrecorded=("totals",)))
