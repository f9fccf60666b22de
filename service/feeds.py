"""Live wake-ups for Subscribe streams, from Redis, with the store as the truth.

One Redis connection per server process listens to the channels of the games
its streams follow (and to the all-games channel while an all-games stream is
open), and wakes the streams waiting on this process: a process with no
follower receives nothing, where it used to receive and read every message of
every game (issue 20: about a tenth of the interpreter's time of a server under
moves no one followed). A message is
only a wake-up, "game X may have something new": its version and position
are not believed, since anyone who can publish on the Redis can send any
(a forged ``{"version": 2**62}`` once made every stream of that game wait for
a version that never comes, and fall back to slow polling for the life of the
process). A woken stream reads what is new from the store, by version, so it
never skips or repeats an event even when pub/sub drops a message.

When Redis is down the hub says so, streams poll the store every second
(degraded, not dead), and the hub reconnects by itself; when Redis is back,
live wake-ups resume. When Redis is up but nothing publishes (the relay lease
is held by someone who does not publish, or the relay is stuck) the store
moves on while the published position stays behind: ``PublishWatch`` sees
that and the feeds say ``degraded`` too, instead of a ``live`` that is not.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import json
import logging
import os
import re
import select
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any, Protocol

import redis
from arbiter.v1 import game_pb2
from redis.backoff import NoBackoff
from redis.retry import Retry

from service.recent import count_in, count_out
from service.rediscluster import ShardedListening, Topology, drained, socket_of
from service.relay import LEGACY_PREFIX, all_games_channel, game_channel

#: How often a hub on a cluster checks that its shards are the cluster's.
TOPOLOGY_CHECK_SECONDS = 30.0

log = logging.getLogger(__name__)

HEALTHY_POLL = 5.0
#: A caught-up feed's heartbeat, by default (``ARBITER_FEED_HEARTBEAT_SECONDS``).
HEARTBEAT_SECONDS = 10.0
DEGRADED_POLL = 1.0
#: Seconds the published position may stay behind the store, unmoving, before
#: the feeds say that nothing publishes (a relay taking over, or backing off
#: from a Redis error, moves again well within this).
STALE_SECONDS = 5.0
#: The longest a new follower waits for Redis to confirm its channel's
#: subscription before it reads the store (a message between that read and a
#: later confirmation would reach it only by its poll).
SUBSCRIBE_WAIT = 2.0
#: The start of the name the hub's connection gives itself (``CLIENT LIST``
#: shows it; each hub's own, so one can be told from another).
HUB_CLIENT_NAME = "arbiter-feed-hub"
#: The longest game id a message may name; longer ones are not game ids.
MAX_GAME_ID = 64
#: Games remembered at once; past it the table starts over (a wake-up lost so
#: is made good by the streams' periodic read of the store).
MAX_GAMES = 100_000

#: What a wake-up needs of a relay's message (``service.relay.batch_messages``:
#: a JSON array of events, each ``service.envelope.to_public_json``'s compact
#: JSON with keys sorted, so the first event's top-level ``game_id`` is the
#: message's first one, after only the audience and the digest, and the last
#: event's ``version`` its last key).
_GAME_ID = re.compile(rb'"game_id":"([^"\\]{1,%d})"' % MAX_GAME_ID)
_VERSION = re.compile(rb'"version":(\d{1,18})\}\]$')

REDIS_DOWN = "degraded: Redis is unavailable; events are served from the store by polling"
NOT_PUBLISHING = (
    "degraded: nothing is publishing new events to Redis (the relay is behind the store); "
    "events are served from the store by polling"
)

#: A game's feed's last message.
ENDED = "ended: the game is over"
LIVE = "live"


def status_message(status: str, heartbeat: bool = False) -> game_pb2.FeedMessage:
    """A feed's status message: the sentence and its typed ``FeedState``.

    Sent only once the backlog is out (the stream loops send a status when a
    read of the store found nothing new), so every state means "caught up";
    a ``heartbeat`` repeats the sentence and says ``CAUGHT_UP``."""
    if status == ENDED:
        state = game_pb2.FEED_STATE_ENDED
    elif heartbeat:
        state = game_pb2.FEED_STATE_CAUGHT_UP
    elif status == LIVE:
        state = game_pb2.FEED_STATE_LIVE
    else:
        state = game_pb2.FEED_STATE_DEGRADED
    return game_pb2.FeedMessage(status=status, state=state)


def wake_of(data: bytes | str) -> tuple[str, int | None] | None:
    """The game id and newest version a game channel's message names, or
    None: nothing to wake.

    A relay's message (a JSON array of one game's events, oldest first) is
    read by two patterns, not decoded: its payloads may be large, and a
    wake-up needs none of them (a whole ``json.loads`` per event was most of
    the hub's time). Any other message (another shape or spacing, one event
    alone) is decoded as JSON. What either finds is only a wake-up (see the
    module): a forged one wakes a stream, which reads the store.
    """
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if not isinstance(data, bytes):
        return None
    found = _GAME_ID.search(data) if data.startswith(b'[{"audience":') else None
    if found is not None:
        version = _VERSION.search(data)
        return (found.group(1).decode("utf-8", "replace"),
                int(version.group(1)) if version else None)
    try:
        message = json.loads(data)
        if isinstance(message, list):
            game_id, version = message[0]["game_id"], message[-1].get("version")
        else:
            game_id, version = message["game_id"], message.get("version")
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError):
        return None
    if not isinstance(game_id, str) or not 0 < len(game_id) <= MAX_GAME_ID:
        return None
    return game_id, version if isinstance(version, int) and not isinstance(version, bool) \
        else None


class PlainListening:
    """The hub's subscriptions on a single Redis: one pub/sub connection,
    classic ``SUBSCRIBE``. (On a Redis Cluster: ``service.rediscluster.ShardedListening``,
    the same methods.)"""

    def __init__(self, pubsub: redis.client.PubSub) -> None:
        self.pubsub = pubsub

    def channels_of(self, channel: str) -> list[str]:
        """The channels that Redis is asked for, for one followed channel: itself."""
        return [channel]

    def subscribe(self, channels: list[str]) -> None:
        self.pubsub.subscribe(*channels)

    def unsubscribe(self, channels: list[str]) -> None:
        self.pubsub.unsubscribe(*channels)

    def sockets(self) -> list[Any]:
        return [socket_of(self.pubsub)]

    def messages(self) -> Iterator[dict[str, Any]]:
        return drained(self.pubsub)

    def shards_changed(self) -> bool:
        return False

    def close(self) -> None:
        self.pubsub.close()


class Listener(Protocol):
    """One hub connection's way to Redis: a single Redis or a cluster's shards."""

    def channels_of(self, channel: str) -> list[str]: ...
    def subscribe(self, channels: list[str]) -> None: ...
    def unsubscribe(self, channels: list[str]) -> None: ...
    def sockets(self) -> list[Any]: ...
    def messages(self) -> Iterator[dict[str, Any]]: ...
    def shards_changed(self) -> bool: ...
    def close(self) -> None: ...


@dataclasses.dataclass
class _Listening:
    """One connection's subscriptions, kept by the hub's thread alone: the
    channels followed and asked for (each standing for the channels Redis is
    asked, ``physical``: on a cluster the all-games channel is one per shard),
    and the ``SUBSCRIBE`` s sent and not yet confirmed."""

    listener: Listener
    idle_channel: str
    asked: set[str] = dataclasses.field(default_factory=set)
    physical: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    #: The followed channel each channel asked of Redis stands for.
    followed: dict[str, str] = dataclasses.field(default_factory=dict)
    pending: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)

    def __post_init__(self) -> None:
        self.listener.subscribe([self.idle_channel])  # connects, or raises
        self.pending[self.idle_channel] += 1

    def confirmed(self, channel: str) -> bool:
        """Whether every channel Redis was asked for ``channel`` is confirmed."""
        return channel in self.asked and not any(
            c in self.pending for c in self.physical.get(channel, ()))


def _poll_sockets(poller: select.poll, sockets: list[Any], polled: set[int]) -> set[int]:
    """Wait on ``sockets`` (a cluster's hub gains one per shard it listens on)."""
    fds = {sock.fileno() for sock in sockets}
    for fd in fds - polled:
        poller.register(fd, select.POLLIN)
    for fd in polled - fds:
        poller.unregister(fd)
    return fds


class FeedHub(threading.Thread):
    """Wake-ups per game from Redis, and whether the feeds are truly live.

    Each message takes the next number of a sequence kept here, and the game
    it names remembers the number of its latest wake-up. A stream takes a
    ticket (``ticket``/``ticket_all``) before it reads the store and, if the
    store had nothing new, waits for a wake-up numbered after the ticket: one
    that arrived during the read is not lost, and nothing in a message can
    make a stream wait longer than its poll interval.

    A wake-up wakes only the streams of the game it names (and those following
    every game), each waiting on a condition of its own: with one condition
    for all, every message woke every stream of the process, and the one
    stream it was for queued for the interpreter behind all the others.
    A change of status, a stop or ``wake`` still wakes them all.
    """

    def __init__(self, redis_url: str, prefix: str = LEGACY_PREFIX,
                 cluster: bool = False, heartbeat: float = HEARTBEAT_SECONDS) -> None:
        super().__init__(name="feed-hub", daemon=True)
        self.redis_url = redis_url
        #: Seconds a caught-up feed goes without a message before it is sent a
        #: heartbeat (its status again): how soon a client learns the feed still
        #: lives, and how soon the server finds a client gone (its next write).
        self.heartbeat = heartbeat
        #: On a Redis Cluster: sharded channels (``service.rediscluster``).
        self.cluster = cluster
        self.lock = threading.RLock()
        self.cond = threading.Condition(self.lock)
        #: The conditions of the streams waiting now, by game (``None``: any game).
        self.waiting: dict[str | None, set[threading.Condition]] = {}
        self.sequence = 0
        self.woken: dict[str, int] = {}
        #: The newest version a message named, by game: a follower that has
        #: it (``service.recent``) need not ask the store for more. Only ever a
        #: reason to read the store: a forged higher one costs a read, and a
        #: lower one changes nothing (the newest wins).
        self.published: dict[str, int] = {}
        #: The newest version of each game this process committed (``committed``).
        self.local: dict[str, int] = {}
        self.healthy = False
        self.publishing = True
        #: Times the status went from live to degraded (a metric for operators).
        self.degradations = 0
        #: The shards whose new events nothing publishes (``set_publishing``).
        self._stuck: set[int] = set()
        self.stopping = threading.Event()
        self.tried = threading.Event()  # the first connection attempt has ended
        self.prefix = prefix
        self._all_channel = all_games_channel(prefix)
        #: Followers by channel (``following``): the channels to be subscribed.
        self.followers: dict[str, int] = {}
        #: The channels Redis has confirmed on the current connection.
        self.subscribed: set[str] = set()
        #: Counted up (under the lock) whenever ``subscribed`` changes: the
        #: relay reads it around its count of the channels' subscribers, and
        #: trusts ``echo_only`` only where it did not move (``service.relay``).
        self.subscriptions = 0
        #: Whether the followed channels changed since the hub last subscribed.
        self._changed = False
        #: A channel no one publishes on, subscribed for the connection's life:
        #: with no follower the hub still holds a connection, so its status
        #: says whether Redis answers.
        self._idle_channel = f"{prefix}hub:{uuid.uuid4().hex}"
        self.client_name = f"{HUB_CLIENT_NAME}-{uuid.uuid4().hex[:12]}"
        self._named = True  # until a Redis user is found that may not name it
        #: The write end of a pipe, while the hub runs: written to when the
        #: followed channels change, to wake the hub's wait on its Redis socket
        #: (``redis-py``'s pub/sub is not for two threads).
        self._poke_write: int | None = None
        self._backoff = 0.1

    @property
    def status(self) -> str:
        if not self.healthy:
            return REDIS_DOWN
        if not self.publishing:
            return NOT_PUBLISHING
        return LIVE

    @property
    def live(self) -> bool:
        return self.healthy and self.publishing

    def start(self) -> None:
        """Start listening, and return once the first connection attempt has ended:
        a Subscribe right after the server starts must not be told that Redis is
        unavailable only because the hub has not connected yet."""
        super().start()
        self.tried.wait(timeout=5)

    def stop(self) -> None:
        """Stop listening and release every waiting stream (the server is going down)."""
        self.stopping.set()
        self._poke()
        self.wake()

    def run(self) -> None:
        """Listen until stopped, reconnecting after any failure; the pipe that
        ``_poke`` writes to lives as long as this thread."""
        poke_read, poke_write = os.pipe()
        os.set_blocking(poke_read, False)
        os.set_blocking(poke_write, False)
        with self.cond:
            self._poke_write = poke_write
        try:
            self._connect_until_stopped(poke_read)
        finally:
            with self.cond:  # ``_poke`` writes under this lock: never to a closed number
                self._poke_write = None
                os.close(poke_write)
            os.close(poke_read)

    def _connect_until_stopped(self, poke_read: int) -> None:
        self._backoff = 0.1
        while not self.stopping.is_set():
            try:
                # No retries of redis-py's own: a connection it made again
                # silently would hold none of the followed channels, and the
                # status would never say that Redis went away.
                listener = self._connect()
                try:
                    self._listen(listener, poke_read)
                finally:
                    with self.cond:
                        self.subscribed.clear()
                        self.subscriptions += 1
                    listener.close()
            except Exception as exc:  # noqa: BLE001 - Redis down, or anything: never die
                if self.stopping.is_set():
                    return  # a clean stop closes Redis (a private one) under us: no news
                if self._named and isinstance(exc, redis.exceptions.NoPermissionError):
                    # A Redis user limited to its channels (docs/operations.md)
                    # may not name its connection: go on without the name.
                    log.info("feed hub: the Redis user may not name its connection (%s); "
                             "listening unnamed", exc)
                    self._named = False
                    continue
                if self.healthy:
                    log.warning("feed hub: Redis unavailable (%s); will reconnect", exc)
                if not isinstance(exc, (redis.RedisError, OSError)):
                    log.exception("feed hub: unexpected failure; reconnecting")
                self._set(healthy=False)
                self.tried.set()
                self.stopping.wait(self._backoff)
                self._backoff = min(self._backoff * 2, 2.0)

    def _connect(self) -> Listener:
        """A connection to Redis, or to the cluster's slots map (raises if unreachable)."""
        if self.cluster:
            topology = Topology(self.redis_url, self.prefix, socket_connect_timeout=2,
                                health_check_interval=10)
            try:
                return ShardedListening(topology, all_games_channel(self.prefix))
            except BaseException:
                topology.close()
                raise
        client = redis.Redis.from_url(
            self.redis_url, socket_connect_timeout=2, health_check_interval=10,
            retry=Retry(NoBackoff(), 0),
            client_name=self.client_name if self._named else None,
        )
        return PlainListening(client.pubsub())

    def _listen(self, listener: Listener, poke_read: int) -> None:
        """Keep the subscriptions to the followed channels and pass on what
        arrives, until the hub stops (or Redis fails: raised).

        The status says live only once Redis has confirmed the hub's own
        channel and every channel followed when it connected: a stream woken
        by the status reads the store again, and a commit after that read is
        heard."""
        listening = _Listening(listener, self._idle_channel)
        with self.cond:
            self._changed = True  # a new connection: every followed channel anew
        self._subscribe_changes(listening)
        first = set(listening.pending)
        poller = select.poll()  # not select(): a descriptor past 1023 is fine
        poller.register(poke_read, select.POLLIN)
        polled: set[int] = set()
        live = False
        checked = time.monotonic()
        while not self.stopping.is_set():
            self._subscribe_changes(listening)
            polled = _poll_sockets(poller, listener.sockets(), polled)
            if not live and not first & set(listening.pending):
                live = True
                self._backoff = 0.1
                self._set(healthy=True)
                self.tried.set()
            # At most a second's wait, so that redis-py's health check (a PING
            # when the connection was quiet for its interval) runs.
            if any(fd == poke_read for fd, _ in poller.poll(1000)):
                with contextlib.suppress(BlockingIOError):
                    os.read(poke_read, 4096)
            for message in listener.messages():
                self._on_received(message, listening)
            if self.cluster and time.monotonic() - checked > TOPOLOGY_CHECK_SECONDS:
                checked = time.monotonic()
                if listener.shards_changed():
                    raise redis.ConnectionError("the cluster's shards changed")

    def _subscribe_changes(self, listening: _Listening) -> None:
        """Subscribe to the channels newly followed and leave those no longer
        followed. Only when ``following`` changed them: a hub following many
        games compares no sets per message. A channel left is no longer
        confirmed from that moment (under the same lock as the change is read),
        so a follower coming back to it waits for its new confirmation."""
        with self.cond:
            if not self._changed:
                return
            self._changed = False
            wanted = set(self.followers)
            dropped = listening.asked - wanted
            self.subscribed.difference_update(dropped)
            self.subscriptions += 1
        added = wanted - listening.asked
        listening.asked = wanted
        if added:
            physical = []
            for channel in sorted(added):
                listening.physical[channel] = listening.listener.channels_of(channel)
                physical.extend(listening.physical[channel])
                listening.followed.update(dict.fromkeys(listening.physical[channel], channel))
            listening.listener.subscribe(physical)
            listening.pending.update(physical)
        if dropped:
            physical = [c for channel in sorted(dropped)
                        for c in listening.physical.pop(channel, [])]
            for channel in physical:
                listening.followed.pop(channel, None)
            listening.listener.unsubscribe(physical)

    def _on_received(self, message: dict[str, object], listening: _Listening) -> None:
        """A message from Redis: a subscription confirmed, or a wake-up.

        A channel is confirmed by the reply to the last ``SUBSCRIBE`` sent for
        it while it is still followed: a late reply to one sent before a
        follower left (and the channel was left) confirms nothing."""
        kind, channel = message.get("type"), message.get("channel")
        if kind in ("subscribe", "ssubscribe"):
            name = channel.decode() if isinstance(channel, bytes) else str(channel)
            if listening.pending[name] > 0:
                listening.pending[name] -= 1
                if not listening.pending[name]:
                    del listening.pending[name]
            followed = listening.followed.get(name)
            if followed is not None and listening.confirmed(followed):
                with self.cond:
                    self.subscribed.add(followed)
                    self.subscriptions += 1
                    self.cond.notify_all()
        elif kind in ("message", "smessage") and isinstance(message.get("data"), (bytes, str)):
            name = channel.decode() if isinstance(channel, bytes) else str(channel)
            if listening.followed.get(name, name) == self._all_channel:
                self._woken_everything()
            else:
                self._on_message(message["data"])  # type: ignore[arg-type]

    @contextlib.contextmanager
    def following(self, game_id: str | None) -> Iterator[None]:
        """While open, the hub listens to the game's channel (``None``: the
        all-games channel). It opens once Redis has confirmed the subscription
        (or Redis is unavailable, or ``SUBSCRIBE_WAIT`` has passed), so a stream
        that takes its first ticket and reads the store after it misses no
        wake-up of a commit after that read. A hub not listening (not started,
        or stopped) is waited for by no one."""
        channel = (all_games_channel(self.prefix) if game_id is None
                   else game_channel(game_id, self.prefix))
        with self.cond:
            count_in(self.followers, channel)
            self._changed = True
        self._poke()
        try:
            with self.cond:
                self.cond.wait_for(
                    lambda: channel in self.subscribed or not self.healthy
                    or self.stopping.is_set() or not self.is_alive(), SUBSCRIBE_WAIT)
            yield
        finally:
            with self.cond:
                last = count_out(self.followers, channel)
                if last:
                    self._changed = True
            if last:
                self._poke()

    def _poke(self) -> None:
        """Wake the hub's wait, to subscribe or unsubscribe now (a hub not
        running has no pipe: it subscribes to every followed channel when it
        connects)."""
        with self.cond, contextlib.suppress(BlockingIOError):  # full: woken anyway
            if self._poke_write is not None:
                os.write(self._poke_write, b"x")

    def _set(self, healthy: bool | None = None, publishing: bool | None = None) -> None:
        """Change what the status says, and wake the streams so they report it."""
        with self.cond:
            was = self.live
            if healthy is not None:
                self.healthy = healthy
            if publishing is not None:
                self.publishing = publishing
            if was and not self.live:
                self.degradations += 1
            self._notify_everyone()

    def set_publishing(self, publishing: bool, source: int = 0) -> None:
        """Whether the store's new events are published; on a store sharded by
        game, ``source`` is the shard: publishing only while every shard is."""
        with self.cond:
            if publishing:
                self._stuck.discard(source)
            else:
                self._stuck.add(source)
            publishing = not self._stuck
        if publishing != self.publishing:
            if publishing:
                log.info("feed hub: the store's new events are published again")
            else:
                log.warning("feed hub: nothing publishes the store's new events; "
                            "feeds are degraded")
            self._set(publishing=publishing)

    def _woken_everything(self) -> None:
        """A message on the all-games channel: the relay's carries a batch of
        events of any games (a game's own come on its channel too, to its
        streams), so it wakes only the streams following every game, which
        read what is new by position."""
        with self.cond:
            self.sequence += 1
            for waiter in self.waiting.get(None, ()):
                waiter.notify()
            self.cond.notify_all()

    def _on_message(self, data: bytes) -> None:
        """Wake the streams of the game a message names; believe nothing else in it.

        Anyone who can publish on the Redis may send anything: a message of the
        wrong shape is dropped, and must not raise in (and so end) this thread.
        """
        named = wake_of(data)
        if named is None:
            return
        game_id, version = named
        if version is not None and version <= self.local.get(game_id, 0):
            return  # this process's own commit, its streams woken by it already
        self._woken(game_id, version)

    def committed(self, game_id: str, version: int) -> None:
        """A commit of this process (``GameServicer``'s writes): the game's
        streams here are woken at once, not a relay's round trip through Redis
        later. Its events are this process's newest (``service.recent`` keeps
        them before the write returns), so the version is named as published
        as a message would; the relay still publishes them for every other
        server; its message, when it comes back, wakes nobody here again
        (``local``: only this process's own commits, which no message can forge)."""
        with self.cond:
            if len(self.local) >= MAX_GAMES and game_id not in self.local:
                self.local.clear()
            if version > self.local.get(game_id, 0):
                self.local[game_id] = version
        self._woken(game_id, version)

    def echo_only(self, game_id: str, version: int) -> bool:
        """Whether a message of the game's events up to ``version`` would
        only come back to this hub and wake no one: the hub's subscription to
        the game's channel is confirmed on its connection, and this process's
        streams of the game were woken at that version already (``committed``:
        its own commit). The relay publishes nothing on a channel whose one
        subscriber is so (``service.relay``); a commit this process made
        without ``committed`` (a clock's move) is still published, and heard."""
        with self.cond:
            return (game_channel(game_id, self.prefix) in self.subscribed
                    and self.local.get(game_id, 0) >= version)

    def nudge(self, game_id: str) -> None:
        """Wake the game's waiting streams to look again at what they wait on
        besides the game (a ``Play`` stream's moves): no wake-up is counted."""
        with self.cond:
            for waiter in self.waiting.get(game_id, ()):
                waiter.notify()

    def _woken(self, game_id: str, version: int | None) -> None:
        """Count a wake-up of ``game_id`` (at ``version``, when known) and wake its streams."""
        with self.cond:
            if len(self.woken) >= MAX_GAMES and game_id not in self.woken:
                self.woken.clear()
                self.published.clear()
            self.sequence += 1
            self.woken[game_id] = self.sequence
            if isinstance(version, int) and version > self.published.get(game_id, 0):
                self.published[game_id] = version
            for key in (game_id, None):
                for waiter in self.waiting.get(key, ()):
                    waiter.notify()
            self.cond.notify_all()

    def ticket(self, game_id: str) -> int:
        """The number of the game's latest wake-up: take it before reading the store."""
        with self.cond:
            return self.woken.get(game_id, 0)

    def newest_published(self, game_id: str) -> int:
        """The newest version of the game a message has named (0: none)."""
        with self.cond:
            return self.published.get(game_id, 0)

    def ticket_all(self) -> int:
        """The number of the latest wake-up of any game."""
        with self.cond:
            return self.sequence

    def wake(self) -> None:
        """Wake every waiting stream, e.g. when a client has gone away."""
        with self.cond:
            self._notify_everyone()

    def _notify_everyone(self) -> None:
        """Wake every waiting stream (the caller holds the lock)."""
        for waiters in self.waiting.values():
            for waiter in waiters:
                waiter.notify()
        self.cond.notify_all()

    def wait_game(
        self, game_id: str, ticket: int, gone: Callable[[], bool],
        timeout: float | None = None,
    ) -> None:
        """Block until a wake-up of the game after ``ticket`` (or the poll interval)."""
        self._wait(game_id, lambda: gone() or self.woken.get(game_id, 0) > ticket, timeout)

    async def wait_game_async(self, game_id: str, ticket: int, gone: Callable[[], bool]) -> None:
        """``wait_game`` for a coroutine on the server's loop (``service.aio``):
        the same wake-ups and poll, awaited rather than blocking a thread."""
        from service.aio import LoopWaiter, waker

        limit = min(HEALTHY_POLL if self.live else DEGRADED_POLL, self.heartbeat / 2)
        deadline = time.monotonic() + limit
        waiter = LoopWaiter(waker())
        with self.lock:
            was = self.status
            self.waiting.setdefault(game_id, set()).add(waiter)  # type: ignore[arg-type]
        try:
            while True:
                with self.lock:
                    if (gone() or self.woken.get(game_id, 0) > ticket
                            or self.stopping.is_set() or self.status != was):
                        return
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                await waiter.wait(remaining if self.live else min(remaining, DEGRADED_POLL))
        finally:
            with self.lock:
                waiters = self.waiting[game_id]
                waiters.discard(waiter)  # type: ignore[arg-type]
                if not waiters:
                    del self.waiting[game_id]

    def wait_all(
        self, ticket: int, gone: Callable[[], bool], timeout: float | None = None
    ) -> None:
        """Block until a wake-up of any game after ``ticket`` (or the poll interval)."""
        self._wait(None, lambda: gone() or self.sequence > ticket, timeout)

    def _wait(
        self, key: str | None, ready: Callable[[], bool], timeout: float | None
    ) -> None:
        # Polled at least twice a heartbeat, so that one is late by half at most.
        limit = timeout if timeout is not None else min(
            HEALTHY_POLL if self.live else DEGRADED_POLL, self.heartbeat / 2)
        deadline = time.monotonic() + limit
        waiter = threading.Condition(self.lock)
        with self.lock:
            was = self.status
            # Registered under the lock the hub takes to count a wake-up, and
            # before ``ready`` is first tested: none after the ticket is missed.
            self.waiting.setdefault(key, set()).add(waiter)
            try:
                while not ready() and not self.stopping.is_set():
                    remaining = deadline - time.monotonic()
                    if remaining <= 0 or self.status != was:
                        return
                    waiter.wait(min(remaining, DEGRADED_POLL if not self.live else remaining))
            finally:
                waiters = self.waiting[key]
                waiters.discard(waiter)
                if not waiters:
                    del self.waiting[key]


class PublishWatch(threading.Thread):
    """Tells the hub whether anything publishes the store's new events to Redis.

    Every ``interval`` seconds it reads the store's newest position (``head``)
    and the position the relay has published (``published``, recorded by
    whichever process holds the relay lease). Behind, and not moving for
    ``stale`` seconds, means nobody publishes: the feeds say ``degraded``
    until the published position moves again. This reads only the store, so
    a message on Redis cannot make it say ``live``.
    """

    def __init__(
        self, hub: FeedHub, head: Callable[[], int], published: Callable[[], int],
        stale: float = STALE_SECONDS, interval: float = 1.0, shard: int = 0,
    ) -> None:
        super().__init__(name="publish-watch", daemon=True)
        self.hub = hub
        self.head = head
        self.published = published
        self.shard = shard
        self.stale = stale
        self.interval = interval
        self.stopping = threading.Event()
        self._last: int | None = None
        self._behind_since: float | None = None
        self._failing = False

    def stop(self) -> None:
        self.stopping.set()

    def run(self) -> None:
        while not self.stopping.wait(self.interval):
            self.check()

    def check(self) -> None:
        """Sample once; an unreadable store changes nothing (store health reports it)."""
        try:
            head, published = self.head(), self.published()
        except Exception as exc:  # noqa: BLE001 - the store's trouble, reported elsewhere
            if not self._failing:
                log.warning("publish watch: cannot read the positions (%s)",
                            str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__)
            self._failing = True
            return
        self._failing = False
        now = time.monotonic()
        if published >= head:
            self._behind_since = None
        elif published != self._last or self._behind_since is None:
            self._behind_since = now  # behind, but moving: a relay at work
        self._last = published
        stuck = self._behind_since is not None and now - self._behind_since >= self.stale
        self.hub.set_publishing(not stuck, self.shard)
