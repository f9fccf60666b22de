"""No hidden card reaches a spectator through the web side.

Random Ethnos games (hidden hands) are played to the end by bots through gRPC
while a spectator's browser (the spectator link's cookie) reads, after every
move, the game's page, its board fragment now and at a past version, the
replay, the log's gap filler, the record, and follows the live feed
(Server-Sent Events); the lobby is read now and then. Each is checked
against what a spectator may know at that version, worked out by the test
from the admin's full record and the rulebook (``EthnosKnowledge`` of
``tests/integration/test_leaks_screens_and_choices.py``, whose checks are reused as they
are):

- the screen as the page carries it (``#screen-json``): no faces for a zone a
  spectator may not see, every card id one it may know; and the board's HTML
  is exactly the one drawn from that screen (so the markup holds nothing the
  checked screen does not), every ``data-card`` one it may know;
- the log's lines: exactly the words of the spectator's events (which
  ``check_event`` proves are the game's sentence for a payload holding no
  hidden card), and the feed's and the record's payloads themselves;
- the seed, nowhere before the end.

Once the game is over the whole record is everyone's, so what was read after
the end (the last move's events included) is exempt, as in the gRPC leak test.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from typing import Any

import pytest
from arbiter.render import event_text
from arbiter.v1 import game_pb2

from aggregates.ethnos.game import Ethnos
from aggregates.records import read_record
from service.web.pages import LOG_TAIL, board_html, outcome_html, pending_html
from tests.integration.conftest import ServerProcess
from tests.integration.test_leaks_screens_and_choices import (
    EthnosKnowledge,
    check_event,
    check_ids,
    check_screen,
    stored_seed,
    unsealed,
)
from tests.soak import cases, games
from tests.web.test_pages import Browser, Node, SseMessage, cookie_header, dom, play, sse

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("web-leaks"),
              pytest.mark.heavy(120)]

DATA_CARD = re.compile(r'data-card="([^"]*)"')


class Spectator:
    """One game, its model of what a spectator may know, and a spectator's browser."""

    def __init__(self, server: ServerProcess, players: int) -> None:
        self.server = server
        self.admin = server.stub()
        self.created = self.admin.CreateGame(game_pb2.CreateGameRequest(
            rules="ethnos", seats=[f"p{n}" for n in range(players)]))
        self.game_id = self.created.game_id
        self.seats = list(self.created.state.seats)
        self.know = EthnosKnowledge(players)
        self.know.seed = stored_seed(server, self.game_id)
        self.watcher = server.stub(self.created.spectator_token)
        self.browser = Browser(server.web_url)
        assert self.browser.open_session(self.game_id, self.created.spectator_token).status \
            == 200
        self.checked_pages = 0
        self.last_checked = 0
        self.events: dict[int, game_pb2.Event] = {}
        self.feed: list[SseMessage] = []
        self.feed_error: BaseException | None = None
        #: Told of each message the feed reads (``wait_feed`` wakes at once).
        self.fed = threading.Condition()
        #: The board each spectator state checked draws (``board_html``), drawn once.
        self.boards: dict[bytes, str] = {}
        self.done = threading.Event()
        self.feed_thread = threading.Thread(target=self._follow, daemon=True)
        self.feed_thread.start()

    def _follow(self) -> None:
        url = f"{self.server.web_url}/games/{self.game_id}/live"

        def stop(messages: list[SseMessage]) -> bool:
            with self.fed:
                self.feed = messages
                self.fed.notify_all()
            last = messages[-1].data
            return self.done.is_set() or str(last.get("status", "")).startswith("ended")

        try:
            feed = sse(url, stop, cookie=cookie_header(self.browser), timeout=120)
            with self.fed:
                self.feed = feed
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            with self.fed:
                self.feed_error = exc
        finally:
            with self.fed:
                self.fed.notify_all()

    def wait_feed(self, version: int, timeout: float = 20.0) -> None:
        """The live feed has delivered ``version`` (so the feed reads each move's
        events before the next move: what it reads after the end is the last
        move's alone). Woken by the feed's each message, where a look every
        10 ms stood (1.5 s of a 300-move game's waits)."""
        deadline = time.monotonic() + timeout
        with self.fed:
            while self.feed_error is None:
                if any(m.data.get("event", {}).get("version", 0) >= version
                       for m in self.feed[-8:]):
                    return
                left = deadline - time.monotonic()
                if left <= 0 or not self.feed_thread.is_alive():
                    break
                self.fed.wait(left)
        raise AssertionError(f"the live feed did not deliver v{version}: {self.feed_error}")

    def catch_up(self) -> None:
        self.know.follow(list(self.admin.History(game_pb2.HistoryRequest(
            game_id=self.game_id, after_version=self.know.version))))

    def spectator_state(self, version: int | None = None) -> game_pb2.GameState:
        request = game_pb2.GetStateRequest(game_id=self.game_id, spectator=True)
        if version is not None:
            request.version = version
        return self.watcher.GetState(request)

    def spectator_events(self) -> dict[int, game_pb2.Event]:
        """The spectator's History (each event checked once, read while running)."""
        for ev in self.watcher.History(game_pb2.HistoryRequest(
                game_id=self.game_id, spectator=True, after_version=len(self.events))):
            check_event(ev, Ethnos, self.seats, self.know, None, "History")
            self.events[ev.version] = ev
        return self.events

    def board_of(self, state: game_pb2.GameState) -> str:
        """``board_html(state)``, drawn once per state (a check compares it three
        times: in the page, in the fragment, and its cards)."""
        key = state.SerializeToString(deterministic=True)
        if key not in self.boards:
            self.boards[key] = str(board_html(state))
        return self.boards[key]

    # --- the checks ---

    def check_board(self, page: Node, html: str, state: game_pb2.GameState, where: str) -> None:
        """The page's board is the spectator's state at its version, drawn from the
        checked screen and nothing else."""
        version = state.version
        board = page.by_id("board")
        assert board.attrs["data-version"] == str(version), where
        screen = json.loads(page.by_id("screen-json").text())
        assert screen == json.loads(state.screen_json), where
        check_screen(screen, self.know, None, version, where)
        drawn = self.board_of(state)
        assert drawn in html, f"{where}: the board is not the screen's"
        for card in DATA_CARD.findall(drawn):
            if card.isdigit():
                check_ids({"card": int(card)}, self.know, None, version, where + " data-card")
        unsealed(self.know, where, html)

    def check_log(self, page: Node, events: dict[int, game_pb2.Event], upto: int,
                  where: str, tail: int = 0) -> None:
        """The page's log lines are the spectator's events up to ``upto`` (their
        last ``tail`` where the page shows only the latest)."""
        lines = [(int(li.attrs["data-version"]), li.text())
                 for li in page.by_id("log").find_all("li")]
        wanted = [(v, event_text(events[v])) for v in sorted(events) if v <= upto]
        assert lines == (wanted[-tail:] if tail else wanted), where

    def check_now(self, rnd: random.Random) -> None:
        """Every spectator surface at the current version (the game still running)."""
        self.catch_up()
        state = self.spectator_state()
        version = state.version
        events = self.spectator_events()
        base = f"/games/{self.game_id}"
        reply = self.browser.get(base)
        assert reply.status == 200, reply.body
        page = dom(reply.body)
        self.check_board(page, reply.body, state, f"game page v{version}")
        self.check_log(page, events, version, f"game page log v{version}", LOG_TAIL)
        assert str(pending_html(state)) in reply.body
        assert str(outcome_html(state)) in reply.body
        fragment = self.browser.get(f"{base}/board?version={version}")
        self.check_board(dom(fragment.body), fragment.body, state, f"board v{version}")
        assert fragment.body == self.board_of(state) + str(pending_html(state)) \
            + str(outcome_html(state))
        past_version = rnd.randint(1, version)
        past = self.spectator_state(past_version)
        assert not past.seed
        fragment = self.browser.get(f"{base}/board?version={past_version}")
        self.check_board(dom(fragment.body), fragment.body, past, f"board v{past_version}")
        if rnd.random() < 0.2:
            replay = self.browser.get(f"{base}/replay?version={past_version}")
            page = dom(replay.body)
            self.check_board(page, replay.body, past, f"replay v{past_version}")
            self.check_log(page, events, past_version, f"replay log v{past_version}")
            listed = json.loads(page.by_id("events-json").text())
            assert listed == [{"version": v, "text": event_text(events[v])}
                              for v in sorted(events) if v <= version]
            after = rnd.randint(0, version)
            lines = json.loads(self.browser.get(f"{base}/log?after={after}").body)["lines"]
            assert [(x["version"], x["text"]) for x in lines] == \
                [(v, event_text(events[v])) for v in sorted(events) if v > after]
        if rnd.random() < 0.1:
            self.check_record(version)
        self.checked_pages += 1
        self.last_checked = version

    def check_record(self, version: int) -> None:
        text = self.browser.get(f"/games/{self.game_id}/record").body
        unsealed(self.know, "record", text)
        header, lines = read_record(text.splitlines())
        assert header["seed"] == "" and header["reader"] == "spectator"
        for line in lines:
            assert line["meta"] is None, "the record carries the kernel's meta"
            check_ids(line["payload"], self.know, None, line["version"], "record")

    def check_lobby(self) -> None:
        """The lobby shows games, never a game's cards or screen."""
        path = "/?rules=ethnos"
        while path:
            reply = self.browser.get(path)
            assert reply.status == 200
            assert "data-card" not in reply.body and "screen-json" not in reply.body
            unsealed(self.know, "lobby", reply.body)
            page = dom(reply.body)
            path = page.by_id("next-page").attrs["href"] if page.has_id("next-page") else ""

    def check_feed(self, secret_until: int) -> None:
        """Every event of the live feed, read before the end, against that version."""
        self.done.set()
        self.feed_thread.join(timeout=60)
        assert self.feed_error is None, self.feed_error
        events = [m for m in self.feed if "event" in m.data]
        versions = [m.data["event"]["version"] for m in events]
        assert versions == list(range(1, len(versions) + 1)), "the feed skipped or repeated"
        assert versions and versions[-1] >= secret_until - 1
        for message in events:
            ev: dict[str, Any] = message.data["event"]
            if ev["version"] >= secret_until:
                continue
            where = f"live feed v{ev['version']}"
            assert not ev["meta_json"], f"{where}: the kernel's meta before the end"
            payload = json.loads(ev["payload_json"])
            check_ids(payload, self.know, None, ev["version"], where)
            unsealed(self.know, where, json.dumps(message.data))
            assert ev["text"] == Ethnos.describe(ev["type"], payload, self.seats), where
            if ev["text"]:
                assert ev["line"] == ev["text"], where


