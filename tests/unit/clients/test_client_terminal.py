"""The terminal drawn with rich (issue 23 item 4): as wide as the terminal,
colour for a card's tag with its words kept, the hand shown again above
"Which cards?"."""

from __future__ import annotations

import io
import json

from rich.console import Console

from aggregates.kernel.present import Card, Cards, Note, Table, Track, screen, section
from clients.terminal import draw_screen, tag_style

WIDE = screen(
    section("Ethnos — Age 1",
            Track("Glory", per_seat=(3, 5)),
            Table("Kingdoms", ("Kingdom", "Colour", "Glory to the first", "Markers"),
                  (("Pelagon", "blue", "2, 4, 6", "Ada 1 · Bo 2 · Cy 0 · Di 3 · Ed 1"),
                   ("Ithys", "orange", "4, 6, 8", "nobody yet"))),
            Cards("Your hand", (Card(58, "Halfling", "places no Control marker", "orange"),
                                Card(149, "Skeleton", "wild", "gray")), zone="hand",
                  numbered=True),
            Cards("Deck", count=9), Note("Your turn.")),
)


def draw(width: int, colour: bool) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=colour,
                      color_system="truecolor" if colour else None, highlight=False)
    draw_screen(console, json.loads(json.dumps(WIDE.to_json())), ["Ada", "Bo"])
    return out.getvalue()


def test_tables_fit_the_terminal_and_no_word_is_cut() -> None:
    for width in (40, 60, 120):
        text = draw(width, colour=False)
        assert max(len(line) for line in text.splitlines()) <= width, text
        assert "Skele\n" not in text and "Skeleton" in text
    narrow = draw(40, colour=False)
    assert "Pelagon" in narrow and "nobody" in narrow  # wrapped in its cell, not cut
    assert "Glory: Ada 3 · Bo 5" in narrow and "Deck: 9 cards" in narrow


def test_a_cards_tag_tints_its_name_and_is_still_written() -> None:
    coloured = draw(100, colour=True)
    assert "\x1b[" in coloured and "Halfling [orange]" in coloured.replace("\x1b[0m", "")
    assert tag_style("orange") and tag_style("gray") and not tag_style("Halflings")
    plain = draw(100, colour=False)
    assert "\x1b[" not in plain and "1. Halfling [orange]: places no Control marker" in plain
