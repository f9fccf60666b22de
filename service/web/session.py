"""A page's credential: a token in the link's fragment, then a cookie of that game.

A seat's link is ``/games/<id>/join/<n>#<token>`` and a spectator's
``/games/<id>/join#<token>`` (``link_page``; the older ``/games/<id>/seat/<n>#<token>``
opens the same way). A fragment never leaves the browser: not in the
request line, not in any log, not in a ``Referer``. The page's script posts it
once to ``/games/<id>/session``, which checks it with the game service (a
``GetState`` as that seat, or as a spectator) and answers with a cookie
scoped to that game's pages (``Path=/games/<id>``, ``HttpOnly``,
``SameSite=Strict``); the script then drops the fragment from the address
bar. Pages read the token from the cookie, server-side, and make every call
with it; the game service decides what it may read or do, as for any client.
The lobby learns which games this browser holds a link of from a second
cookie (``GAMES_COOKIE``) that lists their ids and seats, never their tokens.
"""

from __future__ import annotations

import json
import re
import uuid

from aiohttp import web
from arbiter.v1 import game_pb2

from service.web.backend import GatewayError
from service.web.gateway import BACKEND, error_response, peer, refused, same_origin
from service.web.templating import page

COOKIE = "arbiter_token"
#: The games this browser holds a credential for, for the lobby's "my games":
#: ``<game id>:<seat>`` (``s`` for a spectator's), newest first, dot-separated.
#: No token: the lobby (``Path=/``) never receives a game's cookie, only this list.
GAMES_COOKIE = "arbiter_games"
MAX_GAMES = 60
ENTRY = re.compile(r"([0-9a-f-]{36}):(\d{1,6}|s)")
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


def link_page(game_id: str, seat: int | None) -> web.Response:
    """A link's first page (``join.html``): it reads no game, and its script trades
    the token in the fragment for the game's cookie, then opens the seat's page
    (or the game's). Served by ``/games/<id>/join[/<n>]``, and by a seat's page
    asked without a cookie: a link of the older form (``/seat/<n>#<token>``)
    opens as the new one does, never with a refusal first."""
    target = f"/games/{game_id}" + ("" if seat is None else f"/seat/{seat}")
    return page("join.html", game_id=game_id, seat=seat, next=target,
                what="the game" if seat is None else "your seat")


def cross_site_refusal() -> web.Response:
    return refused("PERMISSION_DENIED", "CROSS_SITE",
                   "a game's credential is set or dropped only by this site's own pages")


def token_of(request: web.Request) -> str:
    """The credential this browser holds for the page's game, or ""."""
    value = request.cookies.get(COOKIE, "")
    return value if TOKEN.fullmatch(value) else ""


def my_games(request: web.Request) -> dict[str, int | None]:
    """The games this browser opened a link of, newest first: game id to seat
    (``None``: the spectator's link)."""
    games: dict[str, int | None] = {}
    for text in request.cookies.get(GAMES_COOKIE, "").split("."):
        found = ENTRY.fullmatch(text)
        if found and found[1] not in games:
            games[found[1]] = None if found[2] == "s" else int(found[2])
    return games


def _set_games(request: web.Request, response: web.Response,
               games: dict[str, int | None]) -> None:
    value = ".".join(f"{g}:{'s' if s is None else s}"
                     for g, s in list(games.items())[:MAX_GAMES])
    if not value:
        response.del_cookie(GAMES_COOKIE, path="/")
        return
    response.set_cookie(GAMES_COOKIE, value, path="/", max_age=MAX_AGE, httponly=True,
                        samesite="Strict",
                        secure=request.secure or request.app.get(SECURE_COOKIES, False))


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
    others = {g: s for g, s in my_games(request).items() if g != game_id}
    _set_games(request, response, {game_id: seat, **others})
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
    _set_games(request, response,
               {g: s for g, s in my_games(request).items() if g != game_id})
    response.del_cookie(COOKIE, path=f"/games/{game_id}")
    return response


def routes() -> list[web.RouteDef]:
    return [web.post("/games/{game_id}/session", open_session),
            web.delete("/games/{game_id}/session", close_session)]
