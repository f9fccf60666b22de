"""The pages over a real server process: the lobby, the new-game form, a game's
live page and its feed, the board at a version, the replay, the record.

Every test drives the web side over HTTP, as a browser without scripts would
(the DOM contract the browser tests and the scripts rely on: ids, classes and
data attributes), and compares what the pages show with what the game service
answers through gRPC.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import grpc
import pytest
from arbiter.answers import bot_move
from arbiter.render import event_text, render_outcome, render_pending
from arbiter.v1 import game_pb2
from arbiter.wire import json_to_command

from aggregates.records import read_record, verify_lines
from service.web.pages import LOG_TAIL
from tests.integration.conftest import ServerProcess

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("web-pages")]
ROOT = Path(__file__).resolve().parents[2]

# --- a small DOM from the standard library's parser -------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "param", "source", "track", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def find_all(self, tag: str = "", cls: str = "", **attrs: str) -> list[Node]:
        def matches(n: Node) -> bool:
            if tag and n.tag != tag:
                return False
            if cls and cls not in n.attrs.get("class", "").split():
                return False
            return all(n.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())
        return [n for n in self.walk() if matches(n)]

    def by_id(self, ident: str) -> Node:
        found = self.find_all(id=ident)
        assert len(found) == 1, f"#{ident}: {len(found)} elements"
        return found[0]

    def has_id(self, ident: str) -> bool:
        return bool(self.find_all(id=ident))


class Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def dom(html: str) -> Node:
    tree = Tree()
    tree.feed(html)
    tree.close()
    return tree.root


# --- HTTP ------------------------------------------------------------------------------


@dataclass
class Reply:
    status: int
    headers: Any
    body: str

    @property
    def dom(self) -> Node:
        return dom(self.body)


class Browser:
    """An HTTP client with a cookie jar, as a browser without scripts."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def request(self, method: str, path: str, data: bytes | None = None,
                headers: dict[str, str] | None = None) -> Reply:
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers=headers or {})
        try:
            with self.opener.open(req, timeout=30) as resp:
                return Reply(resp.status, resp.headers, resp.read().decode())
        except urllib.error.HTTPError as exc:
            return Reply(exc.code, exc.headers, exc.read().decode())

    def get(self, path: str, **headers: str) -> Reply:
        return self.request("GET", path, headers=headers)

    def post_form(self, path: str, form: dict[str, str], **headers: str) -> Reply:
        return self.request("POST", path, urlencode(form).encode(), {
            "Content-Type": "application/x-www-form-urlencoded", **headers})

    def open_session(self, game_id: str, token: str, seat: int | None = None) -> Reply:
        """What the page's script does with a link's fragment."""
        body: dict[str, Any] = {"token": token}
        if seat is not None:
            body["seat"] = seat
        return self.request("POST", f"/games/{game_id}/session", json.dumps(body).encode(),
                            {"Content-Type": "application/json"})


@dataclass
class SseMessage:
    id: str
    kind: str
    data: dict[str, Any]


def sse(url: str, stop: Callable[[list[SseMessage]], bool], headers: dict[str, str] | None = None,
        cookie: str = "", timeout: float = 30.0) -> list[SseMessage]:
    """Read a Server-Sent Events stream until ``stop`` holds (or it ends)."""
    head = {"Accept": "text/event-stream", **(headers or {})}
    if cookie:
        head["Cookie"] = cookie
    messages: list[SseMessage] = []
    with urllib.request.urlopen(urllib.request.Request(url, headers=head),
                                timeout=timeout) as resp:
        assert resp.status == 200 and resp.headers["Content-Type"].startswith(
            "text/event-stream")
        ident, kind, data = "", "", ""
        while True:
            raw = resp.readline()
            if not raw:
                break
            line = raw.decode().rstrip("\n")
            if line == "":
                if data:
                    messages.append(SseMessage(ident, kind, json.loads(data)))
                    if stop(messages):
                        break
                ident, kind, data = "", "", ""
            elif line.startswith("id: "):
                ident = line[4:]
            elif line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                data += line[6:]
    return messages


def cookie_header(browser: Browser) -> str:
    return "; ".join(f"{c.name}={c.value}" for c in browser.jar)


# --- games ------------------------------------------------------------------------------


def make_game(server: ServerProcess, rules: str, seats: list[str]) -> game_pb2.CreateGameResponse:
    return server.stub().CreateGame(game_pb2.CreateGameRequest(rules=rules, seats=seats))


