"""Romance of the Nine Empires card data: DESIGNED, validated on load, replaceable.

The rulebook prints the five deck lists by title and count (Deck Lists) and
describes what each card type carries (Components), but prints no card's
numbers or text. ``data/cards.json`` is the project's designed set: every card
of the five lists with the numbers of its type and its text written in the
effect vocabulary below (``WORDS``), which the kernel's ability engine
interprets (``aggregates.kernel.abilities``, with ``abilities.py`` and
``card_effects.py``). ``data/decks.json`` holds
the five lists. Set ``NINE_EMPIRES_CARDS`` / ``NINE_EMPIRES_DECKS`` to load
replacements; a bad file fails here, at import, naming the place.

Custom decks are checked by the rulebook's Customizing Your Decks
(``check_deck``): 55 cards besides the stronghold, castles and Motte and
Bailey; no more than 3 copies of a card; an Epic card once; no card with a
faction keyword its stronghold does not share; starting castles within the
stronghold's Castle Points.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aggregates.kernel.abilities import (
    Ability,
    AbilityError,
    Vocabulary,
    check_expr,
    read_ability,
)
from aggregates.kernel.data import DataError, Record, integer, read_json

HERE = Path(__file__).parent / "data"
CARDS_FILE = Path(os.environ.get("NINE_EMPIRES_CARDS", HERE / "cards.json"))
DECKS_FILE = Path(os.environ.get("NINE_EMPIRES_DECKS", HERE / "decks.json"))

TYPES = ("stronghold", "castle", "property", "hero", "item", "spell", "cohort", "tactic",
         "quest")
#: Cards that come into play attached to a hero (Attach a Cohort, Item, or Spell).
ATTACHMENTS = frozenset({"cohort", "item", "spell"})
#: Faction keywords (Customizing Your Decks): the nine factions, Mercenary,
#: Renowned and Zealous.
FACTIONS = frozenset({"Ixhasa", "Tuatha", "Arcanix", "Esh", "Malchior", "Ord", "Shad-Hujem",
                      "Holden", "Displaced", "Mercenary", "Renowned", "Zealous"})
#: "Unaligned" is itself a faction for bringing heroes into play, not a wildcard.
UNALIGNED = "Unaligned"
#: Keywords with rules meaning (Special Keywords); "Raid +X" and "Carry X" carry a number.
SPECIAL = frozenset({"Brutal", "Questor", "Unique", "Wizard", "Holy", "Epic", "Token"})
MOTTE_AND_BAILEY = "motte_and_bailey"
DECK_SIZE = 55
MAX_COPIES = 3
_RAID = re.compile(r"^Raid \+(\d+)$")
_CARRY = re.compile(r"^Carry (\d+)$")

# ---------------------------------------------------------- the vocabulary
#: What an effect can do (``abilities.py`` gives each verb its rule).
VERBS = frozenset({"modify", "marker", "keyword", "reduce_damage", "add_food", "lose_food",
                   "draw", "renown", "bow", "straighten", "send_home", "bury",
                   "move_to_battle", "make_token", "cancel"})
#: What an ability can cost (Paying Gold Costs, Paying Food Costs; bow; discard).
COSTS = frozenset({"bow", "gold", "food", "discard"})
#: What a filter or condition may ask of a card ("an opposing hero in this battle").
CARD_FACTS = frozenset({"type", "title", "keywords", "side", "bowed", "here", "attacking",
                        "defending", "raiding", "at_home", "S", "W", "G", "fate", "food",
                        "room", "is_source", "attached_to_source", "at_source", "token",
                        "has_item"})
#: What a condition may ask of the state, from the ability user's side.
STATE_FACTS = frozenset({"present", "defending_here", "raiding_here", "you_attack",
                         "you_defend", "you_raid", "battle", "raid", "source_attacking",
                         "source_defending", "source_here", "source_room", "host_here",
                         "host_at_home", "host_raiding_here", "heroes", "properties",
                         "quests", "renown", "castles"})
#: What a React or trigger may ask of the event it answers.
EVENT_FACTS = frozenset({"against_you", "by_opponent", "timing",
                         "is_source", "success", "your_battle", "castle_stands",
                         "attackers"})
FACTS = CARD_FACTS | STATE_FACTS | EVENT_FACTS
#: The events a React answers or a trigger waits for.
EVENTS = frozenset({"Engaged", "AbilityUsed", "CastleBuried", "HeroBuried", "QuestCompleted",
                    "RaidResolved", "SpringBegan", "BattleEnded"})
#: The card text's words as the kernel's ability engine reads them: the timings
#: a player uses (Summer, Autumn, Battle, Raid and React abilities, once per
#: turn unless noted), the React answering an announcement.
WORDS = Vocabulary(verbs=VERBS, facts=FACTS, costs=COSTS, events=EVENTS,
                   timings=frozenset({"summer", "autumn", "battle", "raid", "react",
                                      "spring", "winter"}),
                   used=frozenset({"summer", "autumn", "battle", "raid", "react"}),
                   answering=frozenset({"react"}), default_limit="once_per_turn",
                   needs_text=True)


class Completion(Record):
    """A quest's completion condition: an event after the quest came into play
    (with a test on its facts), or a test on its owner's state."""

    text: str
    event: str = ""
    test: Mapping[str, Any] = dataclasses.field(default_factory=dict)


