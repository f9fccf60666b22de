"""The table: positions round the circle, Allies and Enemies, teams, zones.

Rulings: positions alternate round the circle, 0-1 Allies, 1-2 Enemies, 2-3
Allies, ... closing the circle with Enemies; an alliance of two scores
together. With an odd player count the odd (last) seat also runs the
Mercenary mat as a second position, allied to its nation and facing an Enemy
of its own (position 0). With 2 players the two are Enemies with no Ally.
With 9+ players each run of 8 positions is one box (its own mercenary and
adventure decks; the pair closing a box draws from its first position's box).

Zones (``Zones`` derives views and event audiences from them):
nation decks, mercenary and adventure decks: ``COUNT_ONLY``; lineups, drafted
cards, Location defenses, the Adventures, won Adventures and the Lost pile:
``PUBLIC``; War Camps: ``TEAM`` (an Ally may see them, never an Enemy);
deployed cards: ``TEAM`` until the battle flip, then ``PUBLIC`` (Scouting
reveals single cards earlier: the game's ``shown`` list); Retired piles:
``OWNER``.
"""

from __future__ import annotations

import functools

from aggregates.kernel import Seating, Visibility, Zones, ZoneSpec
from aggregates.kernel.flow import next_seat

SLOTS = 4            # three Locations (0 nearest the Adventure) and the Adventure (3)
ADVENTURE = 3
BATTLE_ORDER = (2, 1, 0, 3)  # farthest from the Adventure first
PER_BOX = 8
LOST = "lost"


def positions_for(players: int) -> int:
    return players + 1 if players % 2 and players > 2 else players


@functools.lru_cache(maxsize=64)
def controller(players: int) -> tuple[int, ...]:
    count = positions_for(players)
    return tuple(min(p, players - 1) for p in range(count))


def has_mat(players: int) -> bool:
    return positions_for(players) > players


@functools.lru_cache(maxsize=64)
def seating_for(players: int) -> Seating:
    """The table's seating: a pure function of the player count, cached (a
    ``Seating`` is frozen, so every caller may share one)."""
    ctrl = controller(players)
    if players == 2:
        return Seating(ctrl, ((0,), (1,)))
    teams = []
    for k in range(0, len(ctrl), 2):
        team = tuple(sorted({ctrl[k], ctrl[k + 1]}))
        teams.append(team)
    return Seating(ctrl, tuple(teams))


def enemy_pairs(positions: int) -> list[list[int]]:
    if positions == 2:
        return [[0, 1]]
    # Enemies: each odd position and its neighbour clockwise (the last pair closes the circle).
    return [[2 * k + 1, next_seat(2 * k + 1, positions)] for k in range(positions // 2)]


def ally_groups(positions: int) -> list[list[int]]:
    if positions == 2:
        return [[0], [1]]
    return [[2 * k, 2 * k + 1] for k in range(positions // 2)]


def ally_of(position: int, positions: int) -> int | None:
    return None if positions == 2 else position ^ 1


def box_of(position: int) -> int:
    return position // PER_BOX


def boxes(positions: int) -> int:
    return (positions + PER_BOX - 1) // PER_BOX


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
    count = positions_for(players)
    ctrl = controller(players)
    specs = [ZoneSpec(LOST, Visibility.PUBLIC)]
    for b in range(boxes(count)):
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
    return Zones(table_specs(players, flipped), contents, seating_for(players))


def deal_box(dealt: list[str], wanted: int, before: str | None,
             after: str | None) -> list[str]:
    """``wanted`` nations of one box's shuffle ``dealt`` (each at most once), in
    its order, none next to a neighbour of the same nation: the box's first
    position follows a position playing ``before`` (the previous box's last),
    its last precedes one playing ``after`` (position 0, where the circle
    closes; None: a box boundary inside the circle or the Mercenary mat)."""
    if wanted == 0:
        return []
    banned_first = {before} | ({after} if wanted == 1 else set())
    first = next(n for n in dealt if n not in banned_first)
    rest = [n for n in dealt if n != first]
    box = [first, *rest[: wanted - 1]]
    if wanted > 1 and box[-1] == after:
        spare = [n for n in rest[wanted - 1:] if n != after]
        if spare:  # a nation of the box not dealt: it takes the last seat
            box[-1] = spare[0]
        else:  # the whole box is dealt: the last trades with an inner seat
            box[-1], box[1] = box[1], box[-1]
    return box


def next_to_same_nation(nations: list[str], count: int) -> bool:
    """Whether two neighbours round the table (of ``count`` positions) play
    the same nation."""
    return count > 2 and any(nations[p] == nations[next_seat(p, count)] for p in range(count))
