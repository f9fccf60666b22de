"""The cards as the rulebook reads them (Anatomy of the Unit Cards; Abilities
Summary): a unit's numbers, its abilities' names, a card's face in words,
shared by the screen, the menus and the event sentences so each names a thing
one way.

Keywords as the Abilities Summary spells them: Return to Ally, Gate to Self,
Call to Arms, War Cry; a Protected Defense lists its Weakness icons.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.data import Ability, Unit

#: Words kept lower case inside a keyword's name ("Return to Ally").
SMALL_WORDS = frozenset({"to", "of", "the"})


def unit(card: int) -> Unit:
    return C.unit(card)


def in_force(cards: Iterable[int]) -> list[str]:
    """The abilities of these units, as the engine's book names them."""
    return [a.text for card in cards for a in C.unit(card).abilities]


def has_keyword(cards: Iterable[int], keyword: str) -> bool:
    """Whether any of these units has the keyword (the Abilities Summary's)."""
    return C.book.has_keyword(keyword, in_force(cards))


def name(card: int) -> str:
    return C.name(card)


def is_unit(card: int) -> bool:
    return not C.is_adventure(card) or C.adventure(card).defense is not None


def vp(card: int) -> int:
    if C.is_adventure(card):
        adv = C.adventure(card)
        return adv.vp
    return unit(card).vp


@functools.lru_cache(maxsize=256)
def keyword_name(keyword: str) -> str:
    """``return_to_ally`` -> ``Return to Ally`` (the Abilities Summary's spelling)."""
    words = str(keyword).replace("-", "_").split("_")
    return " ".join(w if i and w in SMALL_WORDS else w.capitalize() for i, w in enumerate(words))


def ability_text(ability: Ability) -> str:
    """An ability as a card prints it: ``Taxes 2``, ``Swift``, ``Protected (Weakness: Magic)``."""
    name = keyword_name(ability.keyword)
    if ability.weak_to:
        return f"{name} (Weakness: {', '.join(keyword_name(k) for k in ability.weak_to)})"
    if ability.keyword == "swift":
        return name if ability.amount <= 1 else f"{name} ({ability.amount} icons)"
    return f"{name} {ability.amount}" if ability.amount else name


def unit_facts(card: int) -> list[str]:
    """A unit's numbers and abilities, as the Anatomy of the Unit Cards lists them."""
    u = unit(card)
    kind = "Dragon Troop" if u.dragon else u.kind.capitalize()
    bits = [f"{kind}, Strength {u.strength}"]
    if u.adventure:
        bits.append(f"Adventure Strength {u.adventure}")
    bits.append(f"Recruit {u.cost}, Sell {u.sell}")
    if u.vp:
        bits.append(f"{u.vp} VP")
    return bits + [ability_text(a) for a in u.abilities]


@functools.lru_cache(maxsize=8192)
def card_text(card: int) -> str:
    """A card's face in words. Cached: it depends on the card id and the
    (immutable) component data alone, and a screen names the same cards for
    every reader on every read."""
    if C.is_adventure(card):
        a = C.adventure(card)
        bits = [f"Adventure, Difficulty {a.difficulty} + a die, {a.vp} VP, {a.gold} Gold"]
        if a.effect is not None:
            bits.append(ability_text(a.effect))
        if a.defense is not None:
            d = a.defense
            bits.append(", ".join([f"won, a Defense of Strength {d.strength}"]
                                  + [ability_text(x) for x in d.abilities]))
        return f"{a.name} ({'; '.join(bits)})"
    return f"{C.name(card)} ({', '.join(unit_facts(card))})"


@functools.lru_cache(maxsize=64)
def location_text(kind: str, defense: int, ability: Ability) -> str:
    """A Location of a Nation Mat: ``Town, Defense 2, Call to Arms``."""
    return f"{kind.capitalize()}, Defense {defense}, {ability_text(ability)}"
