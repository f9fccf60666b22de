"""`python -m bench.observe [CALLS [EVERY]]`: what the server's outermost interceptor
(``service.metrics.CallObserver``: the call's metrics and its access line)
costs one call, apart from everything else a call does.

The same trivial unary handler is called ``CALLS`` times bare and through the
observer, turn about (A B A B, five pairs, so a shared machine's drift moves
both alike), with the server's JSON log configured onto ``/dev/null`` (``EVERY``: one
access line per so many OK calls, ``ARBITER_ACCESS_LOG_EVERY``). Two
figures per call, each the median of the pairs' differences: the request
thread's CPU (``time.thread_time``: what a call waits for) and the whole
process's (``time.process_time``, taken once the log is written out: what the
call costs the machine, a log thread's share included).
"""

from __future__ import annotations

import logging
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import grpc
from arbiter.v1 import game_pb2

from service import logs
from service.metrics import CallObserver

PAIRS = 5


class Context:
    """The little of a ``grpc.ServicerContext`` the observer reads: an OK call."""

    def code(self) -> None:
        return None

    def is_active(self) -> bool:
        return True

    def trailing_metadata(self) -> tuple[()]:
        return ()

    def peer(self) -> str:
        return "ipv4:127.0.0.1:50000"

    def invocation_metadata(self) -> tuple[()]:
        return ()


class Details:
    method = "/arbiter.v1.GameService/Act"
    invocation_metadata = ()


def handler() -> Any:
    reply = game_pb2.ActResponse(version=7)
    return grpc.unary_unary_rpc_method_handler(lambda request, context: reply)


def timed(behaviour: Callable[[Any, Any], Any], calls: int) -> tuple[float, float]:
    """(request-thread seconds, process seconds) of ``calls`` calls."""
    request = game_pb2.ActRequest(game_id="0" * 8 + "-0000-4000-8000-" + "0" * 12, seat=0)
    context = Context()
    flush()
    thread, process = time.thread_time(), time.process_time()
    for _ in range(calls):
        behaviour(request, context)
    thread = time.thread_time() - thread
    flush()
    return thread, time.process_time() - process


def flush() -> None:
    """Wait until every record queued for the log has been written."""
    drain = getattr(logs, "drain", None)
    if drain is not None:
        drain()


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    every = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    devnull = open(os.devnull, "w")  # noqa: SIM115 - the log's stream for the whole run
    logs.configure("json", devnull, logging.INFO)
    bare = handler().unary_unary
    observer = CallObserver(every) if every > 1 else CallObserver()  # as the old one is made
    observed = observer.intercept_service(lambda details: handler(), Details()).unary_unary
    thread_us: list[float] = []
    process_us: list[float] = []
    for _ in range(PAIRS):
        base_thread, base_process = timed(bare, calls)
        seen_thread, seen_process = timed(observed, calls)
        thread_us.append((seen_thread - base_thread) / calls * 1e6)
        process_us.append((seen_process - base_process) / calls * 1e6)
    print(f"CallObserver (one access line in {every}) per call, "
          f"median of {PAIRS} pairs of {calls} calls: "
          f"request thread {statistics.median(thread_us):.1f} us "
          f"(spread {min(thread_us):.1f}-{max(thread_us):.1f}), "
          f"process {statistics.median(process_us):.1f} us "
          f"(spread {min(process_us):.1f}-{max(process_us):.1f})")


if __name__ == "__main__":
    main()