#: After the first 24 moves, the pages are read at every so many moves (the
#: live feed is checked at every move): every 18th in the suite, 9th under soak.
CHECK_EVERY = games(18, 9)


@pytest.mark.parametrize(("players", "seed"), cases([(3, 31)], [(4, 41)]))
def test_no_spectator_page_fragment_feed_or_lobby_shows_a_hidden_card(
        web_server: ServerProcess, players: int, seed: int) -> None:
    table = Spectator(web_server, players)
    rnd = random.Random(seed)
    table.check_now(rnd)
    secret_until = 1 << 62
    moves = 0
    before_move = table.spectator_state().version

    def after_move(state: game_pb2.GameState) -> None:
        nonlocal secret_until, moves, before_move
        moves += 1
        if state.over:
            # The last move's events were read after the end: everyone's now.
            table.catch_up()
            secret_until = before_move + 1
            return
        before_move = state.version
        table.wait_feed(state.version)
        # Every move early on, then every CHECK_EVERY-th (a game runs to a few
        # hundred, and the feed above is checked at every move).
        if moves <= 24 or moves % CHECK_EVERY == 0:
            table.check_now(rnd)
        if moves % 60 == 0:
            table.check_lobby()

    final = play(web_server, table.created, "ethnos", rnd, 1500, after_move)
    table.check_lobby()
    if not final.over:
        table.catch_up()
        secret_until = final.version + 1
    table.check_feed(secret_until)
    assert table.checked_pages >= 20
    print(f"{players} seats: {moves} moves, {table.checked_pages} checks, over={final.over}")
    assert any(table.know.at[v][s] - table.know.at[v][None]
               for v in table.know.at for s in range(players)), \
        "the game dealt hidden cards, so the test had something to catch"