class Card(Record):
    """A printed (designed) card: its type's numbers, keywords and abilities."""

    key: str
    title: str
    type: str
    keywords: tuple[str, ...]
    fate: int
    abilities: tuple[Ability, ...]
    S: int = 0
    W: int = 0
    G: int = 0
    food: int = 0
    gold: int = 0
    production: int = 0
    points: int = 0
    renown: int = 0
    might: int = 0
    storage: int = 0
    glory: int = 0
    completion: Completion | None = None
    reward_renown: int = 0
    reward_abilities: tuple[Ability, ...] = ()
    token: bool = False

    @property
    def factions(self) -> frozenset[str]:
        return frozenset(k for k in self.keywords if k in FACTIONS)

    @property
    def unique(self) -> bool:
        return "Unique" in self.keywords

    @property
    def epic(self) -> bool:
        return "Epic" in self.keywords

    @property
    def raid(self) -> int:
        """Raid +X: added to the Fate value of a stealth card in a raid."""
        return sum(int(m.group(1)) for k in self.keywords if (m := _RAID.match(k)))

    @property
    def carry(self) -> int:
        """Carry X: X more food from a successful raid."""
        return sum(int(m.group(1)) for k in self.keywords if (m := _CARRY.match(k)))

    def text(self) -> str:
        """The card's designed text, as a reader sees it."""
        lines = [a.text for a in self.abilities]
        if self.completion is not None:
            lines.append(self.completion.text)
        return " ".join(lines)


_NUMBERS: dict[str, tuple[str, ...]] = {
    "stronghold": ("points", "renown", "production"),
    "castle": ("might", "storage", "points"),
    "property": ("food", "gold", "production"),
    "hero": ("S", "W", "G", "food", "gold"),
    "item": ("S", "W", "G", "food", "gold"),
    "spell": ("food", "gold"),
    "cohort": ("S", "food", "gold"),
    "tactic": (),
    "quest": ("glory", "renown"),
}


def _ability(raw: Any, where: str) -> Ability:
    try:
        return read_ability(raw, where, WORDS)
    except AbilityError as exc:
        raise DataError(str(exc)) from exc


def _card(raw: Mapping[str, Any], token: bool = False) -> Card:
    key = raw["key"]
    kind = raw["type"]
    if kind not in TYPES:
        raise DataError(f"card {key}: unknown type {kind!r}")
    if not isinstance(raw.get("title"), str) or not raw["title"]:
        raise DataError(f"card {key}: a card has a title")
    keywords = tuple(raw.get("keywords", []))
    for k in keywords:
        if not isinstance(k, str) or not k:
            raise DataError(f"card {key}: bad keyword {k!r}")
    numbers = {n: integer(raw[n], f"card {key} {n}") for n in _NUMBERS[kind]}
    if kind == "castle" and numbers["might"] < 1:
        raise DataError(f"castle {key}: Might is at least 1")
    abilities = tuple(_ability(a, f"card {key} ability {i}")
                      for i, a in enumerate(raw.get("abilities", [])))
    completion = None
    reward_renown = 0
    reward: tuple[Ability, ...] = ()
    if kind == "quest":
        c = raw["completion"]
        if c.get("event") and c["event"] not in EVENTS:
            raise DataError(f"quest {key}: completion waits for an unknown event")
        test = c.get("if", c.get("state"))
        if not isinstance(test, Mapping) or not c.get("text"):
            raise DataError(f"quest {key}: a completion has its text and a test")
        try:
            check_expr(test, f"quest {key} completion", FACTS)
        except AbilityError as exc:
            raise DataError(str(exc)) from exc
        completion = Completion(c["text"], c.get("event", ""), dict(test))
        reward_renown = integer(raw["reward"]["renown"], f"quest {key} reward renown")
        reward = tuple(_ability(a, f"quest {key} reward {i}")
                       for i, a in enumerate(raw["reward"].get("abilities", [])))
    return Card(key=key, title=raw["title"], type=kind, keywords=keywords,
                fate=integer(raw["fate"], f"card {key} fate"), abilities=abilities,
                completion=completion, reward_renown=reward_renown,
                reward_abilities=reward, token=token, **numbers)


