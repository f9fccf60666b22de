"""A seat's page (issue 10): a player plays through the page's own offered moves.

Each test drives a real server process over HTTP as a browser would: the seat's
link's token is traded for the game's cookie (``POST /games/<id>/session``),
then the page (``GET /games/<id>/seat/<n>``) is parsed for what it offers
(``button.action`` and ``form.choice``) and a move is posted as JSON to
``/act``. A whole Land of Enin game is played this way, choosing at random
among the page's offers only: the HTTP twin of the browser test.
"""

from __future__ import annotations

import http.client
import json
import random
import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

import pytest
from arbiter.answers import menu, structured_choices
from arbiter.v1 import game_pb2

from tests.integration.conftest import ServerProcess

pytestmark = [pytest.mark.integration, pytest.mark.heavy(30)]

JSON = dict[str, Any]


# ----------------------------------------------------------------- a browser


class Reply:
    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def text(self) -> str:
        return self.body.decode()

    def json(self) -> Any:
        return json.loads(self.body)


class Browser:
    """One browser's cookies for one server (enough of a browser for these pages)."""

    def __init__(self, server: ServerProcess) -> None:
        url = urlsplit(server.web_url)
        self.host, self.port = url.hostname or "127.0.0.1", url.port or 80
        self.origin = f"http://{url.netloc}"
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None, timeout: float = 30) -> Reply:
        sent = dict(headers or {})
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            connection.request(method, path, body=data, headers=sent)
            reply = connection.getresponse()
            headers_out = {k.lower(): v for k, v in reply.getheaders()}
            for name, value in reply.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key] = rest.split(";", 1)[0]
            return Reply(reply.status, headers_out, reply.read())
        finally:
            connection.close()

    def get(self, path: str, headers: dict[str, str] | None = None) -> Reply:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None) -> Reply:
        return self.request("POST", path, body, {"Origin": self.origin, **(headers or {})})

    def open_seat(self, game_id: str, seat: int, token: str) -> Reply:
        """What the page's script does with the link's fragment."""
        return self.post(f"/games/{game_id}/session", {"token": token, "seat": seat})


