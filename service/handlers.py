"""Rebuilding a gRPC method handler around new behaviour, for the server's
interceptors (``decoding``, ``drain``, ``metrics``): the one place that knows
which of grpc's four handler factories fits a handler's kind; and the base of
the interceptors whose wrapper is made once per method (``Wrapping``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc

_FACTORIES = {
    (False, False): grpc.unary_unary_rpc_method_handler,
    (False, True): grpc.unary_stream_rpc_method_handler,
    (True, False): grpc.stream_unary_rpc_method_handler,
    (True, True): grpc.stream_stream_rpc_method_handler,
}


def rebuilt(handler: Any, behaviour: Callable[..., Any],
            request_deserializer: Callable[[bytes], Any] | None = None) -> Any:
    """A handler of ``handler``'s kind (request and response streaming or not)
    running ``behaviour``, with its serializers (or another request
    deserializer)."""
    factory = _FACTORIES[(handler.request_streaming, handler.response_streaming)]
    return factory(
        behaviour,
        request_deserializer=request_deserializer or handler.request_deserializer,
        response_serializer=handler.response_serializer,
    )


class Wrapping(grpc.ServerInterceptor):  # type: ignore[misc]
    """An interceptor whose wrapper of a method's handler depends on the method
    and the handler it wraps alone, so it is made once per method, not per call.

    gRPC asks every interceptor for a handler on every call; each of ours built
    its closures and a new handler each time, which was about a third of a
    cached ``GetState``'s server time (issue 20). The handler an interceptor is
    given is the same object call after call (the next one's wrapper, made
    once, or the servicer's own), so the wrapper made for it is kept, one per
    method; a method no service has (no handler) keeps nothing. What depends
    on the call (its caller, its request) stays in the wrapper's behaviour.
    """

    def __init__(self) -> None:
        #: method -> (the handler wrapped, its wrapper)
        self._made: dict[str, tuple[Any, Any]] = {}

    def intercept_service(self, continuation: Any, details: Any) -> Any:
        handler = continuation(details)
        if handler is None:
            return None
        made = self._made.get(details.method)
        if made is None or made[0] is not handler:
            made = self._made[details.method] = (handler, self.wrap(details.method, handler))
        return made[1]

    def wrap(self, method: str, handler: Any) -> Any:
        """The handler that runs ``handler`` of ``method`` with this interceptor's work."""
        raise NotImplementedError