def play(server: ServerProcess, created: game_pb2.CreateGameResponse, rules: str,
         rnd: random.Random, moves: int,
         after_move: Callable[[game_pb2.GameState], None] | None = None) -> game_pb2.GameState:
    """Random legal moves by the seats (each with its own token) until ``moves`` were
    made or the game is over; ``after_move`` sees the spectator's state after each."""
    admin = server.stub()
    stubs = [server.stub(t.token) for t in created.seat_tokens]
    game_id = created.game_id
    state = admin.GetState(game_pb2.GetStateRequest(game_id=game_id, spectator=True))
    made = 0
    while made < moves and not state.over:
        seat = rnd.choice([d.seat for d in state.pending])
        legal = stubs[seat].LegalActions(game_pb2.LegalActionsRequest(game_id=game_id,
                                                                      seat=seat))
        move = bot_move(legal, rnd)
        assert move is not None, "a seat waited on with nothing to do"
        command = move.command if isinstance(move.command, game_pb2.Command) else \
            json_to_command(rules, move.command)
        try:
            stubs[seat].Act(game_pb2.ActRequest(game_id=game_id, seat=seat, command=command,
                                                decision_id=move.decision_id,
                                                with_state=False))  # the reply's unread
        except grpc.RpcError as exc:
            if move.guess and exc.code() in (grpc.StatusCode.FAILED_PRECONDITION,
                                             grpc.StatusCode.INVALID_ARGUMENT):
                continue  # a random guess the rules refused: nothing recorded
            raise
        made += 1
        state = admin.GetState(game_pb2.GetStateRequest(game_id=game_id, spectator=True))
        if after_move is not None:
            after_move(state)
    return state


def finish(server: ServerProcess, created: game_pb2.CreateGameResponse, rules: str,
           seed: int, moves: int = 3000) -> game_pb2.GameState:
    state = play(server, created, rules, random.Random(seed), moves)
    assert state.over, f"the {rules} game did not end in {moves} moves"
    return state


@pytest.fixture(scope="module")
def finished_enin(web_server: ServerProcess) -> game_pb2.CreateGameResponse:
    created = make_game(web_server, "enin", ["solo"])
    finish(web_server, created, "enin", 7)
    return created


def screen_of(page: Node) -> Any:
    return json.loads(page.by_id("screen-json").text())


def log_of(page: Node) -> list[tuple[int, str]]:
    return [(int(li.attrs["data-version"]), li.text())
            for li in page.by_id("log").find_all("li")]


# --- the lobby ---------------------------------------------------------------------------


def test_lobby_lists_each_game_with_its_status_links_and_seats(
        web_server: ServerProcess, finished_enin: game_pb2.CreateGameResponse) -> None:
    running = make_game(web_server, "ethnos", ["Ana", "Ben"])
    browser = Browser(web_server.web_url)
    reply = browser.get("/")
    assert reply.status == 200
    assert reply.headers["Content-Security-Policy"].startswith("default-src 'self'")
    page = reply.dom
    assert page.by_id("filter").tag == "form"
    assert page.by_id("filter").find_all("select", name="rules")
    form = page.by_id("new-game")
    assert (form.tag, form.attrs["method"], form.attrs["action"]) == ("form", "post", "/games")
    assert form.find_all("select", name="rules") and form.find_all("input", name="seats")
    assert all(page.find_all("label", **{"for": n}) for n in ("filter-rules", "new-rules",
                                                              "new-seats"))
    rows = {r.attrs["data-game-id"]: r for r in page.by_id("games").find_all("tr", "game")}
    # The first page holds at most 25 games; walk on to find ours.
    pages = 1
    while (running.game_id not in rows or finished_enin.game_id not in rows) \
            and page.has_id("next-page"):
        page = browser.get(page.by_id("next-page").attrs["href"]).dom
        rows.update({r.attrs["data-game-id"]: r for r in
                     page.by_id("games").find_all("tr", "game")})
        pages += 1
    live, over = rows[running.game_id], rows[finished_enin.game_id]
    assert live.attrs["data-over"] == "false" and over.attrs["data-over"] == "true"
    assert live.find_all("a", "game-link")[0].attrs["href"] == f"/games/{running.game_id}"
    assert not live.find_all("a", "replay-link")
    assert over.find_all("a", "replay-link")[0].attrs["href"] == \
        f"/games/{finished_enin.game_id}/replay"
    assert "running" in live.text() and "Ana, Ben" in live.text()
    assert "over" in over.find_all("td", "status")[0].text()
    state = web_server.stub().GetState(game_pb2.GetStateRequest(
        game_id=finished_enin.game_id, spectator=True))
    assert over.find_all("td", "version")[0].text() == str(state.version)


