"""A clean stop is not Redis failing: the feed hub says nothing when the
Redis it listens to goes away because the server is stopping (a private
Redis is stopped right after the hub), and still warns when it fails."""

from __future__ import annotations

import logging
import socket
import threading
import types
from typing import Any

import pytest
import redis

from service.feeds import FeedHub


class ClosingRedis:
    """A Redis whose connection drops once ``drop`` is set: its socket (the one
    the hub waits on) reads as closed, and reading a message raises. Until
    then it confirms each subscription, as Redis does."""

    def __init__(self, drop: threading.Event) -> None:
        self.drop = drop
        self.replies: list[dict[str, Any]] = []
        ours, theirs = socket.socketpair()
        self.connection = types.SimpleNamespace(
            _sock=ours, can_read=lambda timeout: bool(self.replies))

        def close_when_dropped() -> None:
            drop.wait()
            theirs.close()

        threading.Thread(target=close_when_dropped, daemon=True).start()

    def pubsub(self, **_: Any) -> ClosingRedis:
        return self

    def subscribe(self, *channels: str) -> None:
        self.replies += [{"type": "subscribe", "channel": c.encode()} for c in channels]

    def get_message(self, timeout: float) -> dict[str, Any] | None:
        if self.drop.is_set():
            raise redis.ConnectionError("Connection closed by server.")
        return self.replies.pop(0) if self.replies else None

    def close(self) -> None:
        self.connection._sock.close()


def run_hub(monkeypatch: pytest.MonkeyPatch, stop_first: bool) -> FeedHub:
    drop = threading.Event()
    monkeypatch.setattr(redis.Redis, "from_url", lambda *a, **k: ClosingRedis(drop))
    hub = FeedHub("redis://127.0.0.1:1/0")
    hub.start()
    assert hub.healthy
    if stop_first:
        hub.stop()
    drop.set()
    if not stop_first:
        threading.Event().wait(0.2)
        hub.stop()
    hub.join(timeout=5)
    assert not hub.is_alive()
    return hub


def test_no_warning_when_redis_closes_during_a_clean_stop(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="service.feeds"):
        run_hub(monkeypatch, stop_first=True)
    assert "Redis unavailable" not in caplog.text


def test_a_redis_failing_while_serving_still_warns(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="service.feeds"):
        run_hub(monkeypatch, stop_first=False)
    assert "Redis unavailable" in caplog.text


def test_the_hub_counts_each_fall_from_live_to_degraded_once() -> None:
    """``arbiter_feed_degradations`` (docs/operations.md, what to monitor): a
    fall from live counts once, however many causes follow it, and the start
    (never yet live) is none."""
    hub = FeedHub("redis://127.0.0.1:1/0", "count-test:")
    hub._set(healthy=True)
    assert hub.live and hub.degradations == 0, "the first connection is no degradation"
    hub._set(healthy=False)
    hub.set_publishing(False)
    assert hub.degradations == 1, "Redis lost, then nothing publishing: one fall"
    hub._set(healthy=True)
    assert not hub.live and hub.degradations == 1
    hub.set_publishing(True)
    hub.set_publishing(False)
    assert hub.degradations == 2
