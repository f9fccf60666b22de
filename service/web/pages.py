"""The pages: the lobby, a game's live page, its replay and its record.

Server-rendered HTML (``templates/``) with a little plain JavaScript
(``static/``). Every read is an ordinary ``GameService`` call through
``service.web.backend``, made with the credential this browser holds for the
game (``service.web.session``: a cookie set from the link's fragment), so the
game service alone decides what a page may show: a spectator page gets the
spectator's view, a finished game is everyone's, a refusal is the service's
own, with its reason code and its HTTP status (``gateway.HTTP_STATUS``).

Routes (``install``):

- ``GET /``: the lobby (``ListGames``, newest first, filtered by ``show``:
  running, finished or this browser's own games, and by ``rules``, paged by
  ``page_token``) and the new-game form; ``POST /games`` creates a game and
  shows its seat links (each a secret: the token rides in the fragment); with
  ``bots``, the creator takes the first seat and bots play the others
  (``service.web.bots``).
- ``GET /games/<id>/join[/<n>]#<token>``: a link's first page: it trades the
  token for the game's cookie, then opens the seat's page (or the game's).
- ``GET /games/<id>``: the spectator's page: the board, the log in the game's
  own words, who the game waits on, the outcome once over.
- ``GET /games/<id>/live``: Server-Sent Events of ``Subscribe`` (spectator),
  each event's id its version, resuming after ``Last-Event-ID`` (or ``after``).
- ``GET /games/<id>/log?after=N``: the log's lines after version N, as JSON
  (what a live page uses to fill a gap).
- ``GET /games/<id>/board?version=N[&seat=n]``: the board at that version, as
  an HTML fragment (``#board`` with ``#screen-json``, then ``#pending`` and
  ``#outcome``).
- ``GET /games/<id>/replay[?version=N][&seat=n|all]``: the version slider, the
  seat selector (a finished game as any seat, or every seat at once: its record
  is public), the audit's verdict and the seed.
- ``GET /games/<id>/record``: the self-contained record ``arbiter export``
  writes (``aggregates.records``), as a download.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Any
from urllib.parse import urlencode

from aiohttp import web
from arbiter.render import (
    event_text,
    loads_object,
    render_outcome,
    render_pending,
    seat_name,
    seat_title,
    short_id,
)
from arbiter.v1 import game_pb2
from markupsafe import Markup, escape

from aggregates.records import export_lines
from service.config import bot_budget_seconds
from service.web import bots, gateway, session
from service.web.backend import GatewayError
from service.web.screen import screen_html
from service.web.templating import LOG_TAIL, STATIC, page

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
                   version: int | None = None, seat: int | None = None,
                   sign_head: bool = False) -> game_pb2.GameState:
    message = game_pb2.GetStateRequest(game_id=game_id, spectator=seat is None,
                                       sign_head=sign_head)
    if seat is not None:
        message.seat = seat
    if version is not None:
        message.version = version
    return await call(request, "GetState", message, token)


async def rules_by_id(request: web.Request) -> dict[str, game_pb2.RulesInfo]:
    """``ListRules``, kept a few minutes (the rules a server plays are fixed at start)."""
    cache = request.app[RULES]
    # Fetched when none is kept yet, whatever the clock says: the monotonic
    # clock counts from the machine's boot, so a server started in its first
    # minutes (a fresh CI machine) once never fetched them at all (KeyError).
    if "rules" not in cache or cache["at"] + RULES_TTL < time.monotonic():
        reply = await call(request, "ListRules", game_pb2.ListRulesRequest())
        cache["rules"] = {r.id: r for r in reply.rules}
        cache["at"] = time.monotonic()
    return cache["rules"]  # type: ignore[no-any-return]


def title_of(rules: dict[str, game_pb2.RulesInfo], rules_id: str) -> str:
    info = rules.get(rules_id)
    return info.title if info is not None and info.title else rules_id


# --- refusals --------------------------------------------------------------------


#: A refusal about the credential this browser holds (or lacks) for a game: what
#: it means for a player and what to do next, in place of the service's sentence
#: (written for a gRPC client: "send 'authorization: Bearer <token>' metadata").
CREDENTIAL_HELP: dict[str, tuple[str, str]] = {
    "NO_TOKEN": ("This game is still running",
                 "While a game runs, only its players and spectators see it: this browser "
                 "has not opened one of its links yet."),
    "BAD_TOKEN": ("This link does not open this game",
                  "The link this browser opened for this game is not one of its links (cut "
                  "short when copied, or for another game)."),
    "WRONG_SEAT": ("This link is for another seat",
                   "The link this browser opened for this game is another seat's: each seat's "
                   "page opens with that seat's own link."),
    "SPECTATOR_ONLY": ("This link only watches",
                       "The link this browser opened for this game is the spectators' link: it "
                       "shows the game, not a seat's hand or moves."),
}
NEXT_STEPS = ["Open the link you were given for this game (a seat's or the spectators'), "
              "whole, with everything after #, in this browser: it replaces the one held.",
              "Lost it? Ask whoever created the game to send it again.",
              "Once the game is over, anyone may watch it and its replay, without a link."]


def refusal_page(error: GatewayError, game_id: str = "", exchange: bool = False) -> web.Response:
    """The service's refusal as a page: its reason code and its HTTP status; for a
    missing or wrong credential, what that means and what to do next, in a
    player's words. ``exchange``: the page still turns a link's fragment into the
    game's cookie."""
    status = gateway.HTTP_STATUS.get(error.code, 500)
    help_text = CREDENTIAL_HELP.get(error.reason) if game_id else None
    return page("error.html", status=status, code=error.code, reason=error.reason,
                message=error.message, game_id=game_id, exchange=exchange,
                credential=help_text is not None,
                headline=help_text[0] if help_text else "Refused",
                explanation=help_text[1] if help_text else "",
                next_steps=NEXT_STEPS if help_text else [])


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
    return _board(state, _screen(state) + Markup('<script type="application/json" '
                                                 'id="screen-json">')
                  + script_json(state.screen_json or "{}") + Markup("</script>"))


