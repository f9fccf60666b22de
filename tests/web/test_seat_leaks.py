"""A seat's page never shows another seat's hand (issue 10's leak test, HTTP side).

Random Ethnos games (3 and 4 seats) are played to the end by bots through gRPC
while every seat follows its own page in its own browser (its own cookie). At
every few moves, each seat's page, its panel (the pieces its script swaps in)
and its live feed (Server-Sent Events) are checked against what that seat is
*allowed to know* at that version, worked out by the integration leak tests'
own model from the admin's full record (``tests/integration/test_leaks_screens_and_choices``:
a card dealt or drawn blind is its receiver's alone until a public event shows
it): the board's screen (no faces of a zone the seat may not see; no card it
may not know), every card id the HTML carries (``data-card``, the forms' card
fields, the buttons' commands), and every event of the feed (its payload, and
its text: the game's sentence for that payload). The page's log is the seat's
own History, line for line, and nothing else.
"""

from __future__ import annotations

import http.client
import json
import random
import re
from typing import Any

import pytest
from arbiter.v1 import game_pb2
from google.protobuf import json_format

from aggregates.ethnos.game import Ethnos
from service.web.templating import LOG_TAIL
from tests.integration.conftest import ServerProcess
from tests.integration.test_leaks import _act
from tests.integration.test_leaks_screens_and_choices import (
    EthnosKnowledge,
    check_event,
    check_ids,
    check_screen,
    stored_seed,
    unsealed,
)
from tests.soak import cases
from tests.web.test_seat import Browser, SeatPage

pytestmark = [pytest.mark.integration, pytest.mark.heavy(90)]

MAX_MOVES = 1500


def checked_at(move: int) -> bool:
    """Often early (the first Age's hands), then every so often (a long game's pages
    carry its whole log, so each check costs more as it goes)."""
    return move % 3 == 0 if move < 45 else move % 23 == 0


def html_card_ids(page: SeatPage) -> list[int]:
    """Every card id the page's HTML carries outside its screen's JSON."""
    ids = [int(c) for c in page.cards_shown if c.isdigit()]
    for form in page.forms:
        ids += [int(c["value"]) for c in form["checkboxes"] if c["value"].isdigit()]
        ids += [int(v) for s in form["selects"] if s["name"] == "mark"
                for v in s["options"] if v.isdigit()]
    return ids


def check_page(page: SeatPage, know: EthnosKnowledge, seat: int, version: int,
               where: str) -> None:
    assert page.board_version == version, f"{where}: the page is not at v{version}"
    assert page.screen_json is not None
    check_screen(json.loads(page.screen_json), know, seat, version, where)
    check_ids({"cards": html_card_ids(page)}, know, seat, version, where + " HTML")
    check_ids([json.loads(a["data-json"]) for a in page.actions], know, seat, version,
              where + " actions")


def read_live(browser: Browser, path: str, until: int) -> list[dict[str, Any]]:
    """The feed's events up to version ``until`` (the connection is then closed)."""
    connection = http.client.HTTPConnection(browser.host, browser.port, timeout=20)
    events: list[dict[str, Any]] = []
    try:
        connection.request("GET", path, headers={
            "Accept": "text/event-stream",
            "Cookie": "; ".join(f"{k}={v}" for k, v in browser.cookies.items())})
        reply = connection.getresponse()
        assert reply.status == 200, reply.read()
        last = 0
        while last < until:
            line = reply.fp.readline()
            assert line, f"the feed ended before v{until}"
            text = line.decode().rstrip("\n")
            if text.startswith("id: "):
                assert int(text[4:]) == last + 1 or last == 0, "the feed skipped a version"
            if text.startswith("data: "):
                data = json.loads(text[6:])
                if "event" in data:
                    events.append(data["event"])
                    last = int(data["event"]["version"])
                assert "error" not in data, data
        return events
    finally:
        connection.close()


@pytest.mark.parametrize("players", cases([3], [4]))
def test_a_seats_page_panel_and_feed_show_no_other_hand(
        web_server: ServerProcess, players: int) -> None:
    admin = web_server.stub()
    seats = [f"p{n}" for n in range(players)]
    created = admin.CreateGame(game_pb2.CreateGameRequest(rules="ethnos", seats=seats))
    game_id = created.game_id
    browsers = [Browser(web_server) for _ in range(players)]
    for seat, browser in enumerate(browsers):
        assert browser.open_seat(game_id, seat, created.seat_tokens[seat].token).status == 200
    mine = [web_server.stub(t.token) for t in created.seat_tokens]
    know = EthnosKnowledge(players)
    know.seed = stored_seed(web_server, game_id)
    rng = random.Random(100 + players)
    live_from = [0] * players
    checks = 0
    move = 0

    def follow() -> None:
        """The model caught up with the game (its every event, in order: read
        where it is used, at a check and at the end, not at each move)."""
        know.follow(list(admin.History(game_pb2.HistoryRequest(
            game_id=game_id, after_version=know.version))))

    for move in range(MAX_MOVES):  # noqa: B007 - reported below
        state = admin.GetState(game_pb2.GetStateRequest(game_id=game_id))
        if state.over:
            break
        if checked_at(move):
            follow()
            assert know.version == state.version
            checks += 1
            v = state.version
            for seat, browser in enumerate(browsers):
                base = f"/games/{game_id}/seat/{seat}"
                if checks % 2:  # the whole page (its log's tail; the panel every time)
                    reply = browser.get(base)
                    assert reply.status == 200, reply.text
                    page = SeatPage(reply.text)
                    unsealed(know, f"seat {seat}'s page", reply.text)
                    check_page(page, know, seat, v, f"seat {seat}'s page")
                    if checks % 4 == 1:
                        own = list(mine[seat].History(game_pb2.HistoryRequest(
                            game_id=game_id, seat=seat)))
                        assert page.log == [(e.version, e.text) for e in own][-LOG_TAIL:], \
                            "the log is not the latest of the seat's History"
                panel_reply = browser.get(f"{base}/panel?after={max(0, v - 5)}")
                unsealed(know, f"seat {seat}'s panel", panel_reply.text)
                panel = panel_reply.json()
                pieces = SeatPage(panel["board"] + panel["pending"] + panel["play"]
                                  + panel["log"])
                assert panel["version"] == v
                pieces.board_version = panel["version"]
                check_page(pieces, know, seat, v, f"seat {seat}'s panel")
                recent = mine[seat].History(game_pb2.HistoryRequest(
                    game_id=game_id, seat=seat, after_version=max(0, v - 5)))
                assert pieces.log == [(e.version, e.text) for e in recent]
                assert not re.search(r"\bdata-card=\"\d+\"", panel["pending"] + panel["log"])
                for data in read_live(browser, f"{base}/live?after={live_from[seat]}", v):
                    event = json_format.ParseDict(data, game_pb2.Event())
                    check_event(event, Ethnos, seats, know, seat, f"seat {seat}'s live feed")
                live_from[seat] = v
        seat = rng.choice([d.seat for d in state.pending])
        legal = admin.LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=seat))
        _act(legal, rng, admin, game_id, seat)
    else:
        raise AssertionError(f"the game did not end in {MAX_MOVES} moves")
    follow()
    assert checks > 10, f"{checks} checks in {move} moves"
    print(f"{players} seats: {checks} checks in {move} moves")
    assert any(know.at[v][s] - know.at[v][None] for v in know.at for s in range(players)), \
        "the game dealt secret cards, so the test had something to catch"
