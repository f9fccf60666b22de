"""The lobby's tables in a real browser (docs/web.md, "Tables"): a player opens a
table on the web page and shares its one link; another joins by name from
their own browser, a third from the CLI; the game starts when the table is
full; each opens their seat's page; after the game, "Play again" takes each
player to the same next table, at a seat of their own.

The game itself is played to its end over ``Play`` with the seats' secrets
the pages handed out, the seats' pages left meanwhile (a whole game
clicked through a page, or followed live by one, is tests/web/test_browser.py's;
here it would only make the test slow).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from arbiter.client import ArbiterClient
from arbiter.lobby import Lobby
from arbiter.play import play_seats, random_move

from tests.integration.conftest import ServerProcess
from tests.web import browser as harness
from tests.web.browser import poll
from tests.web.conftest import post_json

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("tables_browser"),
              pytest.mark.heavy(30)]

chromium = harness.chromium


@pytest.fixture
def browsers(chromium: Any) -> Iterator[list[Any]]:
    """Two players' browsers, each with cookies of its own."""
    contexts = [chromium.new_context(viewport=harness.DESKTOP) for _ in range(2)]
    for ctx in contexts:
        ctx.set_default_timeout(harness.WAIT_MS)
    try:
        yield contexts
    finally:
        for ctx in contexts:
            ctx.close()


def shown(page: Any, selector: str) -> Callable[[], Any]:
    return lambda: page.query_selector(selector)


def seat_page_of(page: Any) -> Callable[[], Any]:
    """The seat's page, its link's secret traded for the cookie (out of the address)."""
    return lambda: "#" not in page.url and page.query_selector("section#play")


def next_table_of(page: Any, table_id: str) -> Callable[[], Any]:
    return lambda: page.query_selector("#play-seat") and page.url.rsplit("/", 1)[1] != table_id


def secret_of(href: str) -> tuple[int, str]:
    """A seat link's seat and secret (``/games/<id>/join/<n>#<secret>``)."""
    found = re.search(r"/join/(\d+)#(.+)$", href)
    assert found, href
    return int(found.group(1)), found.group(2)


