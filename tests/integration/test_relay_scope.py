"""The relay's lease belongs to one store, and a feed says when nothing publishes (issue 8.6).

PostgreSQL scopes advisory locks to the database, not the schema: with one
fixed key, two deployments on two schemas of one database took each other's
relay lease, and the loser never published while its feeds still said
``live``. Now the key is the store's own, and a feed whose store moves on
while the published position stays behind says ``degraded``, then ``live``
again once something publishes.
"""

from __future__ import annotations

import fcntl
import json
import random
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from arbiter.v1 import game_pb2

from tests.integration.conftest import ServerProcess
from tests.integration.helpers import FeedCollector, new_game, play

pytestmark = pytest.mark.integration

NOT_PUBLISHING = "degraded: nothing is publishing"
#: The servers' wait before their feeds say so (5 s by default).
STALE = {"ARBITER_PUBLISH_STALE_SECONDS": "1.5"}


class GameTap(threading.Thread):
    """Versions of one game seen on Redis, on any channel whose name ends with
    ``game:<id>`` (so it sees them whatever the channel prefix)."""

    def __init__(self, url: str, game_id: str) -> None:
        super().__init__(daemon=True)
        self.pubsub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
        self.pubsub.psubscribe(f"*game:{game_id}")
        self.game_id = game_id
        self.versions: set[int] = set()
        self.stopping = threading.Event()
        self.seen = threading.Condition()

    def run(self) -> None:
        while not self.stopping.is_set():
            message = self.pubsub.get_message(timeout=0.2)
            if message and message["type"] == "pmessage":
                for body in json.loads(message["data"]):  # a message: a move's events
                    if body.get("game_id") == self.game_id:
                        with self.seen:
                            self.versions.add(int(body["version"]))
                            self.seen.notify_all()

    def wait_for(self, version: int, timeout: float = 30.0) -> bool:
        with self.seen:
            return self.seen.wait_for(lambda: version in self.versions, timeout)

    def close(self) -> None:
        self.stopping.set()
        self.join(timeout=5)
        self.pubsub.close()


@pytest.mark.heavy(10)
def test_feeds_say_degraded_while_the_relay_lease_is_held_and_live_after(
    tmp_path: Path, redis_url: str
) -> None:
    """SQLite: someone holds the relay's lock file and never publishes. The feed
    must not say ``live`` while the store's events go unpublished."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    lock = open(data / "relay.lock", "a+")  # noqa: SIM115 - held across the test
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    server = ServerProcess(data, redis_url, dict(STALE))
    server.start()
    feed: FeedCollector | None = None
    try:
        stub = server.stub()
        game_id = new_game(stub)
        tap = GameTap(redis_url, game_id)
        tap.start()
        feed = FeedCollector(stub, game_pb2.SubscribeRequest(game_id=game_id))
        state = play(stub, game_id, 2, random.Random(5))
        assert feed.wait_for(
            lambda f: any(s.startswith(NOT_PUBLISHING) for s in f.statuses), timeout=60
        ), f"the feed says {feed.statuses} while nothing publishes"
        assert feed.wait_for(lambda f: len(f.events) >= state.version), (
            "events are still served, from the store")
        assert not tap.versions, "nothing was published while the lease was held"
        fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()
        assert feed.wait_for(lambda f: f.statuses[-1] == "live", timeout=60), feed.statuses
        assert tap.wait_for(state.version), "the relay published the backlog"
        tap.close()
    finally:
        if feed is not None:
            feed.close()
        if not lock.closed:
            lock.close()
        server.stop()


@pytest.fixture
def two_schemas(postgres_schema: tuple[str, str]) -> Iterator[tuple[str, str, str]]:
    """(url, schema a, schema b): two fresh schemas of one database."""
    import psycopg

    url, first = postgres_schema
    second = f"arbiter_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{second}"')
    try:
        yield url, first, second
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{second}" CASCADE')


def _deployment(tmp_path: Path, name: str, redis_url: str, url: str, schema: str
                ) -> ServerProcess:
    return ServerProcess(tmp_path / name, redis_url, {
        "ARBITER_DATABASE_URL": url, "ARBITER_POSTGRES_SCHEMA": schema, **STALE,
    })


@pytest.mark.postgres
def test_two_deployments_on_two_schemas_of_one_database_both_publish(
    tmp_path: Path, redis_url: str, two_schemas: tuple[str, str, str]
) -> None:
    url, schema_a, schema_b = two_schemas
    servers = [_deployment(tmp_path, n, redis_url, url, s)
               for n, s in (("a", schema_a), ("b", schema_b))]
    taps: list[GameTap] = []
    try:
        for server in servers:
            server.start()
        for n, server in enumerate(servers):
            stub = server.stub()
            game_id = new_game(stub)
            tap = GameTap(redis_url, game_id)
            tap.start()
            taps.append(tap)
            state = play(stub, game_id, 3, random.Random(n))
            assert tap.wait_for(state.version), (
                f"deployment {'ab'[n]} never published: its relay lost the lease "
                "to the other schema's")
    finally:
        for tap in taps:
            tap.close()
        for server in servers:
            server.stop()


@pytest.mark.postgres
@pytest.mark.heavy(10)
def test_postgres_feeds_say_degraded_while_the_relay_lease_is_held(
    tmp_path: Path, redis_url: str, postgres_schema: tuple[str, str]
) -> None:
    """The lease of this schema's relay, held by an outsider: degraded, then live."""
    import psycopg

    from service.relay import relay_lock_key

    url, schema = postgres_schema
    holder: Any = psycopg.connect(url, autocommit=True)
    database = holder.execute("SELECT current_database()").fetchone()[0]
    key = relay_lock_key(database, schema)
    assert holder.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()[0]
    server = _deployment(tmp_path, "data", redis_url, url, schema)
    server.start()
    feed: FeedCollector | None = None
    try:
        stub = server.stub()
        game_id = new_game(stub)
        feed = FeedCollector(stub, game_pb2.SubscribeRequest(game_id=game_id))
        state = play(stub, game_id, 2, random.Random(6))
        assert feed.wait_for(
            lambda f: any(s.startswith(NOT_PUBLISHING) for s in f.statuses), timeout=60
        ), f"the feed says {feed.statuses} while nothing publishes"
        holder.close()  # the lease is free: the server's relay takes it
        assert feed.wait_for(lambda f: f.statuses[-1] == "live", timeout=60), feed.statuses
        assert feed.wait_for(lambda f: len(f.events) >= state.version)
    finally:
        if feed is not None:
            feed.close()
        if not holder.closed:
            holder.close()
        server.stop()