def test_lobby_filters_by_rules_and_pages_25_at_a_time(web_server: ServerProcess) -> None:
    ids = {make_game(web_server, "ettin", []).game_id for _ in range(27)}
    browser = Browser(web_server.web_url)
    page = browser.get("/?rules=ettin").dom
    select = page.by_id("filter").find_all("select", name="rules")[0]
    chosen = [o for o in select.find_all("option") if "selected" in o.attrs]
    assert [o.attrs["value"] for o in chosen] == ["ettin"]
    seen: list[str] = []
    while True:
        rows = page.by_id("games").find_all("tr", "game")
        assert len(rows) <= 25
        assert all(r.find_all("td", "rules")[0].attrs["data-rules"] == "ettin" for r in rows)
        seen += [r.attrs["data-game-id"] for r in rows]
        if not page.has_id("next-page"):
            break
        href = page.by_id("next-page").attrs["href"]
        assert "rules=ettin" in href
        page = browser.get(href).dom
    assert ids <= set(seen) and len(seen) == len(set(seen)) >= 27
    first = browser.get("/?rules=ettin").dom
    assert len(first.by_id("games").find_all("tr", "game")) == 25


# --- the new-game form -------------------------------------------------------------------


def test_new_game_form_gives_working_seat_and_spectator_links(web_server: ServerProcess) -> None:
    browser = Browser(web_server.web_url)
    reply = browser.post_form("/games", {"rules": "ethnos", "seats": "Ana, Ben ,Cy"},
                              Origin=web_server.web_url)
    assert reply.status == 201, reply.body
    page = reply.dom
    links = page.find_all("a", "seat-link")
    assert [a.text() for a in links] == ["Ana (Player 1)", "Ben (Player 2)", "Cy (Player 3)"]
    assert "secret" in page.by_id("main").text()
    for n, link in enumerate(links):
        path, _, token = link.attrs["href"].partition("#")
        game_id = path.split("/")[2]
        assert path == f"/games/{game_id}/join/{n}" and token
        # The token is that seat's: the game service reads that seat's hand with it.
        state = web_server.stub(token).GetState(game_pb2.GetStateRequest(game_id=game_id,
                                                                         seat=n))
        assert list(state.seats) == ["Ana", "Ben", "Cy"]
        player = Browser(web_server.web_url)
        assert player.open_session(game_id, token, n).status == 200
        # A seat's cookie also opens the game's spectator page (the public view).
        assert player.get(f"/games/{game_id}").status == 200
    spectator = page.find_all("a", "spectator-link")[0].attrs["href"]
    path, _, token = spectator.partition("#")
    assert path.endswith("/join")
    path = path.removesuffix("/join")
    viewer = Browser(web_server.web_url)
    assert viewer.get(path).status == 401
    assert viewer.open_session(path.split("/")[2], token).status == 200
    assert viewer.get(path).status == 200


def test_new_game_form_refuses_another_sites_post(web_server: ServerProcess) -> None:
    browser = Browser(web_server.web_url)
    cross = browser.post_form("/games", {"rules": "enin"}, Origin="https://evil.example")
    assert cross.status == 403 and "CROSS_SITE" in cross.body
    fetched = browser.post_form("/games", {"rules": "enin"}, **{"Sec-Fetch-Site": "cross-site"})
    assert fetched.status == 403
    same = browser.post_form("/games", {"rules": "enin"}, **{"Sec-Fetch-Site": "same-origin"})
    assert same.status == 201


def test_new_game_form_shows_the_services_refusal(web_server: ServerProcess) -> None:
    reply = Browser(web_server.web_url).post_form("/games", {"rules": "no-such-game"})
    assert reply.status in (400, 404)
    error = reply.dom.by_id("error")
    assert error.attrs["data-reason"] and error.attrs["data-reason"] in error.text()


# --- a game's page -----------------------------------------------------------------------


