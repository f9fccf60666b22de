"""Feeds on a Redis Cluster: each game's channel a sharded channel, the
all-games feed fanned in from one channel per shard.

Classic pub/sub on a Redis Cluster sends every message to every node; sharded
pub/sub (``SPUBLISH``/``SSUBSCRIBE``, Redis 7) keeps a channel on the shard
that owns its hash slot, so a cluster of K primaries carries K times the
messages of one. A game's channel keeps its name (``<prefix>game:<id>``): its
slot, and so its shard, follows from the game id. The all-games feed cannot be
one channel (one shard would carry every message): each shard has its own
all-games channel, ``<prefix>games:{<tag>}``, whose hash tag is the smallest
number whose slot that shard owns (``shard_tag``), and the relay publishes a
game's event to its game's channel and to the all-games channel of the same
shard, so both messages go to one node in one round trip. An all-games stream
listens to every shard's channel.

Nothing here is a guarantee of delivery, as on a single Redis: a message is a
wake-up, and a stream reads what is new from the store (``service.feeds``).
When a primary fails and its replica takes over, or slots move, what was
published meanwhile may be lost; the relay finds its connection refused or
redirected (``MOVED``), reads the cluster's slots again and publishes from the
store, and the hub, told its channel moved (Redis sends ``SUNSUBSCRIBE``) or
its connection lost, connects again and says ``degraded`` until every followed
channel is confirmed. Streams poll the store meanwhile, so no subscriber misses
an event (``tests/integration/test_feed_cluster.py``).

Selected by ``ARBITER_REDIS_CLUSTER=1``; ``REDIS_URL`` then names one node or
several, comma-separated (any node of the cluster will do; several let a
server start while one is down). A single Redis stays the default.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import urlparse

import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.crc import key_slot


def cluster_seeds(redis_url: str) -> list[str]:
    """The node URLs of a cluster's ``REDIS_URL`` (comma-separated)."""
    seeds = [part.strip() for part in redis_url.split(",") if part.strip()]
    if not seeds:
        raise ValueError("REDIS_URL names no Redis Cluster node")
    return seeds


def cluster_client(redis_url: str, **options: Any) -> RedisCluster:
    """A cluster client from ``REDIS_URL``'s seeds: the first one's URL gives
    the credentials and TLS, the others are further nodes to start from.
    Connects, and reads the cluster's slots (raises when no seed answers)."""
    seeds = cluster_seeds(redis_url)
    nodes = []
    for seed in seeds:
        parsed = urlparse(seed)
        nodes.append(ClusterNode(parsed.hostname or "127.0.0.1", parsed.port or 6379))
    return RedisCluster.from_url(seeds[0], startup_nodes=nodes[1:], **options)


def spublish_command(channel: bytes, message: bytes) -> bytes:
    """``SPUBLISH channel message`` in the Redis protocol (RESP), packed once."""
    return b"*3\r\n$8\r\nSPUBLISH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (
        len(channel), channel, len(message), message)


def shard_tag(slots: Iterable[int]) -> str:
    """The hash tag of a shard's all-games channel: the smallest number (as
    text) whose hash slot is one of the shard's ``slots``. Every server that
    reads the same slots map names the same channel."""
    owned = set(slots)
    tag = 0
    while key_slot(str(tag).encode()) not in owned:
        tag += 1
    return str(tag)


def socket_of(pubsub: redis.client.PubSub) -> Any:
    """The socket of a pub/sub's connection, to wait on beside the hub's pipe
    (``redis-py`` keeps it as ``_sock``; pinned in the project's dependencies)."""
    sock = getattr(pubsub.connection, "_sock", None)
    if sock is None:
        raise redis.ConnectionError("a feed hub connection to Redis is closed")
    return sock


def drained(pubsub: redis.client.PubSub) -> Iterator[dict[str, Any]]:
    """Every message a pub/sub connection has read or buffered (a health
    check's reply reads as no message: the buffer is asked again, not left
    for the next wait)."""
    while True:
        message = pubsub.get_message(timeout=0)
        if message is not None:
            yield message
        elif pubsub.connection is None or not pubsub.connection.can_read(timeout=0):
            return


def shard_all_games_channel(prefix: str, tag: str) -> str:
    return f"{prefix}games:{{{tag}}}"


