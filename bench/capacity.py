"""`python -m bench.capacity`: a capacity model of Arbiter, measured here, checked, extrapolated.

Issue 22, item 3. One run does three things, in this order:

1. **Calibrate** (one ``arbiter-server`` process, one fresh PostgreSQL
   database: one shard; a private Redis, so its counters are the run's alone):
   the server's CPU when idle, per ``CreateGame`` and per move (a move is what
   a real client sends: ``LegalActions`` then ``Act``) of each game type at a
   paced rate (not flat out: a deployment sized at 70% runs below saturation,
   where group commit and the relay's batches amortise less); events per move
   and per creation; PostgreSQL bytes per event (all the store's relations,
   indexes and TOAST included, over the events written); Redis publishes per
   event, counted by Redis itself and by a pattern subscriber; Redis CPU per
   message; the CPU of a spectator's feed stream, open and per event it
   carries; and the saturated events/s of the shard with one server process.
2. **Check**: drive the real server at reduced scale, many games of a mix of
   types, each moving at a paced random (exponential) interval, one feed
   stream per spectator, and compare the measured server CPU, events/s,
   PostgreSQL bytes/s and Redis publishes and deliveries with what the model
   predicts for that same reduced mix. Any error above ``--bound`` (25%) fails
   the run (exit 1): a model that cannot predict 200 games is not used for
   a million.
3. **Extrapolate** the checked model to ``--games`` (a million) concurrent games
   of the stated mix: server cores and processes M, shards N, Redis primaries K
   at ``--utilisation`` (70%).

Why the model is linear in moves, creations, streams and events: each of those
is one unit of work through one code path (an ``Act``, a relay publish, a hub
wake-up and a stream's store read); the check is what says that the sum holds
at a load the calibration did not use. See docs/scaling.md for the method, the
figures of a run and what the model leaves out.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import dataclasses
import datetime
import json
import math
import os
import platform
import random
import shutil
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import grpc
import redis
from arbiter.v1 import game_pb2

from bench.load import LOCAL_SUBCHANNELS, SEATS, Player, Table, bearer
from bench.procs import ArbiterServer, cpu_seconds
from bench.run import DEFAULT_POSTGRES, postgres_database

RULES = ("enin", "ethnos", "ettin")
#: Seconds a driven window with feeds waits after its last move before closing
#: the streams. Rates are over the paced seconds, not this tail.
LINGER = 0.6

# --------------------------------------------------------------------------
# The model: pure arithmetic over measured figures (tested on its own).
# --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class RulesFigures:
    """What one game type costs, measured: the unit costs the model sums."""

    cpu_per_move: float  # server CPU seconds per move (LegalActions + Act)
    events_per_move: float
    cpu_per_create: float  # server CPU seconds per CreateGame
    events_per_create: float
    moves_per_game: float  # a whole game, random legal play
    saturated_events_per_second: float  # one shard, one server process, flat out


@dataclasses.dataclass(frozen=True)
class Calibration:
    """Every figure the model needs, from one calibration run."""

    rules: Mapping[str, RulesFigures]
    base_cpu: float  # cores an idle server process uses (relay, hub, health): shown only
    #: Cores a server process uses while it serves moves, beyond each move's own
    #: cost (the intercept of CPU against the move rate: the relay's, the group
    #: commit's and the hub's wake-ups, which amortise as the rate grows).
    active_overhead: float
    cpu_per_stream_second: float  # cores per open, quiet feed stream
    cpu_per_stream_event: float  # server CPU seconds per event per stream carrying it
    bytes_per_event: float  # PostgreSQL bytes per game event, all relations
    #: Messages on a game's own channel per commit (a move, or a creation): the
    #: relay publishes a move's events as one message there.
    game_messages_per_commit: float
    #: Messages on the all-games channel per commit: one per relay batch, all
    #: its events in it, so fewer than one a commit once batches hold several
    #: (measured at the calibration's paced rates: an upper bound faster).
    batch_messages_per_commit: float
    redis_cpu_per_message: float  # Redis CPU seconds per publish or delivery
    process_cores: float  # cores one server process reaches flat out (its ceiling)
    pg_cpu_per_event: float  # PostgreSQL backends' CPU seconds per event (this shard's)


@dataclasses.dataclass(frozen=True)
class Mix:
    """A game mix: how fast games move, how many watch, which games."""

    moves_per_game_minute: float
    spectators_per_game: float  # each with one Subscribe stream
    shares: Mapping[str, float]  # game type -> share of games (sums to 1)

    def scaled(self, factor: float) -> Mix:
        """The same mix played ``factor`` times faster (the check's compression)."""
        return dataclasses.replace(self, moves_per_game_minute=self.moves_per_game_minute * factor)


@dataclasses.dataclass(frozen=True)
class Load:
    """What ``games`` concurrent games of a mix ask of the system, per second."""

    games: float
    processes: int
    moves: float
    creates: float
    events: float
    bytes: float
    streams: float
    stream_events: float
    server_cores: float
    publishes: float
    deliveries: float
    redis_cores: float
    pg_cores: float


def followers_per_game(spectators: float, processes: int) -> float:
    """Server processes that follow a game's channel (each one hub, one Redis
    subscription), its ``spectators`` streams spread at random over ``processes``.

    The hub subscribes once per process however many streams follow the game
    there, so a game's channel delivers to at most ``processes`` subscribers.
    """
    if spectators <= 0 or processes <= 0:
        return 0.0
    return processes * (1.0 - (1.0 - 1.0 / processes) ** spectators)


def predict(cal: Calibration, mix: Mix, games: float, processes: int = 1) -> Load:
    """The load of ``games`` concurrent games of ``mix`` on ``processes`` server
    processes. Games that end are replaced (the number of games stays), so each
    type creates games at its move rate over its length."""
    moves = creates = events = cpu = 0.0
    for rules, share in mix.shares.items():
        fig = cal.rules[rules]
        type_moves = games * share * mix.moves_per_game_minute / 60.0
        type_creates = type_moves / fig.moves_per_game
        moves += type_moves
        creates += type_creates
        events += type_moves * fig.events_per_move + type_creates * fig.events_per_create
        cpu += type_moves * fig.cpu_per_move + type_creates * fig.cpu_per_create
    streams = games * mix.spectators_per_game
    stream_events = events * mix.spectators_per_game
    cpu += (processes * cal.active_overhead + streams * cal.cpu_per_stream_second
            + stream_events * cal.cpu_per_stream_event)
    commits = moves + creates
    game_messages = commits * cal.game_messages_per_commit
    publishes = game_messages + commits * cal.batch_messages_per_commit
    # Only a game's channel has subscribers (the hubs that follow it); the
    # all-games channel has none unless an all-games stream is open (not in
    # the mix).
    deliveries = game_messages * followers_per_game(mix.spectators_per_game, processes)
    return Load(
        games=games, processes=processes, moves=moves, creates=creates, events=events,
        bytes=events * cal.bytes_per_event, streams=streams, stream_events=stream_events,
        server_cores=cpu, publishes=publishes, deliveries=deliveries,
        redis_cores=(publishes + deliveries) * cal.redis_cpu_per_message,
        pg_cores=events * cal.pg_cpu_per_event,
    )


def shard_events_per_second(cal: Calibration, mix: Mix) -> float:
    """A shard's saturated events/s for the mix: each type's measured ceiling,
    weighted by its share of the events (a harmonic mean: time adds, not rate)."""
    per_type = {r: predict(cal, dataclasses.replace(mix, shares={r: 1.0}), s).events
                for r, s in mix.shares.items() if s > 0}
    total = sum(per_type.values())
    if total <= 0:
        return math.inf
    return 1.0 / sum(e / total / cal.rules[r].saturated_events_per_second
                     for r, e in per_type.items())


@dataclasses.dataclass(frozen=True)
class Sizing:
    """How many of each a number of concurrent games needs, and the load it is sized for."""

    shards: int
    processes: int
    redis_primaries: int
    load: Load
    shard_events_per_second: float


def size(cal: Calibration, mix: Mix, games: float, utilisation: float = 0.7) -> Sizing:
    """N shards, M server processes, K Redis primaries for ``games`` of ``mix``,
    each run at ``utilisation`` of its measured ceiling at most.

    M: server cores over what one process reaches flat out (a Python process
    is one interpreter: its ceiling is measured, not the machine's cores);
    every shard needs one process at least (its relay). N: events/s over a
    shard's ceiling. K: Redis CPU over one core (a Redis primary runs commands
    on one thread). M changes the deliveries (more processes follow a game),
    so it is found by iterating to a fixed point.
    """
    ceiling = shard_events_per_second(cal, mix)
    load = predict(cal, mix, games, 1)
    shards = max(1, math.ceil(load.events / (utilisation * ceiling)))
    processes = 1
    for _ in range(50):
        load = predict(cal, mix, games, processes)
        needed = max(shards, math.ceil(load.server_cores / (utilisation * cal.process_cores)))
        if needed == processes:
            break
        processes = needed
    return Sizing(shards=shards, processes=processes,
                  redis_primaries=max(1, math.ceil(load.redis_cores / utilisation)),
                  load=load, shard_events_per_second=ceiling)


def relative_error(predicted: float, measured: float) -> float:
    """|predicted - measured| / measured (0 when both are 0)."""
    if measured == 0:
        return 0.0 if predicted == 0 else math.inf
    return abs(predicted - measured) / measured


# --------------------------------------------------------------------------
# Measuring: the real server, a fresh PostgreSQL database, a private Redis.
# --------------------------------------------------------------------------

#: How much a run does. ``--quick`` only checks that every phase runs.
FULL: dict[str, float] = {
    "idle": 3.0, "creates": 30, "calibrate_seconds": 7.0, "rate_low": 30.0, "rate_high": 110.0,
    "warm": 2.0, "calibrate_rate": 60.0,
    "calibrate_games": 100, "stream_games": 60, "streams_per_game": 2, "saturate": 4.0,
    "check_games": 180, "check_seconds": 40.0, "playouts": 30,
}
QUICK: dict[str, float] = {
    "idle": 1.0, "creates": 6, "calibrate_seconds": 1.5, "rate_low": 15.0, "rate_high": 40.0,
    "warm": 0.5, "calibrate_rate": 30.0,
    "calibrate_games": 24, "stream_games": 12, "streams_per_game": 2, "saturate": 1.0,
    "check_games": 40, "check_seconds": 5.0, "playouts": 4,
}


def pg_bytes(database_url: str) -> int:
    """Bytes of every relation of the store's database (tables, indexes, TOAST)."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'm') "
            "AND n.nspname NOT IN ('pg_catalog', 'information_schema') "
            "AND n.nspname NOT LIKE 'pg_toast%'").fetchone()
    return int(row[0]) if row else 0


class PgCpu:
    """CPU of the PostgreSQL backends serving the store's database.

    The backends are found in ``pg_stat_activity`` (the server's pool keeps
    its connections, so the set is stable over a window); the cluster's shared
    processes (WAL writer, checkpointer) are not counted: they serve every
    database on the cluster. None when /proc does not show them (another host).
    """

    def __init__(self, database_url: str) -> None:
        self.url = database_url
        self.name = database_url.rpartition("/")[2]

    def pids(self) -> list[int]:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s "
                                "AND pid <> pg_backend_pid()", (self.name,)).fetchall()
        return [int(r[0]) for r in rows]

    def seconds(self) -> dict[int, float]:
        found: dict[int, float] = {}
        for pid in self.pids():
            try:
                found[pid] = cpu_seconds(pid)
            except (FileNotFoundError, ProcessLookupError, PermissionError):
                continue
        return found


def pg_cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU the backends used between two readings (a backend new since counts whole)."""
    return sum(v - before.get(pid, 0.0) for pid, v in after.items())


class RedisCounter:
    """Counts the server's Redis traffic for real on the run's private Redis.

    Publishes: ``INFO commandstats`` (``cmdstat_publish``), and per channel by
    a pattern subscriber on the server's prefix (every publish reaches it
    once). Deliveries to subscribers: each channel's publishes times its
    subscribers (``PUBSUB NUMSUB``, pattern subscribers apart), sampled every
    tenth of a second, since games (and their followers) come and go; a
    driven window lingers after its last move before closing its streams, so
    the last publishes are charged while their followers still listen. Redis
    CPU: ``INFO cpu``.
    """

    def __init__(self, url: str, prefix: str) -> None:
        self.client = redis.Redis.from_url(url)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self.pubsub.psubscribe(f"{prefix}*")
        self.lock = threading.Lock()
        self.pending: collections.Counter[bytes] = collections.Counter()
        self.publishes_seen = 0
        #: Of those, on a game's own channel (the rest: the all-games channel).
        self.game_publishes = 0
        self.game_prefix = f"{prefix}game:".encode()
        self.deliveries = 0
        self.stopping = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.sampler = threading.Thread(target=self._sample, daemon=True)
        self.reader.start()
        self.sampler.start()

    def _read(self) -> None:
        while not self.stopping.is_set():
            try:
                message = self.pubsub.get_message(timeout=0.2)
            except (redis.RedisError, OSError, ValueError):
                return
            if message and message.get("type") == "pmessage":
                channel = message["channel"]
                with self.lock:
                    self.pending[channel] += 1
                    self.publishes_seen += 1
                    self.game_publishes += channel.startswith(self.game_prefix)

    def _sample(self) -> None:
        while not self.stopping.wait(0.1):
            self.flush()

    def flush(self) -> None:
        """Charge the publishes seen since the last flush with their channels' subscribers."""
        with self.lock:
            taken, self.pending = self.pending, collections.Counter()
        if not taken:
            return
        channels = list(taken)
        for start in range(0, len(channels), 500):
            part = channels[start:start + 500]
            for channel, subscribers in self.client.pubsub_numsub(*part):
                name = channel if isinstance(channel, bytes) else channel.encode()
                self.deliveries += taken[name] * int(subscribers)

    def snapshot(self) -> dict[str, float]:
        """Publishes (Redis's count), deliveries (so far), Redis CPU seconds."""
        time.sleep(0.3)  # the last publishes reach the pattern subscriber
        self.flush()
        stats = self.client.info("commandstats")
        cpu = self.client.info("cpu")
        return {
            "publishes": float(stats.get("cmdstat_publish", {}).get("calls", 0)),
            "publishes_seen": float(self.publishes_seen),
            "game_publishes": float(self.game_publishes),
            "deliveries": float(self.deliveries),
            "redis_cpu": float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]),
        }

    def close(self) -> None:
        self.stopping.set()
        self.reader.join(2)
        self.sampler.join(2)
        self.pubsub.close()
        self.client.close()