def test_spectator_page_of_a_running_ethnos_game_shows_board_log_pending(
        web_server: ServerProcess) -> None:
    created = make_game(web_server, "ethnos", ["Ana", "Ben", "Cy"])
    play(web_server, created, "ethnos", random.Random(3), 12)
    game_id = created.game_id
    browser = Browser(web_server.web_url)
    assert browser.open_session(game_id, created.spectator_token).status == 200
    reply = browser.get(f"/games/{game_id}")
    assert reply.status == 200 and reply.headers["Referrer-Policy"] == "no-referrer"
    page = reply.dom
    watcher = web_server.stub(created.spectator_token)
    state = watcher.GetState(game_pb2.GetStateRequest(game_id=game_id, spectator=True))
    events = list(watcher.History(game_pb2.HistoryRequest(game_id=game_id, spectator=True)))
    assert page.find_all("h1")[0].text().startswith("Ethnos")
    body = page.find_all("body")[0]
    assert body.attrs["data-over"] == "false" and body.attrs["data-game-id"] == game_id
    board = page.by_id("board")
    assert board.attrs["data-version"] == str(state.version)
    assert screen_of(page) == json.loads(state.screen_json)
    assert page.by_id("version").text() == str(state.version)
    status = page.by_id("feed-status")
    assert "status" in status.attrs["class"].split()
    log = page.by_id("log")
    assert log.tag == "ol" and log.attrs["aria-live"] == "polite"
    assert log_of(page) == [(ev.version, event_text(ev)) for ev in events]
    assert page.by_id("log-earlier").attrs.get("hidden") is not None  # the whole log shown
    pending = [li.text() for li in page.by_id("pending").find_all("li")]
    assert pending == render_pending(state.pending, list(state.seats)) and pending
    assert page.by_id("outcome").attrs.get("hidden") is not None
    scripts = [s.attrs.get("src") for s in page.find_all("script") if s.attrs.get("src")]
    assert "/static/live.js" in scripts and "/static/fragment.js" in scripts
    assert Browser(web_server.web_url).get("/static/live.js").status == 200


def test_a_long_games_page_shows_its_latest_log_lines_and_links_the_whole_log(
        web_server: ServerProcess) -> None:
    """A game's page and a seat's page read and show the latest ``LOG_TAIL``
    lines of their logs, however long the game (docs/web.md, "A game's page");
    the replay has them all."""
    created = make_game(web_server, "ethnos", ["Ana", "Ben"])
    watcher = web_server.stub(created.spectator_token)
    play(web_server, created, "ethnos", random.Random(5), 400)
    state = watcher.GetState(game_pb2.GetStateRequest(game_id=created.game_id, spectator=True))
    assert state.version > LOG_TAIL + 10, state.version
    browser = Browser(web_server.web_url)
    assert browser.open_session(created.game_id, created.spectator_token).status == 200
    page = browser.get(f"/games/{created.game_id}").dom
    events = list(watcher.History(game_pb2.HistoryRequest(game_id=created.game_id,
                                                          spectator=True)))
    assert [e.version for e in events] == list(range(1, state.version + 1))
    assert log_of(page) == [(ev.version, event_text(ev)) for ev in events[-LOG_TAIL:]]
    earlier = page.by_id("log-earlier")
    assert earlier.attrs.get("hidden") is None
    assert earlier.find_all("a")[0].attrs["href"] == f"/games/{created.game_id}/replay"
    assert page.find_all("body")[0].attrs["data-log-tail"] == str(LOG_TAIL)
    # A seat's page likewise: its latest LOG_TAIL lines, as that seat reads them.
    token = created.seat_tokens[0].token
    seat_browser = Browser(web_server.web_url)
    assert seat_browser.open_session(created.game_id, token, seat=0).status == 200
    seat_page = seat_browser.get(f"/games/{created.game_id}/seat/0").dom
    mine = list(web_server.stub(token).History(game_pb2.HistoryRequest(
        game_id=created.game_id, seat=0)))
    assert log_of(seat_page) == [(ev.version, event_text(ev)) for ev in mine[-LOG_TAIL:]]
    assert seat_page.find_all("body")[0].attrs["data-log-tail"] == str(LOG_TAIL)


def test_spectator_page_of_a_running_game_needs_a_credential(web_server: ServerProcess) -> None:
    created = make_game(web_server, "ethnos", ["Ana", "Ben"])
    game_id = created.game_id
    stranger = Browser(web_server.web_url)
    reply = stranger.get(f"/games/{game_id}")
    assert reply.status in (401, 403)
    page = reply.dom
    error = page.by_id("error")
    assert error.attrs["data-reason"] in error.text()
    # The page still turns a link's fragment into the game's cookie.
    assert page.find_all("body")[0].attrs["data-game-id"] == game_id
    assert "/static/fragment.js" in [s.attrs.get("src") for s in page.find_all("script")]
    assert not page.has_id("board")
    # A wrong token is refused by the session exchange; nor do the feed or the board open.
    assert stranger.open_session(game_id, "not-a-token").status in (401, 403)
    assert stranger.get(f"/games/{game_id}/board?version=1").status in (401, 403)
    assert stranger.get(f"/games/{game_id}/live").status in (401, 403)
    assert stranger.get(f"/games/{game_id}/record").status in (401, 403)
    # Another game's token is no credential for this one.
    other = make_game(web_server, "ethnos", ["X", "Y"])
    assert stranger.open_session(game_id, other.spectator_token).status in (401, 403)


