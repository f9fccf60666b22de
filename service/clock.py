"""Clocks: apply a decision's default when a clocked game waits too long.

Only games created with the ``clock`` option are watched, and only decisions
whose game declares a deadline and a default (pass, or a recorded random legal
choice). The default is decided by the rules (``Game.act_default``) and saved
as events like any command, so replays and audits agree; the server only says
*when*. Games are watched from the moment this process creates, loads or acts
on them; after a restart a clocked game is watched again once anyone reads it.

The keeper holds a timer heap: each watched game once, at the time its
earliest deadline falls due. An idle clocked game costs nothing until then
(before, every watched game was loaded twice a second), and the watch list
has no limit of its own: it holds one small entry per clocked game that is
waiting on a deadline, games the store holds anyway and their creators'
share bounds (``service.limits``). A game loaded again (a move, a read) is
re-filed at its new due time; a finished one leaves.
"""

from __future__ import annotations

import heapq
import logging
import threading
import time
from typing import Any

from aggregates.kernel import Game
from service.application import ArbiterApp
from service.errors import ServiceError

log = logging.getLogger(__name__)

#: How long to wait before looking again at a game that was due but had no
#: default to apply (its rules no longer allow one, or its clock restarted).
RECHECK_SECONDS = 1.0


def due_at(game: Game) -> float | None:
    """When ``game``'s first pending deadline falls due (epoch seconds), or None
    when it waits on no clocked decision. ``Game.overdue`` decides what is
    overdue; this only says when to ask it, never later than its own answer:
    the clock runs from the last move (the earlier of the last event and the
    move before any entropy contribution)."""
    if game.ended or not game.clocked():
        return None
    deadlines = [d.deadline for d in game.pending() if d.default and d.deadline is not None]
    if not deadlines:
        return None
    since = game.modified_on.timestamp()
    clock_from = getattr(game, "clock_from", None)
    if isinstance(clock_from, int | float):
        since = min(since, float(clock_from))
    return since + min(deadlines)


class ClockKeeper:
    """A thread that applies the defaults of the clocked games this process knows of."""

    def __init__(self, app: ArbiterApp, interval: float = 0.5) -> None:
        self.app = app
        self.interval = interval
        #: (due time, game id), the earliest first; an entry whose time is not
        #: ``_due[game id]`` any more is stale and skipped.
        self._heap: list[tuple[float, str]] = []
        self._due: dict[str, float] = {}
        self._guard = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="clock", daemon=True)

    def watch(self, game: Game | str) -> None:
        """File a clocked game at its due time (a game id alone: look at it on the
        next tick); a game with no deadline pending leaves the watch."""
        if isinstance(game, str):
            self._file(game, time.time())
        else:
            self._file(str(game.id), due_at(game))

    def __len__(self) -> int:
        with self._guard:
            return len(self._due)

    def _file(self, game_id: str, due: float | None) -> None:
        with self._guard:
            if due is None:
                self._due.pop(game_id, None)
                return
            if self._due.get(game_id) == due:
                return
            self._due[game_id] = due
            heapq.heappush(self._heap, (due, game_id))
            if len(self._heap) > 2 * len(self._due) + 1024:
                self._heap = [(t, g) for g, t in self._due.items()]  # drop stale entries
                heapq.heapify(self._heap)

    def _take_due(self, now: float) -> list[str]:
        """The games due at ``now``, taken off the watch (filed again when loaded)."""
        due: list[str] = []
        with self._guard:
            while self._heap and self._heap[0][0] <= now:
                at, game_id = heapq.heappop(self._heap)
                if self._due.get(game_id) == at:
                    del self._due[game_id]
                    due.append(game_id)
        return due

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def tick(self, now: float | None = None) -> int:
        """Apply the defaults of the games due by ``now``; how many were applied.
        Loading a game files it again at its next due time (``ArbiterApp.game``
        calls ``watch``)."""
        now = time.time() if now is None else now
        applied = 0
        for game_id in self._take_due(now):
            try:
                done = self.app.apply_overdue(game_id, now)
                applied += len(done)
                if not done:
                    self._recheck(game_id, now)
            except ServiceError as exc:
                if exc.reason != "UNKNOWN_GAME":
                    log.warning("clock: game %s: %s", game_id, exc.message)
            except Exception:  # noqa: BLE001 - one game's failure must not stop the clock
                log.exception("clock: game %s", game_id)
        return applied

    def _recheck(self, game_id: str, now: float) -> None:
        """A game due with nothing to apply: filed again, not before a short wait."""
        game: Any = self.app.game(game_id)  # files it at its due time
        due = due_at(game)
        if due is not None and due <= now:
            self._file(game_id, now + RECHECK_SECONDS)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.tick()
