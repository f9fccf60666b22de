"""``service.recent``: a follower takes exactly the kept events after its
version, without a gap, or nothing (DESIGN, "gap-free per-game feeds")."""

from __future__ import annotations

import uuid
from types import SimpleNamespace
from typing import Any

from service.recent import RecentEvents

GAME = uuid.uuid4()


def recording(position: int, version: int) -> Any:
    """A commit's recording as the library hands it: the event and its notification."""
    event = SimpleNamespace(originator_id=GAME, originator_version=version, meta={})
    return SimpleNamespace(domain_event=event, notification=SimpleNamespace(id=position))


def kept(versions: range, per_game: int = 64) -> RecentEvents:
    recent = RecentEvents(per_game)
    recent._followers[GAME] = 1  # followed here: what ``following`` sets
    recent.record([recording(100 + v, v) for v in versions])
    return recent


def versions(run: list[tuple[int, Any]] | None) -> list[int] | None:
    return None if run is None else [event.originator_version for _, event in run]


def test_every_kept_event_after_the_version_in_order_with_its_position() -> None:
    recent = kept(range(1, 41))
    for after in range(0, 41):
        run = recent.after(GAME, after)
        assert versions(run) == list(range(after + 1, 41))
        assert run is not None and all(position == 100 + e.originator_version
                                       for position, e in run)


def test_a_follower_behind_the_kept_run_reads_the_store() -> None:
    recent = kept(range(1, 101), per_game=64)  # versions 37..100 kept
    assert versions(recent.after(GAME, 36)) == list(range(37, 101))
    assert recent.after(GAME, 35) is None  # version 36 is no longer kept: a gap
    assert recent.after(GAME, 100) == []


def test_a_follower_ahead_of_what_is_kept_reads_the_store() -> None:
    assert kept(range(1, 11)).after(GAME, 12) is None


def test_a_gap_in_what_was_kept_is_no_answer() -> None:
    recent = kept(range(1, 6))
    recent.record([recording(200 + v, v) for v in (7, 8)])  # version 6 was never kept here
    assert versions(recent.after(GAME, 6)) == [7, 8]  # what runs on from 6 is whole
    assert recent.after(GAME, 4) is None
