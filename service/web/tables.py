"""The lobby's tables on the web: open a game with open seats, share one link,
others join by name, then each plays their seat's page; "play again" after.

Every read and action is an ordinary ``LobbyService`` call through the web
side's channel to the server's own socket (``service.web.backend``), charged to
the browser's address as the pages' ``GameService`` calls are. The secrets a
browser holds for a table (its seat's, and the host's for the table it
opened) live in cookies of that table's path only (``/tables/<id>``),
HttpOnly: the shared link (``/tables/<id>``) carries none. Once the game
starts, the table's page links the seat's page with the secret in the link's
fragment, as ``CreateGame``'s links are (``pages.join_href``).

Routes (``install``):

- ``GET /tables``: the tables gathering players, and the form to open one;
- ``POST /tables``: open a table (you in the first seat, bots and open seats
  as asked); to its page;
- ``GET /tables/<id>``: the table, the link to share, and what this browser
  may do: join by name, leave, start now (the host), play its seat, play again;
- ``GET /tables/<id>/state``: its version and whether its game is over (JSON),
  which the page's script (``static/table.js``) looks at to reload when it changes;
- ``POST /tables/<id>/join|leave|start|again``: those actions, each back to a
  table's page;
- ``POST /v1/lobby/<Method>``: every ``LobbyService`` call on the JSON gateway.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import grpc
from aiohttp import web
from arbiter.v1 import lobby_pb2, lobby_pb2_grpc
from google.protobuf import json_format

from service.config import bot_budget_seconds
from service.web import gateway, session
from service.web.backend import Backend, GatewayError, refusal_of
from service.web.bots import LEVEL_TITLES
from service.web.bots import level_of as bot_level_of
from service.web.pages import join_href, refusals, rules_by_id, title_of
from service.web.templating import page

SEAT_COOKIE = "arbiter_table_seat"
HOST_COOKIE = "arbiter_table_host"
MAX_AGE = 7 * 24 * 3600
#: The most seats the open form offers (the rules may allow fewer).
MAX_FORM_SEATS = 6


async def lobby_call(request: web.Request, method: str, message: Any, token: str = "") -> Any:
    """One ``LobbyService`` call; a refusal raises ``GatewayError``."""
    backend: Backend = request.app[gateway.BACKEND]
    stub = lobby_pb2_grpc.LobbyServiceStub(backend._channel)
    try:
        return await getattr(stub, method)(
            message, metadata=backend.metadata(token, gateway.peer(request)), timeout=30.0)
    except grpc.aio.AioRpcError as exc:
        raise refusal_of(exc) from None


def table_id_of(request: web.Request) -> str:
    text = request.match_info["table_id"]
    try:
        return str(uuid.UUID(text))
    except ValueError:
        raise web.HTTPNotFound(text=f"{text[:40]!r} is not a table") from None


def held_seat(request: web.Request) -> tuple[int, str] | None:
    """The seat this browser holds at the table (its number and secret), if
    any. A cookie no server wrote (a superscript digit, thousands of digits)
    holds none: the visitor's page, not a server error."""
    seat, _, secret = request.cookies.get(SEAT_COOKIE, "").partition(":")
    if not (seat.isascii() and seat.isdigit() and len(seat) <= 3 and secret):
        return None
    return int(seat), secret


def to_table(request: web.Request, table_id: str, seat: lobby_pb2.SeatSecret | None = None,
             host: str = "") -> web.Response:
    """Back to a table's page (303), with the secrets just received kept in its cookies."""
    response = web.Response(status=303, headers={"Location": f"/tables/{table_id}"})
    secure = request.secure or request.app.get(session.SECURE_COOKIES, False)
    path = f"/tables/{table_id}"
    if seat is not None:
        response.set_cookie(SEAT_COOKIE, f"{seat.seat}:{seat.secret}", path=path,
                            max_age=MAX_AGE, httponly=True, samesite="Strict", secure=secure)
    if host:
        response.set_cookie(HOST_COOKIE, host, path=path, max_age=MAX_AGE, httponly=True,
                            samesite="Strict", secure=secure)
    return response


def forbid_cross_site(request: web.Request) -> None:
    if not session.same_origin(request):
        raise GatewayError("PERMISSION_DENIED", "CROSS_SITE",
                           "a table is changed only from this site's own pages")