def every_seat_html(states: Sequence[game_pb2.GameState]) -> Markup:
    """``#board`` of a finished game as every seat saw it at one version, one
    after another: its record is public (DESIGN principle 4), so every card shows."""
    seats = list(states[0].seats)
    body = Markup("").join(
        Markup(f'<section class="seat-board" data-seat="{n}" aria-labelledby="seat-board-{n}">'
               f'<h3 id="seat-board-{n}">') + escape(seat_name(n, seats)) + Markup("</h3>")
        + _screen(state) + Markup("</section>")
        for n, state in enumerate(states))
    return _board(states[0], body, seat=ALL_SEATS)


def _screen(state: game_pb2.GameState) -> Markup:
    screen = loads_object(state.screen_json)
    if not screen.get("sections"):
        return Markup('<p class="muted">(this game draws no screen)</p>')
    return screen_html(screen, list(state.seats))


def _board(state: game_pb2.GameState, body: Markup, seat: str = "") -> Markup:
    over = "true" if state.over else "false"
    shown = f' data-seat="{seat}"' if seat else ""
    return (Markup(f'<div id="board" data-version="{int(state.version)}" data-over="{over}"'
                   f'{shown} aria-label="Board">') + body + Markup("</div>"))


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


#: The lobby's views (``?show=``): every game, the running ones, the finished
#: ones, and the games this browser holds a link of.
SHOWS = {"": "Every game", "running": "Running games", "finished": "Finished games",
         "mine": "My games"}


def lobby_request(show: str, rules: str, token: str,
                  mine: dict[str, int | None]) -> game_pb2.ListGamesRequest:
    """The lobby's ``ListGames``: newest first, so a new game is on the first page."""
    message = game_pb2.ListGamesRequest(rules=rules, page_size=PAGE_SIZE, page_token=token,
                                        newest_first=True)
    if show in ("running", "finished"):
        message.over = show == "finished"
    elif show == "mine":
        message.game_ids.extend(mine)
        message.page_token = ""
    return message


def game_row(g: game_pb2.GameSummary, rules: dict[str, game_pb2.RulesInfo],
             mine: dict[str, int | None]) -> dict[str, Any]:
    """One row of the lobby; ``mine``: the link this browser holds for it, if any."""
    seats = list(g.seats)
    held = g.game_id in mine
    seat = mine.get(g.game_id)
    return {"id": g.game_id, "short": short_id(g.game_id), "rules": g.rules,
            "title": title_of(rules, g.rules), "over": g.over, "version": g.version,
            "seats": seats, "mine": held, "mine_seat": seat,
            "mine_label": "" if not held else "spectator" if seat is None
            else seat_name(seat, seats),
            "mine_href": "" if not held else f"/games/{g.game_id}" if seat is None
            else f"/games/{g.game_id}/seat/{seat}"}


