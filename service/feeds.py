"""Live wake-ups for Subscribe streams, from Redis, with the store as the truth.

One Redis subscription per server process listens to the all-games channel
and wakes the streams waiting on this process. A woken stream reads what is
new from the store, by version, so it never skips or repeats an event even
when pub/sub drops a message. When Redis is down the hub says so, streams
poll the store every second (degraded, not dead), and the hub reconnects by
itself; when Redis is back, live wake-ups resume.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable

import redis

from service.relay import ALL_GAMES

log = logging.getLogger(__name__)

HEALTHY_POLL = 5.0
DEGRADED_POLL = 1.0


class FeedHub(threading.Thread):
    """Tracks the newest version per game and the newest position seen on Redis."""

    def __init__(self, redis_url: str) -> None:
        super().__init__(name="feed-hub", daemon=True)
        self.redis_url = redis_url
        self.cond = threading.Condition()
        self.latest_version: dict[str, int] = {}
        self.latest_position = 0
        self.healthy = False
        self.stopping = threading.Event()
        self.tried = threading.Event()  # the first connection attempt has ended

    @property
    def status(self) -> str:
        if self.healthy:
            return "live"
        return "degraded: Redis is unavailable; events are served from the store by polling"

    def start(self) -> None:
        """Start listening, and return once the first connection attempt has ended:
        a Subscribe right after the server starts must not be told that Redis is
        unavailable only because the hub has not connected yet."""
        super().start()
        self.tried.wait(timeout=5)

    def stop(self) -> None:
        """Stop listening and release every waiting stream (the server is going down)."""
        self.stopping.set()
        self.wake()

    def run(self) -> None:
        backoff = 0.1
        while not self.stopping.is_set():
            try:
                client = redis.Redis.from_url(
                    self.redis_url, socket_connect_timeout=2, health_check_interval=10
                )
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(ALL_GAMES)
                self._set_healthy(True)
                self.tried.set()
                backoff = 0.1
                while not self.stopping.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if message is not None:
                        self._on_message(message["data"])
                pubsub.close()
            except (redis.RedisError, OSError) as exc:
                if self.healthy:
                    log.warning("feed hub: Redis unavailable (%s); will reconnect", exc)
                self._set_healthy(False)
                self.tried.set()
                self.stopping.wait(backoff)
                backoff = min(backoff * 2, 2.0)

    def _set_healthy(self, healthy: bool) -> None:
        with self.cond:
            self.healthy = healthy
            self.cond.notify_all()

    def _on_message(self, data: bytes) -> None:
        try:
            message = json.loads(data)
            game_id, version, position = message["game_id"], message["version"], message["position"]
        except (ValueError, KeyError, TypeError, RecursionError):
            return
        # Anyone who can publish on the Redis may send anything: a message of the
        # wrong shape must not raise in (and so end) this thread.
        if not (
            isinstance(game_id, str)
            and type(version) is int
            and type(position) is int
            and 0 < version < 1 << 63
            and 0 < position < 1 << 63
        ):
            return
        with self.cond:
            if version > self.latest_version.get(game_id, 0):
                if len(self.latest_version) > 100_000:
                    self.latest_version.clear()
                self.latest_version[game_id] = version
            self.latest_position = max(self.latest_position, position)
            self.cond.notify_all()

    def version_of(self, game_id: str) -> int:
        """The newest version of a game announced on Redis so far (0: none)."""
        with self.cond:
            return self.latest_version.get(game_id, 0)

    def wake(self) -> None:
        """Wake every waiting stream, e.g. when a client has gone away."""
        with self.cond:
            self.cond.notify_all()

    def wait_game(
        self, game_id: str, after_version: int, gone: Callable[[], bool],
        timeout: float | None = None,
    ) -> None:
        """Block until Redis reports an event of the game beyond ``after_version``."""
        self._wait(lambda: gone() or self.latest_version.get(game_id, 0) > after_version, timeout)

    def wait_all(
        self, after_position: int, gone: Callable[[], bool], timeout: float | None = None
    ) -> None:
        self._wait(lambda: gone() or self.latest_position > after_position, timeout)

    def _wait(self, ready: Callable[[], bool], timeout: float | None) -> None:
        limit = timeout if timeout is not None else (
            HEALTHY_POLL if self.healthy else DEGRADED_POLL
        )
        deadline = time.monotonic() + limit
        with self.cond:
            was_healthy = self.healthy
            while not ready() and not self.stopping.is_set():
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.healthy != was_healthy:
                    return
                self.cond.wait(min(remaining, DEGRADED_POLL if not self.healthy else remaining))
