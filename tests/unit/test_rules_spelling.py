"""Rules names as people type them (``aggregates.spelling``): the id, its
page's name with a hyphen, any case or a space name one game; a name that
names none is still unknown, with the ids it was likely meant as."""

from __future__ import annotations

import pytest

from aggregates.catalog import GAMES
from aggregates.spelling import close_to, folded, rules_id, unknown_rules_sentence
from service.catalogue import served_rules, unknown_rules


@pytest.mark.parametrize("typed", ["nine_empires", "nine-empires", "Nine-Empires",
                                   "NINE_EMPIRES", "nine empires", " Nine--Empires "])
def test_every_spelling_of_a_served_id_names_it(typed: str) -> None:
    assert rules_id(typed, GAMES) == "nine_empires"
    assert served_rules(typed) == "nine_empires"


def test_an_exact_id_is_itself_and_folding_is_only_case_and_separators() -> None:
    assert rules_id("ethnos", ["ethnos", "Ethnos"]) == "ethnos"
    assert folded("Land-of Enin") == "land_of_enin"
    assert rules_id("ninempires", GAMES) is None  # letters are never guessed


def test_a_name_that_names_no_game_is_unknown_with_the_likely_meaning() -> None:
    assert served_rules("nine-empire") == "nine-empire"
    assert close_to("nine-empire", GAMES) == ["nine_empires"]
    refused = unknown_rules("nine-empire")
    assert (refused.status, refused.reason) == ("NOT_FOUND", "UNKNOWN_RULES")
    assert refused.message == "no game 'nine-empire' is served; did you mean nine_empires?"
    assert unknown_rules_sentence("chess", GAMES) == "no game 'chess' is served"
