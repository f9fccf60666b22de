"""Issue 8, item 10: the client retries what is safe to retry, and only that.

Against an in-process fake GameService (conftest.py) that refuses the first
calls of a method with a chosen status and reason: a retried create carries
the same request id, a retried move the same command id, so the server's
deduplication makes the retry exactly-once; a refusal that would only be
refused again (a version mismatch, a rate limit) is not retried; the retries
are bounded.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
from arbiter.v1 import game_pb2_grpc

from clients import client as client_module
from clients.client import ArbiterClient, ArbiterError, AsyncArbiterClient, retryable
from tests.unit.clients.conftest import FakeGameService

UNAVAILABLE = grpc.StatusCode.UNAVAILABLE
ABORTED = grpc.StatusCode.ABORTED


@dataclass
class FlakyService(FakeGameService):
    """Refuses the first ``failures[method]`` calls of a method with ``status[method]``."""

    failures: dict[str, int] = field(default_factory=dict)
    status: dict[str, tuple[grpc.StatusCode, str]] = field(default_factory=dict)

    def _note(self, method: str, request: Any, context: grpc.ServicerContext) -> None:
        super()._note(method, request, context)
        if self.failures.get(method, 0) > 0:
            self.failures[method] -= 1
            code, reason = self.status.get(method, (UNAVAILABLE, "BUSY"))
            context.set_trailing_metadata((("arbiter-reason", reason),))
            context.abort(code, f"{reason}: refused by the fake")

    def requests(self, method: str) -> list[Any]:
        return [c.request for c in self.calls if c.method == method]


@pytest.fixture
def flaky(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[FlakyService, str]]:
    monkeypatch.setattr(client_module, "RETRY_BACKOFF", (0.001, 0.002))  # no waiting here
    service = FlakyService()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    game_pb2_grpc.add_GameServiceServicer_to_server(service, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield service, f"127.0.0.1:{port}"
    finally:
        server.stop(None)


def test_which_failures_are_retryable() -> None:
    assert retryable(ArbiterError(UNAVAILABLE, "BUSY", ""))
    assert retryable(ArbiterError(UNAVAILABLE, "STORE_UNAVAILABLE", ""))
    assert retryable(ArbiterError(UNAVAILABLE, "UNAVAILABLE", "connection refused"))
    assert retryable(ArbiterError(ABORTED, "CONTENDED", ""))
    assert not retryable(ArbiterError(ABORTED, "VERSION_MISMATCH", ""))
    assert not retryable(ArbiterError(grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_CALLS", ""))
    assert not retryable(ArbiterError(grpc.StatusCode.DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED", ""))


def test_a_busy_create_is_retried_with_the_same_request_id(
    flaky: tuple[FlakyService, str],
) -> None:
    service, address = flaky
    service.failures["CreateGame"] = 3
    with ArbiterClient(address, token="") as client:
        created = client.create_game("enin", ["Ada"])  # no request id given: one is made
        assert created.game_id
    sent = service.requests("CreateGame")
    assert len(sent) == 4
    assert sent[0].request_id and {r.request_id for r in sent} == {sent[0].request_id}
    # the caller's own request id is the one sent, every time
    service.failures["CreateGame"] = 1
    with ArbiterClient(address, token="") as client:
        client.create_game("enin", ["Ada"], request_id="mine")
    assert [r.request_id for r in service.requests("CreateGame")[4:]] == ["mine", "mine"]


def test_a_move_is_retried_with_the_same_command_id(flaky: tuple[FlakyService, str]) -> None:
    service, address = flaky
    service.failures["Act"] = 2
    service.status["Act"] = (ABORTED, "CONTENDED")
    with ArbiterClient(address, token="t") as client:
        client.act("g", 0, {"name": "roll_start", "args": {}})
    sent = service.requests("Act")
    assert len(sent) == 3 and len({r.command_id for r in sent}) == 1 and sent[0].command_id


def test_what_would_be_refused_again_is_not_retried(flaky: tuple[FlakyService, str]) -> None:
    service, address = flaky
    service.failures["Act"] = 1
    service.status["Act"] = (ABORTED, "VERSION_MISMATCH")
    with ArbiterClient(address, token="t") as client, pytest.raises(ArbiterError) as refused:
        client.act("g", 0, {"name": "roll_start", "args": {}}, expected_version=3)
    assert refused.value.reason == "VERSION_MISMATCH" and len(service.requests("Act")) == 1


def test_retries_are_bounded(flaky: tuple[FlakyService, str]) -> None:
    service, address = flaky
    service.failures["GetState"] = 100
    with ArbiterClient(address, token="t", retries=2) as client, \
            pytest.raises(ArbiterError) as refused:
        client.state("g")
    assert (refused.value.code, refused.value.reason) == (UNAVAILABLE, "BUSY")
    assert len(service.requests("GetState")) == 3
    with ArbiterClient(address, token="t", retries=0) as client, pytest.raises(ArbiterError):
        client.state("g")
    assert len(service.requests("GetState")) == 4


def test_the_asyncio_client_retries_alike(flaky: tuple[FlakyService, str]) -> None:
    service, address = flaky
    service.failures["CreateGame"] = 2
    service.failures["Act"] = 2

    async def run() -> None:
        async with AsyncArbiterClient(address, token="t") as client:
            created = await client.create_game("enin", ["Ada"])
            await client.act(created.game_id, 0, {"name": "roll_start", "args": {}})

    asyncio.run(run())
    creates, acts = service.requests("CreateGame"), service.requests("Act")
    assert len(creates) == 3 and len({r.request_id for r in creates}) == 1
    assert len(acts) == 3 and len({r.command_id for r in acts}) == 1