@dataclasses.dataclass(frozen=True)
class Shard:
    """One primary of the cluster, as the slots map named it when read."""

    node: ClusterNode
    all_games: str


class Topology:
    """The cluster's slots map, as a client of ``redis-py`` reads it: which
    primary serves a channel, and each shard's all-games channel."""

    def __init__(self, redis_url: str, prefix: str, **options: Any) -> None:
        self.redis_url = redis_url
        self.options = options
        self._client: RedisCluster | None = None
        self.prefix = prefix
        self._lock = threading.Lock()
        self._shards: dict[str, Shard] = {}
        self._tags: dict[str, str] = {}

    @property
    def client(self) -> RedisCluster:
        """The cluster client, made (and the slots map read) when first needed:
        a cluster down when the server starts is retried like a Redis down."""
        if self._client is None:
            try:
                self._client = cluster_client(self.redis_url, **self.options)
            except redis.RedisError:
                raise
            except Exception as exc:  # RedisClusterException is no RedisError
                raise redis.ConnectionError(f"no Redis Cluster node answers ({exc})") from exc
        return self._client

    def refresh(self) -> None:
        """Read the slots map again (after a failover, or a ``MOVED``)."""
        with self._lock:
            self._shards.clear()
        if self._client is not None:
            self._client.nodes_manager.initialize()

    def primary_of(self, channel: bytes) -> ClusterNode:
        node: ClusterNode = self.client.nodes_manager.get_node_from_slot(key_slot(channel))
        return node

    def shard_of(self, channel: bytes) -> Shard:
        """The shard serving ``channel``, with its all-games channel."""
        node = self.primary_of(channel)
        with self._lock:
            found = self._shards.get(node.name)
            if found is None:
                found = self._shards[node.name] = Shard(
                    node, shard_all_games_channel(self.prefix, self._tag_of(node)))
            return found

    def shards(self) -> list[Shard]:
        """Every primary, each with its all-games channel."""
        primaries = {node.name: node for node in self.client.get_primaries()}
        out = []
        for name in sorted(primaries):
            with self._lock:
                found = self._shards.get(name)
                if found is None:
                    node = primaries[name]
                    found = self._shards[name] = Shard(
                        node, shard_all_games_channel(self.prefix, self._tag_of(node)))
            out.append(found)
        return out

    def _tag_of(self, node: ClusterNode) -> str:
        slots = [slot for slot, nodes in self.client.nodes_manager.slots_cache.items()
                 if nodes and nodes[0].name == node.name]
        key = f"{node.name}:{min(slots, default=-1)}:{len(slots)}"
        tag = self._tags.get(key)
        if tag is None:
            tag = self._tags[key] = shard_tag(slots) if slots else "none"
        return tag

    def connection_of(self, node: ClusterNode) -> redis.Redis:
        """The client of one node (the cluster client's, with its credentials)."""
        client: redis.Redis = self.client.get_redis_connection(node)
        return client

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):
                client.close()


class ShardedPublisher:
    """The relay's publisher on a cluster: ``SPUBLISH``, the messages of each
    primary in one write on a connection of its own, and every reply read;
    each event goes to its game's channel and to the all-games channel of
    the same shard (``all_games_of``), so to one node.

    Any error (a node down, a ``MOVED`` after a failover or a resharding)
    drops every connection and reads the slots map again before it is raised:
    the relay then publishes the batch again, from the store."""

    def __init__(self, topology: Topology) -> None:
        self.topology = topology
        self._connections: dict[str, Any] = {}

    def publish(self, messages: list[tuple[bytes, bytes]]) -> None:
        """Publish each (channel, message), in order on each channel, each on
        the primary serving its channel."""
        if not messages:
            return
        by_node: dict[str, tuple[ClusterNode, list[bytes]]] = {}
        try:
            for channel, message in messages:
                node = self.topology.primary_of(channel)
                by_node.setdefault(node.name, (node, []))[1].append(
                    spublish_command(channel, message))
            for node, commands in by_node.values():
                self._send(node, commands)
        except Exception as exc:
            self.close()  # the next batch reads the cluster's slots afresh
            if isinstance(exc, redis.RedisError):
                raise
            # A slot no primary serves (a failover under way) and the like:
            # the relay's to retry, from the store.
            raise redis.ConnectionError(f"the Redis Cluster refused ({exc})") from exc

    def all_games_of(self, channel: bytes) -> bytes:
        """The all-games channel of the shard serving a game's ``channel``; a
        slots map that cannot say (a failover under way) is the relay's to
        retry, as a refused publish is."""
        try:
            return self.topology.shard_of(channel).all_games.encode()
        except redis.RedisError:
            self.close()
            raise
        except Exception as exc:  # RedisClusterException, SlotNotCoveredError: no RedisError
            self.close()
            raise redis.ConnectionError(f"the Redis Cluster's slots are moving ({exc})") from exc

    def _send(self, node: ClusterNode, commands: list[bytes]) -> None:
        held = self._connections.get(node.name)
        if held is None:
            pool = self.topology.connection_of(node).connection_pool
            held = self._connections[node.name] = (pool, pool.get_connection())
        connection = held[1]
        connection.send_packed_command([b"".join(commands)], check_health=False)
        for _ in commands:
            reply = connection.read_response()
            if isinstance(reply, redis.ResponseError):
                raise reply

    def close(self) -> None:
        """Drop every connection and the cluster client (both made again, and
        the slots map read again, for the next batch)."""
        connections, self._connections = self._connections, {}
        for pool, connection in connections.values():
            with contextlib.suppress(Exception):
                connection.disconnect()
            with contextlib.suppress(Exception):
                pool.release(connection)
        self.topology.close()


