"""Replay equality, shared by every game's property tests.

A played game's events must pass the kernel audit (chain, dice, re-execution)
and rebuild, event by event, into the same state: every seat's view and the
spectator's, the version and the hash-chain head.
"""

from __future__ import annotations

import functools
from typing import Any

from aggregates.kernel import Game
from aggregates.kernel.record.audit import audit


def assert_replays(game: Game, events: list[Any]) -> None:
    report = audit(events, type(game))
    assert report.ok, report.problems
    rebuilt = functools.reduce(lambda agg, ev: ev.mutate(agg), events, None)
    assert rebuilt is not None
    for seat in (None, *range(len(game.seats))):
        assert rebuilt.view(seat) == game.view(seat)
    assert rebuilt.version == game.version and rebuilt.head == game.head
