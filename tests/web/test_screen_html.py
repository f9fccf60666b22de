"""The web renderer of the presentation vocabulary (``service/web/screen.py``),
without a server: cards as cards, tracks as pips or bars, maps as SVG, and the
new card fields read by every renderer (terminal included) and by the checks."""

from __future__ import annotations

import re
from typing import Any

from arbiter.render import card_text

from aggregates.kernel.present import (
    COLOURS,
    Board,
    Card,
    Cards,
    Space,
    Track,
    screen,
    section,
    validate_screen,
)
from clients.render import render_screen
from service.web.screen import initials, screen_html

ELF = Card(3, "Elf", colour="red", colour_label="Rhea", stats=(("S", 2), ("Cost", 1)),
           text="keeps cards", tag="Ally")


def html_of(*items: Any) -> str:
    return str(screen_html(screen(section("S", *items)).to_json()))


def test_a_card_is_drawn_as_a_card_its_colour_painted_and_in_words() -> None:
    html = html_of(Cards("Hand", (ELF, Card(4, "Skeleton")), zone="hand", numbered=True))
    cards = re.findall(r'<li class="([^"]*)"[^>]*data-card="(\d+)"[^>]*>(.*?)</li>', html)
    assert [(c[0], c[1]) for c in cards] == [("card colour-red", "3"), ("card", "4")]
    elf = cards[0][2]
    for part in ('<span class="n">1</span>', '<span class="card-name">Elf</span>',
                 '<span class="card-colour">Rhea</span>', '<span class="card-tag">Ally</span>',
                 "<dt>S</dt><dd>2</dd>", "<dt>Cost</dt><dd>1</dd>",
                 '<span class="card-text">keeps cards</span>'):
        assert part in elf
    assert "card-colour" not in cards[1][2], "a card without a colour gets no band"


def test_a_colour_without_a_label_is_named_by_its_colour_and_unknown_ones_unpainted() -> None:
    html = html_of(Cards("Row", (Card(1, "Orc", colour="blue"),)))
    assert '<span class="card-colour">blue</span>' in html and "colour-blue" in html
    forged = {"sections": [{"title": "S", "items": [{"kind": "cards", "label": "Row", "count": 1,
              "cards": [{"id": 1, "name": "Orc", "colour": "x\" onclick=\"y"}]}]}]}
    drawn = str(screen_html(forged))
    assert "onclick=\"y" not in drawn and "colour-x" not in drawn
    assert validate_screen(forged), "a colour outside the palette is a problem"


def test_new_card_fields_are_optional_in_the_json_and_read_by_the_terminal() -> None:
    assert Card(1, "Orc").to_json() == {"id": 1, "name": "Orc"}
    assert ELF.to_json() == {"id": 3, "name": "Elf", "tag": "Ally", "colour": "red",
                             "colour_label": "Rhea", "text": "keeps cards",
                             "stats": [{"label": "S", "value": 2},
                                       {"label": "Cost", "value": 1}]}
    assert card_text(ELF.to_json()) == "Elf (Rhea) [Ally] S 2, Cost 1: keeps cards"
    assert card_text({"id": 1, "name": "Elf (red)", "colour": "red"}) == "Elf (red)"
    assert validate_screen(screen(section("S", Cards("Hand", (ELF,)))).to_json()) == []
    bad = {"sections": [{"title": "S", "items": [{"kind": "cards", "label": "H", "count": 1,
           "cards": [{"id": 1, "name": "x", "stats": [3]}]}]}]}
    assert validate_screen(bad) == [
        "S: 1: stats are not a list of label/value pairs"]
    assert set(COLOURS) >= {"red", "blue", "green", "grey"}


def test_a_track_with_a_maximum_is_pips_or_a_bar_beside_its_figures() -> None:
    pips = html_of(Track("HP", 3, 5))
    assert pips.count('class="pip on"') == 3 and pips.count('class="pip"') == 2
    assert '<span class="value">3/5</span>' in pips
    bar = html_of(Track("XP", 30, 100))
    assert '<meter class="bar" min="0" max="100" value="30"' in bar and "30/100" in bar
    per_seat = html_of(Track("Glory", per_seat=(1, 2), maximum=4))
    assert per_seat.count('class="pips"') == 2
    assert "pip" not in html_of(Track("Turn", "Ada"))


def test_a_board_with_positions_is_an_svg_map_and_one_without_a_list() -> None:
    spaces = (Space("a", "Alba", ("b",), ("Sweden: 2 Infantry",), x=10, y=20,
                    owner="Kingdom of Sweden", colour="blue", marks=("Stronghold",),
                    summary="2I"),
              Space("b", "Bria", ("a",), x=60, y=70))
    html = html_of(Board("The Map", spaces))
    assert html.count("<svg") == 1 and html.count('<circle class="region') == 2
    assert html.count('<line class="border"') == 1, "one line per border, not per side"
    assert '<circle class="region colour-blue"' in html
    assert "<title>Alba; controlled by Kingdom of Sweden; Sweden: 2 Infantry; Stronghold" \
        "</title>" in html
    assert ">KS</text>" in html and ">2I</text>" in html and ">S</text>" in html
    assert 'class="legend"' in html and "Kingdom of Sweden" in html
    assert 'data-space="a"' in html and "<details" in html, "the spaces in words too"
    listed = html_of(Board("Track", (Space(1, "One", (2,)), Space(2, "Two", (1,)))))
    assert "<svg" not in listed and 'class="spaces"' in listed


def test_the_map_fields_read_in_the_json_and_the_terminal() -> None:
    space = Space("a", "Alba", x=1, y=2, owner="Sweden", colour="blue", summary="2I")
    assert space.to_json() == {"id": "a", "name": "Alba", "x": 1, "y": 2, "owner": "Sweden",
                               "colour": "blue", "summary": "2I"}
    lines = render_screen(screen(section("M", Board("Map", (space,)))).to_json())
    assert any("Alba" in line for line in lines)
    assert initials("Polish-Lithuanian Commonwealth") == "PLC"
    assert initials("Tsardom of Russia") == "TR"