@refusals
async def lobby(request: web.Request) -> web.Response:
    """``GET /[?show=running|finished|mine][&rules=R]``: the games, newest first,
    filtered and paged, and the new-game form."""
    rules = await rules_by_id(request)
    chosen = request.query.get("rules", "")
    show = request.query.get("show", "")
    if show not in SHOWS:
        raise GatewayError("INVALID_ARGUMENT", "BAD_ARGUMENT",
                           "show is one of running, finished or mine")
    token = request.query.get("page_token", "")
    mine = session.my_games(request)
    games: list[dict[str, Any]] = []
    next_token = ""
    if show != "mine" or mine:
        reply = await call(request, "ListGames", lobby_request(show, chosen, token, mine))
        games = [game_row(g, rules, mine) for g in reply.games]
        next_token = reply.next_page_token
    filters = {k: v for k, v in (("show", show), ("rules", chosen)) if v}
    next_page = "/?" + urlencode({**filters, "page_token": next_token}) if next_token else ""
    return page("lobby.html", games=games, rules=list(rules.values()), chosen=chosen,
                bot_levels=bots.LEVEL_TITLES, bot_budget=f"{bot_budget_seconds():g}",
                show=show, shows=SHOWS, next_page=next_page, first_page=bool(token),
                first_href="/?" + urlencode(filters) if filters else "/")


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
    against_bots = bool(form.get("bots"))
    level = bots.level_of(str(form.get("level", "")), str(form.get("budget", "")))
    reply = await call(request, "CreateGame", game_pb2.CreateGameRequest(
        rules=rules, seats=seats, request_id=uuid.uuid4().hex))
    titles = await rules_by_id(request)
    base = f"{request.scheme}://{request.host}"
    played = [t for t in reply.seat_tokens if not against_bots or t.seat == 0]
    if against_bots:  # the creator takes the first seat; bots play the others
        bots.start(request.app, reply.game_id,
                   {t.seat: t.token for t in reply.seat_tokens if t.seat != 0},
                   gateway.peer(request), level)
    names = [t.name for t in sorted(reply.seat_tokens, key=lambda t: t.seat)]
    links = [{"seat": t.seat, "name": seat_title(t.seat, names),
              "href": join_href(reply.game_id, t.token, t.seat)} for t in played]
    return page("new.html", status=201, game_id=reply.game_id, bots=against_bots,
                level=bots.LEVEL_TITLES[level.level],
                bot_seats=[seat_title(t.seat, names) for t in reply.seat_tokens
                           if against_bots and t.seat != 0],
                title=title_of(titles, rules), links=links, base=base,
                spectator=join_href(reply.game_id, reply.spectator_token),
                commitment=reply.seed_commitment)


# --- a link's own page ---------------------------------------------------------------


def join_href(game_id: str, token: str, seat: int | None = None) -> str:
    """A link as this side gives it out: its own page first (``join``), which
    trades the token in its fragment for the game's cookie and then opens the seat's
    page (or the game's), so no page is refused before the cookie is set."""
    where = f"/games/{game_id}/join" + ("" if seat is None else f"/{seat}")
    return f"{where}#{token}"


@refusals
async def join(request: web.Request) -> web.Response:
    """``GET /games/<id>/join[/<n>]#<token>``: a link's first page. It reads no
    game (the token is in the fragment, which never reaches this server): its
    script posts the token to ``/games/<id>/session``, then opens the page."""
    game_id = session.game_id_of(request)
    text = request.match_info.get("seat")
    seat = gateway.whole_number(text, 6) if text is not None else None
    if text is not None and seat is None:
        raise web.HTTPNotFound(text=f"{text!r} is not a seat number")
    return session.link_page(game_id, seat)


# --- a game's page -----------------------------------------------------------------


@refusals
async def game_page(request: web.Request) -> web.Response:
    """``GET /games/<id>``: the spectator's page."""
    game_id = session.game_id_of(request)
    token = session.token_of(request)
    state = await state_of(request, game_id, token)
    events = await history(request, game_id, token, after=max(state.version - LOG_TAIL, 0))
    events = events[-LOG_TAIL:]  # a move or more since the state was read
    rules = await rules_by_id(request)
    last = events[-1].version if events else 0
    return page("game.html", game_id=game_id, short=short_id(game_id),
                title=title_of(rules, state.rules), state=state, seats=list(state.seats),
                board=board_html(state), pending=pending_html(state),
                outcome=outcome_html(state), log=log_items(events), last=last,
                log_tail=LOG_TAIL, earlier=bool(events) and events[0].version > 1)