@refusals
async def tables(request: web.Request) -> web.Response:
    """``GET /tables``: the tables gathering players, and the form to open one."""
    rules = await rules_by_id(request)
    reply = await lobby_call(request, "ListTables", lobby_pb2.ListTablesRequest())
    listed = [{"id": t.table_id, "title": title_of(rules, t.rules),
               "seats": len(t.seats), "open": sum(s.kind == "open" for s in t.seats),
               "names": [s.name for s in t.seats if s.kind == "player"]}
              for t in reply.tables]
    offered = [{"id": r.id, "title": r.title or r.id, "min": r.min_seats,
                "max": min(r.max_seats, MAX_FORM_SEATS)}
               for r in rules.values() if r.max_seats >= 2]
    return page("tables.html", tables=listed, rules=offered, bot_levels=LEVEL_TITLES,
                bot_budget=f"{bot_budget_seconds():g}")


@refusals
async def open_table(request: web.Request) -> web.Response:
    """``POST /tables``: you in the first seat, then bots, then open seats."""
    forbid_cross_site(request)
    form = await request.post()
    players = gateway.whole_number(str(form.get("players", "")), 2) or 0
    bots = gateway.whole_number(str(form.get("bots", "0")) or "0", 2) or 0
    if players < 1 or bots >= players:
        raise GatewayError("INVALID_ARGUMENT", "BAD_SEATS",
                           "a table has at least one seat besides the bots")
    # The bots' level: the bot seats', and that of a bot taking an open seat
    # (the table started early) or yours (you leave the game).
    level = bot_level_of(str(form.get("level", "")), str(form.get("budget", "")))
    seats = [lobby_pb2.SeatSpec(kind="player", name=str(form.get("name", "")),
                                level=level.level, budget_seconds=level.budget)]
    seats += [lobby_pb2.SeatSpec(kind="bot", level=level.level,
                                 budget_seconds=level.budget)] * bots
    seats += [lobby_pb2.SeatSpec(kind="open", level=level.level,
                                 budget_seconds=level.budget)] * (players - 1 - bots)
    reply = await lobby_call(request, "OpenTable", lobby_pb2.OpenTableRequest(
        rules=str(form.get("rules", "")), seats=seats))
    return to_table(request, reply.table.table_id, reply.seat_secrets[0], reply.host_secret)


@refusals
async def table_page(request: web.Request) -> web.Response:
    """``GET /tables/<id>``: the table and what this browser may do at it."""
    table_id = table_id_of(request)
    reply = await lobby_call(request, "GetTable", lobby_pb2.GetTableRequest(table_id=table_id))
    table = reply.table
    held = held_seat(request)
    mine = held is not None and held[0] < len(table.seats) \
        and table.seats[held[0]].kind == "player"
    rules = await rules_by_id(request)
    play = join_href(table.game_id, held[1], held[0]) if mine and held and table.game_id else ""
    return page(
        "table.html", table=table, title=title_of(rules, table.rules),
        link=f"{request.scheme}://{request.host}/tables/{table_id}",
        mine=held[0] if mine and held else None, play=play,
        host=bool(request.cookies.get(HOST_COOKIE)),
        waiting=table.status == "waiting")


async def table_state(request: web.Request) -> web.Response:
    """``GET /tables/<id>/state``: the table's version and whether its game is over,
    as JSON: what the table's page looks at to know it changed."""
    table_id = table_id_of(request)
    try:
        reply = await lobby_call(request, "GetTable",
                                 lobby_pb2.GetTableRequest(table_id=table_id))
    except GatewayError as exc:
        return web.json_response(exc.to_json(), status=gateway.HTTP_STATUS.get(exc.code, 400))
    return web.json_response({"version": reply.table.version, "over": reply.table.game_over},
                             headers={"Cache-Control": "no-store"})


@refusals
async def join(request: web.Request) -> web.Response:
    forbid_cross_site(request)
    table_id = table_id_of(request)
    form = await request.post()
    reply = await lobby_call(request, "JoinTable", lobby_pb2.JoinTableRequest(
        table_id=table_id, name=str(form.get("name", ""))))
    return to_table(request, table_id, reply.seat)


