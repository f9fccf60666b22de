"""Feeds on a Redis Cluster (issue 22, item 1): sharded pub/sub, a failover.

Against a real local cluster of three primaries with a replica each, formed by
``redis-cli --cluster create`` (``service.redis_server.PrivateRedisCluster``):
a server started with ``ARBITER_REDIS_CLUSTER=1`` publishes each game's events
with ``SPUBLISH`` on the game's channel (its slot, so its shard, chosen by the
game id) and on its shard's all-games channel; its hub listens with
``SSUBSCRIBE`` where a stream follows. Play goes on while a primary is killed
and its replica takes over, and no subscriber misses an event: what pub/sub
dropped meanwhile is read from the store.
"""

from __future__ import annotations

import json
import random
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from arbiter.v1 import game_pb2, game_pb2_grpc
from redis.cluster import RedisCluster

from service.redis_server import PrivateRedisCluster
from service.rediscluster import Topology, shard_all_games_channel, shard_tag
from service.relay import game_channel
from tests import soak
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import FeedCollector, new_game, play, until

pytestmark = [
    pytest.mark.integration,
    pytest.mark.xdist_group("redis-cluster"),  # one cluster for the module's tests
    pytest.mark.heavy(30),
    pytest.mark.skipif(shutil.which("redis-server") is None or shutil.which("redis-cli") is None,
                       reason="a Redis Cluster needs redis-server and redis-cli on PATH"),
]

PREFIX = "cluster-test:"
#: Primaries killed one after the other (each restarted, a replica, before
#: the next): one in the suite, more under ``make soak``.
FAILOVERS = soak.games(1, 8)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrivateRedisCluster]:
    made = PrivateRedisCluster(tmp_path_factory.mktemp("redis-cluster"))
    try:
        yield made
    finally:
        made.stop()


def cluster_server(path: Path, cluster: PrivateRedisCluster) -> ServerProcess:
    return ServerProcess(path / "data", cluster.url, extra_env={
        "ARBITER_REDIS_CLUSTER": "1", "ARBITER_REDIS_PREFIX": PREFIX})


def spread_games(stub: game_pb2_grpc.GameServiceStub, topology: Topology, each: int) -> list[str]:
    """New games, ``each`` on every shard (a game's shard follows from its id)."""
    by_shard: dict[int, list[str]] = {}
    while len(by_shard) < 3 or min(len(g) for g in by_shard.values()) < each:
        game_id = new_game(stub)
        port = topology.primary_of(game_channel(game_id, PREFIX).encode()).port
        if len(by_shard.setdefault(port, [])) < each:
            by_shard[port].append(game_id)
    return [game_id for games in by_shard.values() for game_id in games]


def versions_of(feed: FeedCollector) -> list[int]:
    with feed.changed:
        return [event.version for event in feed.events]


def test_a_game_is_published_on_its_shard_and_followed_there(
        tmp_path: Path, cluster: PrivateRedisCluster) -> None:
    """Each event goes by ``SPUBLISH`` to the game's channel and to the
    all-games channel of the shard that serves it; the hub holds a sharded
    subscription (``PUBSUB SHARDNUMSUB``) to a game only while a stream follows it."""
    server = cluster_server(tmp_path, cluster)
    server.start()
    client = RedisCluster.from_url(cluster.url.split(",")[0])
    listener = client.pubsub()
    try:
        stub = server.stub()
        game_id = new_game(stub)
        channel = game_channel(game_id, PREFIX)
        node = client.get_node_from_key(channel)
        owned = [slot for slot, nodes in client.nodes_manager.slots_cache.items()
                 if nodes[0].name == node.name]
        all_games = shard_all_games_channel(PREFIX, shard_tag(owned))
        assert client.get_node_from_key(all_games).name == node.name, "one shard, one node"
        created = stub.GetState(game_pb2.GetStateRequest(game_id=game_id)).version
        listener.ssubscribe(channel)
        listener.ssubscribe(all_games)
        got: list[tuple[str, str, bytes]] = []

        def versions_on(channel_: str) -> list[int]:
            """The versions of the events after the creation heard on a channel."""
            return [e["version"] for t, c, d in got if t == "smessage" and c == channel_
                    for e in json.loads(d) if e["version"] > created]

        def heard(enough: Callable[[], bool]) -> Callable[[], bool]:
            def listen() -> bool:
                message = listener.get_sharded_message(timeout=0.1)
                if message is not None:
                    got.append((message["type"], message["channel"].decode(), message["data"]))
                return enough()
            return listen

        # Both subscriptions confirmed before a move: what is published
        # before then (the creation's events, by the relay) may be missed.
        assert until(heard(lambda: sum(t == "ssubscribe" for t, _, _ in got) == 2)), got
        state = play(stub, game_id, 2, random.Random(3))
        moves = list(range(created + 1, state.version + 1))
        assert until(heard(lambda: versions_on(channel) == versions_on(all_games) == moves)), got
        bodies = {c: [d for t, ch, d in got if t == "smessage" and ch == c
                      and json.loads(d)[0]["version"] > created] for c in (channel, all_games)}
        assert bodies[channel] == bodies[all_games], "the same message on both channels"
        assert all(event["game_id"] == game_id
                   for body in bodies[channel] for event in json.loads(body))

        shard = redis.Redis(host=node.host, port=node.port)
        assert shard.execute_command("PUBSUB", "SHARDNUMSUB", channel)[1] == 1, \
            "only the test listens: the hub follows no game yet"
        feed = FeedCollector(stub, game_pb2.SubscribeRequest(game_id=game_id))
        try:
            assert feed.wait_for(lambda f: len(f.events) >= state.version and f.statuses)
            assert feed.statuses[-1] == "live", feed.statuses
            assert shard.execute_command("PUBSUB", "SHARDNUMSUB", channel)[1] == 2
            after = play(stub, game_id, 2, random.Random(4))
            assert feed.wait_for(lambda f: len(f.events) >= after.version, timeout=4), \
                "woken by the sharded channel, before the store's poll (5 s)"
        finally:
            feed.close()
        assert until(lambda: shard.execute_command("PUBSUB", "SHARDNUMSUB", channel)[1] == 1)
    finally:
        listener.close()
        client.close()
        server.stop()


