"""The feed relay: the notification log, in order, onto Redis pub/sub.

The relay publishes the stored events' public forms, a message per move (a
JSON array of its events: ``batch_messages``) to the game's channel and a
message per batch to the all-games channel, then records the position it
reached (at most every ``POSITION_SECONDS``, not after every batch). Because it
follows the store (not the code path that saved), an event committed just
before a crash is published after the restart: nothing is lost between commit
and publish. A crash between publish and recording the position republishes
a few events; subscribers drop them by version, so a reader sees each once.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import math
import os
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

import redis

from aggregates.kernel import Game
from service.application import ArbiterApp
from service.envelope import to_public_json
from service.metrics import relay_published
from service.recent import runs_on
from service.rediscluster import ShardedPublisher, Topology

log = logging.getLogger(__name__)

#: The channel prefix of older releases (and of ``ARBITER_REDIS_PREFIX=arbiter:``).
LEGACY_PREFIX = "arbiter:"
BATCH = 200
#: The longest the relay goes without reading the store when it is woken (and
#: the longest it waits unwoken): another server's writes that follow this
#: process's last commit are published within twice it at most.
STORE_POLL = 0.25
#: How often, at most, the relay records its position while it publishes
#: (and within about this long of going idle or stopping). A position recorded
#: late only makes a restarted relay publish those events again, which every
#: subscriber drops by version; it is never ahead of what was published.
POSITION_SECONDS = 0.5


def game_class_of(event_class: type) -> type[Game] | None:
    """The game class ``event_class`` is nested in, if it is a game's event."""
    owner: Any = sys.modules.get(event_class.__module__)
    for name in event_class.__qualname__.split(".")[:-1]:
        owner = getattr(owner, name, None)
    return owner if isinstance(owner, type) and issubclass(owner, Game) else None


def all_games_channel(prefix: str) -> str:
    """The channel every game's public events go to, under a deployment's prefix."""
    return f"{prefix}games"


def game_channel(game_id: str, prefix: str = LEGACY_PREFIX) -> str:
    """One game's channel, under a deployment's prefix."""
    return f"{prefix}game:{game_id}"


def relay_lock_key(database: str, schema: str) -> int:
    """The advisory-lock key of the relay of the store in ``database``.``schema``.

    PostgreSQL scopes advisory locks to the database, not the schema: one
    fixed key let two deployments on two schemas of one database take each
    other's lease, and the loser never published. The key is a hash of the
    store's identity (database, schema and the position table), as a signed
    64-bit integer, so every store has its own lease.
    """
    identity = f"arbiter relay lease\0{database}\0{schema}\0arbiter_relay".encode()
    return int.from_bytes(hashlib.sha256(identity).digest()[:8], "big", signed=True)


