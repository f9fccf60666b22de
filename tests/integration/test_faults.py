"""Faults (issue 4): kill -9 under load, several servers on one store, Redis outages.

Every figure here is bounded (a few seconds of load each) so the suite stays
fast; the invariants are the point: no accepted move lost, none applied twice,
versions contiguous, the hash chain intact, every subscriber sees every event
once and in order, and the relay publishes everything it had not published.
"""

from __future__ import annotations

import json
import random
import signal
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from arbiter.v1 import game_pb2

from service.redis_server import PrivateRedis, free_port
from tests import soak
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import new_game

pytestmark = pytest.mark.integration

#: One admin token for both servers (long enough to be accepted: 32 bytes or more).
SHARED_ADMIN = "shared-admin-token-for-both-servers-Xy7q"

RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED,
             grpc.StatusCode.CANCELLED, grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL}


class Player(threading.Thread):
    """Plays one game with random legal moves, retrying each command id until answered."""

    def __init__(self, stubs: list[Any], game_id: str, seed: int, stop: threading.Event):
        super().__init__(daemon=True)
        self.stubs, self.game_id, self.stop = stubs, game_id, stop
        self.rnd = random.Random(seed)
        self.accepted: list[str] = []
        self.refused = 0

    def stub(self) -> Any:
        return self.rnd.choice(self.stubs)

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                state = self.stub().GetState(game_pb2.GetStateRequest(game_id=self.game_id),
                                             timeout=5)
                if state.over:
                    return
                legal = self.stub().LegalActions(
                    game_pb2.LegalActionsRequest(game_id=self.game_id), timeout=5)
            except grpc.RpcError:
                time.sleep(0.2)
                continue
            if not legal.actions:
                continue
            action = self.rnd.choice(legal.actions)
            request = game_pb2.ActRequest(
                game_id=self.game_id, command=action.command,
                expected_version=legal.version, command_id=str(uuid.uuid4()))
            self.send(request)

    def send(self, request: game_pb2.ActRequest) -> None:
        """The same command id until the server answers: exactly-once makes it safe."""
        while True:
            try:
                self.stub().Act(request, timeout=5)
                self.accepted.append(request.command_id)
                return
            except grpc.RpcError as exc:
                if exc.code() in RETRYABLE:
                    time.sleep(0.2)
                    continue
                self.refused += 1  # stale version or phase: nothing was recorded
                return


class ResilientFeed(threading.Thread):
    """A subscriber that reconnects from the last version it saw, like a real client."""

    def __init__(self, stubs: list[Any], game_id: str):
        super().__init__(daemon=True)
        self.stubs, self.game_id = stubs, game_id
        self.versions: list[int] = []
        self.stopping = threading.Event()
        self.call: Any = None

    def run(self) -> None:
        n = 0
        while not self.stopping.is_set():
            stub = self.stubs[n % len(self.stubs)]
            n += 1
            last = self.versions[-1] if self.versions else 0
            try:
                self.call = stub.Subscribe(
                    game_pb2.SubscribeRequest(game_id=self.game_id, after=last, spectator=True))
                for message in self.call:
                    if message.HasField("event"):
                        self.versions.append(message.event.version)
            except grpc.RpcError:
                time.sleep(0.3)

    def close(self) -> None:
        self.stopping.set()
        if self.call is not None:
            self.call.cancel()


class RedisTap(threading.Thread):
    """Everything published on the all-games channel, as (game, version) pairs."""

    def __init__(self, url: str, prefix: str):
        super().__init__(daemon=True)
        self.pubsub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(f"{prefix}games")
        self.seen: Counter[tuple[str, int]] = Counter()
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            message = self.pubsub.get_message(timeout=0.2)
            if message:
                for body in json.loads(message["data"]):  # a batch's events
                    self.seen[(body["game_id"], body["version"])] += 1


def stored_events(stub: Any, game_id: str) -> list[game_pb2.Event]:
    return list(stub.History(game_pb2.HistoryRequest(game_id=game_id)))


def check_game(stub: Any, game_id: str, accepted: list[str]) -> int:
    """Versions contiguous, chain intact, every accepted command recorded exactly once."""
    events = stored_events(stub, game_id)
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    for prev, ev in zip(events, events[1:], strict=False):
        assert ev.prev_digest == prev.digest
    recorded = Counter(e.command_id for e in events if e.command_id)
    assert all(count == 1 for count in recorded.values()), "a command applied twice"
    assert set(recorded) == set(accepted), "an accepted move is missing (or an extra one)"
    report = stub.Audit(game_pb2.AuditRequest(game_id=game_id))
    assert report.chain_ok and report.dice_ok and report.replay_ok, report.problems
    return len(events)