def test_play_goes_on_through_a_failover_and_no_subscriber_misses_an_event(
        tmp_path: Path, cluster: PrivateRedisCluster) -> None:
    """A primary is killed while games are played and followed (each game by
    its stream, every game by an all-games stream): its replica takes over,
    play never stops, and every stream receives every event once, in order."""
    server = cluster_server(tmp_path, cluster)
    server.start()
    feeds: list[FeedCollector] = []
    playing = threading.Event()
    errors: list[BaseException] = []
    topology = Topology(cluster.url, PREFIX)
    try:
        stub = server.stub()
        games = spread_games(stub, topology, each=2)
        feeds = [FeedCollector(stub, game_pb2.SubscribeRequest(game_id=g)) for g in games]
        everything = FeedCollector(stub, game_pb2.SubscribeRequest())
        feeds.append(everything)
        assert all(f.wait_for(lambda f: f.statuses) for f in feeds)
        rnd = random.Random(11)
        finals: dict[str, int] = {}
        over: set[str] = set()

        def keep_playing() -> None:
            try:
                while playing.is_set():
                    for game_id in games:
                        state = play(stub, game_id, 1, rnd)
                        finals[game_id] = state.version
                        if state.over:
                            over.add(game_id)
            except BaseException as exc:  # noqa: BLE001 - reported by the test
                errors.append(exc)

        playing.set()
        player = threading.Thread(target=keep_playing, daemon=True)
        player.start()
        assert until(lambda: len(finals) == len(games) and min(finals.values()) >= 4)
        for round_ in range(FAILOVERS):
            # The primary of another shard each round; the node killed before
            # is back by then, a replica.
            topology.refresh()
            victim = topology.primary_of(
                game_channel(games[2 * round_ % len(games)], PREFIX).encode()).port
            cluster.kill(victim)
            moved_on = dict(finals)
            assert until(lambda v=victim: v not in cluster.primaries()  # type: ignore[misc]
                         and len(cluster.primaries()) == 3, timeout=30), "a replica took over"
            cluster.restart(victim)
            cluster.wait_ok()
            assert until(lambda m=moved_on: sum(  # type: ignore[misc]
                finals[g] - m[g] for g in games) >= 12 or len(over) == len(games),
                timeout=30), "play went on"
        playing.clear()
        player.join(30)
        assert not errors, errors
        for game_id, feed in zip(games, feeds, strict=False):
            assert feed.wait_for(lambda f, g=game_id: len(f.events) >= finals[g], timeout=30)
            assert versions_of(feed) == list(range(1, finals[game_id] + 1)), game_id
        newest = {(g, finals[g]) for g in games}
        assert everything.wait_for(
            lambda f: newest <= {(e.game_id, e.version) for e in f.events}, timeout=30)
        by_game: dict[str, list[int]] = {}
        with everything.changed:
            for event in everything.events:
                by_game.setdefault(event.game_id, []).append(event.version)
        for game_id, versions in by_game.items():  # the games played, and those set aside
            wanted = finals.get(game_id, len(versions))
            assert versions == list(range(1, wanted + 1)), game_id
        # Pub/sub itself is back on the shard that failed over last: a move in
        # a game of its reaches a new stream by the game's channel, well before
        # the store's poll (five seconds while live).
        topology.refresh()
        last = games[2 * (FAILOVERS - 1) % len(games)]
        heir = topology.primary_of(game_channel(last, PREFIX).encode()).port
        fresh = next(g for g in (new_game(stub) for _ in range(40))
                     if topology.primary_of(game_channel(g, PREFIX).encode()).port == heir)
        topology.close()
        late = FeedCollector(stub, game_pb2.SubscribeRequest(game_id=fresh))
        feeds.append(late)
        assert late.wait_for(lambda f: bool(f.statuses) and f.statuses[-1] == "live"), \
            late.statuses
        state = play(stub, fresh, 1, random.Random(12))
        assert late.wait_for(lambda f: len(f.events) >= state.version, timeout=4), \
            "woken by the sharded channel, before the store's poll (5 s)"
    finally:
        playing.clear()
        for feed in feeds:
            feed.close()
        topology.close()
        server.stop()