class ShardedListening:
    """The hub's subscriptions on a cluster: one pub/sub connection per primary
    that serves a followed channel, ``SSUBSCRIBE`` one channel at a time (a
    command's channels must share a slot). The all-games channel stands for
    every shard's own (``channels_of``)."""

    def __init__(self, topology: Topology, all_games: str) -> None:
        self.topology = topology
        self.all_games = all_games
        self.pubsubs: dict[str, redis.client.PubSub] = {}
        #: The node each channel was subscribed on, while it is.
        self._where: dict[str, str] = {}
        #: ``SUNSUBSCRIBE`` s this hub sent and Redis has not yet confirmed: a
        #: confirmation of one is no news, even for a channel followed again since.
        self._leaving: dict[str, int] = {}
        self.checked_shards = frozenset(shard.node.name for shard in topology.shards())

    def channels_of(self, channel: str) -> list[str]:
        """The channels that Redis is asked for, for one followed channel."""
        if channel == self.all_games:
            return [shard.all_games for shard in self.topology.shards()]
        return [channel]

    def subscribe(self, channels: list[str]) -> None:
        for channel in channels:
            node = self.topology.shard_of(channel.encode()).node
            pubsub = self.pubsubs.get(node.name)
            if pubsub is None:
                pubsub = self.pubsubs[node.name] = self.topology.connection_of(node).pubsub()
            pubsub.ssubscribe(channel)
            self._where[channel] = node.name

    def unsubscribe(self, channels: list[str]) -> None:
        for channel in channels:
            name = self._where.pop(channel, None)
            if name is not None and name in self.pubsubs:
                self._leaving[channel] = self._leaving.get(channel, 0) + 1
                self.pubsubs[name].sunsubscribe(channel)

    def sockets(self) -> list[Any]:
        return [socket_of(pubsub) for pubsub in self.pubsubs.values()]

    def messages(self) -> Iterator[dict[str, Any]]:
        """Every message read or buffered on every connection. A channel Redis
        unsubscribed by itself (its slot moved: a failover, a resharding)
        raises, so the hub connects again to the slots' new owners."""
        for pubsub in list(self.pubsubs.values()):
            for message in drained(pubsub):
                if message.get("type") != "sunsubscribe":
                    yield message
                    continue
                channel = message.get("channel")
                name = channel.decode() if isinstance(channel, bytes) else str(channel)
                if self._leaving.get(name, 0) > 0:
                    self._leaving[name] -= 1  # the reply to our own
                elif name in self._where:
                    raise redis.ConnectionError(
                        f"the cluster moved the channel {name!r} to another shard")

    def shards_changed(self) -> bool:
        """Whether the cluster's primaries differ from those seen when connected."""
        self.topology.refresh()
        return frozenset(s.node.name for s in self.topology.shards()) != self.checked_shards

    def close(self) -> None:
        for pubsub in self.pubsubs.values():
            with contextlib.suppress(Exception):
                pubsub.close()
        self.pubsubs.clear()
        self.topology.close()
