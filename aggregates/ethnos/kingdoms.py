"""Control markers in the Kingdoms: the band-size test and where a marker goes."""

from __future__ import annotations

from aggregates.ethnos import abilities
from aggregates.ethnos.data import CARDS, TABLES
from aggregates.ethnos.state import State


def marker_size(leader: int, size: int) -> int:
    """The band's size for the marker test (Minotaurs: X+1)."""
    return abilities.modified("marker_size", leader, size)


def can_place(game: State, seat: int, kingdom: str, size: int) -> bool:
    """Fewer of your markers there than the band's size (2 players: all players' markers)."""
    counts = game.markers[kingdom]
    there = sum(counts) if len(game.seats) == 2 else counts[seat]
    return there < size


def marker_kingdom(game: State, seat: int, leader: int, size: int) -> str | None:
    """The Kingdom an ordinary leader places its marker in, if the band is large enough.

    Halflings place none; Wingfolk choose (``tribes.py``).
    """
    if abilities.leader_has(leader, "no_marker") or abilities.leader_has(
            leader, "marker_anywhere"):
        return None
    colour = CARDS[leader].colour
    assert colour is not None
    kingdom = TABLES.kingdom_of(colour)
    return kingdom if can_place(game, seat, kingdom, marker_size(leader, size)) else None


def markers_on_board(game: State, seat: int) -> int:
    return sum(counts[seat] for counts in game.markers.values())
