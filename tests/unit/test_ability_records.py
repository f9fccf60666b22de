"""Every ability record of every game is read by the one ability engine.

The kernel's engine (``aggregates.kernel.abilities``) is the only reader of
abilities: each record in a game's data files parses under it, against that
game's vocabulary, and the game's loaded components hold exactly those
records as the kernel's ``Ability``. A record in a shape of its own, or a
game keeping an interpreter of its own, fails here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from aggregates.kernel import abilities as ka
from aggregates.kernel.data import read_json


def _nine_empires() -> tuple[list[Mapping[str, Any]], ka.Vocabulary, list[ka.Ability]]:
    from aggregates.nine_empires import data

    raw = read_json(data.CARDS_FILE)
    cards = [*raw["cards"], *raw.get("tokens", [])]
    records = [a for c in cards for a in c.get("abilities", [])]
    records += [a for c in cards for a in (c.get("reward") or {}).get("abilities", [])]
    loaded = [a for c in data.ALL.values() for a in (*c.abilities, *c.reward_abilities)]
    return records, data.WORDS, loaded


def _ethnos() -> tuple[list[Mapping[str, Any]], ka.Vocabulary, list[ka.Ability]]:
    from aggregates.ethnos import abilities

    return (read_json(abilities.ABILITIES_FILE)["effects"], abilities.WORDS,
            abilities.BOOK.abilities)


def _ettin() -> tuple[list[Mapping[str, Any]], ka.Vocabulary, list[ka.Ability]]:
    from aggregates.ettin import data

    records = list(read_json(data.DATA_FILE)["keywords"].values())
    return records, data.WORDS, list(data.COMPONENTS.keywords.values())


def _titans() -> tuple[list[Mapping[str, Any]], ka.Vocabulary, list[ka.Ability]]:
    from aggregates.titans import data

    nations = read_json(data.HERE / "components.json")["nations"]
    records: list[Mapping[str, Any]] = []
    for n in nations:
        records += [n["starting_ability"], n["titan_ability"]]
        records += [{k: v for k, v in c.items() if k not in ("id", "cost", "x")}
                    for c in n["cards"]]
    loaded = [a for n in data.NATIONS.values() for a in (n.starting_ability, n.titan_ability)]
    loaded += [c.ability for c in data.NATION_CARDS]
    return records, data.WORDS, loaded


def _template() -> tuple[list[Mapping[str, Any]], ka.Vocabulary, list[ka.Ability]]:
    from tests.template_game import components

    raw = read_json(components.DATA_FILE)
    records = [e for c in raw["cards"] for e in c.get("effects", [])]
    return records, components.WORDS, components.COMPONENTS.book.abilities


GAMES = {"nine_empires": _nine_empires, "ethnos": _ethnos, "ettin": _ettin,
         "titans": _titans, "template": _template}


def _each() -> Iterator[tuple[str, int, Mapping[str, Any], ka.Vocabulary]]:
    for game, source in GAMES.items():
        records, words, _loaded = source()
        for i, record in enumerate(records):
            yield game, i, record, words


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_record_of_the_game_parses_under_the_one_engine(game: str) -> None:
    records, words, loaded = GAMES[game]()
    assert records, f"{game} declares no ability"
    parsed = [ka.read_ability(r, f"{game} {i}", words) for i, r in enumerate(records)]
    assert all(isinstance(a, ka.Ability) for a in loaded)
    assert len(loaded) >= len({(a.timing, a.text) for a in parsed}) > 0
    # what the game loaded is what the engine reads from the file (the game
    # may add a record's parameters, as Ettin's "wealthy 5" adds its amount)
    shapes = {(a.timing, a.event, tuple(s.verb for s in a.steps)) for a in parsed}
    assert {(a.timing, a.event, tuple(s.verb for s in a.steps)) for a in loaded} <= shapes


def test_the_condition_grammar_is_one_for_every_game() -> None:
    """Each record's tests use only the grammar's forms and the game's facts."""
    for game, i, record, words in _each():
        where = f"{game} {i}"
        ka.check_expr(record.get("condition"), where, words.facts, words.sided)
        ka.check_expr(record.get("when", {}).get("if"), where, words.facts, words.sided)
        for target in record.get("targets", []):
            ka.check_expr(target.get("filter"), where, words.facts, words.sided)


def test_titans_support_requirements_are_in_the_grammar_too() -> None:
    """Titans' Support Cards need a unit type in your or the opposing army
    (rulebook, "Playing Support Card(s)"): a condition in the same grammar."""
    from aggregates.titans import data

    sides = set()
    for card in data.SUPPORTS:
        ka.check_expr(card.condition, f"support {card.id}", data.WORDS.facts, data.WORDS.sided)
        ((side, fact, _want),) = ka.leaves(card.condition)
        sides.add((side, fact))
    assert sides == {("your", "army"), ("opposing", "army")}


def test_quest_completions_are_in_the_grammar_too() -> None:
    """Nine Empires' quest completions are tests in the same grammar: "an
    opposing hero is buried" is ``{"side": "opposing"}``, never a fact of its own."""
    from aggregates.nine_empires import data

    tests = [c.completion.test for c in data.ALL.values() if c.completion is not None]
    assert tests
    for test in tests:
        ka.check_expr(test, "completion", data.FACTS)
    lamp = data.ALL["a_most_peculiar_lamp"].completion
    assert lamp is not None and lamp.test == {"side": "opposing", "your_battle": True}
