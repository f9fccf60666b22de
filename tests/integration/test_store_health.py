"""Issue 8, item 9: health tells the truth about the store, and recovers.

The store is made unable to write under a real server process by lowering
that process's file-size limit to 0 (``prlimit``): every write to a file
fails as on a full disk (Python ignores ``SIGXFSZ``, so the writes fail with
``EFBIG``), while reads go on. Raising the limit again frees the "disk".

Before: health said ``SERVING`` throughout and a move got ``INTERNAL``.
After: ``NOT_SERVING`` within seconds, a move is refused with
``UNAVAILABLE``/``STORE_UNAVAILABLE`` and records nothing, reads still answer;
once the store can write, ``SERVING`` again and moves are recorded.
"""

from __future__ import annotations

import random
import resource
import time

import grpc
import pytest
from arbiter.v1 import game_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.integration.conftest import ServerProcess
from tests.integration.helpers import new_game, play

pytestmark = pytest.mark.integration

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def wait_status(server: ServerProcess, want: int, timeout: float = 20.0) -> None:
    with server.channel() as channel:
        health = health_pb2_grpc.HealthStub(channel)
        deadline = time.monotonic() + timeout
        seen = None
        while time.monotonic() < deadline:
            for service in ("", "arbiter.v1.GameService"):
                seen = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
                if seen.status != want:
                    break
            else:
                return
            time.sleep(0.2)
        raise AssertionError(f"health stayed {seen}, not {want}")


def test_health_follows_the_store_and_recovers(arbiter_server: ServerProcess) -> None:
    stub = arbiter_server.stub()
    game_id = new_game(stub)
    state = play(stub, game_id, 3, random.Random(5))
    assert not state.over
    legal = stub.LegalActions(game_pb2.LegalActionsRequest(game_id=game_id))
    move = game_pb2.ActRequest(game_id=game_id, command=legal.actions[0].command,
                               expected_version=state.version)
    assert arbiter_server.process is not None
    pid = arbiter_server.process.pid
    unlimited = resource.prlimit(pid, resource.RLIMIT_FSIZE)
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (0, unlimited[1]))  # the disk is full
    try:
        wait_status(arbiter_server, NOT_SERVING)
        with pytest.raises(grpc.RpcError) as refused:
            stub.Act(move, timeout=30)
        error: grpc.RpcError = refused.value
        assert error.code() == grpc.StatusCode.UNAVAILABLE, error
        trailers = dict(error.trailing_metadata() or ())  # type: ignore[attr-defined]
        assert trailers.get("arbiter-reason") == "STORE_UNAVAILABLE"
        # Reads still answer, and nothing was recorded.
        now = stub.GetState(game_pb2.GetStateRequest(game_id=game_id))
        assert now.version == state.version
    finally:
        resource.prlimit(pid, resource.RLIMIT_FSIZE, unlimited)  # space again
    wait_status(arbiter_server, SERVING)
    reply = stub.Act(move, timeout=30)
    assert reply.version > state.version
    assert [e.version for e in stub.History(game_pb2.HistoryRequest(game_id=game_id))] == list(
        range(1, reply.version + 1))
    # A new game is stored too: the store writes again.
    assert stub.GetState(game_pb2.GetStateRequest(game_id=new_game(stub))).version == 1
