"""The web side's one way into the game service: gRPC, over the server's own socket.

Every page and every JSON gateway call is a real ``GameService`` call, made
through the gRPC server that serves everyone else, so that there is no second
rules path: the same servicer, credentials, reason codes, interceptors and
per-caller limits. The calls travel over a Unix socket in the server's private
data folder, which only this process (and the operator) can open; a call that
arrives there may say whose call it is (``arbiter-forwarded-for``, the HTTP
client's address), and the limits charge that address (``auth.peer_of``), not
the socket's. A call arriving on the TCP port cannot claim another address.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import grpc
from arbiter.v1 import game_pb2, game_pb2_grpc
from google.protobuf.message import Message

from service.auth import FORWARDED_KEY, FORWARDED_PROOF, FORWARDED_PROOF_KEY, METADATA_KEY, SCHEME

#: Every GameService method: its request and response types, and whether it streams.
SERVICE = game_pb2.DESCRIPTOR.services_by_name["GameService"]


@dataclasses.dataclass(frozen=True)
class Method:
    """One GameService method as the gateway serves it."""

    name: str
    request: type[Message]
    response: type[Message]
    streaming: bool
    comment: str = ""


def _message_class(descriptor: Any) -> type[Message]:
    return getattr(game_pb2, descriptor.name)  # type: ignore[no-any-return]


#: The methods the JSON gateway serves: the unary and server-streaming ones. A
#: bidirectional stream (``Play``) has no single HTTP request to carry it; the web
#: side holds a seat's ``Play`` for its page over a WebSocket (``service.web.seat``).
METHODS: dict[str, Method] = {
    m.name: Method(m.name, _message_class(m.input_type), _message_class(m.output_type),
                   bool(m.server_streaming))
    for m in SERVICE.methods if not m.client_streaming
}


class GatewayError(Exception):
    """A refusal from the game service, as it left the server: the gRPC code's name,
    the stable reason code, the sentence and the game's version."""

    def __init__(self, code: str, reason: str, message: str, version: int = 0) -> None:
        super().__init__(f"{reason}: {message}")
        self.code = code
        self.reason = reason
        self.message = message
        self.version = version

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "reason": self.reason,
                          "message": self.message, "version": self.version}}


def refusal_of(error: grpc.aio.AioRpcError) -> GatewayError:
    """The service's refusal as facts: reason and version from the trailers, the
    sentence without its ``REASON: `` head (the reason travels on its own)."""
    trailers = {k: v for k, v in (error.trailing_metadata() or ()) if isinstance(v, str)}
    code = error.code().name
    reason = trailers.get("arbiter-reason", code)
    message = error.details() or ""
    if message.startswith(reason + ": "):
        message = message[len(reason) + 2:]
    version = trailers.get("arbiter-version", "0")
    return GatewayError(code, reason, message, int(version) if version.isdigit() else 0)


class Backend:
    """A gRPC channel to the server's own socket, used from the web side's event loop."""

    def __init__(self, target: str, max_message_bytes: int) -> None:
        self.target = target
        self.max_message_bytes = max_message_bytes
        self._channel: grpc.aio.Channel | None = None
        self._stub: Any = None

    async def open(self) -> None:
        """Open the channel (in the loop that will use it: grpc.aio is bound to one)."""
        self._channel = grpc.aio.insecure_channel(self.target, options=[
            ("grpc.max_receive_message_length", 16 * 1024 * 1024),
            ("grpc.max_send_message_length", self.max_message_bytes + 4096),
        ])
        self._stub = game_pb2_grpc.GameServiceStub(self._channel)

    async def close(self) -> None:
        if self._channel is not None:
            await self._channel.close(grace=None)

    @staticmethod
    def metadata(token: str, peer: str) -> list[tuple[str, str]]:
        """The bearer token, if any, and the HTTP caller's address (with the proof
        that this process's web side names it)."""
        out = [(FORWARDED_KEY, peer), (FORWARDED_PROOF_KEY, FORWARDED_PROOF)]
        if token:
            out.append((METADATA_KEY, SCHEME + token))
        return out

    async def call(self, method: str, request: Message, token: str, peer: str,
                   timeout: float = 30.0) -> Any:
        """One unary call; a refusal raises ``GatewayError``."""
        try:
            return await getattr(self._stub, method)(
                request, metadata=self.metadata(token, peer), timeout=timeout)
        except grpc.aio.AioRpcError as exc:
            raise refusal_of(exc) from None

    async def stream(self, method: str, request: Message, token: str,
                     peer: str) -> AsyncIterator[Any]:
        """A server stream's messages; a refusal, even after some, raises ``GatewayError``.
        Leaving the loop early cancels the call."""
        call = getattr(self._stub, method)(request, metadata=self.metadata(token, peer))
        try:
            async for message in call:
                yield message
        except grpc.aio.AioRpcError as exc:
            raise refusal_of(exc) from None
        finally:
            call.cancel()

    def play(self, token: str, peer: str) -> PlayCall:
        """A ``Play`` stream held for a page (``service.web.seat``): the same
        per-seat stream a bot or the terminal plays on, its one authentication
        the page's token, charged to the HTTP client's address like every
        other stream. The caller writes the join, then the moves."""
        return PlayCall(self._stub.Play(metadata=self.metadata(token, peer)))


class PlayCall:
    """One ``Play`` call, used from the web side's event loop: moves are written
    by one task while another reads the pushes; a refusal raises ``GatewayError``."""

    def __init__(self, call: Any) -> None:
        self._call = call
        #: Whether a write met the stream's end: gRPC's client then ends the
        #: call INTERNAL itself, losing the service's status (a stream refused
        #: as it opened, racing the join's write).
        self._write_failed = False

    async def send(self, request: game_pb2.PlayRequest) -> None:
        """Write one request; a stream already ended (refused as it opened,
        or since) drops it: its end, and why, is read by ``messages``, so a
        refusal is told once, in order after what came before it."""
        if self._call.done():
            return
        try:
            await self._call.write(request)
        except (grpc.aio.AioRpcError, asyncio.InvalidStateError):
            self._write_failed = True

    async def messages(self) -> AsyncIterator[game_pb2.PlayMessage]:
        """The stream's pushes, in order, until it ends."""
        try:
            async for message in self._call:
                yield message
        except grpc.aio.AioRpcError as exc:
            if self._write_failed and exc.code() == grpc.StatusCode.INTERNAL:
                raise GatewayError(
                    "UNAVAILABLE", "STREAM_REFUSED",
                    "the service ended the stream as it opened (its reason was lost "
                    "on the way: too many streams from this address, or a busy "
                    "server); try again shortly") from None
            raise refusal_of(exc) from None

    def cancel(self) -> None:
        """End the call (the page left): its stream slot is freed at once."""
        self._call.cancel()
