"""Ethnos component data, loaded from ``data/ethnos.json`` and validated on load.

The rulebook transcription prints no card list; the shipped file is a DESIGNED
set (its ``designed`` header says so) following the composition of the project
rulings: 12 tribes of 12 cards (Halflings 24), two cards of each of the six
colours per tribe (Halflings four), Skeletons colourless, three Dragons. Set
``ETHNOS_DATA`` to the path of a replacement file to load another set.

Card identity is the integer ``id`` (its index in ``cards``).
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any

from aggregates.kernel.data import DataError, Record, integer, read_json, validator

DATA_FILE = Path(__file__).parent / "data" / "ethnos.json"

TRIBES = (
    "centaurs", "dwarves", "elves", "giants", "halflings", "merfolk",
    "minotaurs", "orcs", "skeletons", "trolls", "wingfolk", "wizards",
)
DRAGON = "dragon"
SMALL, LARGE = "2-3", "4-6"


class Card(Record):
    id: int
    tribe: str          # a tribe key, or "dragon"
    colour: str | None  # None: Skeletons and Dragons

    @property
    def dragon(self) -> bool:
        return self.tribe == DRAGON

    @property
    def skeleton(self) -> bool:
        return self.tribe == "skeletons"

    def as_view(self) -> dict[str, Any]:
        return {"id": self.id, "tribe": self.tribe, "colour": self.colour}


class Kingdom(Record):
    key: str
    name: str
    colour: str


class Tables(Record):
    designed: str
    hand_limit: int
    band_max: int
    kingdoms: tuple[Kingdom, ...]
    tribe_names: dict[str, str]
    tribes_in_game: dict[str, int]
    ages: dict[str, int]
    tokens_per_kingdom: dict[str, int]
    cards: tuple[Card, ...]
    glory_tokens: tuple[tuple[int, bool], ...]  # (value, marked 4+)
    troll_tokens: tuple[int, ...]
    band_glory: tuple[int, ...]
    giant_immediate: int
    giant_age_glory: dict[str, tuple[int, ...]]
    merfolk_max: int
    merfolk_spaces: tuple[int, ...]
    merfolk_age_glory: dict[str, tuple[int, ...]]
    orc_glory: tuple[int, ...]

    @property
    def kingdom_keys(self) -> tuple[str, ...]:
        return tuple(k.key for k in self.kingdoms)

    def kingdom_of(self, colour: str) -> str:
        for k in self.kingdoms:
            if k.colour == colour:
                return k.key
        raise KeyError(colour)

    def dragons(self) -> list[int]:
        return [c.id for c in self.cards if c.dragon]

    def allies(self, tribes: list[str]) -> list[int]:
        """The Allies Deck of a game: every card of the tribes in play."""
        chosen = set(tribes)
        return [c.id for c in self.cards if c.tribe in chosen]

    def band_points(self, size: int) -> int:
        return self.band_glory[min(size, len(self.band_glory) - 1)]


def size_class(players: int) -> str:
    return SMALL if players <= 3 else LARGE


_int = integer


def _ints(value: Any, where: str, low: int = 0) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise DataError(f"{where} must be a non-empty list")
    return tuple(_int(v, f"{where}[]", low) for v in value)


def _by_class(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict) or set(value) != {SMALL, LARGE}:
        raise DataError(f"{where} needs exactly the keys {SMALL!r} and {LARGE!r}")
    return value


@validator("Ethnos")
def load(raw: dict[str, Any]) -> Tables:  # noqa: C901 - one pass over the whole file
    designed = raw["designed"]
    if not isinstance(designed, str) or "DESIGNED" not in designed:
        raise DataError("the header field 'designed' must say the data is DESIGNED")
    kingdoms = tuple(
        Kingdom(key=k["key"], name=k["name"], colour=k["colour"]) for k in raw["kingdoms"]
    )
    colours = [k.colour for k in kingdoms]
    if len(kingdoms) != 6 or len(set(colours)) != 6 or len({k.key for k in kingdoms}) != 6:
        raise DataError("six kingdoms with six distinct colours are needed")
    tribe_names = {t["key"]: t["name"] for t in raw["tribes"]}
    if tuple(tribe_names) != TRIBES:
        raise DataError(f"the tribes must be {TRIBES} in that order")
    cards: list[Card] = []
    for i, c in enumerate(raw["cards"]):
        if c["id"] != i:
            raise DataError(f"card {i} has id {c['id']}: ids are the card's index")
        tribe, colour = c["tribe"], c["colour"]
        if tribe not in TRIBES and tribe != DRAGON:
            raise DataError(f"card {i}: unknown tribe {tribe!r}")
        colourless = tribe in ("skeletons", DRAGON)
        if colourless and colour is not None:
            raise DataError(f"card {i}: {tribe} have no colour")
        if not colourless and colour not in colours:
            raise DataError(f"card {i}: unknown colour {colour!r}")
        cards.append(Card(id=i, tribe=tribe, colour=colour))
    per_tribe = Counter(c.tribe for c in cards)
    if per_tribe[DRAGON] != 3:
        raise DataError("there are exactly 3 Dragon cards")
    for tribe in TRIBES:
        want = 24 if tribe == "halflings" else 12
        if per_tribe[tribe] != want:
            raise DataError(f"{tribe} have {want} cards, not {per_tribe[tribe]}")
        if tribe != "skeletons":
            per_colour = Counter(c.colour for c in cards if c.tribe == tribe)
            if set(per_colour.values()) != {want // 6} or len(per_colour) != 6:
                raise DataError(f"{tribe}: {want // 6} cards of each colour")
    tokens = tuple((_int(t["value"], "glory token"), bool(t["four_plus"]))
                   for t in raw["glory_tokens"])
    per_kingdom = {k: _int(v, "glory_tokens_per_kingdom", 1)
                   for k, v in _by_class(raw["glory_tokens_per_kingdom"], "tokens").items()}
    if len(tokens) != 6 * per_kingdom[LARGE]:
        raise DataError("one glory token per Glory space (six kingdoms)")
    if len([t for t in tokens if not t[1]]) != 6 * per_kingdom[SMALL]:
        raise DataError("without the 4+ tokens, one per Glory space of the 2-3 player game")
    ages = {k: _int(v, "ages", 1) for k, v in _by_class(raw["ages"], "ages").items()}
    if ages[SMALL] > per_kingdom[SMALL] or ages[LARGE] > per_kingdom[LARGE]:
        raise DataError("an Age needs a glory token per place scored")
    in_game = {k: _int(v, "tribes_in_game", 1)
               for k, v in _by_class(raw["tribes_in_game"], "tribes").items()}
    giant = raw["giant"]
    giant_age = {k: _ints(v, "giant age_glory")
                 for k, v in _by_class(giant["age_glory"], "giant").items()}
    merfolk = raw["merfolk"]
    merfolk_age = {k: _ints(v, "merfolk age_glory")
                   for k, v in _by_class(merfolk["age_glory"], "merfolk").items()}
    for name, table in (("giant", giant_age), ("merfolk", merfolk_age)):
        if any(len(table[k]) != ages[k] for k in (SMALL, LARGE)):
            raise DataError(f"{name} age_glory needs one value per Age")
    spaces = _ints(merfolk["marker_spaces"], "merfolk marker_spaces", 1)
    track_max = _int(merfolk["track_max"], "merfolk track_max", 1)
    if list(spaces) != sorted(set(spaces)) or spaces[-1] > track_max:
        raise DataError("merfolk marker spaces ascend within the track")
    orc = _ints(raw["orc_horde_glory"], "orc_horde_glory")
    if len(orc) != 7 or orc[0] != 0:
        raise DataError("orc_horde_glory lists 0..6 colours, 0 for none")
    band_glory = _ints(raw["band_glory"], "band_glory")
    if band_glory[0] != 0 or list(band_glory) != sorted(band_glory):
        raise DataError("band_glory starts at 0 (no cards) and never falls")
    trolls = _ints(raw["troll_tokens"], "troll_tokens", 1)
    if len(set(trolls)) != len(trolls):
        raise DataError("troll token values are distinct")
    return Tables(
        designed=designed,
        hand_limit=_int(raw["hand_limit"], "hand_limit", 1),
        band_max=_int(raw["band_max"], "band_max", 1),
        kingdoms=kingdoms, tribe_names=tribe_names, tribes_in_game=in_game, ages=ages,
        tokens_per_kingdom=per_kingdom, cards=tuple(cards), glory_tokens=tokens,
        troll_tokens=trolls, band_glory=band_glory,
        giant_immediate=_int(giant["immediate_glory"], "giant immediate_glory"),
        giant_age_glory=giant_age, merfolk_max=track_max, merfolk_spaces=spaces,
        merfolk_age_glory=merfolk_age, orc_glory=orc,
    )


def load_file(path: Path | str) -> Tables:
    return load(read_json(path))


TABLES = load_file(os.environ.get("ETHNOS_DATA") or DATA_FILE)
CARDS = TABLES.cards
