"""Issue 8, item 4: every caller's share, over a real server process.

The server listens on every address, so one test reaches it as two callers:
``127.0.0.1`` (the attacker) and ``[::1]`` (everyone else).

Before: one address without any token held every stream slot with health
``Watch`` streams (``TOO_MANY_STREAMS`` for everybody), created games as fast
as it could, called as fast as it could, and ``ListGames(rules="nope")``
scanned the whole catalogue.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from arbiter.v1 import game_pb2, game_pb2_grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.redis_server import free_port
from tests.integration.conftest import BearerToken, ServerProcess

pytestmark = pytest.mark.integration


def has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as sock:
            sock.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.fixture
def two_callers(tmp_path: Any, redis_url: str) -> Iterator[tuple[ServerProcess, int]]:
    if not has_ipv6_loopback():
        pytest.skip("no IPv6 loopback: cannot be two callers on one machine")
    server = ServerProcess(tmp_path / "data", redis_url, {
        "ARBITER_MAX_STREAMS_PER_PEER": "8",
        "ARBITER_CREATES_PER_MINUTE": "5",
        "ARBITER_CALLS_PER_SECOND": "20",
        "ARBITER_KEEPALIVE_SECONDS": "2",
    })
    port = free_port()
    server.address = f"[::]:{port}"
    server.start()
    try:
        yield server, port
    finally:
        server.stop()


def stub_at(address: str, token: str = "") -> game_pb2_grpc.GameServiceStub:
    channel = grpc.insecure_channel(address)
    if token:
        channel = grpc.intercept_channel(channel, BearerToken(token))
    return game_pb2_grpc.GameServiceStub(channel)


def reason_of(error: Any) -> tuple[grpc.StatusCode, str]:
    trailers = dict(error.trailing_metadata() or ())
    return error.code(), trailers.get("arbiter-reason", "")


def test_one_address_cannot_take_every_stream(two_callers: tuple[ServerProcess, int]) -> None:
    server, port = two_callers
    attacker = grpc.insecure_channel(f"127.0.0.1:{port}")
    watches = []
    for _ in range(8):
        watch = health_pb2_grpc.HealthStub(attacker).Watch(health_pb2.HealthCheckRequest())
        next(watch)  # open and served
        watches.append(watch)
    more = health_pb2_grpc.HealthStub(attacker).Watch(health_pb2.HealthCheckRequest())
    with pytest.raises(grpc.RpcError) as refused:
        next(more)
    assert reason_of(refused.value) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_STREAMS")
    # Another caller still opens feeds; so does the operator from the same address.
    admin = stub_at(f"127.0.0.1:{port}", server.admin_token)
    created = admin.CreateGame(game_pb2.CreateGameRequest(rules="enin", seats=["solo"]))
    other = stub_at(f"[::1]:{port}", created.spectator_token)
    feed = other.Subscribe(game_pb2.SubscribeRequest(game_id=created.game_id, spectator=True))
    assert next(feed)
    assert next(iter(admin.History(game_pb2.HistoryRequest(game_id=created.game_id)))).version == 1
    feed.cancel()
    # A stream given back is a slot again.
    watches.pop().cancel()
    time.sleep(0.5)
    again = health_pb2_grpc.HealthStub(attacker).Watch(health_pb2.HealthCheckRequest())
    assert next(again)
    for watch in [*watches, again]:
        watch.cancel()
    attacker.close()


def test_game_creation_is_capped_per_caller(two_callers: tuple[ServerProcess, int]) -> None:
    server, port = two_callers
    request = game_pb2.CreateGameRequest(rules="enin", seats=["solo"])
    attacker = stub_at(f"127.0.0.1:{port}", "an-invented-token-of-its-own-choosing-0001")
    for _ in range(5):
        attacker.CreateGame(request)
    with pytest.raises(grpc.RpcError) as refused:
        attacker.CreateGame(request)
    assert reason_of(refused.value) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "RATE_LIMITED")
    # Inventing another token changes nothing: the caller is its address.
    with pytest.raises(grpc.RpcError):
        stub_at(f"127.0.0.1:{port}", "another-invented-token-000000000000002").CreateGame(request)
    assert stub_at(f"[::1]:{port}").CreateGame(request).game_id
    assert stub_at(f"127.0.0.1:{port}", server.admin_token).CreateGame(request).game_id


def test_call_rate_is_per_caller_and_weighed(two_callers: tuple[ServerProcess, int]) -> None:
    _, port = two_callers
    attacker = stub_at(f"127.0.0.1:{port}")
    refused = 0
    for _ in range(60):
        try:
            attacker.ListGames(game_pb2.ListGamesRequest(limit=500))  # 11 calls' worth each
        except grpc.RpcError as exc:
            assert reason_of(exc) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "RATE_LIMITED")
            refused += 1
    assert refused >= 50
    other = stub_at(f"[::1]:{port}")
    for _ in range(20):
        other.ListRules(game_pb2.ListRulesRequest())


def test_list_games_of_unknown_rules_is_refused_at_once(shared_server: ServerProcess) -> None:
    stub = shared_server.stub()
    with pytest.raises(grpc.RpcError) as refused:
        stub.ListGames(game_pb2.ListGamesRequest(rules="nope"))
    assert reason_of(refused.value) == (grpc.StatusCode.NOT_FOUND, "UNKNOWN_RULES")


HOLDER = """
import sys, time, grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
channel = grpc.insecure_channel(sys.argv[1])
watches = [health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest())
           for _ in range(int(sys.argv[2]))]
