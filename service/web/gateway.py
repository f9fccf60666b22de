"""The JSON gateway: every ``GameService`` call over HTTP, as JSON.

``POST /v1/<Method>`` with the request message as proto3 JSON (field names as
in the ``.proto`` or in lowerCamelCase) and the seat's credential as
``Authorization: Bearer <token>``, exactly as gRPC metadata carries it. A
unary call answers with its response message in proto3's JSON mapping to the
letter, as the protobuf library's ``json_format``, grpcurl and gRPC JSON
transcoding write it: 64-bit integers (versions, positions) as strings,
enums by name, bytes in base64, with two of the options the mapping allows:
every field present (a client need not know the defaults) and field names as
in the ``.proto``. ``/v1/Act`` also takes its command in the rules' own JSON
form, as the CLI, the seat pages and ``LegalAction.json`` write it:
``"command_json": "{\"name\": ..., \"args\": {...}}"`` or
``"command": {"name": ..., "args": {...}}``. A streaming call
(``History``, ``Subscribe``) answers with one JSON message per line
(``application/x-ndjson``), or as Server-Sent Events when the client accepts
``text/event-stream`` (each event's ``id`` its version, so a reconnecting
``EventSource`` resumes after the last one it saw).

A refusal is the service's own: the HTTP status of its gRPC code (as
grpc-gateway maps them) and ``{"error": {"code", "reason", "message",
"version"}}`` with the same stable reason code a gRPC client reads from the
``arbiter-reason`` trailer. A refusal in the middle of a stream is its last
line (or an ``error`` event). A browser's request from another site is refused
(``CROSS_SITE``), as the pages' own posts are. The calls go through the gRPC server itself
(``service.web.backend``): same credentials, reasons and per-caller limits.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from arbiter.v1 import game_pb2
from arbiter.wire import WireError, json_to_command, parse_json_command
from google.protobuf import json_format
from google.protobuf.message import Message

from service.web.backend import METHODS, SERVICE, Backend, GatewayError

#: The game service's bidirectional streams, which a request and its response cannot carry.
BIDIRECTIONAL = frozenset(m.name for m in SERVICE.methods if m.client_streaming)

#: HTTP statuses of gRPC codes, as grpc-gateway maps them.
HTTP_STATUS = {
    "OK": 200, "CANCELLED": 499, "UNKNOWN": 500, "INVALID_ARGUMENT": 400,
    "DEADLINE_EXCEEDED": 504, "NOT_FOUND": 404, "ALREADY_EXISTS": 409,
    "PERMISSION_DENIED": 403, "UNAUTHENTICATED": 401, "RESOURCE_EXHAUSTED": 429,
    "FAILED_PRECONDITION": 400, "ABORTED": 409, "OUT_OF_RANGE": 400,
    "UNIMPLEMENTED": 501, "INTERNAL": 500, "UNAVAILABLE": 503, "DATA_LOSS": 500,
}
BACKEND: web.AppKey[Backend] = web.AppKey("backend", Backend)
NDJSON = "application/x-ndjson"
SSE = "text/event-stream"


def to_json(message: Message) -> dict[str, Any]:
    """A message in proto3's JSON mapping (``json_format``'s own output: 64-bit
    integers as strings), every field present, field names as in the ``.proto``."""
    return json_format.MessageToDict(
        message, always_print_fields_with_no_presence=True, preserving_proto_field_name=True)


def page_json(message: Message) -> dict[str, Any]:
    """A message for the pages' own scripts (their live feed), not the gateway:
    as ``to_json``, but 64-bit numbers as JSON numbers where JavaScript holds
    them exactly, so a page compares versions as numbers."""
    return json_format.MessageToDict(
        message, always_print_fields_with_no_presence=True,
        preserving_proto_field_name=True, unquote_int64_if_possible=True)


def error_response(error: GatewayError) -> web.Response:
    return web.json_response(error.to_json(), status=HTTP_STATUS.get(error.code, 500))


def refused(code: str, reason: str, message: str) -> web.Response:
    return error_response(GatewayError(code, reason, message))


def whole_number(text: str, digits: int = 18) -> int | None:
    """``text`` as a whole number if it is 1 to ``digits`` ASCII digits (a version
    fits a uint64), else None: ``str.isdigit`` also takes '²', which ``int`` does not."""
    if 0 < len(text) <= digits and text.isascii() and text.isdigit():
        return int(text)
    return None


def bearer(request: web.Request) -> str:
    """The token of ``Authorization: Bearer <token>``, or ""."""
    header = request.headers.get("Authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip()
    return header.strip()


def peer(request: web.Request) -> str:
    """The HTTP client's address as a gRPC peer string (what the limits charge)."""
    host = request.remote or ""
    if ":" in host:
        return f"ipv6:[{host}]:0"
    return f"ipv4:{host}:0" if host else "ipv4:0.0.0.0:0"