class PositionFile:
    """The relay's position beside a SQLite store, with a lock file for leadership.

    Only the process holding the lock publishes; the kernel releases an
    ``flock`` when its holder dies, so a kill -9 hands the relay over at once.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock_handle: Any = None

    def acquire(self) -> bool:
        if self._lock_handle is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path.with_suffix(".lock"), "a+")  # noqa: SIM115 - held while leader
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self._lock_handle = handle
        return True

    def release(self) -> None:
        if self._lock_handle is not None:
            self._lock_handle.close()
            self._lock_handle = None

    def load(self) -> int:
        try:
            return int(self.path.read_text().strip() or 0)
        except (FileNotFoundError, ValueError):
            return 0

    def peek(self) -> int:
        """The position published so far, by whichever process leads (any may read it)."""
        return self.load()

    def save(self, position: int) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(str(position))
        os.replace(tmp, self.path)


class PositionTable:
    """The relay's position in PostgreSQL, with an advisory lock for leadership.

    Several server processes on one store each run a relay; the one holding
    the session-level advisory lock publishes, the others wait to take over
    (the lock goes with its connection when a process dies).
    """

    def __init__(self, database_url: str, schema: str) -> None:
        self.database_url = database_url
        self.schema = schema
        self._conn: Any = None
        self._reader: Any = None

    def _connect(self) -> Any:
        import psycopg

        conn = psycopg.connect(self.database_url, autocommit=True, connect_timeout=5)
        conn.execute(f'SET search_path TO "{self.schema}"')
        conn.execute(
            "CREATE TABLE IF NOT EXISTS arbiter_relay "
            "(id integer PRIMARY KEY, position bigint NOT NULL)"
        )
        return conn

    def acquire(self) -> bool:
        if self._conn is not None:
            return True
        conn = self._connect()
        database = conn.execute("SELECT current_database()").fetchone()[0]
        key = relay_lock_key(database, self.schema)
        row = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
        if not row or not row[0]:
            conn.close()
            return False
        self._conn = conn
        return True

    def release(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def load(self) -> int:
        assert self._conn is not None
        row = self._conn.execute("SELECT position FROM arbiter_relay WHERE id = 1").fetchone()
        return int(row[0]) if row else 0

    def save(self, position: int) -> None:
        assert self._conn is not None
        self._conn.execute(
            "INSERT INTO arbiter_relay (id, position) VALUES (1, %s) "
            "ON CONFLICT (id) DO UPDATE SET position = EXCLUDED.position",
            (position,),
        )

    def peek(self) -> int:
        """The position published so far, by whichever process leads.

        Read on a connection of its own (the leader's may belong to another
        process, or to none); a broken one is dropped and made again next time.
        """
        import psycopg
        from psycopg import sql

        query = sql.SQL("SELECT position FROM {}.arbiter_relay WHERE id = 1").format(
            sql.Identifier(self.schema))
        try:
            if self._reader is None:
                self._reader = psycopg.connect(
                    self.database_url, autocommit=True, connect_timeout=5)
            row = self._reader.execute(query).fetchone()
        except psycopg.errors.UndefinedTable:
            return 0  # no relay has ever led on this store
        except Exception:
            if self._reader is not None:
                self._reader.close()
                self._reader = None
            raise
        return int(row[0]) if row else 0


class Positions(Protocol):
    def acquire(self) -> bool: ...
    def release(self) -> None: ...
    def load(self) -> int: ...
    def save(self, position: int) -> None: ...
    def peek(self) -> int: ...


#: ``PUBSUB NUMPAT`` in the Redis protocol.
NUMPAT = b"*2\r\n$6\r\nPUBSUB\r\n$6\r\nNUMPAT\r\n"


class Echo(Protocol):
    """What the relay asks of its process's feed hub (``service.feeds.FeedHub``)
    to leave out the messages only that hub would hear (``FeedRelay._listened``)."""

    subscriptions: int

    def echo_only(self, game_id: str, version: int) -> bool: ...


def publish_command(channel: bytes, message: bytes) -> bytes:
    """``PUBLISH channel message`` in the Redis protocol (RESP), packed once."""
    return b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (
        len(channel), channel, len(message), message)


def batch_messages(
    events: Iterable[tuple[int, Any, type[Game] | None]], prefix: str,
    all_games_of: Callable[[bytes], bytes],
    wanted: Callable[[bytes], bool] | None = None,
) -> list[tuple[bytes, bytes]]:
    """The (channel, message) pairs that publish ``events`` (position, event,
    its game class; position order): a message is a JSON array of events'
    public forms (``to_public_json``), in order. Each game's channel gets one
    message per run of its events that follow each other (a move's events,
    or a group commit's share of one game), and each all-games channel one
    message for all of the batch's events it carries, in position order.

    A message per event made the relay's publishes, the Redis round trip's
    replies and every subscriber's receipt (the feed hub of each server
    following the game, this one's included) as many as the events: about
    two a move on each channel. Events of no game (the catalogue's) are not
    published. ``wanted``: whether a channel is to be published on at all
    (``FeedRelay._listened``); an event no wanted channel carries is not
    even encoded."""
    runs: list[tuple[bytes, list[str]]] = []
    everything: dict[bytes, list[str]] = {}
    last: Any = None
    own: list[str] | None = None  # the current run's game message (None: not published)
    into: list[str] | None = None  # the batch's all-games message of the run's game
    for position, domain_event, game_cls in events:
        if game_cls is None:
            continue
        gid = domain_event.originator_id
        if gid != last:
            last = gid
            channel = game_channel(str(gid), prefix).encode()
            together = all_games_of(channel)
            own = [] if wanted is None or wanted(channel) else None
            if own is not None:
                runs.append((channel, own))
            into = (everything.setdefault(together, [])
                    if wanted is None or wanted(together) else None)
        if own is None and into is None:
            continue  # no channel of this batch carries it: not even encoded
        form = to_public_json(game_cls, domain_event, position)
        if own is not None:
            own.append(form)
        if into is not None:
            into.append(form)
    return [(channel, f"[{','.join(forms)}]".encode())
            for channel, forms in (*runs, *everything.items())]


class Publisher:
    """Sends a batch of ``PUBLISH`` commands in one write on one connection of
    its own, and reads their replies.

    What ``redis-py``'s pipeline did for the relay, without its per-command
    machinery (argument encoding, command stack, per-reply callbacks): about
    half of the relay's interpreter time per batch went to it (py-spy
    ``--gil``, issue 20). The connection is ``redis-py``'s own (its URL,
    password, TLS and timeouts); any error drops it, and the next batch
    connects again. Pub/sub is at most once: a batch that fails part of the
    way is published again whole, and subscribers drop what they saw by version.
    """

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self._connection: Any = None

    def publish(self, messages: list[tuple[bytes, bytes]]) -> None:
        """Publish each (channel, message), in order, and check every reply."""
        if not messages:
            return
        commands = b"".join([publish_command(channel, message) for channel, message in messages])
        self._round_trip(commands, len(messages))

    def listeners(self, channels: list[bytes]) -> tuple[dict[bytes, int], int]:
        """Each channel's subscribers (``PUBSUB NUMSUB``) and the pattern
        subscriptions of the whole server (``PUBSUB NUMPAT``: a pattern's
        subscriber is counted on no channel), in one round trip."""
        numsub = b"*%d\r\n$6\r\nPUBSUB\r\n$6\r\nNUMSUB\r\n" % (len(channels) + 2) + b"".join(
            b"$%d\r\n%s\r\n" % (len(channel), channel) for channel in channels)
        counts, patterns = self._round_trip(numsub + NUMPAT, 2)
        return ({bytes(channel): int(count)
                 for channel, count in zip(counts[::2], counts[1::2], strict=True)},
                int(patterns))

    def _round_trip(self, commands: bytes, replies: int) -> list[Any]:
        """Send ``commands`` (packed) in one write and read their ``replies``;
        a refusal raises (``redis.ResponseError``)."""
        if self._connection is None:
            self._connection = self.client.connection_pool.get_connection()
        connection = self._connection
        try:
            connection.send_packed_command([commands], check_health=False)
            answers = []
            for _ in range(replies):
                reply = connection.read_response()
                if isinstance(reply, redis.ResponseError):
                    raise reply
                answers.append(reply)
        except BaseException:
            self.close()  # its replies half read: never used again
            raise
        return answers

    def close(self) -> None:
        """Drop the connection (a new one is made for the next batch)."""
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.disconnect()
            with contextlib.suppress(Exception):
                self.client.connection_pool.release(connection)


class FeedRelay(threading.Thread):
    """Follows the application's notification log and publishes every event."""

    def __init__(
        self, app: ArbiterApp, redis_url: str, positions: Positions,
        prefix: str = LEGACY_PREFIX, cluster: bool = False, echo: Echo | None = None,
    ) -> None:
        super().__init__(name="feed-relay", daemon=True)
        #: This process's feed hub, whose own subscriptions the relay need not
        #: publish to (``_listened``); None: every channel, always (and on a
        #: Redis Cluster, whose sharded channels are counted per shard).
        self.echo = None if cluster else echo
        self.app = app
        self.prefix = prefix
        self.publisher: Publisher | ShardedPublisher
        #: The all-games channel a game's event also goes to (given its game's
        #: channel): the deployment's one, or on a Redis Cluster its game's
        #: shard's (``service.rediscluster``).
        self._all_games_of: Callable[[bytes], bytes]
        if cluster:
            sharded = ShardedPublisher(Topology(
                redis_url, prefix, socket_timeout=5, socket_connect_timeout=2))
            self.publisher, self._all_games_of = sharded, sharded.all_games_of
        else:
            self.publisher = Publisher(
                redis.Redis.from_url(redis_url, socket_timeout=5, socket_connect_timeout=2))
            all_channel = all_games_channel(prefix).encode()
            self._all_games_of = lambda _: all_channel
        self.positions = positions
        self.position = 0
        #: The position last recorded (``positions.save``), and when.
        self._recorded = 0
        self._recorded_at = 0.0
        self.leader = False
        self.healthy = False
        self.stopping = threading.Event()
        self._classes: dict[uuid.UUID, type[Game]] = {}
        #: When the store was last read, and whether that read left more to read.
        self._read_at = -math.inf  # never
        self._more = False
        #: Channels' messages left out as nobody else would hear them (``_listened``).
        self.quiet = 0

    def stop(self) -> None:
        self.stopping.set()
        self.app.saved.set()

    def run(self) -> None:
        backoff = 0.1
        while not self.stopping.is_set():
            if not self._lead():
                self.stopping.wait(1.0)
                continue
            try:
                moved = self.publish_pending()
                self.healthy = True
                backoff = 0.1
            except redis.RedisError as exc:
                if self.healthy:
                    log.warning("feed relay: Redis unavailable (%s); will retry", exc)
                self.healthy = False
                self._read_at = -math.inf  # what it took from the commits: from the store
                self.stopping.wait(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            except Exception:
                # The store (or the position table) failed. A relay thread that
                # died here would keep its lease (the lock file or the advisory
                # lock) for as long as the process lives, and nobody would
                # publish again: give the lease up and start over from the
                # recorded position instead.
                log.exception("feed relay: publishing failed; will retry")
                self.healthy = False
                self._resign()
                self.stopping.wait(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            if not moved:
                self._record_position()
                self.app.saved.wait(STORE_POLL)
                self.app.saved.clear()
        if self.leader:
            try:
                self._record_position(force=True)
            except Exception as exc:  # noqa: BLE001 - the next relay replays a little more
                log.warning("feed relay: cannot record the position on stopping (%s)", exc)
        self.app.keep_committed = False
        self.app.committed.clear()
        self.publisher.close()
        self.positions.release()

    def _resign(self) -> None:
        self.leader = False
        self.app.keep_committed = False
        self.app.committed.clear()
        try:
            self.positions.release()
        except Exception as exc:  # a broken connection is gone anyway
            log.warning("feed relay: releasing the relay lease failed (%s)", exc)

    def _lead(self) -> bool:
        """Become (or stay) the one relay that publishes; load its position once."""
        if self.leader:
            return True
        try:
            if self.positions.acquire():
                self.app.keep_committed = True  # before the position: nothing falls between
                self.position = self._recorded = self.positions.load()
                self._read_at, self._more = -math.inf, False  # the store first: a backlog?
                self._recorded_at = time.monotonic()
                self.leader = True
                log.info("feed relay: publishing from position %d", self.position)
        except Exception as exc:  # the store is unreachable: try again later
            log.warning("feed relay: cannot take the relay lease (%s)", exc)
        return self.leader

    def publish_pending(self) -> bool:
        """Publish what was stored after the position; True if the store may
        hold more right away (a full batch read from it).

        This process's own commits come as recorded (``ArbiterApp.committed``):
        when they follow the position without a gap, they are published as
        they are, with no read of the store (about a quarter of the server's
        interpreter time per move went to reading back and decoding what it
        had just written, issue 20). Anything else (another server's writes
        between them, a commit of another thread first, a relay behind) is
        read from the store, as before: the position only ever moves over
        events published in order.

        A wake-up that finds nothing kept reads the store only if it was last
        read ``STORE_POLL`` ago or more, or left more to read: a commit wakes
        the relay after its events were kept, so under load most wake-ups find
        them published already by the run before (a read of the store for
        nothing, per run: a sixth of the relay's time, issue 20). Another
        server's writes are still read at once when they fall between this
        process's commits (a gap), else within twice ``STORE_POLL`` at most. A
        batch that Redis refused leaves the store to be read on the next try
        (``run``): its events were taken from the commits handed over."""
        committed = self._committed_run()
        if committed:
            self._publish(committed)
            return False
        now = time.monotonic()
        if committed is not None and not self._more and now - self._read_at < STORE_POLL:
            return False
        self._read_at = now
        notifications = self.app.notifications(self.position, BATCH)
        self._more = len(notifications) == BATCH
        if not notifications:
            return False
        self._publish([(n.id, self.app.to_event(n)) for n in notifications])
        return self._more

    def _committed_run(self) -> list[tuple[int, Any]] | None:
        """This process's commits since the last call, as (position, event), if
        they run on from the position without a gap; None if they do not (the
        store is read instead, and holds them too)."""
        kept = self.app.committed
        taken: list[Any] = []
        while kept:
            taken.extend(kept.popleft())
        events = sorted(((r.notification.id, r.domain_event) for r in taken
                         if r.notification.id > self.position), key=lambda pair: pair[0])
        return events if runs_on((position for position, _ in events), self.position) else None

    def _publish(self, events: list[tuple[int, Any]]) -> None:
        """Publish ``events`` (position order), then move the position past
        them: one message per game and run of its events (a move's events, all
        together: ``batch_messages``), and one per all-games channel for the
        whole batch, each only where someone may hear it (``_listened``)."""
        classified = [(position, domain_event, self._game_class(domain_event))
                      for position, domain_event in events]
        self.publisher.publish(batch_messages(
            classified, self.prefix, self._all_games_of, self._listened(classified)))
        self.position = events[-1][0]
        self._record_position()
        relay_published(self.position)

    def _listened(self, events: list[tuple[int, Any, type[Game] | None]]
                  ) -> Callable[[bytes], bool] | None:
        """Which of a batch's channels to publish on (None: all of them).

        A message on a channel no one subscribes to is lost anyway, and one
        whose one subscriber is this process's own hub, for a commit of this
        process that has woken its streams already, is read back and dropped
        (``FeedHub.echo_only``): with every game played on one server, each
        move's message went to Redis and came back to its own process for
        nothing. So the channels' subscribers are counted first (one round
        trip, ``Publisher.listeners``), after the commit, and a channel is
        left out only if it has none, or only that hub. Nothing is lost: a
        process that subscribes after the count reads the store once its
        subscription is confirmed (``FeedHub.following``), which finds the
        commit; a change of the hub's subscriptions while counting (``Echo.
        subscriptions`` moved), a pattern subscriber anywhere, or a Redis
        user refused ``PUBSUB``: every channel."""
        if self.echo is None or not isinstance(self.publisher, Publisher):
            return None
        newest: dict[str, int] = {}
        for _, domain_event, game_cls in events:
            if game_cls is not None:
                game_id = str(domain_event.originator_id)
                newest[game_id] = max(newest.get(game_id, 0), domain_event.originator_version)
        if not newest:
            return None
        games = {game_channel(game_id, self.prefix).encode(): game_id for game_id in newest}
        together = all_games_channel(self.prefix).encode()
        before = self.echo.subscriptions
        try:
            counts, patterns = self.publisher.listeners([*games, together])
        except redis.ResponseError as exc:
            log.warning("feed relay: Redis refused PUBSUB (%s); publishing on every channel",
                        exc)
            self.echo = None
            return None
        if patterns:
            return None
        quiet = {channel for channel, game_id in games.items()
                 if counts.get(channel, 0) == 0 or counts[channel] == 1
                 and self.echo.echo_only(game_id, newest[game_id])}
        if not counts.get(together, 0):
            quiet.add(together)
        if self.echo.subscriptions != before:
            return None
        self.quiet += len(quiet)
        return lambda channel: channel not in quiet

    def _record_position(self, force: bool = False) -> None:
        """Record the position published so far, at most every
        ``POSITION_SECONDS`` (issue 13): not a file rewrite, or a round trip
        to PostgreSQL, per batch. Only ever a position already published."""
        if self.position == self._recorded:
            return
        now = time.monotonic()
        if force or now - self._recorded_at >= POSITION_SECONDS:
            self.positions.save(self.position)
            self._recorded, self._recorded_at = self.position, now

    def _game_class(self, domain_event: Any) -> type[Game] | None:
        """The game class of an event; None for the catalogue's own log events.

        Each game class defines its own event classes, nested in it
        (``Enin.Moved``), so the class is read off the event's type; only an
        event of no game class (a record upcast from another shape) costs a
        load of its game, once per game."""
        if not hasattr(domain_event, "meta"):
            return None
        gid = domain_event.originator_id
        cls = self._classes.get(gid)
        if cls is None:
            if len(self._classes) > 10_000:
                self._classes.clear()
            cls = game_class_of(type(domain_event)) or type(self.app.game(str(gid)))
            self._classes[gid] = cls
        return cls