def _newest_position(stub: Any, game_id: str) -> int:
    """The global position of the game's newest event, from the admin's all-games feed."""
    total = len(stored_events(stub, game_id))
    feed = stub.Subscribe(game_pb2.SubscribeRequest())
    try:
        for message in feed:
            event = message.event
            if message.HasField("event") and event.game_id == game_id and event.version == total:
                return int(event.position)
    finally:
        feed.cancel()
    raise AssertionError("the game's newest event is not in the all-games feed")


def _relay_position(position_file: Path) -> int:
    """The relay's published position; 0 before its first publish (the file
    is written only once something has been published, and Redis may have
    gone down before that)."""
    try:
        return int(position_file.read_text() or 0)
    except FileNotFoundError:
        return 0


def wait_until(predicate: Any, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


#: kill -9s of the server under load: one in the suite, ten under ``make soak``.
KILLS = soak.games(1, 10)
#: The moves the players have answered before each kill -9, and after the last
#: restart (the restarted server serving them): the load the kills land in,
#: awaited (fixed waits of 2.5 s and 2 s stood here, as long on a quiet machine
#: as on a loaded one).
MOVES_BEFORE_KILL = 20
MOVES_AFTER_RESTART = 10


@pytest.mark.heavy(15)
def test_kill9_soak_loses_nothing(tmp_path: Path, redis_url: str) -> None:
    server = ServerProcess(tmp_path / "data", redis_url)
    server.start()
    tap = RedisTap(redis_url, server.redis_prefix)
    tap.start()
    stubs = [server.stub()]
    games = [new_game(stubs[0]) for _ in range(4)]
    stop = threading.Event()
    players = [Player(stubs, gid, n, stop) for n, gid in enumerate(games)]
    feeds = [ResilientFeed(stubs, gid) for gid in games]
    for thread in [*players, *feeds]:
        thread.start()
    kills = 0

    def answered() -> int:
        return sum(len(p.accepted) for p in players)

    def playing_on(more: int) -> None:
        """Until the players have had ``more`` moves answered from now (or their
        games ended)."""
        wanted = answered() + more
        assert wait_until(lambda: answered() >= wanted or not any(p.is_alive() for p in players),
                          timeout=60), f"the players had {answered()} moves answered of {wanted}"

    try:
        for _ in range(KILLS):
            playing_on(MOVES_BEFORE_KILL)
            server.process.send_signal(signal.SIGKILL)  # type: ignore[union-attr]
            server.process.wait()  # type: ignore[union-attr]
            kills += 1
            server.start()
        playing_on(MOVES_AFTER_RESTART)
    finally:
        stop.set()
        for p in players:
            p.join(timeout=30)
    moves = sum(len(p.accepted) for p in players)
    assert kills == KILLS and moves > 20, f"load too light: {moves} moves"
    totals = {gid: check_game(stubs[0], gid, p.accepted) for gid, p in zip(games, players,
                                                                          strict=True)}
    for feed in feeds:
        assert wait_until(lambda f=feed: len(f.versions) >= totals[f.game_id])
        feed.close()
        assert feed.versions[: totals[feed.game_id]] == list(range(1, totals[feed.game_id] + 1))
    stored = {(gid, v) for gid, n in totals.items() for v in range(1, n + 1)}
    after_first = {(g, v) for g, v in stored if v > 1}
    assert wait_until(lambda: after_first <= set(tap.seen)), "the relay lost an event"
    tap.stopping.set()
    server.stop()
    print(f"soak: {moves} accepted moves, {kills} kill -9s, "
          f"{sum(p.refused for p in players)} stale refusals, nothing lost")


@pytest.mark.postgres
@pytest.mark.heavy(10)
def test_two_servers_on_one_postgres_store(
    tmp_path: Path, redis_url: str, postgres_schema: tuple[str, str]
) -> None:
    url, schema = postgres_schema
    shared = {"ARBITER_DATABASE_URL": url, "ARBITER_POSTGRES_SCHEMA": schema,
              "ARBITER_SECRET": "shared-secret-" + "s" * 32, "ARBITER_ADMIN_TOKEN": SHARED_ADMIN}
    servers = [ServerProcess(tmp_path / f"s{n}", redis_url, shared) for n in range(2)]
    for server in servers:
        server.admin_token = SHARED_ADMIN
        server.start()
    tap = RedisTap(redis_url, servers[0].redis_prefix)
    tap.start()
    try:
        stubs = [s.stub() for s in servers]
        games = [new_game(stubs[0]) for _ in range(2)]
        watcher = ResilientFeed([stubs[0]], games[0])
        watcher.start()
        stop = threading.Event()
        players = [Player([stubs[1], stubs[0]], games[n % 2], n, stop) for n in range(6)]
        for p in players:
            p.start()
        time.sleep(soak.games(3, 6))  # both servers under play: 3 s in the suite
        stop.set()
        for p in players:
            p.join(timeout=30)
        moves = sum(len(p.accepted) for p in players)
        conflicts = sum(p.refused for p in players)
        assert moves > 20
        for gid in games:
            accepted = [c for p in players if p.game_id == gid for c in p.accepted]
            total = check_game(stubs[1], gid, accepted)
            other = stored_events(stubs[0], gid)
            assert len(other) == total
        total0 = len(stored_events(stubs[0], games[0]))
        assert wait_until(lambda: len(watcher.versions) >= total0)
        assert watcher.versions == list(range(1, total0 + 1)), "moves through B seen on A"
        watcher.close()
        wanted = {(g, v) for g in games for v in range(2, len(stored_events(stubs[0], g)) + 1)}
        assert wait_until(lambda: wanted <= set(tap.seen))
        assert max(tap.seen[k] for k in wanted) == 1, "only one relay publishes"
        print(f"two servers: {moves} accepted moves, {conflicts} optimistic-concurrency refusals")
    finally:
        tap.stopping.set()
        for server in servers:
            server.stop()


def test_redis_outage_then_every_event_is_published(tmp_path: Path) -> None:
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    private = PrivateRedis(tmp_path / "redis", port=port)
    server = ServerProcess(tmp_path / "data", url)
    server.start()
    stub = server.stub()
    try:
        game_id = new_game(stub)
        stop = threading.Event()
        player = Player([stub], game_id, 1, stop)
        private.stop()
        player.start()
        # Moves answered while Redis is down (awaited, where 2 s were slept).
        wait_until(lambda: len(player.accepted) >= MOVES_BEFORE_KILL or not player.is_alive())
        stop.set()
        player.join(timeout=30)
        assert player.accepted, "moves are accepted while Redis is down"
        private = PrivateRedis(tmp_path / "redis", port=port)
        tap = RedisTap(url, server.redis_prefix)
        tap.start()
        total = len(stored_events(stub, game_id))
        position_file = server.data_dir / "relay.position"
        newest = _newest_position(stub, game_id)
        assert wait_until(lambda: _relay_position(position_file) >= newest), (
            "the relay publishes the backlog once Redis is back")
        stop2 = threading.Event()
        more = Player([stub], game_id, 2, stop2)
        more.start()
        wait_until(lambda: len(more.accepted) >= MOVES_AFTER_RESTART or not more.is_alive())
        stop2.set()
        more.join(timeout=30)
        total = len(stored_events(stub, game_id))
        assert wait_until(lambda: (game_id, total) in tap.seen), "live delivery resumed"
        tap.stopping.set()
        check_game(stub, game_id, player.accepted + more.accepted)
    finally:
        server.stop()
        private.stop()


def test_sigterm_drains_in_flight_calls(tmp_path: Path, redis_url: str) -> None:
    server = ServerProcess(tmp_path / "data", redis_url)
    server.start()
    stub = server.stub()
    game_id = new_game(stub)
    feed = stub.Subscribe(game_pb2.SubscribeRequest(game_id=game_id))
    first = next(m for m in feed if not m.HasField("event"))
    assert first.status == "live"
    results: list[str] = []

    def busy() -> None:
        for _ in range(20):
            try:
                stub.GetState(game_pb2.GetStateRequest(game_id=game_id), timeout=5)
                results.append("ok")
            except grpc.RpcError as exc:
                results.append(exc.code().name)

    worker = threading.Thread(target=busy)
    worker.start()
    time.sleep(0.05)
    assert server.stop(signal.SIGTERM) == 0
    worker.join()
    assert "ok" in results
    assert set(results) <= {"ok", "UNAVAILABLE"}, "in-flight calls finish or are refused cleanly"
