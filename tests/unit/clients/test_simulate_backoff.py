"""``arbiter simulate`` is a fair client: refused RATE_LIMITED (its address has
had its share of the server's time), it backs off and goes on, and any other
refusal still reaches the playout."""

from __future__ import annotations

import grpc
import pytest
from arbiter.client import ArbiterError

from clients import simulate


def test_a_rate_limited_call_is_retried_after_a_growing_wait(
        monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []
    monkeypatch.setattr(simulate.time, "sleep", waits.append)
    answers = iter([ArbiterError(grpc.StatusCode.RESOURCE_EXHAUSTED, "RATE_LIMITED", "slow"),
                    ArbiterError(grpc.StatusCode.RESOURCE_EXHAUSTED, "RATE_LIMITED", "slow"),
                    "state"])

    def call(game_id: str, *, token: str) -> str:
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return f"{answer} of {game_id} for {token}"

    assert simulate.patiently(call, "g", token="t") == "state of g for t"
    assert waits == [0.05, 0.1]


def test_any_other_refusal_is_not_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate.time, "sleep", lambda seconds: pytest.fail("no wait"))

    def call() -> None:
        raise ArbiterError(grpc.StatusCode.FAILED_PRECONDITION, "ILLEGAL_MOVE", "no")

    with pytest.raises(ArbiterError) as info:
        simulate.patiently(call)
    assert info.value.reason == "ILLEGAL_MOVE"
