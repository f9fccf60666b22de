"""Where each card lies: the zones of the Game Board and of each Nation Mat
(Anatomy of the Game Board; Anatomy of a Nation Mat), a card moved between
them, a position's gold, and drawing from a Nation Deck (Empty Decks).

Zones (``Zones`` derives views and event audiences from them):
nation decks, mercenary and adventure decks: ``COUNT_ONLY``; lineups, drafted
cards, Location defenses, the Adventures, won Adventures and the Lost pile:
``PUBLIC``; War Camps: ``TEAM`` (an Ally may see them, never an Enemy);
deployed cards: ``TEAM`` until the battle flip, then ``PUBLIC`` (Scouting
reveals single cards earlier: the game's ``shown`` list); Retired piles:
``OWNER``.

Every event is one fact of the rulebook (``aggregates.ettin.events`` names
them and their facts). Cards that move name the zones they leave and reach,
so whoever may not see the cards gets the same fact with a count instead
(``Zones.move_audience``). Rule modules decide on the state they are given
(``state.emit``); they never import the aggregate class.
"""

from __future__ import annotations

import functools
from typing import Any

from aggregates.ettin import seating as sg
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.state import EttinState
from aggregates.kernel import Visibility, Zones, ZoneSpec

SLOTS = 4            # three Locations (0 nearest the Adventure) and the Adventure (3)
ADVENTURE = 3
BATTLE_ORDER = (2, 1, 0, 3)  # farthest from the Adventure first
LOST = "lost"
#: Where each of a mat's four places stands (slot 0 is nearest the Adventure).
SLOT_NAMES = ("the near Location", "the middle Location", "the far Location", "the Adventure")


SLOT_TITLES = ("Near Location", "Middle Location", "Far Location", "Adventure")


def deck(p: int) -> str:
    return f"deck:{p}"


def merc(box: int, age: int) -> str:
    return f"merc:{box}:{age}"


def adv_deck(box: int, age: int) -> str:
    return f"adv:{box}:{age}"


def lineup(g: int) -> str:
    return f"lineup:{g}"


def drafted(p: int) -> str:
    return f"drafted:{p}"


def camp(p: int) -> str:
    return f"camp:{p}"


def field(p: int, slot: int) -> str:
    return f"field:{p}:{slot}"


def loc(p: int, slot: int) -> str:
    return f"loc:{p}:{slot}"


def retired(p: int) -> str:
    return f"retired:{p}"


def adventure(pair: int) -> str:
    return f"adventure:{pair}"


def won(p: int) -> str:
    return f"won:{p}"


def zone_specs(players: int, flipped: bool) -> list[ZoneSpec]:
    """Every zone's spec (a fresh list, the caller's to change)."""
    return list(table_specs(players, flipped))


@functools.lru_cache(maxsize=64)
def table_specs(players: int, flipped: bool) -> tuple[ZoneSpec, ...]:
    """Every zone's spec, built once per player count and flip.

    The specs depend on nothing but these two (a ``ZoneSpec`` is frozen), so
    the cache is safe however the game's state changes; it is what keeps a
    screen's many zone lookups from rebuilding all ~12 specs a position each.
    """
    count = sg.positions_for(players)
    ctrl = sg.controller(players)
    specs = [ZoneSpec(LOST, Visibility.PUBLIC)]
    for b in range(sg.boxes(count)):
        for age in (1, 2, 3):
            specs.append(ZoneSpec(merc(b, age), Visibility.COUNT_ONLY, ordered=True))
            specs.append(ZoneSpec(adv_deck(b, age), Visibility.COUNT_ONLY, ordered=True))
    for g in range(count):
        specs.append(ZoneSpec(lineup(g), Visibility.PUBLIC))
        specs.append(ZoneSpec(adventure(g), Visibility.PUBLIC))
    for p in range(count):
        owner = ctrl[p]
        specs += [ZoneSpec(deck(p), Visibility.COUNT_ONLY, owner=owner, ordered=True),
                  ZoneSpec(drafted(p), Visibility.PUBLIC, owner=owner),
                  ZoneSpec(camp(p), Visibility.TEAM, owner=owner),
                  ZoneSpec(retired(p), Visibility.OWNER, owner=owner),
                  ZoneSpec(won(p), Visibility.PUBLIC, owner=owner)]
        for s in range(SLOTS):
            specs.append(ZoneSpec(field(p, s),
                                  Visibility.PUBLIC if flipped else Visibility.TEAM, owner=owner))
        for s in range(ADVENTURE):
            specs.append(ZoneSpec(loc(p, s), Visibility.PUBLIC, owner=owner))
    return tuple(specs)


def empty_zones(players: int) -> dict[str, list[int]]:
    return {s.name: [] for s in table_specs(players, False)}


def zones_of(players: int, contents: dict[str, list[int]], flipped: bool) -> Zones:
    return Zones(table_specs(players, flipped), contents, sg.seating_for(players))


def nation_deck(g: EttinState, p: int) -> str:
    """The Nation Deck of a position: its own, or (the Mercenary mat) the Age's
    mercenary deck of its box."""
    if g.nations[p] == sg.MAT:
        return merc(sg.box(g, p), g.age)
    return deck(p)


def where(g: EttinState, card: int) -> str:
    return next(z for z, cards in g.zones.items() if card in cards)


def moved(g: EttinState, kind: str, source: str, target: str, cards: list[int],
          position: int | None = None, **facts: Any) -> None:
    """Record cards leaving ``source`` for ``target`` as the event ``kind``."""
    if not cards:
        return
    payload = {"position": position, "source": source, "target": target, **facts}
    g.emit(kind, audience=g.table_zones().move_audience(source, target),
           public={**payload, "count": len(cards)}, cards=list(cards), **payload)


def gained(g: EttinState, kind: str, p: int, amount: int, **facts: Any) -> None:
    """Record one position's gold changing by ``amount`` (none if 0): the
    change and the gold it has after, so the event is the whole fact."""
    if amount:
        g.emit(kind, position=p, amount=amount, gold=g.gold[p] + amount, **facts)


def gains(g: EttinState, kind: str, deltas: dict[int, int], **facts: Any) -> None:
    """Record several positions' gold changing at once (none if all 0)."""
    deltas = {p: d for p, d in deltas.items() if d}
    if deltas:
        g.emit(kind, gains={str(p): d for p, d in sorted(deltas.items())},
               gold={str(p): g.gold[p] + d for p, d in sorted(deltas.items())}, **facts)


def draw_nation(g: EttinState, p: int, count: int, target: str, kind: str,
                instead_of: str) -> int:
    """Move the top ``count`` cards of ``p``'s Nation Deck to ``target`` (the
    event ``kind``); when it runs out, the current Age's mercenary deck; when
    that runs out, the Age's gold instead (Empty Decks: ``instead_of`` names
    the draw it replaces). Returns how many cards moved."""
    drawn = 0
    for source in (nation_deck(g, p), merc(sg.box(g, p), g.age)):
        take = g.zones[source][: count - drawn]
        moved(g, kind, source, target, take, p)
        drawn += len(take)
    if drawn < count:
        gained(g, "EmptyDecksGold", p, C.age_gold[g.age - 1] * (count - drawn),
               instead_of=instead_of)
    return drawn
