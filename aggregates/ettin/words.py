"""Ettin's vocabulary in the rulebook's spelling, shared by the screen, the
menus and the event sentences, so each names a thing one way.

- Ages are numbered as the rulebook prints them: Age I, II, III.
- The three Locations of a Nation Mat are named by where they stand, as
  Phase 3: War, Battle orders them ("the Locations farthest from their
  Adventure", "the middle Locations", "the Locations closest to the
  Adventure"): the far, middle and near Location; the fourth place is the
  Adventure. An event names no nation mat, so its sentence cannot say "Town";
  the screen says both ("Near Location: Town, Defense 2").
- Keywords as the Abilities Summary spells them: Return to Ally, Gate to Self,
  Call to Arms, War Cry; a Protected Defense lists its Weakness icons.
"""

from __future__ import annotations

import functools

from aggregates.ettin import rules as r
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.data import Ability
from aggregates.kernel.present import listing as listing
from aggregates.kernel.present import plural as plural

ROMAN = ("I", "II", "III")
#: Where each of a mat's four places stands (slot 0 is nearest the Adventure).
SLOT_NAMES = ("the near Location", "the middle Location", "the far Location", "the Adventure")
SLOT_TITLES = ("Near Location", "Middle Location", "Far Location", "Adventure")
#: The rulebook's name of each phase (``g.phase``), under Phase 3: War where it is one of its steps.
PHASES = {"setup": "Setup", "initiative": "Setup: the Initiative Token", "new_age": "New Age",
          "deploy": "War: Deploy", "battle": "War: Battle", "spoils": "War: Spoil",
          "adventure_defense": "War: Adventure Defense", "retire": "War: Retire",
          "produce": "War: Produce", "over": "Winning the Game"}
#: Words kept lower case inside a keyword's name ("Return to Ally").
SMALL_WORDS = frozenset({"to", "of", "the"})


def age_name(age: int) -> str:
    """``Age II``; Age 0 (before Phase 1 of the first Age) is the Setup."""
    return f"Age {ROMAN[age - 1]}" if 1 <= age <= len(ROMAN) else "Setup"




def capitalized(text: str) -> str:
    """The first letter upper-cased, the rest as it is (``the far ...`` -> ``The far ...``)."""
    return text[:1].upper() + text[1:]


def possessive(name: str) -> str:
    """``Ada's``, ``Leafblades'``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


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
    u = r.unit(card)
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
