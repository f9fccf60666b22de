"""The tribes' abilities as data: kernel ``Effect`` records read from
``data/abilities.json`` into an ``EffectBook``, validated on load.

A triggered effect names the event it waits for (``BandPlayed``,
``HandDiscarded``), a condition on the facts of that band (the Leader's
tribe, whether its marker was placed, X) and the ``change`` it makes: a verb
of ``tribes.py``. Static effects are read while in force, never written into
state: ``modify`` a stat (the band's size for the marker test, for band
scoring) or a ``keyword`` (Skeletons are ``wild``, ``cannot_lead``...).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aggregates.ethnos.data import CARDS, TRIBES
from aggregates.kernel import Effect, EffectBook
from aggregates.kernel.data import DataError, read_json, validator

ABILITIES_FILE = Path(__file__).parent / "data" / "abilities.json"

#: When a triggered ability may fire.
TRIGGERS = ("BandPlayed", "HandDiscarded")
#: The facts an ability's condition may test.
FACTS = ("leader_tribe", "leader_colour", "size", "marker_placed", "tribe")
#: What a static ``modify`` may change, and the keywords a static ability may give.
STATS = ("marker_size", "band_scoring_size")
KEYWORDS = ("no_marker", "marker_anywhere", "wild", "cannot_lead",
            "leaves_before_band_scoring")
#: The changes of triggered abilities (each one a verb of ``tribes.py``).
CHANGES = ("play_another_band", "keep_cards", "take_giant_token", "advance_merfolk",
           "place_orc_marker", "take_troll_token", "place_marker_anywhere", "draw_cards")


@validator("Ethnos abilities")
def load(raw: Mapping[str, Any]) -> EffectBook:
    """The abilities of a data file, refusing unknown triggers, facts, changes and
    tribes, and a tribe with no ability."""
    effects = []
    for entry in raw["effects"]:
        try:
            effect = Effect.from_data(entry)
        except (ValueError, TypeError) as exc:
            raise DataError(f"ability {entry.get('name')!r}: {exc}") from exc
        where = f"ability {effect.name!r}"
        if effect.trigger and effect.trigger not in TRIGGERS:
            raise DataError(f"{where}: unknown trigger {effect.trigger!r}")
        unknown = set(effect.condition) - set(FACTS)
        if unknown:
            raise DataError(f"{where}: unknown fact(s) {sorted(unknown)}")
        for key in ("leader_tribe", "tribe"):
            if key in effect.condition and effect.condition[key] not in TRIBES:
                raise DataError(f"{where}: unknown tribe {effect.condition[key]!r}")
        if effect.duration == "static":
            if effect.change == "modify" and effect.params.get("stat") not in STATS:
                raise DataError(f"{where}: unknown stat {effect.params.get('stat')!r}")
            if effect.change == "keyword" and effect.params.get("keyword") not in KEYWORDS:
                raise DataError(f"{where}: unknown keyword {effect.params.get('keyword')!r}")
            if effect.change not in ("modify", "keyword"):
                raise DataError(f"{where}: a static ability modifies or is a keyword")
        elif effect.change not in CHANGES:
            raise DataError(f"{where}: unknown change {effect.change!r}")
        effects.append(effect)
    try:
        book = EffectBook(effects)
    except ValueError as exc:
        raise DataError(str(exc)) from exc
    covered = {e.condition.get("leader_tribe", e.condition.get("tribe")) for e in effects}
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


def triggered(trigger: str, facts: Mapping[str, Any]) -> list[Effect]:
    """The abilities that fire on ``trigger`` for these facts, in data order."""
    return BOOK.triggered(trigger, facts, in_force=ALL)


@functools.cache
def _keywords(key: str, tribe: str) -> frozenset[str]:
    facts = {key: tribe}
    return frozenset(
        str(e.params.get("keyword")) for e in BOOK.effects
        if e.change == "keyword" and key in e.condition and e.applies(facts)
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
