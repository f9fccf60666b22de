"""A seat's page: a player plays through the legal actions, in a browser.

``GET /games/<id>/seat/<n>`` is the seat's page. Its link carries the seat's
token in the fragment (``#<token>``, see ``service.web.session``): the page's
script trades it for the game's cookie and reloads; without a cookie the
page is the link's first page (``session.link_page``: 200, reading no game),
whose script does the trade, or says the link lost its secret part. With
one, every read and move is an ordinary ``GameService`` call with that
token (``GetState``, ``LegalActions``, ``History`` as that seat, then its
``Play`` stream, which carries the moves and pushes what follows), so
the service decides what the seat may see and do, exactly as for a terminal
player.

The page mirrors the terminal's play loop (``clients.play``) and reuses its
parts: the menu is ``arbiter.answers.menu`` (the listed actions in the game's
words, then one form per choice structure: pick cards, assign, a number), a
structured answer is built into a command on the server by the kernel's own
``build`` (``arbiter.answers.build_*``), the events are told in the game's
words (``arbiter.render.event_text``). The browser never builds a command.

Routes (``<n>`` is the seat number):

- ``GET  /games/<id>/seat/<n>``: the page (``#board``, ``#pending``,
  ``section#play``, ``ol#log``, ``#message``, ``#outcome``);
- ``GET  /games/<id>/seat/<n>/panel?after=V``: the changing pieces as JSON
  (HTML fragments, and the log's lines after version ``V``);
- ``POST /games/<id>/seat/<n>/act``: a move, as JSON (same origin only);
- ``GET  /games/<id>/seat/<n>/live``: the seat's ``Subscribe`` feed as
  Server-Sent Events (``id:`` the event's version; ``Last-Event-ID`` resumes);
- ``GET  /games/<id>/seat/<n>/play``: the page's WebSocket, the seat's
  ``Play`` stream held by this side (``SeatSocket``): what the page itself
  uses. ``/panel``, ``/act`` and ``/live`` serve a script holding the cookie.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import re
import uuid
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from arbiter.answers import (
    TERMINAL,
    CardId,
    Option,
    build_assign,
    build_number,
    build_pick_cards,
    build_pick_path,
    check_count,
    mark_name,
    menu,
    structured_choices,
)
from arbiter.play import legal_of
from arbiter.render import (
    card_names,
    describe_choice,
    event_text,
    loads_object,
    render_outcome,
    render_pending,
    screen_cards,
    seat_name,
)
from arbiter.v1 import game_pb2
from arbiter.wire import WireError, json_to_command
from markupsafe import Markup

from service.web import session
from service.web.backend import Backend, GatewayError, PlayCall
from service.web.gateway import (
    BACKEND,
    HTTP_STATUS,
    error_response,
    peer,
    refused,
    relay_stream,
    whole_number,
)
from service.web.templating import LOG_TAIL, STATIC, environment, page

JSON = "application/json"
#: A client's command id (exactly-once retries), as the service accepts them.
COMMAND_ID = re.compile(r"[A-Za-z0-9_\-.:]{1,128}")
#: The rules of the games this side has read (a game never changes its rules).
RULES: web.AppKey[dict[str, str]] = web.AppKey("seat_rules", dict)
#: The games' titles, by rules id (from ListRules).
TITLES: web.AppKey[dict[str, str]] = web.AppKey("seat_titles", dict)
MAX_REMEMBERED = 4096
#: The choice structures the page asks as forms: every one the terminal asks, a
#: ``pick_path`` included (a card, then a place to put it), so that no
#: command they build is listed once per combination.
ASKED = TERMINAL


class AnswerError(ValueError):
    """A form's answer that cannot be read into the choice's command."""


# --------------------------------------------------------------------- reading


def seat_of(request: web.Request) -> int:
    """The page's seat number (the route allows digits only)."""
    text = request.match_info.get("seat", "")
    number = whole_number(text, 6)
    if number is None:
        raise web.HTTPNotFound(text=f"{text!r} is not a seat number")
    return number