def same_origin(request: web.Request) -> bool:
    """A state-changing request from this site only (CSRF): a browser says where a
    request comes from (``Sec-Fetch-Site``, else ``Origin``); a request saying
    neither is no browser's, so no cross-site forgery."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site in ("same-origin", "none")
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return origin != "null" and urlsplit(origin).netloc == request.host


def read_object(method_name: str, body: bytes) -> dict[str, Any]:
    """The request's JSON object; ``GatewayError`` (``BAD_MESSAGE``) if it is not one."""
    method = METHODS[method_name]
    try:
        data = json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError) as exc:
        raise GatewayError("INVALID_ARGUMENT", "BAD_MESSAGE",
                           f"the body is not JSON: {exc}") from None
    except RecursionError:
        raise GatewayError("INVALID_ARGUMENT", "BAD_MESSAGE",
                           "the body's JSON is nested too deeply") from None
    if not isinstance(data, dict):
        raise GatewayError("INVALID_ARGUMENT", "BAD_MESSAGE",
                           f"the body must be a JSON object ({method.request.__name__})")
    return data


def parse(method_name: str, data: dict[str, Any]) -> Message:
    """The request message from its JSON object; ``GatewayError`` (``BAD_MESSAGE``)
    if it is not one."""
    method = METHODS[method_name]
    try:
        return json_format.ParseDict(data, method.request())
    except json_format.ParseError as exc:
        raise GatewayError("INVALID_ARGUMENT", "BAD_MESSAGE",
                           f"not a {method.request.__name__}: {exc}") from None
    except RecursionError:
        raise GatewayError("INVALID_ARGUMENT", "BAD_MESSAGE",
                           f"not a {method.request.__name__}: nested too deeply") from None


async def call(request: web.Request) -> web.StreamResponse:
    """``POST /v1/<Method>``."""
    name = request.match_info["method"]
    if not same_origin(request):
        # A page of another site can post here (a form sends text/plain, no
        # preflight) and needs no token to create games from its visitors'
        # addresses; a browser says where a request comes from.
        return refused("PERMISSION_DENIED", "CROSS_SITE",
                       "the JSON gateway answers this site's pages and clients that are "
                       "not browsers, never a page of another site")
    if name in BIDIRECTIONAL:
        return refused("UNIMPLEMENTED", "NOT_OVER_HTTP",
                       f"{name} is a bidirectional stream: call it over gRPC (a browser's "
                       "seat page holds it over the page's WebSocket)")
    if name not in METHODS:
        return refused("NOT_FOUND", "UNKNOWN_METHOD",
                       f"no GameService method {name!r}; see /openapi.json")
    token = bearer(request)
    if not (token.isascii() and token.isprintable()):  # gRPC metadata cannot carry it
        return refused("UNAUTHENTICATED", "BAD_TOKEN", "a token is printable ASCII")
    backend = request.app[BACKEND]
    try:
        data = read_object(name, await request.read())
        if name == "Act":
            data = await typed_command(backend, data, token, peer(request))
        message = parse(name, data)
    except GatewayError as exc:
        return error_response(exc)
    if not METHODS[name].streaming:
        try:
            reply = await backend.call(name, message, token, peer(request))
        except GatewayError as exc:
            return error_response(exc)
        return web.json_response(to_json(reply))
    events = SSE in request.headers.get("Accept", "")
    resume = request.headers.get("Last-Event-ID", "")
    after = whole_number(resume)
    if events and name == "Subscribe" and message.game_id and after is not None:  # type: ignore[attr-defined]
        message.after = after  # type: ignore[attr-defined]  # a game's feed resumes by version
    return await relay_stream(
        request, backend.stream(name, message, token, peer(request)), events)


