"""A page's credential: a token in the link's fragment, then a cookie of that game.

A seat's link is ``/games/<id>/seat/<n>#<token>`` and a spectator's
``/games/<id>#<token>``. A fragment never leaves the browser: not in the
request line, not in any log, not in a ``Referer``. The page's script posts it
once to ``/games/<id>/session``, which checks it with the game service (a
``GetState`` as that seat, or as a spectator) and answers with a cookie
scoped to that game's pages (``Path=/games/<id>``, ``HttpOnly``,
``SameSite=Strict``); the script then drops the fragment from the address
bar. Pages read the token from the cookie, server-side, and make every call
with it; the game service decides what it may read or do, as for any client.
"""

from __future__ import annotations

import json
import re
import uuid
from urllib.parse import urlsplit

from aiohttp import web
from arbiter.v1 import game_pb2

from service.web.backend import GatewayError
from service.web.gateway import BACKEND, error_response, peer, refused

COOKIE = "arbiter_token"
#: Whether cookies are ``Secure`` even when this server sees plain HTTP (it sits
#: behind a proxy that terminates TLS: ``ARBITER_WEB_SECURE_COOKIES=1``).
SECURE_COOKIES: web.AppKey[bool] = web.AppKey("secure_cookies", bool)
MAX_AGE = 7 * 24 * 3600
TOKEN = re.compile(r"[A-Za-z0-9_\-.~+/=]{1,256}")


def game_id_of(request: web.Request) -> str:
    """The game of a page's path, as a canonical UUID; 404 if it is not one."""
    text = request.match_info.get("game_id", "")
    try:
        return str(uuid.UUID(text))
    except ValueError:
        raise web.HTTPNotFound(text=f"{text!r} is not a game id") from None


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


def cross_site_refusal() -> web.Response:
    return refused("PERMISSION_DENIED", "CROSS_SITE",
                   "a game's credential is set or dropped only by this site's own pages")


def token_of(request: web.Request) -> str:
    """The credential this browser holds for the page's game, or ""."""
    value = request.cookies.get(COOKIE, "")
    return value if TOKEN.fullmatch(value) else ""


async def open_session(request: web.Request) -> web.Response:
    """``POST /games/<id>/session`` with ``{"token": ..., "seat": n}`` (no seat: a
    spectator): check the token with the service, then set the game's cookie."""
    game_id = game_id_of(request)
    if not same_origin(request):  # another site must not plant its token (login CSRF)
        return cross_site_refusal()
    try:
        body = json.loads(await request.read() or b"{}")
    except (ValueError, RecursionError):
        body = None
    if not isinstance(body, dict) or not isinstance(body.get("token"), str) \
            or not TOKEN.fullmatch(body["token"]):
        return refused("INVALID_ARGUMENT", "BAD_TOKEN", "send {\"token\": \"...\"}")
    seat = body.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)
                             or not 0 <= seat < 2**32):  # a uint32
        return refused("INVALID_ARGUMENT", "BAD_ARGUMENT", "seat must be a seat number")
    check = game_pb2.GetStateRequest(game_id=game_id, spectator=seat is None)
    if seat is not None:
        check.seat = seat
    try:
        await request.app[BACKEND].call("GetState", check, body["token"], peer(request))
    except GatewayError as exc:
        return error_response(exc)
    response = web.json_response({"game_id": game_id, "seat": seat})
    response.set_cookie(COOKIE, body["token"], path=f"/games/{game_id}", max_age=MAX_AGE,
                        httponly=True, samesite="Strict",
                        secure=request.secure or request.app.get(SECURE_COOKIES, False))
    return response


async def close_session(request: web.Request) -> web.Response:
    """``DELETE /games/<id>/session``: forget this game's credential."""
    game_id = game_id_of(request)
    if not same_origin(request):
        return cross_site_refusal()
    response = web.json_response({"game_id": game_id})
    response.del_cookie(COOKIE, path=f"/games/{game_id}")
    return response


def routes() -> list[web.RouteDef]:
    return [web.post("/games/{game_id}/session", open_session),
            web.delete("/games/{game_id}/session", close_session)]
