"""The tribes' abilities as data: records of the kernel's ability engine
(``aggregates.kernel.abilities``) read from ``data/abilities.json`` into a
``Book``, validated on load.

A trigger names the event it waits for (``BandPlayed``, ``HandDiscarded``)
and a test on the facts of that band (``when.if``: the Leader's tribe,
whether its marker was placed, X); its effect's verb is one of ``tribes.py``.
Static abilities are read while in force, never written into state: they
``modify`` a stat (the band's size for the marker test, for band scoring) or
are a ``keyword`` (Skeletons are ``wild``, ``cannot_lead``...).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aggregates.ethnos.data import CARDS, TRIBES
from aggregates.kernel.abilities import (
    STATIC,
    Ability,
    AbilityError,
    Book,
    Vocabulary,
    holds,
    read_ability,
)
from aggregates.kernel.data import DataError, read_json, validator

ABILITIES_FILE = Path(__file__).parent / "data" / "abilities.json"

#: The facts an ability's test may ask of a band.
FACTS = ("leader_tribe", "leader_colour", "size", "marker_placed", "tribe")
#: What a static ``modify`` may change, and the keywords a static ability may give.
STATS = ("marker_size", "band_scoring_size")
KEYWORDS = ("no_marker", "marker_anywhere", "wild", "cannot_lead",
            "leaves_before_band_scoring")
#: The verbs of triggered abilities (each one of ``tribes.py``).
CHANGES = ("play_another_band", "keep_cards", "take_giant_token", "advance_merfolk",
           "place_orc_marker", "take_troll_token", "place_marker_anywhere", "draw_cards")
#: The words the tribes' records may use.
WORDS = Vocabulary(verbs=frozenset({*CHANGES, "modify", "keyword"}), facts=frozenset(FACTS),
                   events=frozenset({"BandPlayed", "HandDiscarded"}))


def test_of(ability: Ability) -> Mapping[str, Any]:
    """What an ability asks of the band: a trigger's ``when.if``, a static's condition."""
    return ability.condition if ability.timing == STATIC else ability.when.get("if", {})


def _checked(raw: Mapping[str, Any]) -> Ability:
    where = f"ability {raw.get('name')!r}"
    try:
        ability = read_ability(raw, where, WORDS)
    except AbilityError as exc:
        raise DataError(str(exc)) from exc
    test = test_of(ability)
    for key in ("leader_tribe", "tribe"):
        if key in test and test[key] not in TRIBES:
            raise DataError(f"{where}: unknown tribe {test[key]!r}")
    for step in ability.steps:
        if ability.timing != STATIC and step.verb not in CHANGES:
            raise DataError(f"{where}: a trigger's verb is one of {CHANGES}")
        if ability.timing == STATIC and step.verb not in ("modify", "keyword"):
            raise DataError(f"{where}: a static ability modifies or is a keyword")
        if step.verb == "modify" and step.params.get("stat") not in STATS:
            raise DataError(f"{where}: unknown stat {step.params.get('stat')!r}")
        if step.verb == "keyword" and step.params.get("keyword") not in KEYWORDS:
            raise DataError(f"{where}: unknown keyword {step.params.get('keyword')!r}")
    return ability


@validator("Ethnos abilities")
def load(raw: Mapping[str, Any]) -> Book:
    """The abilities of a data file, refusing unknown events, facts, verbs and
    tribes, and a tribe with no ability."""
    found = [_checked(entry) for entry in raw["effects"]]
    try:
        book = Book(found)
    except AbilityError as exc:
        raise DataError(str(exc)) from exc
    covered = {test_of(a).get("leader_tribe", test_of(a).get("tribe")) for a in found}
    missing = [t for t in TRIBES if t not in covered]
    if missing:
        raise DataError(f"tribe(s) with no ability: {missing}")
    return book


BOOK = load(read_json(ABILITIES_FILE))
ALL = tuple(BOOK.by_name)


def band_facts(leader: int, size: int, marker_placed: bool = False) -> dict[str, Any]:
    """The facts of a band an ability's condition is tested on."""
    card = CARDS[leader]
    return {"leader_tribe": card.tribe, "leader_colour": card.colour, "size": size,
            "marker_placed": marker_placed}


def triggered(event: str, facts: Mapping[str, Any]) -> list[Ability]:
    """The abilities that fire on ``event`` for these facts, in data order."""
    return BOOK.triggered(event, facts, in_force=ALL)


@functools.cache
def _keywords(key: str, tribe: str) -> frozenset[str]:
    facts = {key: tribe}
    return frozenset(
        str(s.params.get("keyword")) for a in BOOK.abilities if a.timing == STATIC
        and key in a.condition and holds(a.condition, facts)
        for s in a.steps if s.verb == "keyword"
    )


def card_has(card: int, keyword: str) -> bool:
    """Whether a card of this tribe has ``keyword`` (Skeletons: ``wild``...)."""
    return keyword in _keywords("tribe", CARDS[card].tribe)


def leader_has(leader: int, keyword: str) -> bool:
    """Whether a band led by this card has ``keyword`` (Halflings: ``no_marker``...)."""
    return keyword in _keywords("leader_tribe", CARDS[leader].tribe)


@functools.cache
def modifier(stat: str, leader_tribe: str) -> int:
    """The static change to ``stat`` of a band led by a card of ``leader_tribe``."""
    return BOOK.modifier(stat, {"leader_tribe": leader_tribe}, ALL)


def modified(stat: str, leader: int, value: int) -> int:
    """``value`` of a band led by ``leader`` with the static abilities in force."""
    return value + modifier(stat, CARDS[leader].tribe)


#: The tribes whose cards are wild (join any band, never count as its tribe or colour).
WILD = frozenset(t for t in TRIBES if "wild" in _keywords("tribe", t))