@dataclasses.dataclass
class Tally:
    """What a driven window did, counted by the client."""

    moves: int = 0
    creates: int = 0
    events: int = 0  # game events: versions reached, creations included
    stream_messages: int = 0
    errors: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)


class CountingPlayer(Player):
    """``bench.load.Player`` that also keeps each new game's version and
    spectator token, so the run counts events and can open spectators' feeds."""

    def __init__(self, *args: Any, tally: Tally, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tally = tally
        self.versions: dict[str, int] = {}
        self.spectator_tokens: dict[str, str] = {}

    async def new_table(self) -> Table:
        created = None
        for attempt in range(50):
            try:
                created = await self.stub.CreateGame(
                    game_pb2.CreateGameRequest(rules=self.rules, seats=SEATS[self.rules]),
                    metadata=self.admin)
                break
            except grpc.aio.AioRpcError as exc:
                if exc.code() != grpc.StatusCode.UNAVAILABLE or attempt == 49:
                    raise
                await asyncio.sleep(0.01 * self.rng.random())
        assert created is not None
        self.created += 1
        self.tally.creates += 1
        self.tally.events += created.version
        self.versions[created.game_id] = created.version
        self.spectator_tokens[created.game_id] = created.spectator_token
        return Table(created.game_id, {t.seat: t.token for t in created.seat_tokens},
                     created.state)

    async def move(self, table: Table) -> Table:
        """One move as a client makes it: LegalActions, then Act (a new game
        first when this one is over)."""
        table, request, metadata = await self.next_move(table)
        try:
            reply = await self.act(request, metadata)
        except grpc.aio.AioRpcError as exc:
            self.tally.errors[exc.code().name] += 1
            table.done = True
            return table
        self.tally.moves += 1
        self.tally.events += reply.version - self.versions.get(table.game_id, reply.version)
        self.versions[table.game_id] = reply.version
        table.state = reply.state
        return table


@contextmanager
def measured(pid: int, pg: PgCpu, counter: RedisCounter, database_url: str,
             into: dict[str, float]) -> Iterator[None]:
    """Server CPU, PostgreSQL backends' CPU, store bytes, Redis counts and wall
    time over the ``with`` block, as differences, into ``into``."""
    cpu, pg0, bytes0, redis0 = cpu_seconds(pid), pg.seconds(), pg_bytes(database_url), \
        counter.snapshot()
    start = time.perf_counter()
    yield
    into["seconds"] = time.perf_counter() - start
    redis1 = counter.snapshot()
    into["cpu"] = cpu_seconds(pid) - cpu
    into["pg_cpu"] = pg_cpu_between(pg0, pg.seconds())
    into["bytes"] = float(pg_bytes(database_url) - bytes0)
    for key in redis1:
        into[key] = redis1[key] - redis0[key]


async def open_feed(channel: grpc.aio.Channel, game_id: str, token: str, after: int,
                    tally: Tally) -> asyncio.Task[None]:
    """A spectator's Subscribe stream on ``game_id``, counted as it reads."""
    from arbiter.v1 import game_pb2_grpc

    stub = game_pb2_grpc.GameServiceStub(channel)

    async def read() -> None:
        call = stub.Subscribe(game_pb2.SubscribeRequest(
            game_id=game_id, spectator=True, after=after), metadata=bearer(token))
        try:
            async for message in call:
                if message.HasField("event"):
                    tally.stream_messages += 1
        except grpc.aio.AioRpcError as exc:
            if exc.code() != grpc.StatusCode.CANCELLED:
                tally.errors[f"Subscribe {exc.code().name}"] += 1
        finally:
            call.cancel()

    return asyncio.create_task(read())


async def paced(players: dict[str, CountingPlayer], games: list[tuple[str, Table]],
                per_game_rate: float, seconds: float, seed: int,
                feeds: int = 0, feed_channel: grpc.aio.Channel | None = None) -> None:
    """Each game moves at random (exponential) intervals of mean
    ``1/per_game_rate`` s for ``seconds``: the open loop of many players, each
    at their own pace, not a closed loop that speeds up as the server does.
    With ``feeds``, each game has that many spectators' streams (a finished
    game's streams close and its successor's open)."""
    rng = random.Random(seed)
    start = time.monotonic()
    end = start + seconds

    async def one(rules: str, table: Table, delay: float) -> None:
        player = players[rules]
        streams: list[asyncio.Task[None]] = []

        async def follow(t: Table) -> None:
            for task in streams:
                task.cancel()
            streams.clear()
            if feed_channel is not None:
                for _ in range(feeds):
                    streams.append(await open_feed(
                        feed_channel, t.game_id, player.spectator_tokens[t.game_id],
                        player.versions.get(t.game_id, 0), player.tally))

        await follow(table)
        due = start + delay
        try:
            while due < end:
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                before = table.game_id
                table = await player.move(table)
                if table.game_id != before and feeds:
                    await follow(table)
                due += rng.expovariate(per_game_rate)
            if streams:  # the last events reach the streams (and are counted) first
                await asyncio.sleep(max(0.0, end + LINGER - time.monotonic()))
        finally:
            for task in streams:
                task.cancel()

    await asyncio.gather(*(one(r, t, rng.expovariate(per_game_rate)) for r, t in games))


async def saturate(player: CountingPlayer, in_flight: int, seconds: float) -> None:
    """``in_flight`` clients moving flat out (each its own game)."""
    tables = await player.tables(in_flight, in_flight=8)
    end = time.monotonic() + seconds

    async def one(table: Table) -> None:
        while time.monotonic() < end:
            table = await player.move(table)

    await asyncio.gather(*(one(t) for t in tables))


def playout_lengths(count: int, seed: int) -> dict[str, float]:
    """Moves in a whole game of each type, random legal play, in process (no
    server: a game of Ethnos is some 500 moves, too long to finish over gRPC
    in a short run)."""
    import secrets

    from bench.store import SNAPSHOT_INTERVAL, sqlite_env
    from service.application import ArbiterApp
    from service.auth import Credentials

    work = Path(tempfile.mkdtemp(prefix="arbiter-capacity-playouts-"))
    try:
        app = ArbiterApp(sqlite_env(work), SNAPSHOT_INTERVAL,
                         credentials=Credentials(bytes.fromhex(secrets.token_hex(32)), ""))
        rng = random.Random(seed)
        lengths: dict[str, float] = {}
        for rules in RULES:
            moves = []
            for _ in range(count):
                game = app.create_game(rules, SEATS[rules])
                n = 0
                while not game.ended and n < 20_000:
                    seat = game.waiting_on()[0]
                    game.act(seat, rng.choice(game.legal_actions(seat)), uuid.uuid4().hex)
                    n += 1
                moves.append(n)
            lengths[rules] = sum(moves) / len(moves)
        app.close()
        return lengths
    finally:
        shutil.rmtree(work, ignore_errors=True)


def log(text: str) -> None:
    print(f"capacity: {text}", file=sys.stderr, flush=True)


async def calibrate(server: ArbiterServer, database_url: str, counter: RedisCounter,
                    size: dict[str, float], seed: int, lengths: dict[str, float]
                    ) -> tuple[Calibration, dict[str, Any]]:
    """Measure every unit cost of the model on the running server (see the module's doc)."""
    pg = PgCpu(database_url)
    raw: dict[str, Any] = {}
    async with grpc.aio.insecure_channel(server.address, options=[LOCAL_SUBCHANNELS]) as channel:
        idle: dict[str, float] = {}
        with measured(server.pid, pg, counter, database_url, idle):
            await asyncio.sleep(size["idle"])
        raw["idle"] = idle
        base_cpu = idle["cpu"] / idle["seconds"]
        log(f"idle server: {base_cpu * 100:.1f}% of a core")

        per_rules: dict[str, dict[str, Any]] = {}
        totals: collections.defaultdict[str, float] = collections.defaultdict(float)
        for n, rules in enumerate(RULES):
            tally = Tally()
            player = CountingPlayer(channel, server.admin_token, rules, seed + n, tally=tally)
            creating: dict[str, float] = {}
            with measured(server.pid, pg, counter, database_url, creating):
                tables = await player.tables(int(size["creates"]), in_flight=4)
            cpu_per_create = (creating["cpu"] - base_cpu * creating["seconds"]) / tally.creates
            events_per_create = tally.events / tally.creates
            tables += await player.tables(int(size["calibrate_games"]) - len(tables), 8)
            pairs = [(rules, t) for t in tables]
            # Unmeasured: the type's first moves load its rules, data and code paths.
            await paced({rules: player}, pairs, size["rate_high"] / len(tables),
                        size["warm"], seed + 5 + n)
            points: list[dict[str, float]] = []
            for k, total_rate in enumerate((size["rate_low"], size["rate_high"])):
                tally = player.tally = Tally()
                moving: dict[str, float] = {}
                with measured(server.pid, pg, counter, database_url, moving):
                    await paced({rules: player}, pairs, total_rate / len(tables),
                                size["calibrate_seconds"], seed + 10 + 2 * n + k)
                # The window's creations (games that ended) are charged at their own cost.
                work = moving["cpu"] - tally.creates * cpu_per_create
                points.append({
                    "moves_per_second": tally.moves / moving["seconds"],
                    "cores": work / moving["seconds"], "moves": tally.moves,
                    "creates": tally.creates, "events": tally.events,
                    "events_of_moves": tally.events - tally.creates * events_per_create,
                    "errors": sum(tally.errors.values()), **moving})
                for key in ("bytes", "publishes", "publishes_seen", "game_publishes",
                            "redis_cpu", "deliveries", "pg_cpu"):
                    totals[key] += moving[key]
                totals["events"] += tally.events
                totals["commits"] += tally.moves + tally.creates
            low, high = points
            slope = ((high["cores"] - low["cores"])
                     / (high["moves_per_second"] - low["moves_per_second"]))
            if slope <= 0:  # noise beat the signal: one point, through the idle process
                slope = (high["cores"] - base_cpu) / high["moves_per_second"]
            overhead = max(base_cpu, low["cores"] - slope * low["moves_per_second"])
            per_rules[rules] = {
                "cpu_per_create": cpu_per_create, "events_per_create": events_per_create,
                "cpu_per_move": slope, "active_overhead": overhead,
                "events_per_move": (sum(p["events_of_moves"] for p in points)
                                    / sum(p["moves"] for p in points)),
                "points": points,
            }
            log(f"{rules}: {slope * 1000:.2f} ms CPU/move beyond {overhead * 100:.1f}% of a "
                f"core (cores {low['cores']:.3f} at {low['moves_per_second']:.0f} moves/s, "
                f"{high['cores']:.3f} at {high['moves_per_second']:.0f}); "
                f"{per_rules[rules]['events_per_move']:.2f} events/move, "
                f"{cpu_per_create * 1000:.2f} ms CPU/create")
        active_overhead = sum(r["active_overhead"] for r in per_rules.values()) / len(per_rules)

        # Spectators: the same paced Enin moves, each game followed by streams.
        tally = Tally()
        player = CountingPlayer(channel, server.admin_token, "enin", seed + 20, tally=tally)
        games = int(size["stream_games"])
        per_game = int(size["streams_per_game"])
        tables = await player.tables(games, in_flight=8)
        quiet: dict[str, float] = {}
        async with grpc.aio.insecure_channel(server.address,
                                             options=[LOCAL_SUBCHANNELS]) as feed_channel:
            feeds = [await open_feed(feed_channel, t.game_id, player.spectator_tokens[t.game_id],
                                     player.versions[t.game_id], tally)
                     for t in tables for _ in range(per_game)]
            await asyncio.sleep(1.0)  # past the streams' catch-up
            with measured(server.pid, pg, counter, database_url, quiet):
                await asyncio.sleep(size["idle"])
            for task in feeds:
                task.cancel()
            await asyncio.gather(*feeds, return_exceptions=True)
            streams = games * per_game
            cpu_per_stream_second = max(
                0.0, (quiet["cpu"] / quiet["seconds"] - base_cpu) / streams)
            tally = player.tally = Tally()
            watched: dict[str, float] = {}
            with measured(server.pid, pg, counter, database_url, watched):
                await paced({"enin": player}, [("enin", t) for t in tables],
                            size["calibrate_rate"] / games, size["calibrate_seconds"],
                            seed + 30, feeds=per_game, feed_channel=feed_channel)
        enin = per_rules["enin"]
        expected = (watched["seconds"] * (enin["active_overhead"]
                                          + streams * cpu_per_stream_second)
                    + tally.moves * enin["cpu_per_move"] + tally.creates * enin["cpu_per_create"])
        stream_events = tally.events * per_game
        cpu_per_stream_event = max(0.0, (watched["cpu"] - expected) / stream_events)
        raw["streams"] = {
            "streams": streams, "quiet": quiet, "watched": watched, "moves": tally.moves,
            "events": tally.events, "stream_messages": tally.stream_messages,
            "messages_per_stream_event": tally.stream_messages / stream_events,
            "errors": dict(tally.errors),
        }
        redis_messages = watched["publishes_seen"] + watched["publishes"] + watched["deliveries"]
        totals["redis_cpu"] += watched["redis_cpu"]
        totals["redis_messages"] += redis_messages
        log(f"feeds: {cpu_per_stream_event * 1000:.3f} ms CPU per event per stream, "
            f"{cpu_per_stream_second * 1e6:.0f} us/s per quiet stream; "
            f"{tally.stream_messages} of {stream_events} stream events read")

        # Saturation: flat out, one server process, each type.
        saturated: dict[str, dict[str, Any]] = {}
        for n, rules in enumerate(RULES):
            tally = Tally()
            player = CountingPlayer(channel, server.admin_token, rules, seed + 40 + n,
                                    tally=tally)
            window: dict[str, float] = {}
            await saturate(player, 32, 0.5)  # warm: games, connections
            tally = player.tally = Tally()
            with measured(server.pid, pg, counter, database_url, window):
                await saturate(player, 32, size["saturate"])
            saturated[rules] = {
                "events_per_second": tally.events / window["seconds"],
                "moves_per_second": tally.moves / window["seconds"],
                "server_cores": window["cpu"] / window["seconds"],
                "pg_cores": window["pg_cpu"] / window["seconds"],
                "events": tally.events, "errors": dict(tally.errors),
            }
            totals["sat_pg_cpu"] += window["pg_cpu"]
            totals["sat_events"] += tally.events
            log(f"{rules} flat out: {saturated[rules]['events_per_second']:.0f} events/s, "
                f"{saturated[rules]['moves_per_second']:.0f} moves/s, server "
                f"{saturated[rules]['server_cores']:.2f} cores, PostgreSQL backends "
                f"{saturated[rules]['pg_cores']:.2f} cores")
    raw["rules"] = per_rules
    raw["saturated"] = saturated
    raw["totals"] = dict(totals)
    redis_messages = (totals["publishes"] + totals["publishes_seen"] + totals["deliveries"]
                      + totals["redis_messages"])
    cal = Calibration(
        rules={r: RulesFigures(
            cpu_per_move=per_rules[r]["cpu_per_move"],
            events_per_move=per_rules[r]["events_per_move"],
            cpu_per_create=per_rules[r]["cpu_per_create"],
            events_per_create=per_rules[r]["events_per_create"],
            moves_per_game=lengths[r],
            saturated_events_per_second=saturated[r]["events_per_second"]) for r in RULES},
        base_cpu=base_cpu,
        active_overhead=active_overhead,
        cpu_per_stream_second=cpu_per_stream_second,
        cpu_per_stream_event=cpu_per_stream_event,
        bytes_per_event=totals["bytes"] / totals["events"],
        game_messages_per_commit=totals["game_publishes"] / totals["commits"],
        batch_messages_per_commit=(totals["publishes_seen"] - totals["game_publishes"])
        / totals["commits"],
        # Redis's CPU over every message it handled: the relay's publishes, the
        # deliveries to the hub and the pattern subscriber's copies (the count's own).
        redis_cpu_per_message=(totals["redis_cpu"] / redis_messages if redis_messages
                               else 0.0),
        process_cores=max(s["server_cores"] for s in saturated.values()),
        pg_cpu_per_event=(totals["pg_cpu"] + totals["sat_pg_cpu"])
        / (totals["events"] + totals["sat_events"]),
    )
    return cal, raw


async def check(server: ArbiterServer, database_url: str, counter: RedisCounter,
                cal: Calibration, mix: Mix, games: int, seconds: float, seed: int
                ) -> tuple[Load, dict[str, float], Tally]:
    """The reduced-scale run: ``games`` of ``mix`` at its (compressed) pace with
    its spectators, measured, beside the model's prediction."""
    pg = PgCpu(database_url)
    tally = Tally()
    async with grpc.aio.insecure_channel(server.address, options=[LOCAL_SUBCHANNELS]) as channel, \
            grpc.aio.insecure_channel(server.address, options=[LOCAL_SUBCHANNELS]) as feeds:
        players = {r: CountingPlayer(channel, server.admin_token, r, seed + n, tally=tally)
                   for n, r in enumerate(mix.shares)}
        counts = {r: round(games * s) for r, s in mix.shares.items()}
        tables: list[tuple[str, Table]] = []
        for rules, count in counts.items():
            tables += [(rules, t) for t in await players[rules].tables(count, in_flight=8)]
        random.Random(seed).shuffle(tables)
        spectators = round(mix.spectators_per_game)
        window: dict[str, float] = {}
        tally = Tally()
        for player in players.values():
            player.tally = tally
        with measured(server.pid, pg, counter, database_url, window):
            await paced(players, tables, mix.moves_per_game_minute / 60.0, seconds, seed + 1,
                        feeds=spectators, feed_channel=feeds)
    # Predicted for the window as it ran (its length), the mix as planned.
    load = predict(cal, mix, len(tables), 1)
    # Over the paced seconds: the tail (LINGER) only finishes the window's work.
    per_second = {k: v / seconds for k, v in window.items() if k != "seconds"}
    measured_rates = {
        "moves": tally.moves / seconds,
        "events": tally.events / seconds,
        "bytes": per_second["bytes"],
        "server_cores": per_second["cpu"],
        "publishes": per_second["publishes"],
        "deliveries": per_second["deliveries"],
        "pg_cores": per_second["pg_cpu"],
        "redis_cores": per_second["redis_cpu"],
        "seconds": seconds,
        "window_seconds": window["seconds"],
    }
    return load, measured_rates, tally


#: The figures the check holds the model to (the others are printed, not judged:
#: Redis's and PostgreSQL's CPU over a 40 s window are a few hundred ms, noisy).
CHECKED = ("server_cores", "events", "publishes", "deliveries", "bytes")


def parse_shares(text: str) -> dict[str, float]:
    """``enin=0.5,ethnos=0.25,ettin=0.25`` -> shares (normalised to sum to 1)."""
    shares = {k.strip(): float(v) for k, v in (p.split("=") for p in text.split(",") if p)}
    unknown = set(shares) - set(RULES)
    if unknown:
        raise SystemExit(f"unknown game types: {', '.join(sorted(unknown))}")
    total = sum(shares.values())
    return {k: v / total for k, v in shares.items()}


def machine() -> dict[str, Any]:
    return {"cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()],
            "python": platform.python_version(), "platform": platform.platform()}


def table(rows: Sequence[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths, strict=True)))
                     for r in rows)


