"""The load generator: a process apart from every server, playing many games at once.

``python -m bench.load PLAN.json OUT.json`` runs the plan's phases against a
running Arbiter (and the no-op server, when the plan names one) and writes
what it measured. The run (``bench.run``) starts the servers and this process.

Why moves are prepared between timed windows: a player must ask
``LegalActions`` before each move (a client never re-implements a rule), and
timing those calls with the ``Act`` calls would charge Arbiter for two RPCs
per move and the no-op for one. So each round first asks every game's legal
actions and picks a random move (untimed), then sends the round's ``Act`` s
with N in flight (timed), then sends the very same requests to the no-op
server with the same N in flight (timed): both floors and figures see the
same requests, the same client and, interleaved round by round, the same
background load on a shared machine.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import json
import os
import random
import sys
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import grpc
import redis
from arbiter.answers import bot_move
from arbiter.v1 import game_pb2, game_pb2_grpc
from arbiter.wire import json_to_command

from bench.noop import ACT as NOOP_ACT
from bench.noop import SET_REPLY as NOOP_SET_REPLY
from bench.procs import cpu_seconds

Metadata = tuple[tuple[str, str], ...]
#: Refusals of a move the game moved past before it arrived (as the SDK's Play loop
#: passes over them): not errors.
STALE = frozenset({"STALE_DECISION", "VERSION_MISMATCH", "NOT_YOUR_TURN"})
SEATS = {"enin": ["solo"], "ethnos": ["ann", "bob", "cyd", "dee"], "ettin": ["a", "b", "c", "d"],
         "template": ["ann", "bob"]}


def bearer(token: str) -> Metadata:
    return (("authorization", f"Bearer {token}"),)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank; NaN when there are no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


@dataclasses.dataclass
class Table:
    """One game the generator plays, with every seat's token."""

    game_id: str
    tokens: dict[int, str]
    state: game_pb2.GameState
    done: bool = False


@dataclasses.dataclass
class Totals:
    """Calls, wall time and server CPU summed over a figure's timed windows."""

    calls: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    client_cpu: float = 0.0
    latencies: list[float] = dataclasses.field(default_factory=list)
    errors: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)

    def summary(self) -> dict[str, Any]:
        ok = self.calls - sum(self.errors.values())
        return {
            "calls": self.calls,
            "seconds": round(self.seconds, 4),
            "per_second": ok / self.seconds if self.seconds else 0.0,
            "p50_ms": percentile(self.latencies, 50) * 1000,
            "p99_ms": percentile(self.latencies, 99) * 1000,
            "cpu_ms_per_call": self.cpu / self.calls * 1000 if self.calls else float("nan"),
            # The load generator's own CPU: near a core's worth per second, the
            # client (not the server) sets the pace, as it may for the no-op.
            "client_cpu_ms_per_call": (self.client_cpu / self.calls * 1000 if self.calls
                                       else float("nan")),
            "errors": dict(self.errors),
        }


Call = Callable[..., Awaitable[Any]]
#: A channel's own connection, not one shared with other channels to its address.
LOCAL_SUBCHANNELS = ("grpc.use_local_subchannel_pool", 1)


def cpu_of(pids: int | Sequence[int]) -> float:
    """The CPU seconds of a server, or of several serving together."""
    return sum(cpu_seconds(p) for p in ([pids] if isinstance(pids, int) else pids))


async def window(
    call: Call, items: Sequence[tuple[Any, Metadata]], in_flight: int,
    pid: int | Sequence[int], totals: Totals,
) -> list[Any]:
    """Send every request with ``in_flight`` outstanding; add the window to ``totals``
    (the server's CPU: of ``pid``, or of every process of several on one port)."""
    replies: list[Any] = [None] * len(items)
    order = iter(range(len(items)))

    async def worker() -> None:
        for i in order:  # one iterator shared by the workers: each request sent once
            request, metadata = items[i]
            start = time.perf_counter()
            try:
                replies[i] = await call(request, metadata=metadata)
            except grpc.aio.AioRpcError as exc:
                totals.errors[exc.code().name] += 1
            totals.latencies.append(time.perf_counter() - start)

    cpu, own = cpu_of(pid), cpu_seconds(os.getpid())
    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(min(in_flight, len(items)))))
    totals.seconds += time.perf_counter() - start
    totals.cpu += cpu_of(pid) - cpu
    totals.client_cpu += cpu_seconds(os.getpid()) - own
    totals.calls += len(items)
    return replies


