"""The pages: the lobby, a game's live page, its replay and its record.

Server-rendered HTML (``templates/``) with a little plain JavaScript
(``static/``). Every read is an ordinary ``GameService`` call through
``service.web.backend``, made with the credential this browser holds for the
game (``service.web.session``: a cookie set from the link's fragment), so the
game service alone decides what a page may show: a spectator page gets the
spectator's view, a finished game is everyone's, a refusal is the service's
own, with its reason code and its HTTP status (``gateway.HTTP_STATUS``).

Routes (``install``):

- ``GET /``: the lobby (``ListGames``, filtered by ``rules``, paged by
  ``page_token``) and the new-game form; ``POST /games`` creates a game and
  shows its seat links (each a secret: the token rides in the fragment).
- ``GET /games/<id>``: the spectator's page: the board, the log in the game's
  own words, who the game waits on, the outcome once over.
- ``GET /games/<id>/live``: Server-Sent Events of ``Subscribe`` (spectator),
  each event's id its version, resuming after ``Last-Event-ID`` (or ``after``).
- ``GET /games/<id>/log?after=N``: the log's lines after version N, as JSON
  (what a live page uses to fill a gap).
- ``GET /games/<id>/board?version=N[&seat=n]``: the board at that version, as
  an HTML fragment (``#board`` with ``#screen-json``, then ``#pending`` and
  ``#outcome``).
- ``GET /games/<id>/replay[?version=N]``: the version slider, the audit's
  verdict and the seed.
- ``GET /games/<id>/record``: the self-contained record ``arbiter export``
  writes (``clients.record``), as a download.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Any
from urllib.parse import urlencode

from aiohttp import web
from arbiter.v1 import game_pb2
from markupsafe import Markup, escape

from clients.record import export_lines
from clients.render import (
    event_text,
    loads_object,
    render_outcome,
    render_pending,
    short_id,
)
from service.web import gateway, session
from service.web.backend import GatewayError
from service.web.screen import screen_html
from service.web.templating import STATIC, page

PAGE_SIZE = 25
#: The rules the server plays, by id (``ListRules``; they do not change while it runs).
RULES: web.AppKey[dict[str, Any]] = web.AppKey("pages_rules", dict)
RULES_TTL = 300.0
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


# --- calls -----------------------------------------------------------------------


async def call(request: web.Request, method: str, message: Any, token: str = "") -> Any:
    return await request.app[gateway.BACKEND].call(method, message, token,
                                                   gateway.peer(request))


async def history(request: web.Request, game_id: str, token: str, after: int = 0,
                  seat: int | None = None) -> list[game_pb2.Event]:
    """The game's events after ``after``, as a spectator (or as ``seat``) reads them."""
    message = game_pb2.HistoryRequest(game_id=game_id, spectator=seat is None,
                                      after_version=after)
    if seat is not None:
        message.seat = seat
    backend = request.app[gateway.BACKEND]
    return [ev async for ev in backend.stream("History", message, token,
                                              gateway.peer(request))]


async def state_of(request: web.Request, game_id: str, token: str,
                   version: int | None = None, seat: int | None = None) -> game_pb2.GameState:
    message = game_pb2.GetStateRequest(game_id=game_id, spectator=seat is None)
    if seat is not None:
        message.seat = seat
    if version is not None:
        message.version = version
    return await call(request, "GetState", message, token)


async def rules_by_id(request: web.Request) -> dict[str, game_pb2.RulesInfo]:
    """``ListRules``, kept a few minutes (the rules a server plays are fixed at start)."""
    cache = request.app[RULES]
    if cache.get("at", 0.0) + RULES_TTL < time.monotonic():
        reply = await call(request, "ListRules", game_pb2.ListRulesRequest())
        cache["rules"] = {r.id: r for r in reply.rules}
        cache["at"] = time.monotonic()
    return cache["rules"]  # type: ignore[no-any-return]


def title_of(rules: dict[str, game_pb2.RulesInfo], rules_id: str) -> str:
    info = rules.get(rules_id)
    return info.title if info is not None and info.title else rules_id


# --- refusals --------------------------------------------------------------------