def render(results: dict[str, Any]) -> str:
    cal = results["calibration"]
    lines = [f"Arbiter capacity model, {results['when']}, {results['machine']['cpus']} cores"
             f"{' (--quick: figures too short to judge)' if results['quick'] else ''}", "",
             "Per shard (one PostgreSQL database, one server process), measured:"]
    rows: list[tuple[str, ...]] = [
        ("game", "CPU ms/move", "events/move", "CPU ms/create", "events/create", "moves/game",
         "events/game", "KB/game", "flat-out events/s")]
    for r, f in cal["rules"].items():
        per_game = f["events_per_create"] + f["events_per_move"] * f["moves_per_game"]
        rows.append((r, f"{f['cpu_per_move'] * 1000:.2f}", f"{f['events_per_move']:.2f}",
                     f"{f['cpu_per_create'] * 1000:.2f}", f"{f['events_per_create']:.1f}",
                     f"{f['moves_per_game']:.0f}", f"{per_game:.0f}",
                     f"{per_game * cal['bytes_per_event'] / 1024:.0f}",
                     f"{f['saturated_events_per_second']:.0f}"))
    lines += [table(rows), ""]
    lines.append(
        f"bytes/event {cal['bytes_per_event']:.0f}; Redis messages per move or creation: "
        f"{cal['game_messages_per_commit']:.2f} on its game's channel, "
        f"{cal['batch_messages_per_commit']:.2f} on the all-games channel; Redis CPU "
        f"{cal['redis_cpu_per_message'] * 1e6:.1f} "
        f"us/message; idle process {cal['base_cpu'] * 100:.1f}% of a core, active "
        f"{cal['active_overhead'] * 100:.1f}%; feed stream "
        f"{cal['cpu_per_stream_event'] * 1000:.3f} ms/event + "
        f"{cal['cpu_per_stream_second'] * 1e6:.0f} us/s open; process ceiling "
        f"{cal['process_cores']:.2f} cores; PostgreSQL backends "
        f"{cal['pg_cpu_per_event'] * 1000:.3f} ms CPU/event")
    chk = results["check"]
    lines += ["", f"Check: {chk['games']} games, {chk['mix']['moves_per_game_minute']:.0f} "
              f"moves/game/min, {chk['mix']['spectators_per_game']:g} spectator(s)/game, "
              f"{chk['measured']['seconds']:.0f} s; bound {chk['bound'] * 100:.0f}%"]
    rows = [("figure", "predicted", "measured", "error", "")]
    for key in ("moves", *CHECKED, "pg_cores", "redis_cores"):
        p, m = chk["predicted"][key], chk["measured"][key]
        err = relative_error(p, m)
        rows.append((key + "/s" if key not in ("server_cores", "pg_cores", "redis_cores")
                     else key, f"{p:.3f}", f"{m:.3f}", f"{err * 100:.1f}%",
                     ("FAIL" if err > chk["bound"] else "ok") if key in CHECKED else "(shown)"))
    lines += [table(rows), ""]
    big = results["extrapolation"]
    load = big["load"]
    lines += [
        f"Extrapolated: {big['games']:,.0f} concurrent games, "
        f"{big['mix']['moves_per_game_minute']:g} moves/game/min, "
        f"{big['mix']['spectators_per_game']:g} spectator(s)/game, shares "
        f"{big['mix']['shares']}, at {big['utilisation'] * 100:.0f}% utilisation:",
        f"  {load['moves']:,.0f} moves/s, {load['events']:,.0f} events/s, "
        f"{load['bytes'] / 1e6:,.1f} MB/s to the stores "
        f"({load['bytes'] * 86400 / 1e12:,.2f} TB/day)",
        f"  server: {load['server_cores']:,.0f} cores -> M = {big['processes']} processes "
        f"({load['streams']:,.0f} feed streams)",
        f"  shards: {big['shard_events_per_second']:,.0f} events/s each flat out -> N = "
        f"{big['shards']} ({load['events'] / big['shards']:,.0f} events/s, "
        f"{load['bytes'] / big['shards'] / 1e3:,.0f} KB/s each)",
        f"  Redis: {load['publishes']:,.0f} publishes/s + {load['deliveries']:,.0f} deliveries/s"
        f" = {load['redis_cores']:,.1f} cores -> K = {big['redis_primaries']} primaries",
        f"  PostgreSQL backends: {load['pg_cores']:,.0f} cores in all "
        f"({load['pg_cores'] / big['shards']:.2f} per shard)",
    ]
    return "\n".join(lines)