def choice_key(decision_id: str, choice: Mapping[str, Any]) -> str:
    """A short stable name of one choice structure of one decision (the form's
    ``data-choice``): the server finds the choice again by it, as it offers it now."""
    text = decision_id + "\n" + json.dumps(choice, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _remember(store: dict[str, str], key: str, value: str) -> None:
    if len(store) >= MAX_REMEMBERED:
        store.clear()
    store[key] = value


async def title_of(request: web.Request, rules: str, token: str) -> str:
    """The game's title, in its own words (``RulesInfo.title``), else its rules id."""
    titles = request.app[TITLES]
    if rules not in titles:
        try:
            reply = await request.app[BACKEND].call(
                "ListRules", game_pb2.ListRulesRequest(), token, peer(request))
        except GatewayError:
            return rules
        for info in reply.rules:
            titles[info.id] = info.title or info.id
        titles.setdefault(rules, rules)
    return titles.get(rules, rules)


async def rules_of(request: web.Request, game_id: str, seat: int, token: str) -> str:
    """The game's rules id (read once with the seat's own credential)."""
    known = request.app[RULES].get(game_id)
    if known:
        return known
    state = await request.app[BACKEND].call(
        "GetState", game_pb2.GetStateRequest(game_id=game_id, seat=seat), token, peer(request))
    _remember(request.app[RULES], game_id, state.rules)
    return str(state.rules)


async def read_seat(request: web.Request, game_id: str, seat: int, token: str,
                    after: int = 0) -> dict[str, Any]:
    """What the seat's page shows, from the service as that seat: its state, its
    legal actions at the same version, and its events after ``after``."""
    backend: Backend = request.app[BACKEND]
    who = peer(request)
    state: Any = None
    legal: Any = None
    for _ in range(5):  # a move between the two reads: read both again
        state = await backend.call(
            "GetState", game_pb2.GetStateRequest(game_id=game_id, seat=seat), token, who)
        if state.over:
            legal = game_pb2.LegalActionsResponse(version=state.version, complete=True)
            break
        legal = await backend.call(
            "LegalActions", game_pb2.LegalActionsRequest(game_id=game_id, seat=seat), token, who)
        if legal.version == state.version:
            break
    _remember(request.app[RULES], game_id, state.rules)
    after = max(after, state.version - LOG_TAIL)  # the page keeps the latest lines
    events = [ev async for ev in backend.stream(
        "History", game_pb2.HistoryRequest(game_id=game_id, seat=seat, after_version=after),
        token, who) if ev.version <= state.version]  # the log goes as far as the board
    return context_of(state, legal, events, seat, await title_of(request, state.rules, token))


# ------------------------------------------------------------------ rendering


def json_script(text: str) -> Markup:
    """JSON text safe inside ``<script type="application/json">``: the same value
    once parsed (``<``, ``>`` and ``&`` only ever occur inside JSON strings)."""
    return Markup(text.replace("&", "\\u0026").replace("<", "\\u003c")
                  .replace(">", "\\u003e"))


def card_label(card: CardId, names: Mapping[str, str]) -> str:
    return names.get(str(card), f"card {card}")


def form_of(option: Option, screen: Mapping[str, Any]) -> dict[str, Any]:
    """One choice structure as a form's fields (the template draws them)."""
    choice = dict(option.choice or {})
    kind = str(choice.get("kind"))
    names = card_names(screen)
    form: dict[str, Any] = {"kind": kind, "decision_id": option.decision_id,
                            "key": choice_key(option.decision_id, choice),
                            "legend": describe_choice(choice),
                            "command": str(choice.get("command") or "")}
    if kind == "pick_cards":
        options: list[CardId] = list(choice.get("options") or [])
        shown = screen_cards(screen, str(choice.get("zone") or "")) or []
        order = [c["id"] for c in shown if "id" in c and c["id"] in options]
        order += [c for c in options if c not in order]  # screen order, then the rest
        form["cards"] = picked_cards(order, shown, names)
        form["low"], form["high"] = int(choice.get("low", 0)), int(choice.get("high", 0))
        form["mark"] = mark_name(choice)
    elif kind == "assign":
        slots = list(choice.get("slots") or [])
        given = list(choice.get("slot_labels") or [])
        labels = given if len(given) == len(slots) else [str(s) for s in slots]
        form["slots"] = [{"value": str(s), "label": str(label)}
                         for s, label in zip(slots, labels, strict=True)]
        form["items"] = [{"name": str(n), "label": card_label(item, names)}
                         for n, item in enumerate(choice.get("items") or [])]
    elif kind == "number":
        form["low"], form["high"] = int(choice.get("low", 0)), int(choice.get("high", 0))
        form["arg"] = str(choice.get("arg", "value")).replace("_", " ")
    elif kind == "pick_path":
        form["questions"] = [str(q) for q in choice.get("questions") or []]
        form["groups"] = [
            {"label": str(first.get("label", "")),
             "paths": [{"value": key, "label": " · ".join(labels)}
                       for key, labels in complete_paths(_branches(first), str(n))]}
            for n, first in enumerate(_branches(choice, "options"))]
    return form


def picked_cards(order: Sequence[CardId], shown: Sequence[Mapping[str, Any]],
                 names: Mapping[str, str]) -> list[dict[str, Any]]:
    """A pick-cards form's cards: each with its number as the board numbers its
    zone (``number``, None for a card the zone does not show), so that a form
    and the hand it picks from name a card alike, and two cards of one name
    (three Merfolk of three colours) stay apart in the form and its leader list."""
    position = {str(face.get("id")): n for n, face in enumerate(shown, 1)}
    return [{"value": str(c), "number": position.get(str(c)),
             "label": card_label(c, names)} for c in order]


def _branches(node: Mapping[str, Any], field: str = "then") -> list[Mapping[str, Any]]:
    return [b for b in node.get(field) or [] if isinstance(b, Mapping)]


def complete_paths(branches: Sequence[Mapping[str, Any]], key: str
                   ) -> list[tuple[str, list[str]]]:
    """Every complete path below a ``pick_path`` branch: its key (the branches'
    indexes from the first step, ``"2.0.1"``) and the later steps' words. A
    branch that completes the path at once is one path of no more words. A page
    answers with the key, never with the values, so nothing but the tree's own
    values can reach the command."""
    if not branches:
        return [(key, [])]
    return [(deeper, [str(branch.get("label", "")), *labels])
            for n, branch in enumerate(branches)
            for deeper, labels in complete_paths(_branches(branch), f"{key}.{n}")]


def path_values(choice: Mapping[str, Any], key: str) -> list[CardId]:
    """The values of the complete path ``key`` names (see ``complete_paths``)."""
    branches, values = _branches(choice, "options"), list[CardId]()
    for step in key.split(".") if key else []:
        if not step.isdigit() or int(step) >= len(branches):
            raise AnswerError(f"{key!r} is not one of the paths offered")
        branch = branches[int(step)]
        value = branch.get("value")
        if not isinstance(value, int | str):
            raise AnswerError(f"{key!r} is not one of the paths offered")
        values.append(value)
        branches = _branches(branch)
    if branches or not values:
        raise AnswerError("Choose every step of the move (the choice is not complete).")
    return values


def context_of(state: Any, legal: Any, events: Sequence[Any], seat: int,
               title: str) -> dict[str, Any]:
    """The template's context: everything already in words."""
    seats = list(state.seats)
    screen = loads_object(state.screen_json)
    options = menu(legal, ASKED) if not state.over else []
    waiting = sorted({d.seat for d in state.pending})
    if state.over:
        pending = ["The game is over."]
    elif seat in waiting:
        prompts = list(dict.fromkeys(d.prompt for d in state.pending
                                     if d.seat == seat and d.prompt))
        pending = [f"Your turn: {p}" for p in prompts] or ["Your turn."]
        others = [s for s in waiting if s != seat]
        if others:
            pending.append("Also waiting on " + ", ".join(seat_name(s, seats) for s in others)
                           + ".")
    else:
        pending = render_pending(state.pending, seats) or ["Nobody is asked to move."]
    outcome = render_outcome(loads_object(state.outcome_json), seats).splitlines() \
        if state.over else []
    return {
        "game_id": state.game_id, "seat": seat, "title": title,
        "seat_label": seat_name(seat, seats), "version": state.version,
        "over": state.over, "screen": screen, "seats": seats,
        "screen_json": json_script(state.screen_json or "{}"),
        "pending": pending, "my_turn": seat in waiting and not state.over,
        "waiting_on": [seat_name(s, seats) for s in waiting if s != seat],
        "actions": [{"label": o.label, "json": o.action.json, "decision_id": o.decision_id}
                    for o in options if o.action is not None],
        "forms": [form_of(o, screen) for o in options if o.choice is not None],
        "log": [{"version": ev.version, "text": event_text(ev)} for ev in events],
        "outcome": outcome, "seed": state.seed if state.over else "",
        "log_tail": LOG_TAIL,
    }


def block(name: str, context: Mapping[str, Any]) -> str:
    """One block of ``seat.html`` alone (the panel's pieces are the page's own)."""
    template = environment().get_template("seat.html")
    return "".join(template.blocks[name](template.new_context(dict(context))))


def no_session(game_id: str, seat: int, status: int, reason: str, message: str) -> web.Response:
    """The page when the service will not show this seat to this browser: why, and
    the script that trades a link's fragment for the game's cookie."""
    return page("seat.html", status=status, session=False, game_id=game_id, seat=seat,
                reason=reason, message=message)


# --------------------------------------------------------------------- routes


async def seat_page(request: web.Request) -> web.Response:
    """``GET /games/<id>/seat/<n>``."""
    game_id, seat = session.game_id_of(request), seat_of(request)
    token = session.token_of(request)
    if not token:  # a link's first load (its token is in the fragment), or no link
        return session.link_page(game_id, seat)
    try:
        context = await read_seat(request, game_id, seat, token)
    except GatewayError as exc:
        return no_session(game_id, seat, HTTP_STATUS.get(exc.code, 500), exc.reason,
                          exc.message)
    return page("seat.html", session=True, **context)


async def panel(request: web.Request) -> web.Response:
    """``GET /games/<id>/seat/<n>/panel?after=V``: the page's changing pieces."""
    game_id, seat = session.game_id_of(request), seat_of(request)
    token = session.token_of(request)
    if not token:
        return refused("UNAUTHENTICATED", "NO_SESSION", "open the seat's link first")
    after = request.query.get("after", "0")
    try:
        context = await read_seat(request, game_id, seat, token,
                                  whole_number(after) or 0)
    except GatewayError as exc:
        return error_response(exc)
    context["session"] = True
    return web.json_response({
        "version": context["version"], "over": context["over"],
        "board": block("board", context), "pending": block("pending", context),
        "play": block("play", context), "log": block("log", context),
        "outcome": block("outcome", context),
    }, headers={"Cache-Control": "no-store"})


def cross_site(request: web.Request) -> web.Response | None:
    """A move must come from this server's own page: JSON (a cross-site form
    cannot send it without a preflight) and, when the browser says where it
    comes from, this very origin."""
    if request.content_type != JSON:
        response = refused("INVALID_ARGUMENT", "BAD_CONTENT_TYPE",
                           "send the move as JSON (Content-Type: application/json)")
        response.set_status(415)
        return response
    return foreign_origin(request)


def foreign_origin(request: web.Request) -> web.Response | None:
    """A refusal when the browser says the request comes from another site: a
    move (``/act``) or a seat's socket (``/play``; a browser opens a WebSocket
    to any site with that site's cookies, so its ``Origin`` is what tells)."""
    origin = request.headers.get("Origin")
    # The host and port only: behind a proxy that ends TLS the scheme differs.
    if origin is not None and urlsplit(origin).netloc != request.host:
        return refused("PERMISSION_DENIED", "CROSS_ORIGIN",
                       "a move is accepted only from this server's own page")
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        return refused("PERMISSION_DENIED", "CROSS_ORIGIN",
                       "a move is accepted only from this server's own page")
    return None


def _values(answer: Mapping[str, Any], name: str) -> list[str]:
    value = answer.get(name)
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    return [str(v) for v in items if v is not None and str(v) != ""]


def _one_of(text: str, options: Sequence[CardId], what: str) -> CardId:
    for option in options:
        if str(option) == text:
            return option
    raise AnswerError(f"{text!r} is not one of the {what} offered")


def build_answer(choice: Mapping[str, Any], answer: Mapping[str, Any]) -> dict[str, Any]:
    """The command a form's answer makes, built as the terminal builds it (the
    kernel's ``build``); the service judges it. Fields: ``card`` (the picked
    cards) and ``mark``; one per item, named by its index (its slot); ``value``;
    ``path`` (a complete path's key)."""
    kind = choice.get("kind")
    if kind == "pick_cards":
        options = list(choice.get("options") or [])
        picked: list[CardId] = []
        for text in _values(answer, "card"):
            card = _one_of(text, options, "cards")
            if card in picked:
                raise AnswerError(f"card {card} is picked twice")
            picked.append(card)
        problem = check_count(len(picked), int(choice.get("low", 0)), int(choice.get("high", 0)))
        if problem:
            raise AnswerError(problem)
        marked: CardId | None = None
        if choice.get("mark") and picked:
            named = _values(answer, "mark")
            if named:
                marked = _one_of(named[0], picked, "cards picked")
            elif len(picked) == 1:
                marked = picked[0]
            else:
                raise AnswerError(f"Choose the {mark_name(choice).lower()} among the cards "
                                  "picked.")
        return build_pick_cards(choice, picked, marked)
    if kind == "assign":
        slots = list(choice.get("slots") or [])
        chosen = []
        for index, _item in enumerate(choice.get("items") or []):
            given = _values(answer, str(index))
            if not given:
                raise AnswerError(f"item {index + 1} has no slot")
            chosen.append(_one_of(given[0], slots, "slots"))
        return build_assign(choice, chosen)
    if kind == "number":
        given = _values(answer, "value")
        try:
            value = int(given[0]) if given else None
        except ValueError:
            value = None
        low, high = int(choice.get("low", 0)), int(choice.get("high", 0))
        if value is None or not low <= value <= high:
            raise AnswerError(f"Please give a number from {low} to {high}.")
        return build_number(choice, value)
    if kind == "pick_path":
        given = _values(answer, "path")
        return build_pick_path(choice, path_values(choice, given[0] if given else ""))
    raise AnswerError("this choice is answered by one of the listed actions")


@dataclasses.dataclass(frozen=True)
class MoveFields:
    """A move's envelope as a page sends it: what the service's ``Act`` (or a
    ``Play`` move) takes besides the command."""

    expected_version: int
    decision_id: str
    command_id: str


def move_fields(body: Any) -> MoveFields:
    """The envelope of a page's move (``/act``'s body, a socket's move);
    ``GatewayError`` BAD_MESSAGE for anything else."""
    if not isinstance(body, dict):
        raise GatewayError("INVALID_ARGUMENT", "BAD_MESSAGE", "the move must be a JSON object")
    expected = body.get("expected_version", 0)
    decision_id = body.get("decision_id", "")
    command_id = body.get("command_id") or uuid.uuid4().hex
    if not isinstance(expected, int) or isinstance(expected, bool) \
            or not 0 <= expected < 2**64 \
            or not isinstance(decision_id, str) or not isinstance(command_id, str) \
            or not COMMAND_ID.fullmatch(command_id):
        raise GatewayError("INVALID_ARGUMENT", "BAD_MESSAGE",
                           "expected_version is a version, decision_id and command_id are text")
    return MoveFields(expected, decision_id, command_id)


def asks_choice(body: Mapping[str, Any]) -> bool:
    """Whether a move answers a choice's form (else it names a listed action)."""
    return not isinstance(body.get("command_json"), str) \
        and isinstance(body.get("choice"), str | int) and not isinstance(body["choice"], bool)


def command_of(rules: str, body: Mapping[str, Any], legal: Any, decision_id: str
               ) -> tuple[str, game_pb2.Command]:
    """The decision a move answers and its command: a listed action's, or the
    one its answer builds for the choice it names among ``legal``'s (the
    seat's moves as the service offers them now). Raises ``GatewayError``
    (STALE_DECISION, BAD_MESSAGE), ``WireError``, ``AnswerError``."""
    if isinstance(body.get("command_json"), str):
        return decision_id, json_to_command(rules, loads_object(body["command_json"]))
    if not asks_choice(body):
        raise GatewayError("INVALID_ARGUMENT", "BAD_MESSAGE",
                           "send command_json (a listed action) or choice and answer")
    found = find_choice(legal, body["choice"], decision_id)
    if found is None:
        raise GatewayError("ABORTED", "STALE_DECISION",
                           "this choice is no longer offered; the page shows the "
                           "game as it is now", legal.version)
    answer = body.get("answer")
    return found[0], json_to_command(rules, build_answer(
        found[1], answer if isinstance(answer, dict) else {}))


def answer_refusal(exc: Exception) -> GatewayError:
    """A move the web side cannot make into a command, as the service's refusals read."""
    if isinstance(exc, GatewayError):
        return exc
    if isinstance(exc, AnswerError):
        return GatewayError("INVALID_ARGUMENT", "BAD_ANSWER", str(exc))
    if isinstance(exc, RecursionError):  # a command or an answer nested thousands deep
        return GatewayError("INVALID_ARGUMENT", "BAD_COMMAND", "the move is nested too deeply")
    return GatewayError("INVALID_ARGUMENT", "BAD_COMMAND", str(exc))


async def act(request: web.Request) -> web.Response:
    """``POST /games/<id>/seat/<n>/act``: a listed action
    (``{"command_json", "decision_id", "expected_version"}``) or a choice's answer
    (``{"decision_id", "choice", "answer", "expected_version"}``), sent as the
    seat's ``Act``. Answers ``{"version": N}`` or the service's refusal. (The
    page itself sends its moves on its socket, ``/play``; this is the same
    move for a script holding the cookie.)"""
    game_id, seat = session.game_id_of(request), seat_of(request)
    unsafe = cross_site(request)
    if unsafe is not None:
        return unsafe
    token = session.token_of(request)
    if not token:
        return refused("UNAUTHENTICATED", "NO_SESSION", "open the seat's link first")
    try:
        body = json.loads(await request.read() or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):
        body = None
    backend: Backend = request.app[BACKEND]
    who = peer(request)
    try:
        fields = move_fields(body)
        rules = await rules_of(request, game_id, seat, token)
        legal = await backend.call(
            "LegalActions", game_pb2.LegalActionsRequest(game_id=game_id, seat=seat),
            token, who) if asks_choice(body) else None
        decision_id, command = command_of(rules, body, legal, fields.decision_id)
        reply = await backend.call("Act", game_pb2.ActRequest(
            game_id=game_id, seat=seat, command=command,
            expected_version=fields.expected_version, command_id=fields.command_id,
            decision_id=decision_id), token, who)
    except (GatewayError, WireError, RecursionError, AnswerError) as exc:
        return error_response(answer_refusal(exc))
    return web.json_response({
        "version": reply.version, "over": reply.state.over, "replayed": reply.replayed,
        "events": [event_text(ev) for ev in reply.events],
    })


def find_choice(legal: Any, key: str | int, decision_id: str
                ) -> tuple[str, dict[str, Any]] | None:
    """The structured choice a form names (its key, or its index in the menu's
    order, with the decision it belongs to), as the service offers it now."""
    choices = structured_choices(legal, ASKED)
    if isinstance(key, int):
        if 0 <= key < len(choices) and (not decision_id or choices[key][0] == decision_id):
            return choices[key]
        return None
    for found in choices:
        if choice_key(*found) == key:
            return found
    return None


async def live(request: web.Request) -> web.StreamResponse:
    """``GET /games/<id>/seat/<n>/live``: the seat's feed as Server-Sent Events,
    after ``Last-Event-ID`` (a reconnect) or ``?after=V`` (the page's version)."""
    game_id, seat = session.game_id_of(request), seat_of(request)
    token = session.token_of(request)
    if not token:
        return refused("UNAUTHENTICATED", "NO_SESSION", "open the seat's link first")
    after = whole_number(request.headers.get("Last-Event-ID", "")) or \
        whole_number(request.query.get("after", "")) or 0
    message = game_pb2.SubscribeRequest(game_id=game_id, seat=seat, after=after)
    stream = request.app[BACKEND].stream("Subscribe", message, token, peer(request))
    return await relay_stream(request, stream, True)


# ------------------------------------------------------------ the seat's socket

#: The largest message a page sends on its socket (a move; its answer's fields).
MAX_SOCKET_MESSAGE = 64 * 1024
#: How long a socket may stay open before saying where its events resume.
HELLO_SECONDS = 10.0


class SeatSocket:
    """A seat page's socket (``/play``), backed by the seat's ``Play`` stream.

    A browser cannot open a gRPC stream, so the web side holds one for each
    open seat page, as the seat (the page's cookie: one authentication, when
    the socket opens), charged to the browser's address like every stream.
    The page's first message says the version its log holds (``{"after":
    V, "drawn": D}``: ``V`` its log's last version, on a first load as after a
    reconnect; ``D`` the version its pieces show), and the stream resumes
    there, gap-free. Then each push of the stream is one message to
    the page: the results of its moves, the events its seat may see (told in
    the game's words), and, whenever the seat is asked something new (or the
    board moved on without asking it), the page's pieces drawn at that
    version. The page's moves (a listed action, or a choice's answer that this
    side builds into a command from the seat's last pushed turn, as ``/act``
    does from ``LegalActions``) go on the stream in the order sent."""

    def __init__(self, request: web.Request, ws: web.WebSocketResponse, game_id: str,
                 seat: int, token: str) -> None:
        self.request, self.ws = request, ws
        self.game_id, self.seat, self.token = game_id, seat, token
        self.backend: Backend = request.app[BACKEND]
        self.who = peer(request)
        self.rules, self.title = "", ""
        #: The seat's moves as its last turn listed them (choices are found there).
        self.legal: Any = game_pb2.LegalActionsResponse()
        #: Whether a push has given ``legal``: before it, ``legal`` lists nothing,
        #: and a choice answered is judged against the service's list.
        self.pushed = False
        self.logged = 0  # the newest version whose event the page was told
        #: The version the page was drawn at (its first load): pieces of that
        #: version are the ones it shows already, so they are not sent again
        #: (swapping them would redraw the form a person is filling in).
        self.drawn = 0
        self._sending = asyncio.Lock()

    async def say(self, data: Mapping[str, Any]) -> None:
        """One message to the page (the stream's and a refusal's writers take turns)."""
        async with self._sending:
            if not self.ws.closed:
                await self.ws.send_str(json.dumps(data))

    async def run(self) -> None:
        """Until the page leaves, the game ends or the service refuses the stream."""
        after = await self.hello()
        if after is None:
            return
        self.logged = after
        call = self.backend.play(self.token, self.who)
        relay = asyncio.create_task(self.relay(call))
        moves = asyncio.create_task(self.read_moves(call))
        try:
            await call.send(game_pb2.PlayRequest(join=game_pb2.PlayJoin(
                game_id=self.game_id, seats=[self.seat], after_version=after, screens=True)))
            await asyncio.wait((relay, moves), return_when=asyncio.FIRST_COMPLETED)
        finally:
            call.cancel()
            for task in (relay, moves):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def hello(self) -> int | None:
        """The page's first message: the version its events resume after."""
        try:
            first = await self.ws.receive(timeout=HELLO_SECONDS)
            self.rules = await rules_of(self.request, self.game_id, self.seat, self.token)
        except TimeoutError:
            await self.refuse(GatewayError("DEADLINE_EXCEEDED", "SLOW_HELLO",
                                           "say where the events resume: {\"after\": V}"))
            return None
        except GatewayError as exc:
            await self.refuse(exc)
            return None
        self.title = await title_of(self.request, self.rules, self.token)
        try:
            hello = json.loads(first.data) if first.type == WSMsgType.TEXT else None
        except (ValueError, RecursionError):
            hello = None
        after = hello.get("after") if isinstance(hello, dict) else None
        if not isinstance(after, int) or isinstance(after, bool) or not 0 <= after < 2**63:
            await self.refuse(GatewayError("INVALID_ARGUMENT", "BAD_MESSAGE",
                                           "the first message is {\"after\": V}, a version"))
            return None
        drawn = hello.get("drawn") if isinstance(hello, dict) else None
        self.drawn = drawn if isinstance(drawn, int) and not isinstance(drawn, bool) else 0
        return after

    async def refuse(self, exc: GatewayError) -> None:
        """The stream cannot go on: why, then the socket closes."""
        await self.say(exc.to_json())
        await self.ws.close()

    async def relay(self, call: PlayCall) -> None:
        """Each of the stream's pushes as one message to the page."""
        try:
            async for message in call.messages():
                await self.say(await self.push_of(message))
        except GatewayError as exc:
            await self.refuse(exc)
            return
        await self.ws.close()

    async def read_moves(self, call: PlayCall) -> None:
        """The page's moves, in order, onto the stream; one the web side cannot
        make into a command is answered at once, as the service would."""
        async for frame in self.ws:
            if frame.type != WSMsgType.TEXT:
                continue
            try:
                body = json.loads(frame.data)
            except (ValueError, RecursionError):
                body = None
            command_id = body.get("command_id") if isinstance(body, dict) else None
            try:
                fields = move_fields(body)
                decision_id, command = command_of(self.rules, body, await self.moves_for(body),
                                                  fields.decision_id)
            except (GatewayError, WireError, RecursionError, AnswerError) as exc:
                refusal = answer_refusal(exc)
                await self.say({"results": [{
                    "command_id": command_id if isinstance(command_id, str) else "",
                    "accepted": False, "version": refusal.version or self.legal.version,
                    "error": refusal.to_json()["error"]}]})
                continue
            await call.send(game_pb2.PlayRequest(move=game_pb2.PlayMove(
                command=command, expected_version=fields.expected_version,
                command_id=fields.command_id, decision_id=decision_id)))

    async def moves_for(self, body: Any) -> Any:
        """The moves a page's answer is judged against: its last turn's; or, for
        a choice answered before the stream's first push was read (a page drawn
        at its load, answered at once), the seat's moves as the service lists
        them now, as ``/act`` judges it: else it was refused as stale."""
        if self.pushed or not isinstance(body, dict) or not asks_choice(body):
            return self.legal
        return await self.backend.call("LegalActions", game_pb2.LegalActionsRequest(
            game_id=self.game_id, seat=self.seat), self.token, self.who)

    async def push_of(self, message: game_pb2.PlayMessage) -> dict[str, Any]:
        """One push as the page takes it (``seat.js``): ``results``, ``log``
        (the events' words), ``pieces`` (``panel``'s), ``status``."""
        out: dict[str, Any] = {}
        if message.results:
            out["results"] = [result_json(r) for r in message.results]
        log = []
        for pushed in message.events:
            if self.seat in pushed.for_seats and pushed.event.version > self.logged:
                self.logged = pushed.event.version
                log.append({"version": pushed.event.version, "text": event_text(pushed.event)})
        if log:
            out["log"] = log
        turn = next((t for t in message.turns if t.seat == self.seat), None)
        if turn is not None:
            self.legal, self.pushed = legal_of(turn), True
            drawn = self.pieces(turn.state, self.legal)
            if drawn is not None:
                out["pieces"] = drawn
        elif log:
            state = await self.backend.call("GetState", game_pb2.GetStateRequest(
                game_id=self.game_id, seat=self.seat), self.token, self.who)
            legal = _standing_moves(state, self.seat, self.legal)
            if legal is not None:  # else its turn comes in the next push
                self.legal, self.pushed = legal, True
                drawn = self.pieces(state, legal)
                if drawn is not None:
                    out["pieces"] = drawn
        if message.status:
            out["status"] = message.status
        return out

    def pieces(self, state: Any, legal: Any) -> dict[str, Any] | None:
        """The page's changing pieces at a version (as ``/panel`` draws them);
        None for the version the page was drawn at."""
        if state.version == self.drawn:
            self.drawn = 0
            return None
        context = context_of(state, legal, [], self.seat, self.title)
        context["session"] = True
        return {"version": state.version, "over": state.over,
                "board": block("board", context), "pending": block("pending", context),
                "play": block("play", context), "outcome": block("outcome", context)}


def result_json(result: game_pb2.PlayResult) -> dict[str, Any]:
    """A move's result for the page: accepted (or replayed), or the refusal."""
    out: dict[str, Any] = {"command_id": result.command_id, "accepted": result.accepted,
                           "version": result.version, "replayed": result.replayed}
    if not result.accepted:
        out["error"] = {"code": result.code, "reason": result.reason,
                        "message": result.message, "version": result.version}
    return out


def _standing_moves(state: Any, seat: int, legal: Any) -> Any:
    """The seat's moves beside a state its stream pushed no turn for (the
    stream pushes one only to a seat asked something new): none, when the
    state asks the seat nothing; its last turn's, when it asks the same; else
    None (the state is newer than the events read: the turn comes next)."""
    asked = [d.id for d in state.pending if d.seat == seat]
    if state.over or not asked:
        return game_pb2.LegalActionsResponse(version=state.version, complete=True)
    return legal if asked == [d.id for d in legal.decisions] else None


async def play_socket(request: web.Request) -> web.StreamResponse:
    """``GET /games/<id>/seat/<n>/play``: the seat page's WebSocket (``SeatSocket``)."""
    game_id, seat = session.game_id_of(request), seat_of(request)
    unsafe = foreign_origin(request)
    if unsafe is not None:
        return unsafe
    token = session.token_of(request)
    if not token:
        return refused("UNAUTHENTICATED", "NO_SESSION", "open the seat's link first")
    ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_SOCKET_MESSAGE)
    if not ws.can_prepare(request).ok:
        return refused("INVALID_ARGUMENT", "NOT_A_SOCKET",
                       "this address is the seat page's WebSocket")
    await ws.prepare(request)
    await SeatSocket(request, ws, game_id, seat, token).run()
    return ws


def install(app: web.Application) -> None:
    """Add the seat page's routes (and ``/static`` if no other page serves it)."""
    app[RULES] = {}
    app[TITLES] = {}
    base = r"/games/{game_id}/seat/{seat:\d+}"
    app.add_routes([
        web.get(base, seat_page),
        web.get(base + "/panel", panel),
        web.post(base + "/act", act),
        web.get(base + "/live", live),
        web.get(base + "/play", play_socket),
    ])
    if not any(r.canonical == "/static" for r in app.router.resources()):
        app.router.add_static("/static/", STATIC)