def rules_form(data: dict[str, Any]) -> Any:
    """An Act body's command in the rules' JSON form, or None: ``command_json``
    (text), or a ``command`` naming a ``name`` (a typed Command never has one)."""
    if "command_json" in data:
        return data.pop("command_json")
    command = data.get("command")
    return command if isinstance(command, dict) and "name" in command else None


async def typed_command(backend: Backend, data: dict[str, Any], token: str,
                        who: str) -> dict[str, Any]:
    """An Act body with its command in the rules' JSON form made typed: the
    game's rules read from its state (with the caller's own credential), then
    the same conversion the CLI and the seat pages use (``arbiter.wire``)."""
    form = rules_form(data)
    if form is None:
        return data
    try:
        action = parse_json_command(form) if isinstance(form, str) else form
        game_id = data.get("game_id", data.get("gameId", ""))
        if not isinstance(game_id, str):
            raise WireError("game_id is text")
        state = await backend.call("GetState", game_pb2.GetStateRequest(
            game_id=game_id, spectator=True), token, who)
        command = json_to_command(state.rules, action)
    except WireError as exc:
        raise GatewayError("INVALID_ARGUMENT", "BAD_COMMAND", str(exc)) from None
    data["command"] = json_format.MessageToDict(command, preserving_proto_field_name=True)
    return data


async def relay_stream(request: web.Request, messages: AsyncIterator[Message],
                       events: bool) -> web.StreamResponse:
    """A server stream as NDJSON lines or Server-Sent Events. A refusal before the
    first message is an HTTP error; after it, the stream's last item. The gRPC
    stream ends with the HTTP one (a client gone is noticed at the next write,
    a heartbeat at the latest), not whenever the garbage collector gets to it:
    until then it holds one of the caller's stream slots."""
    response: web.StreamResponse | None = None
    try:
        async for item in messages:
            if response is None:
                response = await start_stream(request, events)
            await response.write(encode(to_json(item), events))
    except GatewayError as exc:
        if response is None:
            return error_response(exc)
        await response.write(encode(exc.to_json(), events, kind="error"))
    except ConnectionResetError:  # the client went away (its next write failed)
        if response is None:
            raise
        return response
    finally:
        close = getattr(messages, "aclose", None)
        if close is not None:
            await close()
    if response is None:
        response = await start_stream(request, events)
    await response.write_eof()
    return response


async def start_stream(request: web.Request, events: bool) -> web.StreamResponse:
    response = web.StreamResponse(headers={
        "Content-Type": SSE if events else NDJSON, "Cache-Control": "no-store",
        "X-Accel-Buffering": "no"})
    await response.prepare(request)
    return response


def encode(data: dict[str, Any], events: bool, kind: str = "") -> bytes:
    """One stream item: a JSON line, or an SSE event whose id is the event's version
    (status messages carry none, so a resume starts after the last event)."""
    text = json.dumps(data, separators=(",", ":"))
    if not events:
        return (text + "\n").encode()
    head = ""
    event = data.get("event") if isinstance(data.get("event"), dict) else data
    if not kind and isinstance(event, dict) and "version" in event and "type" in event:
        head = f"id: {event['version']}\n"
    if kind:
        head += f"event: {kind}\n"
    return f"{head}data: {text}\n\n".encode()


def routes() -> list[web.RouteDef]:
    return [web.post("/v1/{method}", call)]
