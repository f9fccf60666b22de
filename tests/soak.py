"""How many random games a property test plays: a few in CI, many under ``make soak``.

``make test`` must stay under 8 minutes on a 2-core machine, so each property
test plays enough games to reach every rule path, and ``make soak``
(``ARBITER_SOAK=1``) plays at least the soak count (100 per player count for
the games' issues), printing its figures.
"""

from __future__ import annotations

import os
from typing import TypeVar

T = TypeVar("T")

SOAK = os.environ.get("ARBITER_SOAK", "") not in ("", "0")


def games(ci: int, soak: int = 100) -> int:
    """The number of games to play: ``ci`` in the test suite, ``soak`` under ``make soak``."""
    return soak if SOAK else ci


def cases(ci: list[T], soak: list[T]) -> list[T]:
    """A test's parameters: ``ci`` in the test suite, and ``soak`` too under
    ``make soak`` (larger tables of a test whose smaller ones reach the same
    rules: more seats, more moves)."""
    return [*ci, *soak] if SOAK else list(ci)
