"""Malformed request bytes are the caller's fault, not the server's.

gRPC's own request decoding, when the bytes do not parse, logs a traceback
("Exception deserializing message!") and ends the call with ``INTERNAL`` — so
a client sending garbage fills the log and looks like a server bug. This
interceptor decodes every request of every service the server hosts itself:
bytes that do not parse become a marker, and the call is refused with
``INVALID_ARGUMENT``/``BAD_MESSAGE`` before any handler sees it, with nothing
logged.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import grpc

from service.errors import ServiceError
from service.handlers import Wrapping, rebuilt
from service.status import abort_async

BAD_MESSAGE = ServiceError(
    "INVALID_ARGUMENT", "BAD_MESSAGE", "the request's bytes are not a valid protobuf message"
)


class _Malformed:
    """Stands for a request whose bytes did not parse."""


MALFORMED = _Malformed()


def _tolerant(decode: Callable[[bytes], Any]) -> Callable[[bytes], Any]:
    def tolerant(data: bytes) -> Any:
        try:
            return decode(data)
        except Exception:  # noqa: BLE001 - any decoding failure is the caller's bytes
            return MALFORMED

    return tolerant


class MalformedRequests(Wrapping):
    """Refuse requests whose bytes do not parse, cleanly (see the module's doc)."""

    def __init__(self, abort: Callable[[grpc.ServicerContext, Exception], None]) -> None:
        super().__init__()
        self.abort = abort

    def wrap(self, method: str, handler: Any) -> Any:
        if handler.request_deserializer is None:
            return handler
        abort = self.abort
        behaviour: Callable[[Any, grpc.ServicerContext], Any]
        if handler.request_streaming:
            streaming = handler.stream_stream or handler.stream_unary

            def checked(requests: Iterator[Any], context: grpc.ServicerContext) -> Iterator[Any]:
                for request in requests:
                    if request is MALFORMED:
                        abort(context, BAD_MESSAGE)
                    yield request

            def from_stream(requests: Iterator[Any], context: grpc.ServicerContext) -> Any:
                return streaming(checked(requests, context), context)

            async def checked_async(requests: AsyncIterator[Any],
                                    context: Any) -> AsyncIterator[Any]:
                async for request in requests:
                    if request is MALFORMED:
                        await abort_async(context, BAD_MESSAGE)
                    yield request

            async def from_loop_stream(requests: AsyncIterator[Any],
                                       context: Any) -> AsyncIterator[Any]:
                async for reply in streaming(checked_async(requests, context), context):
                    yield reply

            behaviour = (from_loop_stream if inspect.isasyncgenfunction(streaming)
                         else from_stream)
        else:
            unary = handler.unary_unary or handler.unary_stream

            def from_one(request: Any, context: grpc.ServicerContext) -> Any:
                if request is MALFORMED:
                    abort(context, BAD_MESSAGE)
                return unary(request, context)

            behaviour = from_one

        return rebuilt(handler, behaviour, _tolerant(handler.request_deserializer))