@refusals
async def leave(request: web.Request) -> web.Response:
    forbid_cross_site(request)
    table_id = table_id_of(request)
    held = held_seat(request)
    await lobby_call(request, "LeaveTable", lobby_pb2.LeaveTableRequest(table_id=table_id),
                     held[1] if held else "")
    response = to_table(request, table_id)
    response.del_cookie(SEAT_COOKIE, path=f"/tables/{table_id}")
    return response


@refusals
async def start(request: web.Request) -> web.Response:
    forbid_cross_site(request)
    table_id = table_id_of(request)
    await lobby_call(request, "StartTable", lobby_pb2.StartTableRequest(table_id=table_id),
                     request.cookies.get(HOST_COOKIE, ""))
    return to_table(request, table_id)


@refusals
async def again(request: web.Request) -> web.Response:
    """``POST /tables/<id>/again``: to the next round's table, this browser's new seat kept."""
    forbid_cross_site(request)
    table_id = table_id_of(request)
    held = held_seat(request)
    reply = await lobby_call(request, "PlayAgain", lobby_pb2.PlayAgainRequest(
        table_id=table_id), held[1] if held else "")
    return to_table(request, reply.table.table_id, reply.seat)


#: The lobby's methods on the JSON gateway (``POST /v1/lobby/<Method>``).
LOBBY = lobby_pb2.DESCRIPTOR.services_by_name["LobbyService"]
LOBBY_METHODS = {m.name: (getattr(lobby_pb2, m.input_type.name), bool(m.server_streaming))
                 for m in LOBBY.methods}


async def gateway_call(request: web.Request) -> web.StreamResponse:
    """``POST /v1/lobby/<Method>``: a ``LobbyService`` call as JSON, as ``/v1/<Method>``
    is a ``GameService`` one (the secret as ``Authorization: Bearer``); ``WatchTable``
    answers as NDJSON lines, or Server-Sent Events when asked for them."""
    name = request.match_info["method"]
    if not session.same_origin(request):
        return gateway.refused("PERMISSION_DENIED", "CROSS_SITE",
                               "the JSON gateway never answers a page of another site")
    if name not in LOBBY_METHODS:
        return gateway.refused("NOT_FOUND", "UNKNOWN_METHOD", f"no LobbyService method {name!r}")
    token = gateway.bearer(request)
    if not (token.isascii() and token.isprintable()):
        return gateway.refused("UNAUTHENTICATED", "BAD_TOKEN", "a token is printable ASCII")
    kind, streaming = LOBBY_METHODS[name]
    try:
        data = json.loads(await request.read() or b"{}")
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        message = json_format.ParseDict(data, kind())
    except (ValueError, json_format.ParseError, RecursionError) as exc:
        return gateway.error_response(GatewayError(
            "INVALID_ARGUMENT", "BAD_MESSAGE", f"not a {kind.__name__}: {str(exc)[:200]}"))
    if streaming:
        events = gateway.SSE in request.headers.get("Accept", "")
        return await gateway.relay_stream(request, lobby_stream(request, name, message, token),
                                          events)
    try:
        reply = await lobby_call(request, name, message, token)
    except GatewayError as exc:
        return gateway.error_response(exc)
    return web.json_response(gateway.to_json(reply))


async def lobby_stream(request: web.Request, method: str, message: Any,
                       token: str) -> AsyncIterator[Any]:
    backend: Backend = request.app[gateway.BACKEND]
    stub = lobby_pb2_grpc.LobbyServiceStub(backend._channel)
    call = getattr(stub, method)(message, metadata=backend.metadata(token, gateway.peer(request)))
    try:
        async for item in call:
            yield item
    except grpc.aio.AioRpcError as exc:
        raise refusal_of(exc) from None
    finally:
        call.cancel()


def install(app: web.Application) -> None:
    """Add the tables' routes (``service.web.server``)."""
    app.add_routes([
        web.get("/tables", tables),
        web.post("/tables", open_table),
        web.get("/tables/{table_id}", table_page),
        web.get("/tables/{table_id}/state", table_state),
        web.post("/tables/{table_id}/join", join),
        web.post("/tables/{table_id}/leave", leave),
        web.post("/tables/{table_id}/start", start),
        web.post("/tables/{table_id}/again", again),
        web.post("/v1/lobby/{method}", gateway_call),
    ])
