"""Issue 23 item 1, in a real browser: every served game's table laid out for a
phone (390 px) and a desktop (1280 px).

One server, one game of each rules a few bot moves in (``tables.py``), one
browser page that visits each game's page, seat page and replay and is
measured at both widths (resized in place, not loaded twice):

- no page scrolls sideways;
- on a seat page, whose turn it is and what the seat must do (the pending
  decision) is on screen without scrolling;
- every card the screen shows is a card (``li.card``), and a card with a
  colour also says it in words;
- a board whose spaces have positions (Titans' map) is an SVG with one shape
  per active region, each with a ``<title>``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.conftest import ServerProcess
from tests.web import browser as harness
from tests.web.tables import PAGES, READY, TABLES, Table, open_page, set_table

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("table-layout"),
              pytest.mark.heavy(15)]

chromium = harness.chromium
WIDTHS = {"phone": harness.PHONE, "desktop": harness.DESKTOP}


@pytest.fixture(scope="module")
def tables(web_server: ServerProcess) -> dict[str, Table]:
    """One game of every served rules, stopped where a seat must act."""
    return {rules: set_table(web_server, rules) for rules in TABLES}


@pytest.fixture(scope="module")
def page(chromium: Any) -> Iterator[Any]:
    """One page for the module: every game's pages are visited in it."""
    context = chromium.new_context(viewport=harness.DESKTOP)
    context.set_default_timeout(harness.WAIT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


def at_each_width(page: Any) -> Iterator[str]:
    """The page at the phone's width, then the desktop's, scrolled to its top."""
    for name, viewport in WIDTHS.items():
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        harness.settle(page)
        yield name


def screen_json(page: Any) -> dict[str, Any]:
    return dict(json.loads(page.locator("script#screen-json").text_content() or "{}"))


def items(screen: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [i for s in screen.get("sections") or [] for i in s.get("items") or []
            if i.get("kind") == kind]


#: What the first line of the pending decision shows: its box and words.
PENDING = """() => { const p = document.querySelector('#pending p');
  if (!p) return null; const r = p.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, text: p.textContent, inner: window.innerHeight}; }"""

#: Every card drawn: its id, whether it is painted, and the words of its colour.
CARDS = """() => [...document.querySelectorAll('#board li.card')].map(c => ({
  id: c.dataset.card, colour: c.dataset.colour,
  words: (c.querySelector('.card-colour') || {textContent: ''}).textContent.trim()}))"""


def check_cards(page: Any, where: str) -> int:
    """Every face on the screen is drawn as a card; a painted one names its colour."""
    screen = screen_json(page)
    faces = [str(f["id"]) for i in items(screen, "cards") for f in i.get("cards") or []]
    drawn = page.evaluate(CARDS)
    assert sorted(c["id"] for c in drawn) == sorted(faces), f"{where}: cards not drawn as cards"
    for card in drawn:
        assert not card["colour"] or card["words"], \
            f"{where}: card {card['id']} is painted {card['colour']} without words"
    return len(drawn)


def check_map(page: Any, where: str) -> int:
    """A board with positions is an SVG map: one shape per space, each titled."""
    boards = [b for b in items(screen_json(page), "board")
              if b["spaces"] and all("x" in s for s in b["spaces"])]
    for board in boards:
        ids = sorted(str(s["id"]) for s in board["spaces"])
        shapes = page.eval_on_selector_all(
            "#board svg.map g.space", "gs => gs.map(g => [g.dataset.space, "
            "g.querySelectorAll('circle.region').length, "
            "(g.querySelector('title') || {textContent: ''}).textContent])")
        assert sorted(s[0] for s in shapes) == ids, f"{where}: the map's spaces differ"
        assert all(n == 1 and title for _, n, title in shapes), \
            f"{where}: a region without exactly one shape or without a title"
    return len(boards)


@pytest.mark.parametrize("rules", list(TABLES))
def test_every_page_of_the_table_fits_a_phone_and_a_desktop(
    web_server: ServerProcess, tables: dict[str, Table], page: Any, rules: str
) -> None:
    """Issue 23: "browser tests check the layout at 390 and 1280 px (no horizontal
    scroll, 'your move' visible without scrolling on a seat page)"; cards as
    cards with their colour in words; issue 18: the map drawn as a map."""
    table = tables[rules]
    urls = table.urls(web_server.web_url)
    maps = cards = 0
    for name in PAGES[1:]:  # the game, its replay, the seat (the lobby has its own test)
        url, with_token = urls[name]
        open_page(page, url, with_token, READY[name])
        for width in at_each_width(page):
            where = f"{rules}'s {name} page at the {width}'s width"
            wide = harness.too_wide(page)
            assert not wide, f"{where} scrolls sideways: {wide}"
            if name == "seat":
                shown = page.evaluate(PENDING)
                assert shown and shown["text"].startswith("Your turn"), \
                    f"{where}: no 'Your turn' line: {shown}"
                assert shown["top"] >= 0 and shown["bottom"] <= shown["inner"], \
                    f"{where}: the pending decision is off screen: {shown}"
                assert page.locator("section#play button.action, section#play form.choice") \
                    .first.is_visible(), f"{where}: no move offered"
        cards += check_cards(page, f"{rules}'s {name} page")
        maps += check_map(page, f"{rules}'s {name} page")
    if rules == "titans":
        assert maps == 3, "the Titans map is not drawn as an SVG on each page"
    assert rules == "enin" or cards, f"{rules}'s pages drew no card"


def test_the_lobby_fits_a_phone_and_a_desktop(web_server: ServerProcess,
                                              tables: dict[str, Table], page: Any) -> None:
    """Issue 23: the lobby (every game listed) does not scroll sideways either."""
    open_page(page, f"{web_server.web_url}/", False, READY["lobby"])
    assert page.locator("table#games tr.game").count() >= len(tables)
    for width in at_each_width(page):
        wide = harness.too_wide(page)
        assert not wide, f"the lobby scrolls sideways at the {width}'s width: {wide}"
