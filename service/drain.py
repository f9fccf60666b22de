"""Draining: on shutdown, refuse new calls cleanly until the line is quiet.

gRPC's own ``stop(grace)`` lets running calls finish, but a call that reaches
the server in the instant it stops is dropped as ``CANCELLED``, which a
client cannot tell from a lost answer. So the server first *drains*: every
new call is refused with ``UNAVAILABLE`` and the reason ``DRAINING`` (safe to
retry elsewhere) until no call has arrived for a short quiet period (bounded),
and only then stops gRPC, by when nothing is arriving to be dropped.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import grpc

from service.handlers import rebuilt

QUIET_SECONDS = 0.3
MAX_DRAIN_SECONDS = 3.0


class Drain(grpc.ServerInterceptor):  # type: ignore[misc]
    """Notes each call's arrival; while draining, refuses every new call."""

    def __init__(self) -> None:
        self.draining = threading.Event()
        self.last_arrival = time.monotonic()

    def intercept_service(self, continuation: Any, details: Any) -> Any:
        self.last_arrival = time.monotonic()
        handler = continuation(details)
        if handler is None or not self.draining.is_set():
            return handler
        return _refusing(handler)

    def drain(self, quiet: float = QUIET_SECONDS, limit: float = MAX_DRAIN_SECONDS) -> None:
        """Refuse new calls until none has arrived for ``quiet`` seconds (at
        most ``limit`` seconds in all)."""
        self.draining.set()
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            idle = time.monotonic() - self.last_arrival
            if idle >= quiet:
                return
            time.sleep(quiet - idle)


def _refuse(context: grpc.ServicerContext) -> None:
    context.set_trailing_metadata((("arbiter-reason", "DRAINING"), ("arbiter-version", "0")))
    context.abort(grpc.StatusCode.UNAVAILABLE, "the server is shutting down; retry")


def _refusing(handler: Any) -> Any:
    """A handler of the same kind that refuses the call."""
    def unary(request: Any, context: grpc.ServicerContext) -> Any:
        _refuse(context)

    def streaming(request: Any, context: grpc.ServicerContext) -> Any:
        _refuse(context)
        yield  # pragma: no cover - abort raises

    return rebuilt(handler, streaming if handler.response_streaming else unary)