def test_unknown_game_and_bad_ids_are_404_pages(web_server: ServerProcess) -> None:
    browser = Browser(web_server.web_url)
    missing = browser.get("/games/00000000-0000-4000-8000-000000000000")
    assert missing.status == 404 and missing.dom.by_id("error")
    assert browser.get("/games/not-a-uuid").status == 404
    assert browser.get("/games/not-a-uuid/replay").status == 404
    bad = browser.get("/games/00000000-0000-4000-8000-000000000000/board?version=x")
    assert bad.status in (400, 404)


def test_live_feed_delivers_every_event_in_order_and_resumes_from_last_event_id(
        web_server: ServerProcess) -> None:
    created = make_game(web_server, "ethnos", ["Ana", "Ben"])
    game_id = created.game_id
    play(web_server, created, "ethnos", random.Random(5), 10)
    browser = Browser(web_server.web_url)
    browser.open_session(game_id, created.spectator_token)
    cookie = cookie_header(browser)
    watcher = web_server.stub(created.spectator_token)
    events = list(watcher.History(game_pb2.HistoryRequest(game_id=game_id, spectator=True)))
    last = events[-1].version
    url = f"{web_server.web_url}/games/{game_id}/live"

    def upto(version: int) -> Callable[[list[SseMessage]], bool]:
        return lambda ms: any(m.data.get("event", {}).get("version") == version for m in ms)

    # The feed's first status follows the backlog (every status means caught up).
    got = sse(url, lambda ms: upto(last)(ms) and any("status" in m.data for m in ms),
              cookie=cookie)
    first_status = next(i for i, m in enumerate(got) if "status" in m.data)
    assert all("event" in m.data for m in got[:first_status]) and first_status >= last
    delivered = [m for m in got if "event" in m.data]
    assert [int(m.id) for m in delivered] == list(range(1, last + 1))
    assert [m.data["event"]["version"] for m in delivered] == list(range(1, last + 1))
    assert [m.data["event"]["line"] for m in delivered] == [event_text(e) for e in events]
    statuses = [m.data["status"] for m in got if "status" in m.data]
    assert statuses and (statuses[0] == "live" or statuses[0].startswith("degraded"))
    assert all(m.id == "" for m in got if "status" in m.data)
    # A reconnect with Last-Event-ID gets exactly the events after it, live ones too.
    middle = last // 2
    play(web_server, created, "ethnos", random.Random(6), 5)
    now = watcher.GetState(game_pb2.GetStateRequest(game_id=game_id, spectator=True)).version
    resumed = sse(url, upto(now), headers={"Last-Event-ID": str(middle)}, cookie=cookie)
    versions = [m.data["event"]["version"] for m in resumed if "event" in m.data]
    assert versions == list(range(middle + 1, now + 1))
    # ?after= does the same for a first connection.
    after = sse(url + f"?after={now - 2}", upto(now), cookie=cookie)
    assert [m.data["event"]["version"] for m in after if "event" in m.data] == [now - 1, now]
    # The log endpoint (what the page uses to fill a gap) agrees.
    lines = json.loads(browser.get(f"/games/{game_id}/log?after={middle}").body)["lines"]
    assert [x["version"] for x in lines] == list(range(middle + 1, now + 1))


def test_live_feed_ends_with_the_game(web_server: ServerProcess,
                                      finished_enin: game_pb2.CreateGameResponse) -> None:
    url = f"{web_server.web_url}/games/{finished_enin.game_id}/live"
    got = sse(url, lambda ms: False)  # no credential: the game is over, so public
    state = web_server.stub("").GetState(game_pb2.GetStateRequest(
        game_id=finished_enin.game_id, spectator=True))
    versions = [m.data["event"]["version"] for m in got if "event" in m.data]
    assert versions == list(range(1, state.version + 1))
    assert "status" in got[-1].data and got[-1].data["status"].startswith("ended")


