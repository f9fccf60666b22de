"""Rebuilding a gRPC method handler around new behaviour, for the server's
interceptors (``decoding``, ``drain``, ``metrics``): the one place that knows
which of grpc's four handler factories fits a handler's kind."""

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
