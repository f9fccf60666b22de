"""Clocks and defaults: what the server may do when a seat keeps the table waiting.

A game created with the ``clock`` option gives its decisions deadlines; when
one passes, the server applies the decision's declared default (pass, or a
random legal answer drawn with a recorded die), routed, like every command,
by the decision it answers. Nothing here reads the wall clock on its own: the
server passes ``now`` in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbiter.decisions import Decision

from aggregates.kernel.errors import Reason, RuleError

#: The recorded command name of a default applied when a clock ran out.
DEFAULT_COMMAND = "__default__"
#: The creation option that asks the server to run the games' clocks.
CLOCK_OPTION = "clock"
#: Its entry in the ``OPTIONS_SCHEMA`` of a game that offers clocks.
CLOCK_OPTION_SCHEMA = {
    "type": "boolean",
    "description": "give decisions deadlines; the server applies their defaults when one passes",
}


def checked_clock(options: Mapping[str, Any]) -> bool:
    """The ``clock`` option's value (default off), refused unless a boolean."""
    value = options.get(CLOCK_OPTION, False)
    if not isinstance(value, bool):
        raise RuleError(Reason.BAD_OPTIONS, f"{CLOCK_OPTION} is true or false")
    return value


class Clocks:
    """Deadlines read from the pending decisions; the clock runs from the last move."""

    options: dict[str, Any]
    ended: bool
    version: int
    modified_on: Any
    #: When the clocks run from, if the newest events are contributions (``entropy``).
    clock_from: float

    def pending(self) -> list[Decision]:
        raise NotImplementedError  # the game's

    def clocked(self) -> bool:
        """Whether this game was created with clocks (option ``clock``): only
        then does the server apply a decision's default when its deadline passes."""
        return bool(self.options.get(CLOCK_OPTION))

    def overdue(self, now: float) -> list[int]:
        """Seats whose decision's deadline has passed at ``now`` (epoch seconds).

        A decision's clock runs from the game's last recorded move: any move
        by anyone restarts every pending clock, so a seat is defaulted only
        when the whole table has been waiting on it for its deadline. An
        entropy contribution is not a move and restarts nothing.
        """
        if self.ended or not self.clocked():
            return []
        since = self.modified_on.timestamp()
        if getattr(self, "clock_from_version", None) == self.version:
            since = self.clock_from  # the newest events are contributions
        waited = now - since
        return sorted({
            d.seat for d in self.pending()
            if d.default and d.deadline is not None and waited >= d.deadline
        })