async def measure(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    from service.redis_server import PrivateRedis

    sizes = QUICK if args.quick else FULL
    log("playouts for the length of a game")
    lengths = playout_lengths(int(sizes["playouts"]), args.seed)
    made = postgres_database(args.postgres_url)
    if isinstance(made, str):
        raise SystemExit(f"capacity: {made}")
    database_url, drop = made
    private = PrivateRedis(work / "redis")
    try:
        server = ArbiterServer(work / "server", private.url, database_url)
        counter = RedisCounter(private.url, server.redis_prefix)
        try:
            cal, raw = await calibrate(server, database_url, counter, sizes, args.seed, lengths)
            mix = Mix(args.moves_per_minute, args.spectators, parse_shares(args.shares))
            check_mix = mix.scaled(args.compress)
            log(f"check: {int(sizes['check_games'])} games at "
                f"{check_mix.moves_per_game_minute:g} moves/game/min")
            load, rates, tally = await check(server, database_url, counter, cal, check_mix,
                                             int(sizes["check_games"]),
                                             sizes["check_seconds"], args.seed + 100)
        finally:
            counter.close()
            server.stop()
    finally:
        private.stop()
        drop()
    sizing = size(cal, mix, args.games, args.utilisation)
    errors = {k: relative_error(getattr(load, k), rates[k]) for k in CHECKED}
    return {
        "calibration": dataclasses.asdict(cal),
        "raw": raw,
        "check": {
            "games": int(sizes["check_games"]), "mix": dataclasses.asdict(check_mix),
            "compress": args.compress, "bound": args.bound,
            "predicted": dataclasses.asdict(load), "measured": rates, "errors": errors,
            "max_error": max(errors.values()), "stream_messages": tally.stream_messages,
            "client_errors": dict(tally.errors),
        },
        "extrapolation": {
            "games": args.games, "mix": dataclasses.asdict(mix), "utilisation": args.utilisation,
            "shards": sizing.shards, "processes": sizing.processes,
            "redis_primaries": sizing.redis_primaries,
            "shard_events_per_second": sizing.shard_events_per_second,
            "load": dataclasses.asdict(sizing.load),
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.capacity",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="a ~40 s smoke run: every phase, the check shown but not judged")
    parser.add_argument("--postgres-url",
                        default=os.environ.get("ARBITER_BENCH_POSTGRES_URL", DEFAULT_POSTGRES))
    parser.add_argument("--games", type=float, default=1_000_000,
                        help="concurrent games to size for")
    parser.add_argument("--moves-per-minute", type=float, default=2.0,
                        help="moves per game per minute, the mix's")
    parser.add_argument("--spectators", type=float, default=1.0,
                        help="spectators per game, each with a feed stream")
    parser.add_argument("--shares", default="enin=0.5,ethnos=0.25,ettin=0.25")
    parser.add_argument("--compress", type=float, default=15.0,
                        help="how much faster the check plays the mix")
    parser.add_argument("--utilisation", type=float, default=0.7)
    parser.add_argument("--bound", type=float, default=0.25,
                        help="the largest relative error the check allows")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None,
                        help="write every figure as JSON here too")
    args = parser.parse_args(argv)

    started = time.monotonic()
    before = machine()
    work = Path(tempfile.mkdtemp(prefix="arbiter-capacity-"))
    try:
        results = asyncio.run(measure(args, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    results = {"when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
               "quick": args.quick, "seconds": round(time.monotonic() - started, 1),
               "machine": {**machine(), "load_average_before": before["load_average"]},
               **results}
    print(render(results))
    if args.out:
        args.out.write_text(json.dumps(results, indent=2, default=str) + "\n")
    failed = [k for k, e in results["check"]["errors"].items() if e > args.bound]
    if failed and args.quick:  # a smoke run's windows are seconds: page-sized noise
        print(f"\n--quick: not judged ({', '.join(failed)} beyond {args.bound * 100:.0f}%)")
        return 0
    if failed:
        print(f"\ncheck FAILED: {', '.join(failed)} beyond {args.bound * 100:.0f}%")
        return 1
    print(f"\ncheck passed: largest error {results['check']['max_error'] * 100:.1f}% "
          f"(bound {args.bound * 100:.0f}%); run took {results['seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