def test_open_share_join_by_name_play_and_play_again(
        web_server: ServerProcess, browsers: list[Any], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole lobby by its pages: open, one shared link, join by name (a
    browser and the CLI), the seat pages, the end, "Play again"."""
    from clients.cli import main

    ada_page, bob_page = (ctx.new_page() for ctx in browsers)
    requested: list[str] = []
    for ctx in browsers:
        ctx.on("request", lambda r: requested.append(r.url))
    ada_page.goto(f"{web_server.web_url}/tables")
    ada_page.select_option("#open-rules", "ethnos")
    ada_page.fill("#open-players", "3")
    ada_page.fill("#open-name", "Ada")
    ada_page.click("#open-table button[type=submit]")
    poll(ada_page, lambda: ada_page.query_selector("#table-link"), what="the table's page")
    link = ada_page.input_value("#table-link")
    table_id = link.rsplit("/", 1)[1]
    assert ada_page.locator("li.seat[data-seat='0']").inner_text().startswith("Player 1: Ada")
    # The shared link: Bob sits down by name from his own browser.
    bob_page.goto(link)
    bob_page.fill("#join-name", "Bob")
    bob_page.click("#join-table button[type=submit]")
    poll(bob_page, lambda: "(you)" in bob_page.locator("li.seat[data-seat='1']").inner_text(),
         what="Bob's seat")
    # Cy from the CLI fills the table: the game starts.
    monkeypatch.setenv("ARBITER_HOME", str(tmp_path))
    assert main(["lobby", "join", table_id, "--name", "Cy",
                 "--address", web_server.address]) == 0
    secrets: dict[int, str] = {}
    for page in (ada_page, bob_page):
        poll(page, shown(page, "#play-seat"), what="the seat's link")
        seat, secret = secret_of(page.get_attribute("#play-seat", "href") or "")
        secrets[seat] = secret
    assert sorted(secrets) == [0, 1]
    assert secrets[0] not in bob_page.content() and secrets[1] not in ada_page.content(), \
        "a page shows another player's secret"
    with ArbiterClient(web_server.address, token="") as client:
        state_page = ada_page.get_attribute("#game-link", "href") or ""
        game_id = state_page.rsplit("/", 1)[1]
        cy = client.state(game_id, 2, token=_cli_secret(tmp_path, table_id))
        assert list(cy.seats) == ["Ada", "Bob", "Cy"]
        secrets[2] = _cli_secret(tmp_path, table_id)
        # Each browser opens its seat's page, then leaves it for the game: left
        # open, each page had its board, question and choices drawn by the
        # server at every one of the game's few hundred versions (two pages: 10
        # of the test's 16 s), for nothing this test looks at (a seat's page
        # following a whole game live is test_browser.py's).
        for page in (ada_page, bob_page):
            page.click("#play-seat")
            poll(page, seat_page_of(page), what="the seat's page")
            page.goto("about:blank")
        rng = random.Random(11)
        played = play_seats(
            lambda after: client.play(game_id, [0, 1, 2], token=secrets[0],
                                      seat_tokens=[secrets[1], secrets[2]],
                                      after_version=after),
            lambda turn: random_move(turn, rng))
        assert played.final[0].over
    assert not any(s in url for s in secrets.values() for url in requested), \
        "a seat's secret left in a request's address"
    # Back at the table: the game is over, and each presses "Play again". The
    # lobby says the game is over as its last move is answered (it reads the
    # game's store), so the table's page shows the button as it loads, and the
    # press's answer is the next round's page, its game started (every seat a
    # player's): each is awaited as a page load, never polled for (a poll's
    # 15 s ran out once at a load of 7, while the page's own script reloads
    # the page whenever the table changes).
    with ArbiterClient(web_server.address, token="") as client:
        assert Lobby(client).table(table_id).game_over, "the lobby does not say the game is over"
    next_tables = []
    for page, name in ((ada_page, "Ada"), (bob_page, "Bob")):
        page.goto(f"{web_server.web_url}/tables/{table_id}")
        assert page.query_selector("#play-again"), (
            f"{name}'s table page, its game over, has no Play again button: "
            f"{page.inner_text('main') if page.query_selector('main') else page.content()}")
        with page.expect_navigation(url=lambda url: f"/tables/{table_id}" not in url):
            page.click("#play-again button[type=submit]")
        assert next_table_of(page, table_id)(), (
            f"{name}'s next round's page at {page.url} offers no seat: "
            f"{page.inner_text('body')}")
        next_tables.append(page.url.rsplit("/", 1)[1])
        mine = page.locator("li.seat", has_text="(you)").inner_text()
        assert name in mine
    assert next_tables[0] == next_tables[1]
    # At a phone's width, neither page scrolls sideways.
    for url in (f"{web_server.web_url}/tables", ada_page.url):
        ada_page.set_viewport_size(harness.PHONE)
        ada_page.goto(url)
        width, inner = harness.horizontal_overflow(ada_page)
        assert width <= inner, f"{url} scrolls sideways: {harness.too_wide(ada_page)}"
    ada_seat, _ = secret_of(ada_page.get_attribute("#play-seat", "href") or "")
    bob_seat, _ = secret_of(bob_page.get_attribute("#play-seat", "href") or "")
    assert (ada_seat, bob_seat) == (1, 2), "each player one seat on in the next round"


def _cli_secret(home: Path, table_id: str) -> str:
    import json

    held = json.loads((home / "lobby.json").read_text(encoding="utf-8"))[table_id]
    return str(held["secret"])


def test_the_json_gateway_serves_the_lobby(web_server: ServerProcess) -> None:
    """``POST /v1/lobby/<Method>``: open, join by name (the secret in the reply),
    leave with the secret; a refusal is the service's, with its reason."""
    base = f"{web_server.web_url}/v1/lobby"
    status, opened = post_json(f"{base}/OpenTable", {
        "rules": "ethnos", "seats": [{"kind": "open"}, {"kind": "open"}]})
    assert status == 200 and opened["host_secret"]
    table_id = opened["table"]["table_id"]
    status, joined = post_json(f"{base}/JoinTable", {"table_id": table_id, "name": "Ada"})
    assert status == 200 and joined["seat"]["secret"] and joined["seat"]["name"] == "Ada"
    status, table = post_json(f"{base}/GetTable", {"table_id": table_id})
    assert joined["seat"]["secret"] not in json.dumps(table)
    status, refused = post_json(f"{base}/JoinTable", {"table_id": table_id, "name": "Ada"})
    assert (status, refused["error"]["reason"]) == (400, "NAME_TAKEN")
    status, left = post_json(f"{base}/LeaveTable", {"table_id": table_id},
                             token=joined["seat"]["secret"])
    assert status == 200 and left["table"]["seats"][0]["kind"] == "open"
    status, unknown = post_json(f"{base}/Nothing", {})
    assert (status, unknown["error"]["reason"]) == (404, "UNKNOWN_METHOD")