def test_board_fragment_at_version_n_carries_that_versions_screen_exactly(
        web_server: ServerProcess) -> None:
    created = make_game(web_server, "ethnos", ["Ana", "Ben", "Cy"])
    game_id = created.game_id
    play(web_server, created, "ethnos", random.Random(8), 10)
    browser = Browser(web_server.web_url)
    browser.open_session(game_id, created.spectator_token)
    watcher = web_server.stub(created.spectator_token)
    latest = watcher.GetState(game_pb2.GetStateRequest(game_id=game_id, spectator=True))
    for version in sorted({1, 2, latest.version // 2, latest.version}):
        expected = watcher.GetState(game_pb2.GetStateRequest(game_id=game_id, spectator=True,
                                                             version=version))
        reply = browser.get(f"/games/{game_id}/board?version={version}")
        assert reply.status == 200 and reply.headers["Content-Type"].startswith("text/html")
        fragment = reply.dom
        assert fragment.by_id("board").attrs["data-version"] == str(version)
        assert screen_of(fragment) == json.loads(expected.screen_json)
        assert fragment.by_id("pending") and fragment.by_id("outcome")
    # A seat's board needs that seat's credential: the spectator's is refused.
    assert browser.get(f"/games/{game_id}/board?version=2&seat=0").status == 403
    seat = Browser(web_server.web_url)
    seat.open_session(game_id, created.seat_tokens[1].token, 1)
    own = dom(seat.get(f"/games/{game_id}/board?version={latest.version}&seat=1").body)
    assert screen_of(own) == json.loads(web_server.stub(created.seat_tokens[1].token).GetState(
        game_pb2.GetStateRequest(game_id=game_id, seat=1)).screen_json)
    assert seat.get(f"/games/{game_id}/board?seat=0").status == 403
    beyond = browser.get(f"/games/{game_id}/board?version={latest.version + 50}")
    assert beyond.status >= 400 and beyond.dom.by_id("error")


# --- the replay and the record -------------------------------------------------------------


def test_replay_of_a_finished_game_needs_no_token_and_shows_audit_and_seed(
        web_server: ServerProcess, finished_enin: game_pb2.CreateGameResponse) -> None:
    game_id = finished_enin.game_id
    public = web_server.stub("")
    state = public.GetState(game_pb2.GetStateRequest(game_id=game_id, spectator=True))
    browser = Browser(web_server.web_url)
    page = browser.get(f"/games/{game_id}/replay").dom
    slider = page.by_id("slider")
    assert slider.attrs["type"] == "range" and slider.attrs["min"] == "1"
    assert slider.attrs["max"] == str(state.version)
    assert page.find_all("label", **{"for": "slider"})
    for button in ("first", "prev", "next", "last"):
        assert page.by_id(button).tag == "button"
    assert page.by_id("board").attrs["data-version"] == str(state.version)
    assert page.by_id("version").text() == str(state.version)
    audit = page.by_id("audit")
    assert audit.attrs["data-ok"] == "true" and "good" in audit.attrs["class"].split()
    assert "passed" in audit.text().lower()
    seed = page.by_id("seed")
    assert state.seed and state.seed in seed.text() and state.seed_commitment in seed.text()
    assert page.by_id("download").attrs["href"] == f"/games/{game_id}/record"
    outcome = page.by_id("outcome").text()
    assert render_outcome(json.loads(state.outcome_json), list(state.seats)).splitlines()[0] \
        in outcome
    # A past version: its board, and the log up to it with it marked.
    middle = max(1, state.version // 2)
    past = browser.get(f"/games/{game_id}/replay?version={middle}").dom
    expected = public.GetState(game_pb2.GetStateRequest(game_id=game_id, spectator=True,
                                                        version=middle))
    assert past.by_id("slider").attrs["value"] == str(middle)
    assert screen_of(past) == json.loads(expected.screen_json)
    assert [v for v, _ in log_of(past)] == list(range(1, middle + 1))
    assert [li.attrs["data-version"] for li in past.by_id("log").find_all("li", "current")] \
        == [str(middle)]
    # The game's own page, finished, needs no token either and shows the outcome.
    game = browser.get(f"/games/{game_id}").dom
    assert game.find_all("body")[0].attrs["data-over"] == "true"
    assert game.by_id("outcome").attrs.get("hidden") is None
    assert game.by_id("feed-status").text() == "ended"


def test_record_downloads_and_verifies_offline(
        web_server: ServerProcess, finished_enin: game_pb2.CreateGameResponse,
        tmp_path: Path) -> None:
    game_id = finished_enin.game_id
    reply = Browser(web_server.web_url).get(f"/games/{game_id}/record")
    assert reply.status == 200
    assert reply.headers["Content-Disposition"] == \
        f'attachment; filename="{game_id}.arbiter.jsonl"'
    header, lines = read_record(reply.body.splitlines())
    assert header["game_id"] == game_id and header["over"] is True
    assert verify_lines(header, lines).ok
    path = tmp_path / f"{game_id}.arbiter.jsonl"
    path.write_text(reply.body)
    verify = subprocess.run([sys.executable, "-m", "clients.cli", "verify", str(path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert verify.returncode == 0, verify.stdout + verify.stderr


def test_record_of_a_running_game_with_its_spectator_token(web_server: ServerProcess) -> None:
    created = make_game(web_server, "ethnos", ["Ana", "Ben"])
    play(web_server, created, "ethnos", random.Random(9), 6)
    browser = Browser(web_server.web_url)
    browser.open_session(created.game_id, created.spectator_token)
    header, lines = read_record(browser.get(f"/games/{created.game_id}/record")
                                .body.splitlines())
    assert header["reader"] == "spectator" and header["over"] is False
    assert [x["version"] for x in lines] == list(range(1, header["version"] + 1))
    replay = browser.get(f"/games/{created.game_id}/replay").dom
    assert replay.by_id("seed").attrs["data-revealed"] == "false"


# --- escaping ----------------------------------------------------------------------------------


def test_a_seat_name_with_markup_is_shown_escaped_everywhere(web_server: ServerProcess) -> None:
    evil = "<script>alert(1)</script>"
    created = make_game(web_server, "ethnos", [evil, "Ben & <b>Co</b>"])
    play(web_server, created, "ethnos", random.Random(2), 4)
    browser = Browser(web_server.web_url)
    browser.open_session(created.game_id, created.spectator_token)
    pages = [browser.get(f"/games/{created.game_id}"),
             browser.get(f"/games/{created.game_id}/replay"),
             browser.get(f"/games/{created.game_id}/board?version=3"),
             browser.get("/?rules=ethnos")]
    while pages[-1].dom.has_id("next-page"):
        pages.append(browser.get(pages[-1].dom.by_id("next-page").attrs["href"]))
    form = browser.post_form("/games", {"rules": "ethnos", "seats": f"{evil}, x"})
    for reply in [*pages, form]:
        assert reply.status in (200, 201)
        assert evil not in reply.body and "<b>Co</b>" not in reply.body
        assert "alert(1)" not in "".join(
            s.text() for s in reply.dom.find_all("script") if "src" not in s.attrs
            and s.attrs.get("type") != "application/json")
    assert any("&lt;script&gt;alert(1)&lt;/script&gt;" in r.body for r in pages[:2])
    # Inside the screen's JSON block, the name is escaped as JSON and the same value
    # once parsed.
    assert "\\u003cscript\\u003ealert(1)\\u003c/script\\u003e" in pages[0].body
    assert evil in json.dumps(screen_of(pages[0].dom), ensure_ascii=False)


def token_cookie(reply: Reply) -> str:
    """The game's credential cookie among a reply's Set-Cookie headers (the lobby's
    list of this browser's games is another)."""
    found = [c for c in reply.headers.get_all("Set-Cookie") or []
             if c.startswith("arbiter_token=")]
    assert len(found) == 1, reply.headers
    return found[0]


def test_no_token_in_a_response_header_or_url(web_server: ServerProcess) -> None:
    """The seat links' tokens ride in fragments; the session cookie is HttpOnly,
    SameSite=Strict, scoped to the game's pages."""
    created = make_game(web_server, "enin", ["solo"])
    reply = Browser(web_server.web_url).open_session(created.game_id, created.spectator_token)
    cookie = token_cookie(reply)
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert f"Path=/games/{created.game_id}" in cookie
    assert "Secure" not in cookie.split("; ")  # plain HTTP, and no proxy said otherwise


def test_cookies_can_be_marked_secure_behind_a_tls_proxy(
        tmp_path: Path, redis_url: str) -> None:
    """A server behind a proxy that terminates TLS sees plain HTTP: its cookie is
    not ``Secure`` unless the operator says so (``ARBITER_WEB_SECURE_COOKIES=1``)."""
    server = ServerProcess(tmp_path / "data", redis_url, {
        "ARBITER_WEB_ADDRESS": "127.0.0.1:0", "ARBITER_WEB_SECURE_COOKIES": "1"})
    server.start()
    try:
        created = make_game(server, "enin", ["solo"])
        reply = Browser(server.web_url).open_session(created.game_id, created.spectator_token)
        assert "Secure" in token_cookie(reply).split("; ")
    finally:
        server.stop()


# --- what a newcomer met: names and numbers, a solo game, the end of a game ---------------


def test_new_game_page_of_a_solo_game_with_bots_says_there_are_none(
        web_server: ServerProcess) -> None:
    """The Land of Enin is a solo game (its rulebook, "Setup"): asking for bots
    makes none, and the page says so instead of "Bots play" and no name."""
    reply = Browser(web_server.web_url).post_form(
        "/games", {"rules": "enin", "seats": "Ada", "bots": "1"}, Origin=web_server.web_url)
    assert reply.status == 201, reply.body
    said = reply.dom.by_id("bots").text()
    assert "Bots play" not in said and "No bots" in said and "The Land of Enin" in said
    assert [a.text() for a in reply.dom.find_all("a", "seat-link")] == ["Ada (Player 1)"]


def test_bots_are_named_with_their_player_numbers(web_server: ServerProcess) -> None:
    reply = Browser(web_server.web_url).post_form(
        "/games", {"rules": "ethnos", "seats": "Me, Bo, Cy", "bots": "1"},
        Origin=web_server.web_url)
    assert reply.status == 201, reply.body
    assert "Bots play Bo (Player 2), Cy (Player 3):" in reply.dom.by_id("bots").text()


def test_a_finished_games_seat_page_links_to_its_replay_and_audit(
        web_server: ServerProcess, finished_enin: game_pb2.CreateGameResponse) -> None:
    game_id = finished_enin.game_id
    browser = Browser(web_server.web_url)
    assert browser.open_session(game_id, finished_enin.seat_tokens[0].token, 0).status == 200
    page = browser.get(f"/games/{game_id}/seat/0").dom
    outcome = page.by_id("outcome")
    replay = outcome.find_all("a", "replay-link")[0].attrs["href"]
    audit = outcome.find_all("a", "audit-link")[0].attrs["href"]
    assert replay == f"/games/{game_id}/replay" and audit == f"/games/{game_id}/replay#audit"
    replayed = browser.get(replay).dom
    assert replayed.by_id("audit").attrs["data-ok"] == "true"


def ethnos_band_form(web_server: ServerProcess) -> tuple[Browser, Node]:
    """A seat page of an Ethnos game for three where Player 1 may play a band of
    several cards (random moves, seeded, until then): the browser and the page."""
    created = make_game(web_server, "ethnos", ["Ada", "Bo", "Cy"])
    me = web_server.stub(created.seat_tokens[0].token)
    browser = Browser(web_server.web_url)
    assert browser.open_session(created.game_id, created.seat_tokens[0].token, 0).status == 200
    rnd = random.Random(5)
    for _ in range(200):
        state = me.GetState(game_pb2.GetStateRequest(game_id=created.game_id, seat=0))
        hand = [i for s in json.loads(state.screen_json)["sections"] for i in s["items"]
                if i.get("zone") == "hand"]
        if 0 in [d.seat for d in state.pending] and hand and len(hand[0]["cards"]) >= 3:
            page = browser.get(f"/games/{created.game_id}/seat/0").dom
            forms = [f for f in page.find_all("form", "choice")
                     if f.attrs.get("data-command") == "play_band"]
            if forms and len(forms[0].find_all("option")) >= 4:
                return browser, page
        play(web_server, created, "ethnos", rnd, 1)
    raise AssertionError("Player 1 never had a band of several cards to play")


def test_ethnos_band_form_numbers_cards_as_the_hand_does_and_names_leaders_fully(
        web_server: ServerProcess) -> None:
    """Ethnos, "Playing a band": the Leader is one card of the band. The form
    numbers each card as the hand on the board numbers it, and the Leader list
    names each card with its number and colour, not the bare tribe."""
    _, page = ethnos_band_form(web_server)
    hand = next(i for s in screen_of(page)["sections"] for i in s["items"]
                if i.get("zone") == "hand")
    numbers = {str(face["id"]): n for n, face in enumerate(hand["cards"], 1)}
    form = [f for f in page.find_all("form", "choice")
            if f.attrs.get("data-command") == "play_band"][0]
    faces = {str(face["id"]): face for face in hand["cards"]}
    labels = {}
    for label in form.find_all("label"):
        boxes = label.find_all("input", name="card")
        if boxes:
            value = boxes[0].attrs["value"]
            assert label.find_all("span", "n")[0].text() == str(numbers[value])
            labels[value] = label.text().strip()
    options = [o for o in form.find_all("option") if o.attrs.get("value")]
    assert len(options) >= 3
    for option in options:
        value = option.attrs["value"]
        number = str(numbers[value])
        assert option.text() == f"{number}. {labels[value].removeprefix(number).strip()}"
        # The colour in words, as the card says it (a grey card is painted "grey"
        # and worded "gray", as the rulebook's card list has it).
        colour = faces[value].get("colour_label") or faces[value].get("colour")
        assert not colour or str(colour) in option.text(), f"{option.text()!r} has no colour"
