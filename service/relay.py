"""The feed relay: the notification log, in order, onto Redis pub/sub.

The relay publishes each stored event's public form to the game's channel and
to the all-games channel, then records the position it reached. Because it
follows the store (not the code path that saved), an event committed just
before a crash is published after the restart: nothing is lost between commit
and publish. A crash between publish and recording the position republishes
a few events; subscribers drop them by version, so a reader sees each once.
"""

from __future__ import annotations

import logging
import os
import threading
import uuid
from pathlib import Path
from typing import Any

import redis

from aggregates.kernel import Game
from service.application import ArbiterApp
from service.envelope import to_public_json

log = logging.getLogger(__name__)

ALL_GAMES = "arbiter:games"
BATCH = 200


def game_channel(game_id: str) -> str:
    return f"arbiter:game:{game_id}"


class PositionFile:
    """The relay's position, written atomically beside the store."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> int:
        try:
            return int(self.path.read_text().strip() or 0)
        except (FileNotFoundError, ValueError):
            return 0

    def save(self, position: int) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(str(position))
        os.replace(tmp, self.path)


class FeedRelay(threading.Thread):
    """Follows the application's notification log and publishes every event."""

    def __init__(self, app: ArbiterApp, redis_url: str, positions: PositionFile) -> None:
        super().__init__(name="feed-relay", daemon=True)
        self.app = app
        self.redis = redis.Redis.from_url(redis_url, socket_timeout=5, socket_connect_timeout=2)
        self.positions = positions
        self.position = positions.load()
        self.healthy = False
        self.stopping = threading.Event()
        self._classes: dict[uuid.UUID, type[Game]] = {}

    def stop(self) -> None:
        self.stopping.set()
        self.app.saved.set()

    def run(self) -> None:
        backoff = 0.1
        while not self.stopping.is_set():
            try:
                moved = self.publish_pending()
                self.healthy = True
                backoff = 0.1
            except redis.RedisError as exc:
                if self.healthy:
                    log.warning("feed relay: Redis unavailable (%s); will retry", exc)
                self.healthy = False
                self.stopping.wait(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            if not moved:
                self.app.saved.wait(0.25)
                self.app.saved.clear()

    def publish_pending(self) -> bool:
        """Publish the next batch after the recorded position; True if any."""
        notifications = self.app.notifications(self.position, BATCH)
        if not notifications:
            return False
        pipe = self.redis.pipeline(transaction=False)
        for notification in notifications:
            domain_event = self.app.to_event(notification)
            game_cls = self._game_class(domain_event)
            if game_cls is not None:
                message = to_public_json(game_cls, domain_event, notification.id)
                pipe.publish(game_channel(str(domain_event.originator_id)), message)
                pipe.publish(ALL_GAMES, message)
        pipe.execute()
        self.position = notifications[-1].id
        self.positions.save(self.position)
        return True

    def _game_class(self, domain_event: Any) -> type[Game] | None:
        """The game class of an event; None for the catalogue's own log events."""
        if not hasattr(domain_event, "meta"):
            return None
        gid = domain_event.originator_id
        cls = self._classes.get(gid)
        if cls is None:
            if len(self._classes) > 10_000:
                self._classes.clear()
            cls = type(self.app.game(str(gid)))
            self._classes[gid] = cls
        return cls