class Deck(Record):
    """A deck: its stronghold, its castles (and those it starts with), its 55 cards."""

    name: str
    stronghold: str
    castles: tuple[str, ...]
    starting_castles: tuple[str, ...]
    cards: Mapping[str, int]

    def card_list(self) -> list[str]:
        """The deck's cards, one entry per copy, in the list's order."""
        return [k for k, n in self.cards.items() for _ in range(n)]


def read_deck(name: str, raw: Mapping[str, Any]) -> Deck:
    """A deck from data (a preset or one brought to the table), not yet checked."""
    try:
        cards = {str(k): int(v) for k, v in dict(raw["cards"]).items()}
        return Deck(name, str(raw["stronghold"]), tuple(raw["castles"]),
                    tuple(raw.get("starting_castles", raw["castles"])), cards)
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"deck {name}: malformed ({exc!r})") from exc


def deck_problems(deck: Deck, cards: Mapping[str, Card]) -> list[str]:
    """Customizing Your Decks, every rule a deck breaks (empty: legal)."""
    out = []
    stronghold = cards.get(deck.stronghold)
    if stronghold is None or stronghold.type != "stronghold":
        return [f"{deck.stronghold!r} is not a stronghold"]
    for key in (*deck.castles, *deck.starting_castles):
        if key not in cards or cards[key].type != "castle":
            out.append(f"{key!r} is not a castle")
    if out:
        return out
    if not set(deck.starting_castles) <= set(deck.castles):
        out.append("the starting castles are the deck's castles")
    if len(set(deck.starting_castles)) != len(deck.starting_castles):
        out.append("a castle is chosen twice")
    points = sum(cards[c].points for c in deck.starting_castles)
    if points > stronghold.points:
        out.append(f"the starting castles cost {points} castle points; the stronghold "
                   f"gives {stronghold.points}")
    if not deck.starting_castles:
        out.append("a deck starts with at least one castle")
    total = 0
    for key, n in deck.cards.items():
        card = cards.get(key)
        if card is None:
            out.append(f"unknown card {key!r}")
            continue
        if card.type in ("stronghold", "castle") or key == MOTTE_AND_BAILEY:
            out.append(f"{card.title} does not go into the deck")
            continue
        if n < 1 or n > MAX_COPIES:
            out.append(f"{card.title}: {n} copies (1 to {MAX_COPIES})")
        if card.epic and n > 1:
            out.append(f"{card.title} is Epic: one copy only")
        if card.factions and not card.factions & stronghold.factions:
            out.append(f"{card.title} has faction keyword(s) {sorted(card.factions)} the "
                       f"stronghold does not share")
        total += n
    for key in deck.castles:
        card = cards[key]
        if card.factions and not card.factions & stronghold.factions:
            out.append(f"{card.title} has faction keyword(s) the stronghold does not share")
    if total != DECK_SIZE:
        out.append(f"a deck has {DECK_SIZE} cards, not {total}")
    return out


def _load_cards(raw: Any) -> tuple[dict[str, Card], dict[str, Card]]:
    if not str(raw.get("designed", "")).startswith("DESIGNED"):
        raise DataError("the card file says whether it is designed (a 'designed' header)")
    cards: dict[str, Card] = {}
    for entry in raw["cards"]:
        card = _card(entry)
        if card.key in cards:
            raise DataError(f"card key {card.key} appears twice")
        cards[card.key] = card
    tokens = {t["key"]: _card(t, token=True) for t in raw.get("tokens", [])}
    titles = [c.title for c in cards.values()]
    if len(set(titles)) != len(titles):
        raise DataError("two cards share a title")
    for card in cards.values():
        for ability in card.abilities:
            for step in ability.steps:
                if step.verb == "make_token" and step.params.get("card") not in tokens:
                    raise DataError(f"card {card.key}: makes an unknown token")
    if MOTTE_AND_BAILEY not in cards:
        raise DataError("every player starts with Motte and Bailey")
    return cards, tokens


def _load_decks(raw: Any, cards: Mapping[str, Card]) -> dict[str, Deck]:
    decks = {name: read_deck(name, d) for name, d in raw["decks"].items()}
    for deck in decks.values():
        problems = deck_problems(deck, cards)
        if problems:
            raise DataError(f"deck {deck.name}: " + "; ".join(problems))
    return decks


try:
    CARDS, TOKENS = _load_cards(read_json(CARDS_FILE))
    DECKS = _load_decks(read_json(DECKS_FILE), CARDS)
except (KeyError, TypeError, AttributeError, IndexError) as _exc:
    raise DataError(f"malformed Nine Empires data: {_exc!r}") from _exc
DESIGNED = str(read_json(CARDS_FILE)["designed"])
#: Every card and token by key (tokens are made in play, never in a deck).
ALL = {**CARDS, **TOKENS}


def card(key: str) -> Card:
    return ALL[key]
