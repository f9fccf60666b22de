"""Components: the cards, read from ``data/tidewatch.json`` and validated on load.

Kernel features shown: content as data (``aggregates.kernel.data``) and
abilities as data (records the kernel's ability engine reads, ``read_ability``
against the game's ``Vocabulary``, gathered in a ``Book``): a card's
abilities are records the rules interpret, never code per card.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from aggregates.kernel.abilities import Ability, AbilityError, Book, Vocabulary, read_ability
from aggregates.kernel.data import DataError, integer, read_json, validator

DATA_FILE = Path(__file__).with_name("data") / "tidewatch.json"
#: The words the cards' ability records may use.
WORDS = Vocabulary(verbs=frozenset({"gain_coins", "modify", "keyword"}),
                   facts=frozenset({"suit", "value", "position"}),
                   events=frozenset({"Claimed"}))


@dataclasses.dataclass(frozen=True)
class Card:
    """One card: its id (what commands name), name, suit, value and abilities."""

    id: int
    name: str
    suit: str
    value: int
    effects: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Components:
    """Everything printed: the rules' numbers, the cards, their effects."""

    title: str
    rounds: int
    hand_size: int
    shore_size: int
    start_coins: int
    coins_per_round: int
    max_bid: int
    max_dive: int
    clock_seconds: dict[str, float]
    suits: tuple[str, ...]
    cards: tuple[Card, ...]
    book: Book

    def card(self, card_id: int) -> Card:
        return self.cards[card_id]


@validator("tidewatch")
def load(raw: Any) -> Components:
    """Read and check the data; a bad replacement file fails here, at import."""
    suits = tuple(str(s) for s in raw["suits"])
    cards: list[Card] = []
    effects: dict[str, Ability] = {}
    for n, entry in enumerate(raw["cards"]):
        where = f"cards[{n}] ({entry.get('name')})"
        if entry["suit"] not in suits:
            raise DataError(f"{where}: unknown suit {entry['suit']!r}")
        names = []
        for data in entry.get("effects", []):
            try:
                effect = read_ability(data, where, WORDS)
            except AbilityError as exc:
                raise DataError(str(exc)) from exc
            if not effect.name or effect.name in effects:
                raise DataError(f"{where}: effect {effect.name!r} is unnamed or declared twice")
            effects[effect.name] = effect
            names.append(effect.name)
        for _ in range(integer(entry["copies"], f"{where}.copies", low=1)):
            cards.append(Card(len(cards), str(entry["name"]), entry["suit"],
                              integer(entry["value"], f"{where}.value"), tuple(names)))
    clocks = {str(k): float(v) for k, v in raw["clock_seconds"].items()}
    if set(clocks) != {"bid", "claim", "react"}:
        raise DataError("clock_seconds names the stages bid, claim and react")
    components = Components(
        title=str(raw["title"]), rounds=integer(raw["rounds"], "rounds", 1),
        hand_size=integer(raw["hand_size"], "hand_size", 1),
        shore_size=integer(raw["shore_size"], "shore_size", 1),
        start_coins=integer(raw["coins"]["start"], "coins.start"),
        coins_per_round=integer(raw["coins"]["per_round"], "coins.per_round"),
        max_bid=integer(raw["max_bid"], "max_bid"),
        max_dive=integer(raw["max_dive"], "max_dive", 1),
        clock_seconds=clocks, suits=suits, cards=tuple(cards), book=Book(effects.values()),
    )
    if len(cards) < 4 * components.hand_size + components.shore_size:
        raise DataError("too few cards to deal four hands and the shore")
    return components


COMPONENTS = load(read_json(DATA_FILE))
