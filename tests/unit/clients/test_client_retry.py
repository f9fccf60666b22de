"""Issue 8, item 10: the client retries what is safe to retry, and only that.

Against an in-process fake GameService (conftest.py) that refuses the first
calls of a method with a chosen status and reason: a retried create carries
the same request id, a retried move the same command id, so the server's
deduplication makes the retry exactly-once; a refusal that would only be
refused again (a version mismatch, a rate limit) is not retried; the retries
are bounded; and all of it alike for the blocking and the asyncio client
(``perform``: the one request pipeline both share).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
from arbiter import client as client_module
from arbiter.client import ArbiterError, retryable

from tests.unit.clients.conftest import FakeGameService
from tests.unit.clients.support import Perform, client_call, serving

UNAVAILABLE = grpc.StatusCode.UNAVAILABLE
ABORTED = grpc.StatusCode.ABORTED
ROLL = {"name": "roll_start", "args": {}}


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
    with serving(service) as address:
        yield service, address


def test_which_failures_are_retryable() -> None:
    assert retryable(ArbiterError(UNAVAILABLE, "BUSY", ""))
    assert retryable(ArbiterError(UNAVAILABLE, "STORE_UNAVAILABLE", ""))
    assert retryable(ArbiterError(UNAVAILABLE, "UNAVAILABLE", "connection refused"))
    assert retryable(ArbiterError(ABORTED, "CONTENDED", ""))
    assert not retryable(ArbiterError(ABORTED, "VERSION_MISMATCH", ""))
    assert not retryable(ArbiterError(grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_CALLS", ""))
    assert not retryable(ArbiterError(grpc.StatusCode.DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED", ""))


def test_a_busy_create_is_retried_with_the_same_request_id(
    flaky: tuple[FlakyService, str], perform: Perform,
) -> None:
    service, address = flaky
    service.failures["CreateGame"] = 3
    (created,) = perform(address, [client_call("create_game", "enin", ["Ada"])], token="")
    assert created.game_id  # no request id given: one is made
    sent = service.requests("CreateGame")
    assert len(sent) == 4
    assert sent[0].request_id and {r.request_id for r in sent} == {sent[0].request_id}
    # the caller's own request id is the one sent, every time
    service.failures["CreateGame"] = 1
    perform(address, [client_call("create_game", "enin", ["Ada"], request_id="mine")], token="")
    assert [r.request_id for r in service.requests("CreateGame")[4:]] == ["mine", "mine"]


def test_a_move_is_retried_with_the_same_command_id(
    flaky: tuple[FlakyService, str], perform: Perform,
) -> None:
    service, address = flaky
    service.failures["Act"] = 2
    service.status["Act"] = (ABORTED, "CONTENDED")
    (moved,) = perform(address, [client_call("act", "g", 0, ROLL)], token="t")
    assert moved.version == 2
    sent = service.requests("Act")
    assert len(sent) == 3 and len({r.command_id for r in sent}) == 1 and sent[0].command_id


def test_what_would_be_refused_again_is_not_retried(
    flaky: tuple[FlakyService, str], perform: Perform,
) -> None:
    service, address = flaky
    service.failures["Act"] = 1
    service.status["Act"] = (ABORTED, "VERSION_MISMATCH")
    (refused,) = perform(address, [client_call("act", "g", 0, ROLL, expected_version=3)],
                         token="t")
    assert isinstance(refused, ArbiterError) and refused.reason == "VERSION_MISMATCH"
    assert len(service.requests("Act")) == 1


def test_retries_are_bounded(flaky: tuple[FlakyService, str], perform: Perform) -> None:
    service, address = flaky
    service.failures["GetState"] = 100
    (refused,) = perform(address, [client_call("state", "g")], token="t", retries=2)
    assert isinstance(refused, ArbiterError)
    assert (refused.code, refused.reason) == (UNAVAILABLE, "BUSY")
    assert len(service.requests("GetState")) == 3
    (refused,) = perform(address, [client_call("state", "g")], token="t", retries=0)
    assert isinstance(refused, ArbiterError)
    assert len(service.requests("GetState")) == 4


def test_a_stream_is_not_retried(flaky: tuple[FlakyService, str], perform: Perform) -> None:
    """A stream's messages may already be in the caller's hands: sending it again
    could repeat them, so only the feed's own resumption reopens one."""
    service, address = flaky
    service.failures["History"] = 1
    (refused,) = perform(address, [client_call("history", "g")], token="t")
    assert isinstance(refused, ArbiterError) and refused.reason == "BUSY"
    assert len(service.requests("History")) == 1
