"""The newest events of the games someone follows here, as this process committed them.

A game's feed (``Subscribe``) used to answer each wake-up with three reads of
the store: the events after its position, their global positions, and one more
read to find nothing newer. Each of a game's followers made them for every
event, between the relay's publish and the message leaving the server (issue
20: the feed's latency). The events a follower waits for are, most of the time,
ones this very process has just committed: the application hands them here
(``ArbiterApp._record_processed``), for the games that have a follower in this
process only, a bounded run of each.

What a follower may take from here is exact or nothing: the events right after
its version, without a gap, as recorded (the same objects the store's read
would decode, with the same global positions). Anything else (another server's
writes, a follower further behind than the run kept, a game nobody here
followed when it was written) answers ``None``, and the follower reads the store.
"""

from __future__ import annotations

import collections
import threading
import uuid
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

#: The newest events kept per followed game: a follower further behind reads the store.
KEPT_PER_GAME = 64


K = TypeVar("K")


def count_in(counts: dict[K, int], key: K) -> bool:
    """One more holder of ``key``; whether it is the first (the caller holds
    the lock that guards ``counts``)."""
    counts[key] = counts.get(key, 0) + 1
    return counts[key] == 1


def count_out(counts: dict[K, int], key: K) -> bool:
    """One holder of ``key`` fewer; whether it was the last (then ``key`` is
    gone from ``counts``; the caller holds the lock that guards it)."""
    left = counts[key] - 1
    if left:
        counts[key] = left
        return False
    del counts[key]
    return True


class RecentEvents:
    """Per followed game, its newest committed events, as (position, event)."""

    def __init__(self, per_game: int = KEPT_PER_GAME) -> None:
        self.per_game = per_game
        self._lock = threading.Lock()
        self._followers: dict[uuid.UUID, int] = {}
        self._kept: dict[uuid.UUID, collections.deque[tuple[int, Any]]] = {}

    @contextmanager
    def following(self, game_id: uuid.UUID) -> Iterator[None]:
        """While a follower of ``game_id`` is open: its commits are kept; the
        last follower gone, they are dropped."""
        with self._lock:
            count_in(self._followers, game_id)
        try:
            yield
        finally:
            with self._lock:
                if count_out(self._followers, game_id):
                    self._kept.pop(game_id, None)

    def record(self, recordings: Sequence[Any]) -> None:
        """A commit's recordings (the library's ``Recording``: the domain event
        and its notification), kept for the followed games among them."""
        if not self._followers:
            return
        with self._lock:
            for recording in recordings:
                event = recording.domain_event
                game_id = event.originator_id
                if game_id not in self._followers or not hasattr(event, "meta"):
                    continue  # nobody follows it here, or not a game's event
                kept = self._kept.get(game_id)
                if kept is None:
                    kept = self._kept[game_id] = collections.deque(maxlen=self.per_game)
                kept.append((recording.notification.id, event))

    def after(self, game_id: uuid.UUID, version: int) -> list[tuple[int, Any]] | None:
        """The game's events after ``version`` as (position, event), if every one
        from ``version + 1`` to the newest kept is here (``[]``: none newer is
        kept); ``None`` when that cannot be told from here."""
        with self._lock:
            kept = self._kept.get(game_id)
            if not kept:
                return None
            newest = kept[-1][1].originator_version
            run = _newer_than(kept, version)
        if not run:
            return [] if newest == version else None
        return run if runs_on((event.originator_version for _, event in run), version) else None


def _newer_than(kept: collections.deque[tuple[int, Any]], version: int
                ) -> list[tuple[int, Any]]:
    """The kept (position, event) pairs after ``version``, oldest first, read
    from the newest back: a game's commits are kept in the order they were
    made, so its versions rise along the run, and a follower asks for the few
    newest (a ``Play`` round's one move) of up to ``KEPT_PER_GAME``."""
    run: list[tuple[int, Any]] = []
    for pair in reversed(kept):
        if pair[1].originator_version <= version:
            break
        run.append(pair)
    run.reverse()
    return run


def runs_on(numbers: Iterable[int], after: int) -> bool:
    """Whether ``numbers`` are ``after + 1``, ``after + 2``, ... with no gap: what
    lets a reader by version or by position take what it kept for what the
    store holds (the feeds here, the relay's commits)."""
    expected = after + 1
    for number in numbers:
        if number != expected:
            return False
        expected += 1
    return True
