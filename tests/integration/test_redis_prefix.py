"""Redis channels per deployment, and messages that are only wake-ups (issue 8.8).

The channel names were fixed (``arbiter:games``, ``arbiter:game:<id>``): a
second deployment on the same Redis heard the first, and one forged
``PUBLISH arbiter:games {"version": 2**62, ...}`` made every stream of that
game wait for a version that never comes, so each new event reached its
subscribers only at the next slow poll, for the life of the process. Now
each deployment has its own prefix (derived from its store unless
configured), and the hub reads a message only as "game X may have something
new": the store says what is new.
"""

from __future__ import annotations

import json
import os
import random
import re
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import redis
from arbiter.v1 import game_pb2

from tests.integration.conftest import ServerProcess
from tests.integration.helpers import FeedCollector, new_game, play

pytestmark = pytest.mark.integration

#: Moves made one after another, each waiting for the feed to deliver it.
CHAIN = 15
#: Seconds for the whole chain: generous for wake-ups (a few hundred ms a
#: move on a loaded machine), far too short for the old five-second polls
#: that a forged version forced on every move.
CHAIN_BUDGET = 40.0


class ChannelTap(threading.Thread):
    """The messages published on some channels, by channel."""

    def __init__(self, url: str, channels: list[str]) -> None:
        super().__init__(daemon=True)
        self.pubsub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(*channels)
        self.seen: dict[str, list[dict[str, object]]] = {c: [] for c in channels}
        self.stopping = threading.Event()
        self.changed = threading.Condition()

    def run(self) -> None:
        while not self.stopping.is_set():
            message = self.pubsub.get_message(timeout=0.2)
            if message and message["type"] == "message":
                with self.changed:
                    # a message: a move's events (on the all-games channel, a batch's)
                    self.seen[message["channel"].decode()].extend(json.loads(message["data"]))
                    self.changed.notify_all()

    def wait_for(self, channel: str, count: int, timeout: float = 30.0) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: len(self.seen[channel]) >= count, timeout)

    def close(self) -> None:
        self.stopping.set()
        self.join(timeout=5)
        self.pubsub.close()


def logged_prefix(server: ServerProcess) -> str:
    """The channel prefix the server says it publishes under."""
    found = re.search(r"feeds on Redis channels (\S+)games and", server.log_path.read_text())
    assert found, "the server names its Redis channels in its log"
    return found.group(1)


@pytest.mark.heavy(10)
def test_two_deployments_on_one_redis_publish_on_their_own_channels(
    tmp_path: Path, redis_url: str
) -> None:
    servers = [ServerProcess(tmp_path / name, redis_url) for name in ("a", "b")]
    configured = f"t{secrets.token_hex(4)}:"
    servers.append(ServerProcess(tmp_path / "c", redis_url, {"ARBITER_REDIS_PREFIX": configured}))
    try:
        for server in servers:
            server.start()
        prefixes = [logged_prefix(s) for s in servers]
        assert prefixes == [s.redis_prefix for s in servers]
        assert len(set(prefixes)) == 3 and prefixes[2] == configured
        assert "arbiter:" not in prefixes[2]
        tap = ChannelTap(redis_url, [f"{p}games" for p in prefixes])
        tap.start()
        time.sleep(0.2)  # subscribed before the first publish
        versions = []
        for n, server in enumerate(servers):
            stub = server.stub()
            game_id = new_game(stub)
            versions.append(play(stub, game_id, 2, random.Random(n)).version)
            assert tap.wait_for(f"{prefixes[n]}games", versions[n]), (
                f"deployment {n} publishes on {prefixes[n]}games")
        mine = [{m["game_id"] for m in tap.seen[f"{p}games"]} for p in prefixes]
        assert all(len(games) == 1 for games in mine), "each channel carries one deployment"
        assert len(set.union(*mine)) == 3
        tap.close()
    finally:
        for server in servers:
            server.stop()


def test_a_forged_or_malformed_message_does_not_slow_or_stop_the_feed(
    arbiter_server: ServerProcess,
) -> None:
    stub = arbiter_server.stub()
    game_id = new_game(stub)
    feed = FeedCollector(stub, game_pb2.SubscribeRequest(game_id=game_id))
    feeds = [feed]
    try:
        assert feed.wait_for(lambda f: "live" in f.statuses and len(f.events) >= 1)
        publisher = redis.Redis.from_url(arbiter_server.redis_url)
        forged = json.dumps({"game_id": game_id, "version": 2**62, "position": 2**62,
                             "type": "Forged"})
        for prefix in {arbiter_server.redis_prefix, "arbiter:"}:  # the old name too
            for body in (forged, b"not json", b"[]", b'{"game_id": 7}', b"[" * 100_000,
                         json.dumps({"game_id": "x" * 10_000}), b"\xff\xfe"):
                publisher.publish(f"{prefix}games", body)
        rnd = random.Random(11)
        deadline = time.monotonic() + CHAIN_BUDGET  # one generous wait for the whole chain
        moves = 0
        while moves < CHAIN:
            state = play(stub, game_id, 1, rnd)
            moves += 1
            remaining = max(0.0, deadline - time.monotonic())
            assert feed.wait_for(lambda f, v=state.version: len(f.events) >= v,
                                 timeout=remaining), (
                f"move {moves} of {CHAIN} not delivered within {CHAIN_BUDGET:.0f}s of the "
                "first: a forged version has slowed the feed to polling")
            if state.over and moves < CHAIN:
                # The hero died early (the server's dice): the chain goes on in
                # a new game, on a stream of its own.
                game_id = new_game(stub)
                feed = FeedCollector(stub, game_pb2.SubscribeRequest(game_id=game_id))
                feeds.append(feed)
        for each in feeds:
            assert [e.version for e in each.events] == list(range(1, len(each.events) + 1))
            # Live to the end, or ended with its game (a hero who died early).
            assert each.statuses[-1] in ("live", "ended: the game is over") and each.error is None
            assert "live" in each.statuses
    finally:
        for each in feeds:
            each.close()


def test_a_prefix_that_is_no_channel_name_is_refused_at_start(tmp_path: Path) -> None:
    """Spaces or glob characters would make the channels unusable to direct
    (pattern) subscribers: the server says so instead of starting."""
    env = dict(os.environ, ARBITER_REDIS_PREFIX="my games*", REDIS_URL="redis://127.0.0.1:1/0")
    done = subprocess.run(
        [sys.executable, "-m", "service.main", "--address", "127.0.0.1:0",
         "--data-dir", str(tmp_path / "data")],
        cwd=Path(__file__).resolve().parents[2], env=env, capture_output=True, timeout=60,
    )
    assert done.returncode != 0
    assert b"ARBITER_REDIS_PREFIX must be" in done.stderr