class Player:
    """Creates games and picks each game's next move from its legal actions."""

    def __init__(self, channel: grpc.aio.Channel, admin_token: str, rules: str, seed: int,
                 lanes: Sequence[grpc.aio.Channel] = ()):
        """``lanes``: more channels beside ``channel``, each its own connection
        (to processes sharing one port, the kernel spreads connections, not
        calls); each game is played on one of them, all its calls."""
        self.stubs = [game_pb2_grpc.GameServiceStub(c) for c in (channel, *lanes)]
        self.stub = self.stubs[0]
        self.created = 0
        self.lane_of: dict[str, int] = {}  # game id -> lane
        self.admin = bearer(admin_token)
        self.rules = rules
        self.rng = random.Random(seed)

    async def new_table(self) -> Table:
        """A new game; retried while the catalogue is busy (every game created is
        appended to one catalogue log, so creations at once contend)."""
        lane = self.created % len(self.stubs)
        self.created += 1
        for attempt in range(50):
            try:
                created = await self.stubs[lane].CreateGame(
                    game_pb2.CreateGameRequest(rules=self.rules, seats=SEATS[self.rules]),
                    metadata=self.admin,
                )
                break
            except grpc.aio.AioRpcError as exc:
                if exc.code() != grpc.StatusCode.UNAVAILABLE or attempt == 49:
                    raise
                await asyncio.sleep(0.01 * self.rng.random())
        tokens = {t.seat: t.token for t in created.seat_tokens}
        self.lane_of[created.game_id] = lane
        return Table(created.game_id, tokens, created.state)

    async def tables(self, count: int, in_flight: int = 2) -> list[Table]:
        gate = asyncio.Semaphore(in_flight)

        async def one() -> Table:
            async with gate:
                return await self.new_table()

        return list(await asyncio.gather(*(one() for _ in range(count))))

    async def next_move(self, table: Table) -> tuple[Table, game_pb2.ActRequest, Metadata]:
        """The table (a new one if its game is over) and a random legal move on it."""
        for _ in range(20):
            if table.done or table.state.over or not table.state.pending:
                table = await self.new_table()
            seat = table.state.pending[0].seat
            metadata = bearer(table.tokens[seat])
            legal = await self.stub_of(table.game_id).LegalActions(
                game_pb2.LegalActionsRequest(game_id=table.game_id, seat=seat), metadata=metadata
            )
            move = bot_move(legal, self.rng, explore=not legal.actions)
            if move is None:
                table.done = True
                continue
            command = (move.command if isinstance(move.command, game_pb2.Command)
                       else json_to_command(self.rules, move.command))
            request = game_pb2.ActRequest(
                game_id=table.game_id, seat=seat, command=command,
                command_id=uuid.uuid4().hex, decision_id=move.decision_id,
            )
            return table, request, metadata
        raise RuntimeError(f"no {self.rules} game offered a move")

    def stub_of(self, game_id: str) -> game_pb2_grpc.GameServiceStub:
        """The stub of the channel (the lane) that plays ``game_id``."""
        return self.stubs[self.lane_of.get(game_id, 0)]

    async def act(self, request: game_pb2.ActRequest, metadata: Metadata) -> Any:
        """``Act`` on the lane of the request's game."""
        return await self.stub_of(request.game_id).Act(request, metadata=metadata)

    async def prepare(
        self, tables: list[Table], in_flight: int = 32
    ) -> list[tuple[game_pb2.ActRequest, Metadata]]:
        """One move per table (replacing finished games in ``tables``), untimed."""
        gate = asyncio.Semaphore(in_flight)

        async def one(i: int) -> tuple[game_pb2.ActRequest, Metadata]:
            async with gate:
                tables[i], request, metadata = await self.next_move(tables[i])
                return request, metadata

        return list(await asyncio.gather(*(one(i) for i in range(len(tables)))))