def refusal_page(error: GatewayError, game_id: str = "", exchange: bool = False) -> web.Response:
    """The service's refusal as a page: its reason code, its sentence, its HTTP status.
    ``exchange``: the page still turns a link's fragment into the game's cookie."""
    status = gateway.HTTP_STATUS.get(error.code, 500)
    return page("error.html", status=status, code=error.code, reason=error.reason,
                message=error.message, game_id=game_id, exchange=exchange,
                credential=bool(game_id) and error.code in ("UNAUTHENTICATED",
                                                            "PERMISSION_DENIED"))


def refusals(handler: Handler) -> Handler:
    """A handler whose refusals (and a path that names no game) render as error pages."""
    async def wrapped(request: web.Request) -> web.StreamResponse:
        try:
            return await handler(request)
        except GatewayError as exc:
            game_id = request.match_info.get("game_id", "")
            return refusal_page(exc, game_id, exchange=bool(game_id))
        except web.HTTPNotFound as exc:
            return refusal_page(GatewayError("NOT_FOUND", "NOT_FOUND",
                                             exc.text or "no such page"))
    wrapped.__name__ = handler.__name__
    wrapped.__doc__ = handler.__doc__
    return wrapped


def parse_int(request: web.Request, name: str, low: int = 0) -> int | None:
    """A query parameter as an integer (None when absent); 400 when it is not one."""
    text = request.query.get(name, "")
    if text == "":
        return None
    number = gateway.whole_number(text)
    if number is None or number < low:
        raise GatewayError("INVALID_ARGUMENT", "BAD_ARGUMENT",
                           f"{name} must be a whole number of at least {low}")
    return number


# --- the board ---------------------------------------------------------------------


