"""Every streaming call is in its caller's stream share, reflection's included
(DESIGN principle 11, "every reader's share"), over a real server process.

The server listens on every address, so one test reaches it as two callers:
``127.0.0.1`` (the attacker) and ``[::1]`` (everyone else).

Before: reflection's ``ServerReflectionInfo`` streams requests, and the
per-caller share let every call that streams requests through uncounted; one
tokenless address opened reflection streams, sent nothing, and held every
stream slot of the server: every other caller was refused ``TOO_MANY_STREAMS``
on ``Subscribe``, ``History`` and health ``Watch``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from arbiter.v1 import game_pb2, game_pb2_grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from service.redis_server import free_port
from tests.integration.conftest import ServerProcess
from tests.integration.test_shares import has_ipv6_loopback, reason_of

pytestmark = pytest.mark.integration

PER_CALLER = 6
SERVER_WIDE = 12


@pytest.fixture
def two_callers(tmp_path: Any, redis_url: str) -> Iterator[tuple[ServerProcess, int]]:
    if not has_ipv6_loopback():
        pytest.skip("no IPv6 loopback: cannot be two callers on one machine")
    server = ServerProcess(tmp_path / "data", redis_url, {
        "ARBITER_MAX_STREAMS_PER_PEER": str(PER_CALLER),
        "ARBITER_MAX_STREAMS": str(SERVER_WIDE),
    })
    server.address = f"[::]:{free_port()}"
    server.start()
    try:
        yield server, server.port
    finally:
        server.stop()


def silent_reflection_streams(
    channel: grpc.Channel, count: int, quiet: threading.Event
) -> list[Any]:
    """``count`` reflection streams that send no request until ``quiet`` is set."""

    def nothing() -> Iterator[reflection_pb2.ServerReflectionRequest]:
        quiet.wait()
        return
        yield  # a generator that yields nothing

    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    return [stub.ServerReflectionInfo(nothing()) for _ in range(count)]


def refused_count(calls: list[Any], settle: float = 2.0) -> int:
    """How many of ``calls`` the server ended with ``TOO_MANY_STREAMS``."""
    time.sleep(settle)
    refused = 0
    for call in calls:
        if call.done():
            assert reason_of(call) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_STREAMS")
            refused += 1
    return refused


def test_reflection_streams_count_in_the_callers_share(
    two_callers: tuple[ServerProcess, int]
) -> None:
    """DESIGN principle 11: no caller takes more than its share of the streams."""
    server, port = two_callers
    attacker = grpc.insecure_channel(f"127.0.0.1:{port}")
    quiet = threading.Event()
    calls = silent_reflection_streams(attacker, SERVER_WIDE + 4, quiet)
    try:
        assert refused_count(calls) == len(calls) - PER_CALLER
        # Everyone else still opens feeds, History and health watches.
        admin = server.stub()
        created = admin.CreateGame(game_pb2.CreateGameRequest(rules="enin", seats=["solo"]))
        other = grpc.insecure_channel(f"[::1]:{port}")
        stub = game_pb2_grpc.GameServiceStub(other)
        metadata = (("authorization", f"Bearer {created.spectator_token}"),)
        feed = stub.Subscribe(game_pb2.SubscribeRequest(
            game_id=created.game_id, spectator=True), metadata=metadata)
        assert next(feed)
        history = stub.History(game_pb2.HistoryRequest(
            game_id=created.game_id, spectator=True), metadata=metadata)
        assert next(history).version == 1
        watch = health_pb2_grpc.HealthStub(other).Watch(health_pb2.HealthCheckRequest())
        assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
        for call in (feed, history, watch):
            call.cancel()
        other.close()
    finally:
        quiet.set()
        for call in calls:
            call.cancel()
        attacker.close()


def test_a_reflection_stream_given_back_is_a_slot_again(
    two_callers: tuple[ServerProcess, int]
) -> None:
    """A share is of open streams: one closed is the caller's to open again, and
    reflection still answers within the share."""
    _, port = two_callers
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    quiet = threading.Event()
    held = silent_reflection_streams(channel, PER_CALLER, quiet)
    assert refused_count(held, settle=1.0) == 0
    held.pop().cancel()
    time.sleep(0.5)
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    answers = list(stub.ServerReflectionInfo(
        iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=10))
    names = {s.name for s in answers[0].list_services_response.service}
    assert "arbiter.v1.GameService" in names
    quiet.set()
    for call in held:
        call.cancel()
    channel.close()