def typical_reply(replies: Sequence[Any]) -> game_pb2.ActResponse:
    """The reply of median size: what the no-op server answers with."""
    sized = sorted((r.ByteSize(), n) for n, r in enumerate(replies) if r is not None)
    if not sized:
        return game_pb2.ActResponse()
    reply: game_pb2.ActResponse = replies[sized[len(sized) // 2][1]]
    return reply


async def measure_act(plan: dict[str, Any], phase: dict[str, Any]) -> dict[str, Any]:
    """Acts with ``in_flight`` outstanding, round after round, each round's requests
    then sent to the no-op server (when there is one) the same way."""
    rules, in_flight = phase["rules"], int(phase["in_flight"])
    # Each its own connection: gRPC shares one between channels to one address.
    lanes = [grpc.aio.insecure_channel(plan["arbiter"], options=[LOCAL_SUBCHANNELS])
             for _ in range(int(phase.get("channels", 1)) - 1)]
    async with grpc.aio.insecure_channel(plan["arbiter"], options=[LOCAL_SUBCHANNELS]) as channel:
        player = Player(channel, plan["admin_token"], rules, int(plan.get("seed", 1)), lanes)
        tables = await player.tables(int(phase["games"]))
        noop_channel = grpc.aio.insecure_channel(plan["noop"]) if plan.get("noop") else None
        noop_act: Call | None = None
        if noop_channel is not None:
            noop_act = noop_channel.unary_unary(
                NOOP_ACT, request_serializer=game_pb2.ActRequest.SerializeToString,
                response_deserializer=game_pb2.ActResponse.FromString)
        arbiter, noop = Totals(), Totals()
        reply_bytes: list[int] = []
        rounds, started = 0, time.monotonic()
        while rounds < 1 + int(phase["min_rounds"]) or (
            arbiter.seconds < float(phase["seconds"]) and rounds < int(phase["max_rounds"])
            and time.monotonic() - started < float(phase["seconds"]) * 6
        ):
            warm = rounds == 0  # the first round warms caches and connections: not counted
            items = await player.prepare(tables)
            replies = await window(player.act, items, in_flight,
                                   plan.get("arbiter_pids") or plan["arbiter_pid"],
                                   Totals() if warm else arbiter)
            for table, reply in zip(tables, replies, strict=True):
                if reply is None:
                    table.done = True  # refused: play on a new game
                else:
                    table.state = reply.state
                    reply_bytes.append(reply.ByteSize())
            if noop_channel is not None and noop_act is not None:
                if rounds == 0:
                    set_reply = noop_channel.unary_unary(
                        NOOP_SET_REPLY, request_serializer=game_pb2.ActResponse.SerializeToString,
                        response_deserializer=game_pb2.ActResponse.FromString)
                    await set_reply(typical_reply(replies))
                await window(noop_act, items, in_flight, plan["noop_pid"],
                             Totals() if warm else noop)
            rounds += 1
        if noop_channel is not None:
            await noop_channel.close()
        for lane in lanes:
            await lane.close()
    result = {"rules": rules, "in_flight": in_flight, "games": len(tables), "rounds": rounds - 1,
              "channels": 1 + len(lanes),
              "reply_bytes_median": percentile(reply_bytes, 50),
              "arbiter": arbiter.summary()}
    if noop_channel is not None:
        result["noop"] = noop.summary()
    return result


class Arrivals:
    """When each (game, version) arrived on a feed, by this process's clock."""

    def __init__(self) -> None:
        self.times: dict[tuple[str, int], float] = {}
        self.changed = threading.Condition()
        self.size = 0  # the bytes of the latest message

    def arrived(self, key: tuple[str, int], size: int = 0) -> None:
        now = time.perf_counter()
        with self.changed:
            self.size = size or self.size
            self.times.setdefault(key, now)
            self.changed.notify_all()

    def wait(self, key: tuple[str, int], timeout: float) -> float | None:
        with self.changed:
            self.changed.wait_for(lambda: key in self.times, timeout)
            return self.times.get(key)


def _read_feed(call: Any, arrivals: Arrivals) -> None:
    try:
        for message in call:
            if message.HasField("event"):
                arrivals.arrived((message.event.game_id, message.event.version))
    except grpc.RpcError:
        pass  # cancelled at the end, or the game ended


def _read_redis(pubsub: Any, arrivals: Arrivals, key_of: Callable[[dict[str, Any]], Any]) -> None:
    try:
        for message in pubsub.listen():
            if message.get("type") == "message":
                arrivals.arrived(key_of(json.loads(message["data"])), len(message["data"]))
    except (redis.RedisError, OSError, ValueError):
        pass  # closed at the end


def measure_feed(plan: dict[str, Any], phase: dict[str, Any]) -> dict[str, Any]:
    """Act reply -> the Subscribe message of its last event, and -> a direct Redis
    subscriber; each sample followed by a bare Redis publish -> receive of a
    message of the same size, on the same Redis, by the same process."""
    samples, games = int(phase["samples"]), int(phase.get("games", 4))
    rng = random.Random(int(plan.get("seed", 1)))
    channel = grpc.insecure_channel(plan["arbiter"])
    stub = game_pb2_grpc.GameServiceStub(channel)
    admin = bearer(plan["admin_token"])
    feed, direct, floor = Arrivals(), Arrivals(), Arrivals()
    client = redis.Redis.from_url(plan["redis_url"])
    game_subs = client.pubsub(ignore_subscribe_messages=True)
    floor_subs = client.pubsub(ignore_subscribe_messages=True)
    floor_channel = f"arbiter-bench:floor:{uuid.uuid4().hex}"
    floor_subs.subscribe(floor_channel)
    calls: list[Any] = []

    def new_table() -> Table:
        created = stub.CreateGame(
            game_pb2.CreateGameRequest(rules="enin", seats=SEATS["enin"]), metadata=admin)
        table = Table(created.game_id, {t.seat: t.token for t in created.seat_tokens},
                      created.state)
        call = stub.Subscribe(
            game_pb2.SubscribeRequest(game_id=table.game_id, seat=0, after=created.version),
            metadata=bearer(table.tokens[0]))
        calls.append(call)
        threading.Thread(target=_read_feed, args=(call, feed), daemon=True).start()
        game_subs.subscribe(f"{plan['redis_prefix']}game:{table.game_id}")
        return table

    tables = [new_table() for _ in range(games)]
    threading.Thread(target=_read_redis, daemon=True,
                     # a message: a move's events, oldest first; the Act's version is the last's
                     args=(game_subs, direct,
                           lambda m: (m[-1]["game_id"], m[-1]["version"]))).start()
    threading.Thread(target=_read_redis, daemon=True,
                     args=(floor_subs, floor, lambda m: ("floor", m["seq"]))).start()
    time.sleep(0.5)  # the streams past their catch-up, the subscriptions in place
    to_feed: list[float] = []
    to_direct: list[float] = []
    to_floor: list[float] = []
    acts: list[float] = []
    missed = collections.Counter[str]()
    for n in range(samples):
        i = n % games
        table = tables[i]
        if table.state.over or not table.state.pending:
            table = tables[i] = new_table()
            time.sleep(0.05)
        metadata = bearer(table.tokens[0])
        legal = stub.LegalActions(
            game_pb2.LegalActionsRequest(game_id=table.game_id, seat=0), metadata=metadata)
        move = bot_move(legal, rng, explore=not legal.actions)
        if move is None:
            table.state.over = True
            continue
        command = (move.command if isinstance(move.command, game_pb2.Command)
                   else json_to_command("enin", move.command))
        time.sleep(0.002)  # let the LegalActions call's work settle
        start = time.perf_counter()
        reply = stub.Act(game_pb2.ActRequest(
            game_id=table.game_id, seat=0, command=command, command_id=uuid.uuid4().hex,
            decision_id=move.decision_id), metadata=metadata)
        replied = time.perf_counter()
        acts.append(replied - start)
        table.state = reply.state
        key = (table.game_id, reply.version)
        got = feed.wait(key, 5.0)
        if got is None:
            missed["subscribe"] += 1
        else:
            to_feed.append(got - replied)
        got = direct.wait(key, 1.0)
        if got is None:
            missed["direct"] += 1
        else:
            to_direct.append(got - replied)
        sent = time.perf_counter()
        pad = "x" * max(0, direct.size - 20)  # as big as the relay's latest message
        client.publish(floor_channel, json.dumps({"seq": n, "pad": pad}))
        got = floor.wait(("floor", n), 2.0)
        if got is None:
            missed["redis"] += 1
        else:
            to_floor.append(got - sent)
    for call in calls:
        call.cancel()
    game_subs.close()
    floor_subs.close()
    channel.close()

    def ms(values: list[float], q: float) -> float:
        return percentile(values, q) * 1000

    return {
        "samples": samples, "missed": dict(missed),
        "act_p50_ms": ms(acts, 50),
        "subscribe_p50_ms": ms(to_feed, 50), "subscribe_p99_ms": ms(to_feed, 99),
        "direct_p50_ms": ms(to_direct, 50), "direct_p99_ms": ms(to_direct, 99),
        "redis_p50_ms": ms(to_floor, 50), "redis_p99_ms": ms(to_floor, 99),
    }


async def measure_spectators(plan: dict[str, Any], phase: dict[str, Any]) -> dict[str, Any]:
    """``GetState`` of one unchanged Ethnos game by ``spectators`` readers at once
    (the read model's case: one encoded state for every reader of the same
    audience), round after round, each round's calls then sent to the no-op
    server with a reply of the same state, the same way."""
    spectators, calls = int(phase["spectators"]), int(phase["calls"])
    async with grpc.aio.insecure_channel(plan["arbiter"]) as channel, \
            grpc.aio.insecure_channel(plan["noop"]) as noop_channel:
        stub = game_pb2_grpc.GameServiceStub(channel)
        created = await stub.CreateGame(game_pb2.CreateGameRequest(
            rules="ethnos", seats=SEATS["ethnos"]), metadata=bearer(plan["admin_token"]))
        read = game_pb2.GetStateRequest(game_id=created.game_id, spectator=True)
        items = [(read, bearer(created.spectator_token))] * calls
        state = await stub.GetState(read, metadata=bearer(created.spectator_token))
        set_reply = noop_channel.unary_unary(
            NOOP_SET_REPLY, request_serializer=game_pb2.ActResponse.SerializeToString,
            response_deserializer=game_pb2.ActResponse.FromString)
        await set_reply(game_pb2.ActResponse(state=state))
        noop_act = noop_channel.unary_unary(
            NOOP_ACT, request_serializer=game_pb2.ActRequest.SerializeToString,
            response_deserializer=game_pb2.ActResponse.FromString)
        noop_items = [(game_pb2.ActRequest(game_id=created.game_id), ())] * calls
        arbiter, noop = Totals(), Totals()
        for rounds in range(1 + int(phase["rounds"])):
            warm = rounds == 0
            await window(stub.GetState, items, spectators, plan["arbiter_pid"],
                         Totals() if warm else arbiter)
            await window(noop_act, noop_items, spectators, plan["noop_pid"],
                         Totals() if warm else noop)
    return {"spectators": spectators, "state_bytes": state.ByteSize(),
            "arbiter": arbiter.summary(), "noop": noop.summary()}


@dataclasses.dataclass
class Loops:
    """What the bot loops of one round measured: moves, the latency of each move
    (sent -> the next decision in hand), calls and feed messages, refusals."""

    moves: int = 0
    calls: int = 0
    #: Moves the game had moved past when they arrived (``STALE``): the next turn says what now.
    stale: int = 0
    feed_messages: int = 0
    latencies: list[float] = dataclasses.field(default_factory=list)
    errors: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)


async def unary_loop(stub: game_pb2_grpc.GameServiceStub, table: Table, rules: str,
                     rng: random.Random, loops: Loops) -> None:
    """Play ``table`` to its end the way a unary client does: for the seat to
    move, ``LegalActions``, a random legal move, ``Act``; the reply's state
    names the next seat to move. A move's latency runs from sending ``Act`` to
    the next decision's legal moves in hand (its ``LegalActions`` reply)."""
    sent = 0.0
    while not table.state.over and table.state.pending:
        seat = table.state.pending[0].seat
        metadata = bearer(table.tokens[seat])
        legal = await stub.LegalActions(
            game_pb2.LegalActionsRequest(game_id=table.game_id, seat=seat), metadata=metadata)
        loops.calls += 1
        if sent:
            loops.latencies.append(time.perf_counter() - sent)
        move = bot_move(legal, rng, explore=not legal.actions)
        if move is None:
            loops.errors["NO_MOVE"] += 1
            return
        command = (move.command if isinstance(move.command, game_pb2.Command)
                   else json_to_command(rules, move.command))
        sent = time.perf_counter()
        try:
            reply = await stub.Act(game_pb2.ActRequest(
                game_id=table.game_id, seat=seat, command=command, command_id=uuid.uuid4().hex,
                decision_id=move.decision_id), metadata=metadata)
        except grpc.aio.AioRpcError as exc:
            loops.errors[exc.code().name] += 1
            return
        loops.calls += 1
        loops.moves += 1
        table.state = reply.state


async def play_loop(stub: Any, table: Table, rng: random.Random, loops: Loops) -> None:
    """Play ``table`` to its end the way a ``Play`` client does: one stream
    holding both seats (a bot's), each turn the server pushes answered with a
    random listed move and the decision it answers (no expected version: seats
    choosing at once never make each other's answers stale). A move's latency
    runs from sending it to the next turn pushed (the next decision, with its
    legal moves, in hand)."""
    outbox: asyncio.Queue[game_pb2.PlayRequest | None] = asyncio.Queue()
    seats = sorted(table.tokens)
    await outbox.put(game_pb2.PlayRequest(join=game_pb2.PlayJoin(
        game_id=table.game_id, seats=seats,
        seat_tokens=[table.tokens[s] for s in seats[1:]])))

    async def requests() -> Any:
        while (request := await outbox.get()) is not None:
            yield request

    call = stub.Play(requests(), metadata=bearer(table.tokens[seats[0]]))
    sent = 0.0
    try:
        async for message in call:
            loops.feed_messages += len(message.events)
            for result in message.results:
                if result.accepted:
                    loops.moves += 1
                elif result.reason in STALE:
                    loops.stale += 1
                else:
                    loops.errors[result.reason or "REFUSED"] += 1
            if await answer_turns(message, outbox, rng, loops, sent):
                break
            if loops.calls and message.turns:
                sent = time.perf_counter()
            if message.state == game_pb2.FEED_STATE_ENDED:
                break
    except grpc.aio.AioRpcError as exc:
        loops.errors[exc.code().name] += 1
    finally:
        await outbox.put(None)
        call.cancel()


async def answer_turns(message: Any, outbox: Any, rng: random.Random, loops: Loops,
                       sent: float) -> bool:
    """Answer each turn of a ``Play`` message (a round) with a random listed
    move; True when the game is over or a turn lists no move."""
    for turn in message.turns:
        if turn.state.over:
            return True
        if sent:
            loops.latencies.append(time.perf_counter() - sent)
            sent = 0.0
        if not turn.actions:
            loops.errors["NO_MOVE"] += 1
            return True
        action = rng.choice(list(turn.actions))
        mine = [d.id for d in turn.state.pending if d.seat == turn.seat]
        loops.calls += 1  # a stream message, in the calls' place
        await outbox.put(game_pb2.PlayRequest(move=game_pb2.PlayMove(
            seat=turn.seat, command=action.command, command_id=uuid.uuid4().hex,
            decision_id=mine[0] if len(mine) == 1 else "")))
    return False


async def follow(call: Any, loops: Loops) -> None:
    """Read a seat's feed (``Subscribe``) until it is cancelled or ends."""
    try:
        async for message in call:
            if message.HasField("event"):
                loops.feed_messages += 1
    except (grpc.aio.AioRpcError, asyncio.CancelledError):
        pass  # cancelled at the end of the round


async def measure_loop(plan: dict[str, Any], phase: dict[str, Any]) -> dict[str, Any]:
    """Bot loops, ``games`` games at once, each played to its end, round after
    round (the first warms up). ``loop`` "unary": every seat holds its feed
    (``Subscribe``) as a seat's client does, and the bot plays through unary
    calls (``unary_loop``); "play": one ``Play`` stream per game holds both
    seats (``play_loop``). A round's games (and feeds) are made untimed; the
    window is the play. The server's CPU over the window per move is the
    loop's whole cost per move: its calls, its stream messages, its feeds."""
    rules, games = phase["rules"], int(phase["games"])
    kind = phase.get("loop", "unary")
    rng = random.Random(int(plan.get("seed", 1)))
    pid = plan["arbiter_pid"]
    total = Loops()
    seconds = cpu = client_cpu = 0.0
    played = 0
    async with grpc.aio.insecure_channel(plan["arbiter"], options=[LOCAL_SUBCHANNELS]) as channel:
        stub = game_pb2_grpc.GameServiceStub(channel)
        player = Player(channel, plan["admin_token"], rules, int(plan.get("seed", 1)))
        for round_ in range(1 + int(phase["rounds"])):
            tables = await player.tables(games)
            loops = Loops()
            feeds = [] if kind == "play" else [stub.Subscribe(game_pb2.SubscribeRequest(
                game_id=t.game_id, seat=seat, after=0), metadata=bearer(token))
                for t in tables for seat, token in t.tokens.items()]
            readers = [asyncio.ensure_future(follow(call, loops)) for call in feeds]
            if feeds:
                await asyncio.sleep(0.3)  # the feeds past their catch-up, waiting live
            loops.feed_messages = 0
            before, own = cpu_of(pid), cpu_seconds(os.getpid())
            start = time.perf_counter()
            await asyncio.gather(*(
                play_loop(stub, t, rng, loops) if kind == "play"
                else unary_loop(stub, t, rules, rng, loops) for t in tables))
            await asyncio.sleep(0.05)  # the last moves' feed messages out
            window_seconds = time.perf_counter() - start
            window_cpu = cpu_of(pid) - before
            window_client = cpu_seconds(os.getpid()) - own
            for call in feeds:
                call.cancel()
            await asyncio.gather(*readers)
            if round_ == 0:
                continue  # warming up: not counted
            seconds += window_seconds
            cpu += window_cpu
            client_cpu += window_client
            played += len(tables)
            total.moves += loops.moves
            total.calls += loops.calls
            total.feed_messages += loops.feed_messages
            total.latencies += loops.latencies
            total.stale += loops.stale
            total.errors.update(loops.errors)
    moves = total.moves
    return {
        "loop": kind, "rules": rules, "games_at_once": games, "rounds": int(phase["rounds"]),
        "games": played, "moves": moves, "moves_per_game": moves / played if played else None,
        "seconds": seconds, "moves_per_second": moves / seconds if seconds else None,
        "cpu_ms_per_move": cpu / moves * 1000 if moves else None,
        "client_cpu_ms_per_move": client_cpu / moves * 1000 if moves else None,
        "calls_per_move": total.calls / moves if moves else None,
        "feed_messages_per_move": total.feed_messages / moves if moves else None,
        "p50_ms": percentile(total.latencies, 50) * 1000,
        "p99_ms": percentile(total.latencies, 99) * 1000,
        "stale": total.stale, "errors": dict(total.errors),
    }


def run(plan: dict[str, Any]) -> dict[str, Any]:
    results: dict[str, Any] = {"act": []}
    for phase in plan.get("act", []):
        results["act"].append(asyncio.run(measure_act(plan, phase)))
    if plan.get("spectators") and plan.get("noop"):
        results["spectators"] = asyncio.run(measure_spectators(plan, plan["spectators"]))
    if plan.get("feed"):
        results["feed"] = measure_feed(plan, plan["feed"])
    results["loops"] = [asyncio.run(measure_loop(plan, phase)) for phase in plan.get("loops", [])]
    return results


def main() -> None:
    plan = json.loads(Path(sys.argv[1]).read_text())
    Path(sys.argv[2]).write_text(json.dumps(run(plan), indent=2))


if __name__ == "__main__":
    main()