class SeatPage(HTMLParser):
    """The parts of a seat's page (or panel fragment) a player uses."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.body: dict[str, str] = {}
        self.board_version: int | None = None
        self.screen_json: str | None = None
        self.actions: list[dict[str, str]] = []
        self.labels: list[str] = []
        self.forms: list[dict[str, Any]] = []
        self.log: list[tuple[int, str]] = []
        self.cards_shown: list[str] = []
        self.ids: set[str] = set()
        self.message = ""
        self._form: dict[str, Any] | None = None
        self._select: dict[str, Any] | None = None
        self._capture: str | None = None
        self._text: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "body":
            self.body = a
        if a.get("id") == "board":
            self.board_version = int(a["data-version"])
        if tag == "script" and a.get("id") == "screen-json":
            self._capture, self._text = "screen", []
        if tag == "li" and "data-version" in a:
            self._capture, self._text = "log:" + a["data-version"], []
        if a.get("id") == "message":
            self._capture, self._text = "message", []
        if tag == "li" and "data-card" in a:
            self.cards_shown.append(a["data-card"])
        if tag == "button" and "action" in a.get("class", "").split():
            self.actions.append(a)
            self._capture, self._text = "button", []
        if tag == "form" and "choice" in a.get("class", "").split():
            self._form = {**a, "checkboxes": [], "selects": [], "numbers": []}
            self.forms.append(self._form)
        if self._form is not None:
            if tag == "button" and a.get("name") == "path":
                self._form.setdefault("paths", []).append(a["value"])
            if tag == "input" and a.get("type") == "checkbox":
                self._form["checkboxes"].append(a)
            elif tag == "input" and a.get("type") == "number":
                self._form["numbers"].append(a)
            elif tag == "select":
                self._select = {"name": a.get("name", ""), "options": []}
                self._form["selects"].append(self._select)
            elif tag == "option" and self._select is not None:
                self._select["options"].append(a.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        if tag == "select":
            self._select = None
        if self._capture and tag in ("script", "li", "p", "button"):
            text = "".join(self._text)
            if self._capture == "button":
                self.labels.append(text.strip())
            elif self._capture == "screen":
                self.screen_json = text
            elif self._capture == "message":
                self.message = text.strip()
            else:
                self.log.append((int(self._capture.split(":")[1]), text.strip()))
            self._capture = None

    def handle_data(self, data: str) -> None:
        if self._capture:
            self._text.append(data)


def answer_at_random(form: dict[str, Any], rng: random.Random) -> JSON:
    """A random answer to a form, as a person filling it in would give it."""
    answer: dict[str, list[str]] = {}
    if form["data-kind"] == "pick_cards":
        values = [c["value"] for c in form["checkboxes"]]
        picked = rng.sample(values, rng.randint(min(1, len(values)), len(values)))
        answer["card"] = picked
        for select in form["selects"]:
            if select["name"] == "mark" and picked:
                answer["mark"] = [rng.choice(picked)]
    elif form["data-kind"] == "pick_path":
        answer["path"] = [rng.choice(form["paths"])]
    else:
        for select in form["selects"]:
            answer[select["name"]] = [rng.choice(select["options"])]
        for number in form["numbers"]:
            answer[number["name"]] = [str(rng.randint(int(number["min"]), int(number["max"])))]
    return answer


def move_of(page: SeatPage, rng: random.Random) -> JSON:
    """A random move among those the page offers."""
    offers: list[Any] = [("action", a) for a in page.actions] + \
        [("form", f) for f in page.forms]
    kind, offer = rng.choice(offers)
    if kind == "action":
        return {"command_json": offer["data-json"], "decision_id": offer["data-decision-id"]}
    return {"decision_id": offer["data-decision-id"], "choice": offer["data-choice"],
            "answer": answer_at_random(offer, rng)}


def create(server: ServerProcess, rules: str, seats: list[str]) -> game_pb2.CreateGameResponse:
    return server.stub().CreateGame(game_pb2.CreateGameRequest(rules=rules, seats=seats))


def state_of(server: ServerProcess, game_id: str) -> game_pb2.GameState:
    return server.stub().GetState(game_pb2.GetStateRequest(game_id=game_id))


# ------------------------------------------------------------------- tests


def test_a_seats_link_opens_its_page_with_its_hand_and_moves(web_server: ServerProcess) -> None:
    created = create(web_server, "ethnos", ["Ann", "Bo", "Cy"])
    game_id = created.game_id
    state = state_of(web_server, game_id)
    seat = state.pending[0].seat
    browser = Browser(web_server)
    opened = browser.open_seat(game_id, seat, created.seat_tokens[seat].token)
    assert opened.status == 200, opened.text
    assert "httponly" in opened.headers["set-cookie"].lower()
    assert f"path=/games/{game_id}" in opened.headers["set-cookie"].lower()

    reply = browser.get(f"/games/{game_id}/seat/{seat}")
    assert reply.status == 200, reply.text
    assert reply.headers["referrer-policy"] == "no-referrer"
    assert created.seat_tokens[seat].token not in reply.text  # the page never repeats it
    page = SeatPage(reply.text)
    assert re.search(r"<h1>Ethnos: " + ["Ann", "Bo", "Cy"][seat] + "</h1>", reply.text)
    mine = web_server.stub(created.seat_tokens[seat].token)
    seen = mine.GetState(game_pb2.GetStateRequest(game_id=game_id, seat=seat))
    assert page.board_version == seen.version
    assert page.body["data-over"] == "false"
    assert page.screen_json is not None and json.loads(page.screen_json) == \
        json.loads(seen.screen_json)
    # Its hand: each card the screen shows in "hand" is drawn on the board.
    hand = [c for s in json.loads(seen.screen_json)["sections"] for i in s["items"]
            if i.get("zone") == "hand" for c in i.get("cards", [])]
    assert hand and {str(c["id"]) for c in hand} <= set(page.cards_shown)
    # Its moves: the menu the terminal shows: the listed ones as buttons (in the
    # game's words), each choice structure (the band: pick cards) as a form.
    legal = mine.LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=seat))
    options = menu(legal)
    assert [a["data-json"] for a in page.actions] == \
        [o.action.json for o in options if o.action is not None]
    assert page.labels == [o.label for o in options if o.action]
    assert all(a["data-decision-id"] == legal.decisions[0].id for a in page.actions)
    assert [f["data-kind"] for f in page.forms] == \
        [o.choice["kind"] for o in options if o.choice is not None]
    for form, (_, choice) in zip(page.forms, structured_choices(legal), strict=True):
        assert {c["value"] for c in form["checkboxes"]} == {str(c) for c in choice["options"]}
        assert form["selects"][0]["name"] == "mark"
    assert {"pending", "play", "actions", "log", "message", "version", "outcome"} <= page.ids
    assert re.search(r'id="message" role="status"', reply.text)
    assert '<script src="/static/seat.js"></script>' in reply.text
    assert "<script>" not in reply.text  # the page's policy allows no inline script
    assert page.log and [v for v, _ in page.log] == list(range(1, seen.version + 1))

    # Another seat's page says whom the game waits on, and offers nothing.
    other = (seat + 1) % 3
    browser2 = Browser(web_server)
    assert browser2.open_seat(game_id, other, created.seat_tokens[other].token).status == 200
    waiting = SeatPage(browser2.get(f"/games/{game_id}/seat/{other}").text)
    assert not waiting.actions and not waiting.forms
    assert "actions" in waiting.ids
    assert f"waiting on {['Ann', 'Bo', 'Cy'][seat]}".lower() in \
        browser2.get(f"/games/{game_id}/seat/{other}").text.lower()

    # The panel: the same pieces, as JSON, for the script to swap in.
    panel = browser.get(f"/games/{game_id}/seat/{seat}/panel?after={seen.version - 1}").json()
    assert panel["version"] == seen.version and panel["over"] is False
    again = SeatPage(panel["board"] + panel["play"] + panel["log"])
    assert json.loads(again.screen_json or "") == json.loads(seen.screen_json)
    assert [a["data-json"] for a in again.actions] == [a["data-json"] for a in page.actions]
    assert [v for v, _ in again.log] == [seen.version]


def test_a_whole_land_of_enin_game_through_the_page(web_server: ServerProcess) -> None:
    created = create(web_server, "enin", ["Hero"])
    game_id = created.game_id
    browser = Browser(web_server)
    assert browser.open_seat(game_id, 0, created.seat_tokens[0].token).status == 200
    rng = random.Random(10)
    moves = refused = 0
    kinds: set[str] = set()
    page = SeatPage(browser.get(f"/games/{game_id}/seat/0").text)
    for step in range(3000):
        if page.body.get("data-over") == "true":
            break
        assert page.actions or page.forms, f"the page offers nothing at v{page.board_version}"
        move = move_of(page, rng)
        kinds.add("action" if "command_json" in move else "choice")
        if "command_json" not in move and rng.random() < 0.5:
            move["expected_version"] = page.board_version
        reply = browser.post(f"/games/{game_id}/seat/0/act", move)
        if reply.status == 200:
            moves += 1
            assert reply.json()["version"] > (page.board_version or 0)
        else:  # a random answer the rules refuse, with the service's reason
            refused += 1
            assert reply.status in (400, 409), reply.text
            assert reply.json()["error"]["reason"]
        if step % 2:
            page = SeatPage(browser.get(f"/games/{game_id}/seat/0").text)
        else:  # the panel, as the page's script reads it
            panel = browser.get(f"/games/{game_id}/seat/0/panel").json()
            page = SeatPage(panel["board"] + panel["play"])
            page.body = {"data-over": "true" if panel["over"] else "false"}
    state = state_of(web_server, game_id)
    assert state.over, f"not over after {moves} moves ({refused} refused)"
    assert moves > 5 and "action" in kinds
    final = browser.get(f"/games/{game_id}/seat/0")
    done = SeatPage(final.text)
    assert done.body["data-over"] == "true"
    assert "outcome" in done.ids and "Game over" in final.text
    assert not done.actions and not done.forms
    assert [v for v, _ in done.log] == list(range(1, state.version + 1))

    # The seat's live feed: every event after Last-Event-ID, ids gap-free, then "ended".
    feed = browser.get(f"/games/{game_id}/seat/0/live",
                       headers={"Last-Event-ID": str(state.version - 3)})
    assert feed.status == 200 and feed.headers["content-type"].startswith("text/event-stream")
    ids = [int(m) for m in re.findall(r"^id: (\d+)$", feed.text, re.M)]
    assert ids == list(range(state.version - 2, state.version + 1))
    assert '"status":"ended' in feed.text
    after = browser.get(f"/games/{game_id}/seat/0/live?after={state.version - 1}")
    assert re.findall(r"^id: (\d+)$", after.text, re.M) == [str(state.version)]


def test_no_cookie_asks_for_the_link_and_a_wrong_seat_is_refused(
        web_server: ServerProcess) -> None:
    created = create(web_server, "ethnos", ["a", "b", "c"])
    game_id = created.game_id
    stranger = Browser(web_server)
    # No cookie: the link's first page (its token rides in the fragment, which the
    # server never sees), not a refusal; it reads nothing of the game.
    reply = stranger.get(f"/games/{game_id}/seat/0")
    assert reply.status == 200
    page = SeatPage(reply.text)
    assert page.body["data-page"] == "join" and page.body["data-seat"] == "0"
    assert page.body["data-next"] == f"/games/{game_id}/seat/0"
    assert '<script src="/static/fragment.js"></script>' in reply.text
    assert not page.forms and not page.actions and page.screen_json is None
    assert stranger.get(f"/games/{game_id}/seat/0/panel").status == 401
    assert stranger.get(f"/games/{game_id}/seat/0/live").status == 401
    refusal = stranger.post(f"/games/{game_id}/seat/0/act", {"command_json": "{}"})
    assert refusal.status == 401 and refusal.json()["error"]["reason"] == "NO_SESSION"
    assert stranger.get("/games/not-a-game/seat/0").status == 404

    # Seat 1's token is not seat 0's: refused at the session, the page and a move.
    browser = Browser(web_server)
    wrong = browser.open_seat(game_id, 0, created.seat_tokens[1].token)
    assert wrong.status == 403 and wrong.json()["error"]["reason"] == "WRONG_SEAT"
    assert browser.open_seat(game_id, 1, created.seat_tokens[1].token).status == 200
    page_reply = browser.get(f"/games/{game_id}/seat/0")
    assert page_reply.status == 403 and "WRONG_SEAT" in SeatPage(page_reply.text).message
    legal = web_server.stub().LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=0))
    before = state_of(web_server, game_id).version
    if legal.actions:
        move = browser.post(f"/games/{game_id}/seat/0/act", {
            "command_json": legal.actions[0].json, "decision_id": legal.decisions[0].id})
        assert move.status == 403 and move.json()["error"]["reason"] == "WRONG_SEAT"
    assert browser.get(f"/games/{game_id}/seat/0/live").status == 403
    assert state_of(web_server, game_id).version == before


def test_moves_are_refused_when_stale_not_json_or_from_another_site(
        web_server: ServerProcess) -> None:
    created = create(web_server, "enin", ["Hero"])
    game_id = created.game_id
    browser = Browser(web_server)
    assert browser.open_seat(game_id, 0, created.seat_tokens[0].token).status == 200
    path = f"/games/{game_id}/seat/0/act"
    first = SeatPage(browser.get(f"/games/{game_id}/seat/0").text).actions[0]
    assert browser.post(path, {"command_json": first["data-json"]}).status == 200
    page = SeatPage(browser.get(f"/games/{game_id}/seat/0").text)
    version = page.board_version
    assert version and version > 1 and page.actions
    action = page.actions[0]
    move = {"command_json": action["data-json"], "decision_id": action["data-decision-id"]}

    stale = browser.post(path, {**move, "expected_version": version - 1})
    assert stale.status == 409
    assert stale.json()["error"]["reason"] == "VERSION_MISMATCH"
    assert stale.json()["error"]["version"] == version

    form = browser.request("POST", path, json.dumps(move).encode(),
                           {"Content-Type": "application/x-www-form-urlencoded",
                            "Origin": browser.origin})
    assert form.status == 415 and form.json()["error"]["reason"] == "BAD_CONTENT_TYPE"
    text = browser.request("POST", path, json.dumps(move).encode(),
                           {"Content-Type": "text/plain", "Origin": browser.origin})
    assert text.status == 415
    elsewhere = browser.post(path, move, {"Origin": "http://evil.example"})
    assert elsewhere.status == 403 and elsewhere.json()["error"]["reason"] == "CROSS_ORIGIN"
    fetched = browser.post(path, move, {"Sec-Fetch-Site": "cross-site"})
    assert fetched.status == 403 and fetched.json()["error"]["reason"] == "CROSS_ORIGIN"
    garbage = browser.post(path, {"command_json": "{\"name\": \"no_such_move\"}"})
    assert garbage.status == 400 and garbage.json()["error"]["reason"] == "BAD_COMMAND"
    nothing = browser.post(path, {"decision_id": "x"})
    assert nothing.status == 400
    unknown = browser.post(path, {"decision_id": "x", "choice": "0123456789abcdef",
                                  "answer": {}})
    assert unknown.status == 409 and unknown.json()["error"]["reason"] == "STALE_DECISION"
    assert state_of(web_server, game_id).version == version

    good = browser.post(path, {**move, "expected_version": version, "command_id": "page-1"})
    assert good.status == 200 and good.json()["version"] > version
    again = browser.post(path, {**move, "expected_version": version, "command_id": "page-1"})
    assert again.status == 200 and again.json()["replayed"] is True
    assert again.json()["version"] == good.json()["version"]


def test_an_ethnos_band_is_built_by_the_server_from_the_form(web_server: ServerProcess) -> None:
    """The pick_cards form of a band: cards and a leader, built into play_band by the
    server (with the kernel's build), accepted by the rules."""
    rng = random.Random(4)
    admin = web_server.stub()
    for _attempt in range(10):
        created = create(web_server, "ethnos", ["a", "b", "c"])
        game_id = created.game_id
        browsers = [Browser(web_server) for _ in range(3)]
        for seat, browser in enumerate(browsers):
            assert browser.open_seat(game_id, seat, created.seat_tokens[seat].token).status == 200
        for _move in range(40):
            state = state_of(web_server, game_id)
            seat = state.pending[0].seat
            browser = browsers[seat]
            page = SeatPage(browser.get(f"/games/{game_id}/seat/{seat}").text)
            bands = [f for f in page.forms if f["data-kind"] == "pick_cards"]
            for form in bands:
                for box in rng.sample(form["checkboxes"], len(form["checkboxes"])):
                    answer = {"card": [box["value"]], "mark": [box["value"]]}
                    reply = browser.post(f"/games/{game_id}/seat/{seat}/act", {
                        "decision_id": form["data-decision-id"], "choice": form["data-choice"],
                        "answer": answer, "expected_version": page.board_version})
                    if reply.status == 200:
                        played = [e for e in admin.History(game_pb2.HistoryRequest(
                            game_id=game_id, after_version=page.board_version))]
                        assert any(e.type == "BandPlayed" for e in played), \
                            [e.type for e in played]
                        after = SeatPage(browser.get(f"/games/{game_id}/seat/{seat}").text)
                        assert box["value"] not in {c["value"] for f in after.forms
                                                    for c in f["checkboxes"]}
                        return
                    assert reply.status == 400, reply.text  # e.g. a Skeleton cannot lead
            # No band could be played: recruit, through the page.
            assert page.actions
            action = rng.choice(page.actions)
            reply = browser.post(f"/games/{game_id}/seat/{seat}/act", {
                "command_json": action["data-json"],
                "decision_id": action["data-decision-id"]})
            assert reply.status == 200, reply.text
    raise AssertionError("no band was ever played through the form")


def test_a_bad_answer_to_a_form_is_refused_with_a_reason(web_server: ServerProcess) -> None:
    for _attempt in range(20):  # a first hand of a lone Skeleton offers no band
        created = create(web_server, "ethnos", ["a", "b", "c"])
        game_id = created.game_id
        seat = state_of(web_server, game_id).pending[0].seat
        browser = Browser(web_server)
        assert browser.open_seat(game_id, seat, created.seat_tokens[seat].token).status == 200
        page = SeatPage(browser.get(f"/games/{game_id}/seat/{seat}").text)
        if page.forms:
            break
    form = page.forms[0]
    path = f"/games/{game_id}/seat/{seat}/act"
    base = {"decision_id": form["data-decision-id"], "choice": form["data-choice"]}
    answers: list[dict[str, list[str]]] = [{"card": ["999999"]}, {"card": []}, {"card": ["x"]}]
    for answer in answers:
        reply = browser.post(path, {**base, "answer": answer})
        assert reply.status == 400 and reply.json()["error"]["reason"] == "BAD_ANSWER", answer
    assert state_of(web_server, game_id).version == page.board_version


def test_an_ettin_card_is_deployed_by_picking_it_then_a_place(web_server: ServerProcess) -> None:
    """Ettin, Phase 3 (War), Deploy: a player picks a card of the War Camp, then a
    place (and, for a Scouting unit, which Enemy Location it scouts). The page asks
    it so, one row per card with its places inside, not one flat list of every
    card and place; the path's key is built into ``deploy`` by the server."""
    rng = random.Random(7)
    created = create(web_server, "ettin", ["a", "b", "c", "d"])
    game_id = created.game_id
    browsers = [Browser(web_server) for _ in range(4)]
    for seat, browser in enumerate(browsers):
        assert browser.open_seat(game_id, seat, created.seat_tokens[seat].token).status == 200
    admin = web_server.stub()
    for _move in range(400):
        state = state_of(web_server, game_id)
        assert not state.over, "the game ended before a deploy"
        seat = rng.choice(sorted({d.seat for d in state.pending}))
        page = SeatPage(browsers[seat].get(f"/games/{game_id}/seat/{seat}").text)
        deploys = [f for f in page.forms if f["data-kind"] == "pick_path"]
        if deploys:
            form = deploys[0]
            assert form["data-command"] == "deploy" and form["paths"]
            assert not any('"name":"deploy"' in a["data-json"] for a in page.actions), \
                "a deploy is asked by its form, never listed card by place"
            reply = browsers[seat].post(f"/games/{game_id}/seat/{seat}/act", {
                "decision_id": form["data-decision-id"], "choice": form["data-choice"],
                "answer": {"path": [rng.choice(form["paths"])]},
                "expected_version": page.board_version})
            assert reply.status == 200, reply.text
            made = [e.type for e in admin.History(game_pb2.HistoryRequest(
                game_id=game_id, after_version=page.board_version))]
            assert "Deployed" in made, made
            return
        reply = browsers[seat].post(f"/games/{game_id}/seat/{seat}/act", move_of(page, rng))
        assert reply.status in (200, 400, 409), reply.text
    raise AssertionError("no deploy was ever asked in 400 moves")


@pytest.fixture(scope="module")
def tide_server(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Any:
    """A server that also plays the tests' own game (Tidewatch: every choice kind)."""
    server = ServerProcess(tmp_path_factory.mktemp("web-tide") / "data", redis_url, {
        "ARBITER_WEB_ADDRESS": "127.0.0.1:0",
        "ARBITER_EXTRA_GAMES": "tests.template_game:Template"})
    server.start()
    try:
        yield server
    finally:
        server.stop_soon()


def test_every_seat_of_a_game_with_every_choice_kind_plays_it_through_its_page(
        tide_server: ServerProcess) -> None:
    """Tidewatch (the template game: secret bids as an assign, numbers, cards to
    pick, seats choosing at once) played to its end by three seats' pages, each
    move one the page offered, chosen at random."""
    created = create(tide_server, "template", ["a", "b", "c"])
    game_id = created.game_id
    browsers = [Browser(tide_server) for _ in range(3)]
    for seat, browser in enumerate(browsers):
        assert browser.open_seat(game_id, seat, created.seat_tokens[seat].token).status == 200
    rng = random.Random(3)
    made: dict[str, int] = {}
    for _step in range(2000):
        state = state_of(tide_server, game_id)
        if state.over:
            break
        seat = rng.choice(sorted({d.seat for d in state.pending}))
        page = SeatPage(browsers[seat].get(f"/games/{game_id}/seat/{seat}").text)
        assert page.actions or page.forms, f"seat {seat} is asked but offered nothing"
        move = move_of(page, rng)
        reply = browsers[seat].post(f"/games/{game_id}/seat/{seat}/act", move)
        if reply.status == 200:
            kind = "action" if "command_json" in move else next(
                f["data-kind"] for f in page.forms if f["data-choice"] == move["choice"])
            made[kind] = made.get(kind, 0) + 1
        else:
            assert reply.status in (400, 409), reply.text
    assert state_of(tide_server, game_id).over, made
    assert {"action", "assign", "number", "pick_cards"} <= set(made), made
    for seat, browser in enumerate(browsers):
        assert SeatPage(browser.get(f"/games/{game_id}/seat/{seat}").text).body[
            "data-over"] == "true"


# ------------------------------------------------- the forms, without a server


def test_every_choice_kind_becomes_a_form_and_its_answer_the_kernels_command() -> None:
    from service.web.seat import AnswerError, block, build_answer, context_of

    pick = {"kind": "pick_cards", "command": "play_band", "arg": "cards", "options": [7, 9, 12],
            "low": 1, "high": 2, "zone": "hand", "mark": "leader", "fixed": {"x": 1},
            "prompt": "Play a band"}
    assign = {"kind": "assign", "command": "bid", "arg": "bids", "items": [0, 2],
              "slots": [1, 2, 3], "slot_labels": ["one", "two", "three"], "fixed": {},
              "prompt": "Bid"}
    number = {"kind": "number", "command": "spend_luck", "arg": "amount", "low": 1, "high": 3,
              "fixed": {"die": 0}, "prompt": "Add luck"}
    path = {"kind": "pick_path", "command": "deploy", "args": ["card", "slot", "scout"],
            "options": [{"value": 12, "label": "Elf", "then": [
                {"value": 0, "label": "at your City"}, {"value": 1, "label": "at the Forest",
                                                        "then": [{"value": 0, "label": "no"},
                                                                 {"value": 2, "label": "scout"}]}]},
                        {"value": 9, "label": "Troll"}],
            "questions": ["Which card?", "Where?", "Scouting?"], "fixed": {"scout": 0},
            "prompt": "Deploy a card face down"}
    screen = {"sections": [{"title": "Hand", "items": [{"kind": "cards", "zone": "hand", "cards": [
        {"id": 12, "name": "Elf <b>", "detail": "keeps cards"}, {"id": 7, "name": "Orc"},
        {"id": 9, "name": "Troll"}]}]}]}
    state = game_pb2.GameState(game_id="g", rules="test", version=5, seats=["Ann", "Bo"],
                               screen_json=json.dumps(screen), pending=[
                                   game_pb2.Decision(seat=0, kind="turn", prompt="Go", id="d1")])
    legal = game_pb2.LegalActionsResponse(version=5, complete=False, decisions=[
        game_pb2.Decision(seat=0, kind="turn", prompt="Go", id="d1",
                          choices_json=json.dumps([{"kind": "pick_one"}, pick, assign, number,
                                                   path]))],
        actions=[game_pb2.LegalAction(json='{"name":"pass","args":{}}', label="Pass </b>"),
                 game_pb2.LegalAction(json='{"name":"spend_luck","args":{"die":0,"amount":1}}',
                                      label="Spend 1 luck")])
    context = context_of(state, legal, [], 0, "Test game")
    html = block("play", {**context, "session": True})
    page = SeatPage(html)
    # The listed action stays a button (escaped); the one a structure builds is its form.
    assert [a["data-json"] for a in page.actions] == ['{"name":"pass","args":{}}']
    assert "Pass &lt;/b&gt;" in html
    assert [f["data-kind"] for f in page.forms] == ["pick_cards", "assign", "number", "pick_path"]
    cards, slots, amount, deploy = page.forms
    # A card, then a place: one row per card, each complete path one button.
    assert deploy["paths"] == ["0.0", "0.1.0", "0.1.1", "1"]
    assert "<summary>Elf</summary>" in html and ">at the Forest · scout</button>" in html
    assert ">Troll</button>" in html  # a card whose path ends at once is one button
    assert [c["value"] for c in cards["checkboxes"]] == ["12", "7", "9"]  # the screen's order
    assert "Elf &lt;b&gt;: keeps cards" in html and "<b>" not in html
    assert cards["selects"][0]["options"] == ["", "12", "7", "9"]
    assert [s["name"] for s in slots["selects"]] == ["0", "1"]
    assert slots["selects"][0]["options"] == ["1", "2", "3"] and ">three</option>" in html
    assert (amount["numbers"][0]["min"], amount["numbers"][0]["max"]) == ("1", "3")
    assert "<legend>Play a band (pick 1 to 2 cards of hand, one of them as leader)</legend>" \
        in html

    assert build_answer(pick, {"card": ["9"]}) == \
        {"name": "play_band", "args": {"x": 1, "cards": [9], "leader": 9}}
    assert build_answer(pick, {"card": ["12", "7"], "mark": "7"}) == \
        {"name": "play_band", "args": {"x": 1, "cards": [12, 7], "leader": 7}}
    assert build_answer(assign, {"0": ["3"], "1": "1"}) == \
        {"name": "bid", "args": {"bids": [3, 1]}}
    assert build_answer(number, {"value": ["2"]}) == \
        {"name": "spend_luck", "args": {"die": 0, "amount": 2}}
    assert build_answer(path, {"path": ["0.1.1"]}) == \
        {"name": "deploy", "args": {"card": 12, "slot": 1, "scout": 2}}
    assert build_answer(path, {"path": ["1"]}) == \
        {"name": "deploy", "args": {"card": 9, "scout": 0}}
    for choice, answer in ((pick, {"card": ["12", "7"]}), (pick, {"card": ["8"]}),
                           (pick, {"card": ["7", "7"]}), (pick, {"card": ["7", "9", "12"]}),
                           (pick, {"card": ["7"], "mark": "9"}), (assign, {"0": ["3"]}),
                           (assign, {"0": ["4"], "1": ["1"]}), (number, {"value": ["4"]}),
                           (number, {"value": "x"}), ({"kind": "pick_one"}, {}),
                           (path, {"path": ["0"]}), (path, {"path": ["0.1"]}),
                           (path, {"path": ["2"]}), (path, {"path": ["0.x"]}),
                           (path, {"path": ["0.0.0"]}), (path, {})):
        with pytest.raises(AnswerError):
            build_answer(choice, answer)


def test_the_screens_json_block_cannot_close_its_script() -> None:
    from service.web.seat import json_script

    text = json.dumps({"name": "</script><script>alert(1)</script> & <!--"})
    safe = json_script(text)
    assert "<" not in safe and ">" not in safe and "&" not in safe
    assert json.loads(safe) == json.loads(text)
