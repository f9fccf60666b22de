"""Seating: positions round the circle, Allies and Enemies, teams and boxes
(Examples of Seating; Ally Interactions; 2 Players; Odd Numbers of Players;
9+ Players).

Rulings: positions alternate round the circle, 0-1 Allies, 1-2 Enemies, 2-3
Allies, ... closing the circle with Enemies; an alliance of two scores
together. With an odd player count the odd (last) seat also runs the
Mercenary mat as a second position, allied to its nation and facing an Enemy
of its own (position 0). With 2 players the two are Enemies with no Ally.
With 9+ players each run of 8 positions is one box (its own mercenary and
adventure decks; the pair closing a box draws from its first position's box).
"""

from __future__ import annotations

import functools

from aggregates.ettin.state import EttinState
from aggregates.kernel import Seating
from aggregates.kernel.flow import next_seat

PER_BOX = 8
#: The nation a Mercenary Nation Mat's position plays.
MAT = "mercenaries"


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


def positions(g: EttinState) -> int:
    return len(g.nations)


def ally(g: EttinState, p: int) -> int | None:
    return ally_of(p, positions(g))


def benefit_to_ally(g: EttinState, p: int) -> int:
    """Who gets what a card gives your Ally: the Ally, or (2 players) you."""
    a = ally(g, p)
    return p if a is None else a


def pair_of(g: EttinState, p: int) -> int:
    return next(i for i, pair in enumerate(g.pairs) if p in pair)


def enemy(g: EttinState, p: int) -> int:
    pair = g.pairs[pair_of(g, p)]
    return pair[1] if pair[0] == p else pair[0]


def box(g: EttinState, p: int) -> int:
    return box_of(p)


def pair_box(g: EttinState, i: int) -> int:
    return box_of(g.pairs[i][0])