def script_json(text: str) -> Markup:
    """JSON text made safe inside ``<script type="application/json">`` (the same
    value once parsed: ``<``, ``>`` and ``&`` as JSON escapes)."""
    safe = text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
    return Markup(safe.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def board_html(state: game_pb2.GameState) -> Markup:
    """``#board`` at the state's version: the game's screen and its exact
    ``screen_json``, for pages and for scripts."""
    seats = list(state.seats)
    screen = loads_object(state.screen_json)
    body = screen_html(screen, seats)
    if not screen.get("sections"):
        body = Markup('<p class="muted">(this game draws no screen)</p>')
    over = "true" if state.over else "false"
    return (Markup(f'<div id="board" data-version="{int(state.version)}" data-over="{over}" '
                   'aria-label="Board">')
            + body
            + Markup('<script type="application/json" id="screen-json">')
            + script_json(state.screen_json or "{}") + Markup("</script></div>"))


def pending_html(state: game_pb2.GameState) -> Markup:
    """``#pending``: whom the game waits on, in the terminal's words."""
    lines = [] if state.over else render_pending(state.pending, list(state.seats))
    items = Markup("").join(Markup("<li>") + escape(line) + Markup("</li>") for line in lines)
    body = Markup('<ul class="pending-list">') + items + Markup("</ul>") if lines else \
        Markup('<p class="muted">') + escape("Nobody: the game is over." if state.over
                                             else "Nobody.") + Markup("</p>")
    return Markup('<div id="pending">') + body + Markup("</div>")


def outcome_html(state: game_pb2.GameState) -> Markup:
    """``#outcome``: the result once the game is over (empty and hidden before)."""
    if not state.over:
        return Markup('<section id="outcome" hidden></section>')
    text = render_outcome(loads_object(state.outcome_json), list(state.seats))
    lines = Markup("").join(Markup("<p>") + escape(line) + Markup("</p>")
                            for line in text.splitlines())
    return (Markup('<section id="outcome" class="panel outcome" aria-labelledby="outcome-h">'
                   '<h2 id="outcome-h">Outcome</h2>') + lines + Markup("</section>"))


def log_items(events: Sequence[game_pb2.Event], current: int = 0) -> list[dict[str, Any]]:
    return [{"version": ev.version, "text": event_text(ev), "current": ev.version == current}
            for ev in events]


# --- the lobby ----------------------------------------------------------------------


@refusals
async def lobby(request: web.Request) -> web.Response:
    """``GET /``: the games, filtered by rules and paged, and the new-game form."""
    rules = await rules_by_id(request)
    chosen = request.query.get("rules", "")
    token = request.query.get("page_token", "")
    reply = await call(request, "ListGames", game_pb2.ListGamesRequest(
        rules=chosen, page_size=PAGE_SIZE, page_token=token))
    games = [{"id": g.game_id, "short": short_id(g.game_id), "rules": g.rules,
              "title": title_of(rules, g.rules), "over": g.over, "version": g.version,
              "seats": list(g.seats)} for g in reply.games]
    next_page = ""
    if reply.next_page_token:
        query = {"page_token": reply.next_page_token}
        if chosen:
            query = {"rules": chosen, **query}
        next_page = "/?" + urlencode(query)
    return page("lobby.html", games=games, rules=list(rules.values()), chosen=chosen,
                next_page=next_page, first_page=bool(token),
                first_href="/?" + urlencode({"rules": chosen}) if chosen else "/")


#: A state-changing form from this site only (CSRF), as for a game's session.
same_origin = session.same_origin


@refusals
async def create(request: web.Request) -> web.Response:
    """``POST /games``: a new game; the answer lists each seat's secret link."""
    if not same_origin(request):
        raise GatewayError("PERMISSION_DENIED", "CROSS_SITE",
                           "a new game can only be made from this site's own form")
    form = await request.post()
    rules = str(form.get("rules", ""))
    seats = [s.strip() for s in str(form.get("seats", "")).split(",") if s.strip()]
    reply = await call(request, "CreateGame", game_pb2.CreateGameRequest(
        rules=rules, seats=seats, request_id=uuid.uuid4().hex))
    titles = await rules_by_id(request)
    base = f"{request.scheme}://{request.host}"
    links = [{"seat": t.seat, "name": t.name or f"seat {t.seat}",
              "href": f"/games/{reply.game_id}/seat/{t.seat}#{t.token}"}
             for t in reply.seat_tokens]
    return page("new.html", status=201, game_id=reply.game_id,
                title=title_of(titles, rules), links=links, base=base,
                spectator=f"/games/{reply.game_id}#{reply.spectator_token}",
                commitment=reply.seed_commitment)


# --- a game's page -----------------------------------------------------------------


@refusals
async def game_page(request: web.Request) -> web.Response:
    """``GET /games/<id>``: the spectator's page."""
    game_id = session.game_id_of(request)
    token = session.token_of(request)
    state = await state_of(request, game_id, token)
    events = await history(request, game_id, token)
    rules = await rules_by_id(request)
    last = events[-1].version if events else 0
    return page("game.html", game_id=game_id, short=short_id(game_id),
                title=title_of(rules, state.rules), state=state, seats=list(state.seats),
                board=board_html(state), pending=pending_html(state),
                outcome=outcome_html(state), log=log_items(events), last=last)


@refusals
async def board(request: web.Request) -> web.Response:
    """``GET /games/<id>/board?version=N[&seat=n]``: the board fragment."""
    game_id = session.game_id_of(request)
    version = parse_int(request, "version", 1)
    seat = parse_int(request, "seat")
    state = await state_of(request, game_id, session.token_of(request), version, seat)
    text = board_html(state) + pending_html(state) + outcome_html(state)
    return web.Response(text=str(text), content_type="text/html",
                        headers={"Cache-Control": "no-store"})


async def log_lines(request: web.Request) -> web.Response:
    """``GET /games/<id>/log?after=N``: the log's lines after N, as JSON."""
    try:
        game_id = session.game_id_of(request)
        after = parse_int(request, "after") or 0
        events = await history(request, game_id, session.token_of(request), after)
    except GatewayError as exc:
        return gateway.error_response(exc)
    return web.json_response({"lines": log_items(events)},
                             headers={"Cache-Control": "no-store"})


async def live(request: web.Request) -> web.StreamResponse:
    """``GET /games/<id>/live``: the spectator's feed as Server-Sent Events, each
    event with its version as id and its line of the log (``line``)."""
    try:
        game_id = session.game_id_of(request)
        resume = request.headers.get("Last-Event-ID", "")
        resumed = gateway.whole_number(resume)
        after = resumed if resumed is not None else parse_int(request, "after") or 0
    except GatewayError as exc:
        return gateway.error_response(exc)
    message = game_pb2.SubscribeRequest(game_id=game_id, spectator=True, after=after)
    feed = request.app[gateway.BACKEND].stream("Subscribe", message,
                                              session.token_of(request), gateway.peer(request))
    response: web.StreamResponse | None = None
    try:
        async for item in feed:
            if response is None:
                response = await gateway.start_stream(request, True)
            data = gateway.to_json(item)
            if item.HasField("event"):
                data["event"]["line"] = event_text(item.event)
            await response.write(gateway.encode(data, True))
    except GatewayError as exc:
        if response is None:
            return gateway.error_response(exc)
        await response.write(gateway.encode(exc.to_json(), True, kind="error"))
    except ConnectionResetError:  # the page went away (its next write failed)
        # Nothing reaches a client that has gone, even before the first event.
        return response if response is not None else web.Response(status=204)
    finally:  # the Subscribe call ends with the page, not when collected
        close = getattr(feed, "aclose", None)
        if close is not None:
            await close()
    if response is None:
        response = await gateway.start_stream(request, True)
    await response.write_eof()
    return response


# --- the replay and the record ---------------------------------------------------------


@refusals
async def replay(request: web.Request) -> web.Response:
    """``GET /games/<id>/replay[?version=N]``: step through the game's versions."""
    game_id = session.game_id_of(request)
    token = session.token_of(request)
    latest = await state_of(request, game_id, token)
    wanted = parse_int(request, "version", 1)
    shown = latest if wanted is None or wanted >= latest.version else \
        await state_of(request, game_id, token, wanted)
    events = [ev for ev in await history(request, game_id, token)
              if ev.version <= latest.version]
    rules = await rules_by_id(request)
    try:
        audit: game_pb2.AuditResponse | None = await call(
            request, "Audit", game_pb2.AuditRequest(game_id=game_id), token)
        audit_refusal = None
    except GatewayError as exc:
        audit, audit_refusal = None, exc
    audit_ok = audit is not None and audit.chain_ok and audit.dice_ok and audit.replay_ok
    all_lines = log_items(events, shown.version)
    return page("replay.html", game_id=game_id, short=short_id(game_id),
                title=title_of(rules, latest.rules), latest=latest, shown=shown,
                board=board_html(shown), pending=pending_html(shown),
                outcome=outcome_html(shown),
                log=[x for x in all_lines if x["version"] <= shown.version],
                events_json=script_json(json.dumps(
                    [{"version": x["version"], "text": x["text"]} for x in all_lines])),
                audit=audit, audit_ok=audit_ok, audit_refusal=audit_refusal,
                notes=[p for p in (audit.problems if audit else []) if p.startswith("note: ")],
                problems=[p for p in (audit.problems if audit else [])
                          if not p.startswith("note: ")])


@refusals
async def record(request: web.Request) -> web.Response:
    """``GET /games/<id>/record``: the lines ``arbiter export`` writes, as a download."""
    game_id = session.game_id_of(request)
    token = session.token_of(request)
    events = await history(request, game_id, token)
    state = await state_of(request, game_id, token)
    for _ in range(5):  # a move between the two reads: take its events too
        last = events[-1].version if events else 0
        if state.version <= last:
            break
        events += await history(request, game_id, token, after=last)
        state = await state_of(request, game_id, token)
    events = [ev for ev in events if ev.version <= state.version]
    text = "".join(line + "\n" for line in export_lines(state, events, "spectator"))
    return web.Response(text=text, content_type="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="{game_id}.arbiter.jsonl"',
        "Cache-Control": "no-store"})


async def no_icon(request: web.Request) -> web.Response:
    """``/favicon.ico``: none (a browser asks for it on every page)."""
    return web.Response(status=204, headers={"Cache-Control": "max-age=86400"})


def install(app: web.Application) -> None:
    """Add the pages' routes (and ``/static/``)."""
    app[RULES] = {}
    if not any(r.canonical == "/static" for r in app.router.resources()):
        app.router.add_static("/static/", STATIC)
    app.add_routes([
        web.get("/", lobby),
        web.get("/favicon.ico", no_icon),
        web.post("/games", create),
        web.get("/games/{game_id}", game_page),
        web.get("/games/{game_id}/live", live),
        web.get("/games/{game_id}/log", log_lines),
        web.get("/games/{game_id}/board", board),
        web.get("/games/{game_id}/replay", replay),
        web.get("/games/{game_id}/record", record),
    ])
