"""A seat's page: a player plays through the legal actions, in a browser.

``GET /games/<id>/seat/<n>`` is the seat's page. Its link carries the seat's
token in the fragment (``#<token>``, see ``service.web.session``): the page's
script trades it for the game's cookie and reloads; without a cookie the
page is the link's first page (``session.link_page``: 200, reading no game),
whose script does the trade, or says the link lost its secret part. With
one, every read and move is an ordinary ``GameService`` call with that
token (``GetState``, ``LegalActions``, ``History`` as that seat; ``Act``), so
the service decides what the seat may see and do, exactly as for a terminal
player.

The page mirrors the terminal's play loop (``clients.play``) and reuses its
parts: the menu is ``aggregates.kernel.answers.menu`` (the listed actions in the game's
words, then one form per choice structure: pick cards, assign, a number), a
structured answer is built into a command on the server by the kernel's own
``build`` (``aggregates.kernel.answers.build_*``), the events are told in the game's
words (``aggregates.kernel.render.event_text``). The browser never builds a command.

Routes (``<n>`` is the seat number):

- ``GET  /games/<id>/seat/<n>``: the page (``#board``, ``#pending``,
  ``section#play``, ``ol#log``, ``#message``, ``#outcome``);
- ``GET  /games/<id>/seat/<n>/panel?after=V``: the changing pieces as JSON
  (HTML fragments, and the log's lines after version ``V``);
- ``POST /games/<id>/seat/<n>/act``: a move, as JSON (same origin only);
- ``GET  /games/<id>/seat/<n>/live``: the seat's ``Subscribe`` feed as
  Server-Sent Events (``id:`` the event's version; ``Last-Event-ID`` resumes).
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from arbiter.v1 import game_pb2
from arbiter.wire import WireError, json_to_command
from markupsafe import Markup

from aggregates.kernel.answers import (
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
from aggregates.kernel.render import (
    card_names,
    describe_choice,
    event_text,
    loads_object,
    render_outcome,
    render_pending,
    screen_cards,
    seat_name,
)
from service.web import session
from service.web.backend import Backend, GatewayError
from service.web.gateway import (
    BACKEND,
    HTTP_STATUS,
    error_response,
    peer,
    refused,
    relay_stream,
    whole_number,
)
from service.web.templating import STATIC, environment, page

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


async def act(request: web.Request) -> web.Response:
    """``POST /games/<id>/seat/<n>/act``: a listed action
    (``{"command_json", "decision_id", "expected_version"}``) or a choice's answer
    (``{"decision_id", "choice", "answer", "expected_version"}``), sent as the
    seat's ``Act``. Answers ``{"version": N}`` or the service's refusal."""
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
    if not isinstance(body, dict):
        return refused("INVALID_ARGUMENT", "BAD_MESSAGE", "the body must be a JSON object")
    expected = body.get("expected_version", 0)
    decision_id = body.get("decision_id", "")
    command_id = body.get("command_id") or uuid.uuid4().hex
    if not isinstance(expected, int) or isinstance(expected, bool) \
            or not 0 <= expected < 2**64 \
            or not isinstance(decision_id, str) or not isinstance(command_id, str) \
            or not COMMAND_ID.fullmatch(command_id):
        return refused("INVALID_ARGUMENT", "BAD_MESSAGE",
                       "expected_version is a version, decision_id and command_id are text")
    backend: Backend = request.app[BACKEND]
    who = peer(request)
    try:
        rules = await rules_of(request, game_id, seat, token)
        if isinstance(body.get("command_json"), str):
            command = json_to_command(rules, loads_object(body["command_json"]))
        elif isinstance(body.get("choice"), str | int) and not isinstance(body["choice"], bool):
            legal = await backend.call(
                "LegalActions", game_pb2.LegalActionsRequest(game_id=game_id, seat=seat),
                token, who)
            found = find_choice(legal, body["choice"], decision_id)
            if found is None:
                raise GatewayError("ABORTED", "STALE_DECISION",
                                   "this choice is no longer offered; the page shows the "
                                   "game as it is now", legal.version)
            decision_id, choice = found
            answer = body.get("answer")
            command = json_to_command(rules, build_answer(
                choice, answer if isinstance(answer, dict) else {}))
        else:
            return refused("INVALID_ARGUMENT", "BAD_MESSAGE",
                           "send command_json (a listed action) or choice and answer")
        reply = await backend.call("Act", game_pb2.ActRequest(
            game_id=game_id, seat=seat, command=command, expected_version=expected,
            command_id=command_id, decision_id=decision_id), token, who)
    except GatewayError as exc:
        return error_response(exc)
    except WireError as exc:
        return refused("INVALID_ARGUMENT", "BAD_COMMAND", str(exc))
    except RecursionError:  # a command or an answer nested thousands deep
        return refused("INVALID_ARGUMENT", "BAD_COMMAND", "the move is nested too deeply")
    except AnswerError as exc:
        return refused("INVALID_ARGUMENT", "BAD_ANSWER", str(exc))
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
    ])
    if not any(r.canonical == "/static" for r in app.router.resources()):
        app.router.add_static("/static/", STATIC)