@refusals
async def board(request: web.Request) -> web.Response:
    """``GET /games/<id>/board?version=N[&seat=n|all]``: the board fragment."""
    game_id = session.game_id_of(request)
    version = parse_int(request, "version", 1)
    seat = seat_choice(request)
    board, state = await board_at(request, game_id, session.token_of(request), version, seat)
    text = board + pending_html(state) + outcome_html(state)
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
            data = gateway.page_json(item)
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


#: ``?seat=all``: a finished game's board as every seat saw it.
ALL_SEATS = "all"
Seat = int | str | None


def seat_choice(request: web.Request) -> Seat:
    """Whose view a replay or a board shows: a seat, ``ALL_SEATS``, or the
    spectators' (``None``)."""
    if request.query.get("seat") == ALL_SEATS:
        return ALL_SEATS
    return parse_int(request, "seat")


async def board_at(request: web.Request, game_id: str, token: str, version: int | None,
                   seat: Seat, latest: game_pb2.GameState | None = None
                   ) -> tuple[Markup, game_pb2.GameState]:
    """``#board`` as ``seat`` sees it at ``version`` (``None``: now), and the state
    (``latest``: the game now, when the caller has read it already)."""
    if seat != ALL_SEATS:
        state = await state_of(request, game_id, token, version,
                               seat if isinstance(seat, int) else None)
        return board_html(state), state
    latest = latest or await state_of(request, game_id, token)
    if not latest.over:
        raise GatewayError("PERMISSION_DENIED", "GAME_RUNNING",
                           "every seat's view is open to all once the game is over, "
                           "not while it runs")
    states = [await state_of(request, game_id, token, version, n)
              for n in range(len(latest.seats))]
    return every_seat_html(states), states[0]


def seat_views(latest: game_pb2.GameState, held: int | None, chosen: Seat) -> list[dict[str, Any]]:
    """The replay's seat selector: the spectators' view; every seat at once and each
    seat once the game is over (its record is public); while it runs, the seat
    whose link this browser holds."""
    seats = list(latest.seats)
    views = [{"value": "", "label": "Spectators' view", "enabled": True}]
    if latest.over:
        views.append({"value": ALL_SEATS, "label": "Every seat (all cards)", "enabled": True})
    views += [{"value": str(n), "label": seat_name(n, seats),
               "enabled": latest.over or n == held} for n in range(len(seats))]
    for view in views:
        view["selected"] = view["value"] == ("" if chosen is None else str(chosen))
    return views


@refusals
async def replay(request: web.Request) -> web.Response:
    """``GET /games/<id>/replay[?version=N][&seat=n|all]``: step through the game's
    versions, as the spectators, a seat, or (once over) every seat saw them."""
    game_id = session.game_id_of(request)
    token = session.token_of(request)
    seat = seat_choice(request)
    latest = await state_of(request, game_id, token)
    wanted = parse_int(request, "version", 1)
    board, shown = await board_at(
        request, game_id, token,
        None if wanted is None or wanted >= latest.version else wanted, seat, latest)
    events = [ev for ev in await history(request, game_id, token,
                                         seat=seat if isinstance(seat, int) else None)
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
                seat="" if seat is None else str(seat),
                views=seat_views(latest, session.my_games(request).get(game_id), seat),
                board=board, pending=pending_html(shown),
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
    state = await state_of(request, game_id, token, sign_head=True)  # signed, as export's
    for _ in range(5):  # a move between the two reads: take its events too
        last = events[-1].version if events else 0
        if state.version <= last:
            break
        events += await history(request, game_id, token, after=last)
        state = await state_of(request, game_id, token, sign_head=True)
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
    bots.install(app)
    if not any(r.canonical == "/static" for r in app.router.resources()):
        app.router.add_static("/static/", STATIC)
    app.add_routes([
        web.get("/", lobby),
        web.get("/favicon.ico", no_icon),
        web.post("/games", create),
        web.get("/games/{game_id}", game_page),
        web.get("/games/{game_id}/join", join),
        web.get(r"/games/{game_id}/join/{seat:\d+}", join),
        web.get("/games/{game_id}/live", live),
        web.get("/games/{game_id}/log", log_lines),
        web.get("/games/{game_id}/board", board),
        web.get("/games/{game_id}/replay", replay),
        web.get("/games/{game_id}/record", record),
    ])