for watch in watches:
    next(watch)
print("holding", flush=True)
time.sleep(600)
"""


def test_a_vanished_client_gives_its_streams_back(two_callers: tuple[ServerProcess, int]) -> None:
    """A client that stops answering (frozen, unplugged) holds no stream for long:
    the server's keepalive pings go unanswered and its connection is closed."""
    import signal
    import subprocess
    import sys

    _, port = two_callers
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, f"127.0.0.1:{port}", "8"],
                              stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"holding"
        holder.send_signal(signal.SIGSTOP)  # gone, as far as the server can tell
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        with pytest.raises(grpc.RpcError) as refused:
            next(health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest()))
        assert reason_of(refused.value)[1] == "TOO_MANY_STREAMS"
        deadline = time.monotonic() + 30
        while True:
            try:
                watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest())
                next(watch)
                watch.cancel()
                break
            except grpc.RpcError:
                assert time.monotonic() < deadline, "the frozen client still holds its streams"
                time.sleep(0.5)
        channel.close()
    finally:
        holder.kill()
        holder.wait()


def test_list_games_reports_versions_without_loading_games(shared_server: ServerProcess) -> None:
    import random

    from tests.integration.helpers import new_game, play

    stub = shared_server.stub()
    game_id = new_game(stub)
    state = play(stub, game_id, 5, random.Random(11))
    pages = [stub.ListGames(game_pb2.ListGamesRequest(rules=r, limit=500)) for r in ("", "enin")]
    for page in pages:
        summary = next(g for g in page.games if g.game_id == game_id)
        assert (summary.version, summary.over, summary.rules) == (state.version, state.over, "enin")
        assert list(summary.seats) == ["solo"] and summary.created.seconds > 0


def test_an_idle_health_watch_ends(tmp_path: Any, redis_url: str) -> None:
    """A Watch with nothing to send ends after ARBITER_IDLE_WATCH_SECONDS
    (status OK: the client watches again); before, it held its thread for ever."""
    server = ServerProcess(tmp_path / "data", redis_url, {"ARBITER_IDLE_WATCH_SECONDS": "2"})
    server.start()
    try:
        with server.channel() as channel:
            watch = health_pb2_grpc.HealthStub(channel).Watch(
                health_pb2.HealthCheckRequest(), timeout=15)
            assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
            started = time.monotonic()
            assert list(watch) == []  # ended by the server, not by the deadline
            assert watch.code() == grpc.StatusCode.OK
            assert 1.5 < time.monotonic() - started < 10
    finally:
        server.stop()
