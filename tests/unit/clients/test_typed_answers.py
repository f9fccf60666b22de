"""The terminal reads a person's typed answer: menu numbers, card numbers,
ranges and ids, a marked card, and says what is wrong with a bad one."""

from __future__ import annotations

import pytest

from clients.typed import SelectionError, parse_cards, parse_menu_number


def test_parse_cards_numbers_ranges_ids_and_the_mark() -> None:
    numbering = [58, 10, 149, "e1"]
    options = [58, 10, 149, "e1"]
    assert parse_cards("1 3", numbering, options) == ([58, 149], None)
    assert parse_cards("3,1*", numbering, options) == ([149, 58], 58)
    assert parse_cards("2-4", numbering, options) == ([10, 149, "e1"], None)
    assert parse_cards("#149 e1*", numbering, options) == ([149, "e1"], "e1")
    assert parse_menu_number(" 2 ", 3) == 1 and parse_menu_number("0", 3) is None


@pytest.mark.parametrize(("text", "why"), [
    ("5", "there is no card number 5"),
    ("0", "there is no card number 0"),
    ("3-2", "is not a range"),
    ("1 1", "picked twice"),
    ("#7", "neither a card number nor a card's id"),
    ("1-2*", "not a range"),
    ("4", "cannot be picked"),
])
def test_parse_cards_says_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(SelectionError, match=why):
        parse_cards(text, [58, 10, 149, 7], [58, 10, 149])
