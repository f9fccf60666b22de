"""Clocks: apply a decision's default when a clocked game waits too long.

Only games created with the ``clock`` option are watched, and only decisions
whose game declares a deadline and a default (pass, or a recorded random legal
choice). The default is decided by the rules (``Game.act_default``) and saved
as events like any command, so replays and audits agree; the server only says
*when*. Games are watched from the moment this process creates, loads or acts
on them; after a restart a clocked game is watched again once anyone reads it.
"""

from __future__ import annotations

import logging
import threading
import time

from service.application import ArbiterApp

log = logging.getLogger(__name__)


class ClockKeeper:
    """A thread checking the clocked games this process knows of."""

    def __init__(self, app: ArbiterApp, interval: float = 0.5, limit: int = 10_000) -> None:
        self.app = app
        self.interval = interval
        self.limit = limit
        self._games: set[str] = set()
        self._guard = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="clock", daemon=True)

    def watch(self, game_id: str) -> None:
        """Remember a clocked game (bounded: the oldest are dropped past ``limit``)."""
        with self._guard:
            if len(self._games) < self.limit:
                self._games.add(game_id)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def tick(self, now: float | None = None) -> int:
        """One pass over the watched games; returns how many defaults were applied."""
        with self._guard:
            games = list(self._games)
        applied = 0
        for game_id in games:
            try:
                game = self.app.game(game_id)
                if game.ended or not game.clocked():
                    with self._guard:
                        self._games.discard(game_id)
                    continue
                applied += len(self.app.apply_overdue(game_id, now or time.time()))
            except Exception:  # noqa: BLE001 - one game's failure must not stop the clock
                log.exception("clock: game %s", game_id)
        return applied

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.tick()
