"""The access log and the call metrics, in-process: lines written by the log's
own thread, one OK line in ``every`` when sampled (each saying how many calls
it stands for), every refusal written, metric children bound once per method."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from arbiter.v1 import game_pb2

from service import logs, metrics

GAME = "00000000-0000-4000-8000-000000000000"


class Context:
    """A call's context as the observer reads it: OK, or refused with a reason."""

    def __init__(self, reason: str = "") -> None:
        self.reason = reason

    def code(self) -> grpc.StatusCode | None:
        return grpc.StatusCode.FAILED_PRECONDITION if self.reason else None

    def is_active(self) -> bool:
        return True

    def trailing_metadata(self) -> tuple[tuple[str, str], ...]:
        return (("arbiter-reason", self.reason),) if self.reason else ()

    def peer(self) -> str:
        return "ipv4:127.0.0.1:5000"


class Details:
    method = "/arbiter.v1.GameService/Act"


@pytest.fixture
def lines() -> Iterator[io.StringIO]:
    """The server's JSON log onto a buffer, read once everything queued is written."""
    stream = io.StringIO()
    logs.configure("json", stream, logging.INFO)
    yield stream
    logs.configure("json", io.StringIO(), logging.WARNING)


def written(stream: io.StringIO) -> list[dict[str, Any]]:
    logs.drain()
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def call(observer: metrics.CallObserver, reason: str = "") -> None:
    handler = grpc.unary_unary_rpc_method_handler(lambda request, context: None)
    behaviour = observer.intercept_service(lambda details: handler, Details()).unary_unary
    behaviour(game_pb2.ActRequest(game_id=GAME, seat=1), Context(reason))


def test_every_call_is_a_structured_line_written_off_the_calling_thread(
    lines: io.StringIO,
) -> None:
    call(metrics.CallObserver())
    call(metrics.CallObserver(), reason="WRONG_SEAT")
    ok, refused = written(lines)
    assert ok["logger"] == "arbiter.access" and ok["msg"].startswith("Act OK ")
    assert (ok["method"], ok["code"], ok["game"], ok["seat"]) == ("Act", "OK", GAME, 1)
    assert "calls" not in ok and "reason" not in ok
    assert refused["reason"] == "WRONG_SEAT" and refused["code"] == "FAILED_PRECONDITION"
    assert "WRONG_SEAT" in refused["msg"]


def test_sampled_ok_lines_say_how_many_calls_they_stand_for_and_refusals_all_stay(
    lines: io.StringIO,
) -> None:
    observer = metrics.CallObserver(access_every=3)
    for n in range(7):
        call(observer, reason="STALE_DECISION" if n == 2 else "")
    records = written(lines)
    # A line stands for the OK calls since the one before, itself included.
    assert [r["code"] for r in records] == ["FAILED_PRECONDITION", "OK", "OK"]
    assert [r.get("calls") for r in records] == [None, 3, 3]


def test_a_busy_method_writes_at_most_its_lines_a_second_and_counts_the_rest() -> None:
    sampler = metrics.Sampler(every=1, per_second=2)
    # Two lines in the first second; the third and fourth calls wait for a line...
    assert [sampler.take(t) for t in (10.0, 10.1, 10.2, 10.3)] == [1, 1, 0, 0]
    # ...which the next second's first line counts, itself included.
    assert [sampler.take(t) for t in (11.05, 11.1)] == [3, 1]
    assert metrics.Sampler(every=1, per_second=0).take(0.0) == 1  # no cap


def test_refusals_are_all_written_past_the_cap(lines: io.StringIO) -> None:
    observer = metrics.CallObserver(access_per_second=1)
    for n in range(6):
        call(observer, reason="STALE_DECISION" if n % 2 else "")
    records = written(lines)
    assert [r["code"] for r in records].count("FAILED_PRECONDITION") == 3
    assert [r["code"] for r in records].count("OK") == 1  # the cap: 1 OK line a second


def test_a_traceback_logged_from_a_call_is_written_whole(lines: io.StringIO) -> None:
    try:
        raise ValueError("the detail")
    except ValueError:
        logging.getLogger("service.test").exception("failed with %s", "an argument")
    (record,) = written(lines)
    assert record["msg"] == "failed with an argument"
    assert "ValueError: the detail" in record["exc"]


def test_metric_children_are_bound_once_per_method(monkeypatch: pytest.MonkeyPatch) -> None:
    looked_up: list[tuple[str, ...]] = []
    original = metrics.CALLS.labels

    def counting(*values: str) -> Any:
        looked_up.append(values)
        return original(*values)

    monkeypatch.setattr(metrics.CALLS, "labels", counting)
    logs.configure("json", io.StringIO(), logging.WARNING)
    observer = metrics.CallObserver()
    before = metrics.CALLS.labels("arbiter.v1.GameService", "Act", "OK")._value.get()
    looked_up.clear()
    for _ in range(5):
        call(observer)
    assert looked_up == [("arbiter.v1.GameService", "Act", "OK")]
    assert original("arbiter.v1.GameService", "Act", "OK")._value.get() == before + 5
