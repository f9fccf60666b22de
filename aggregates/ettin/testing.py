"""Helpers for Ettin's tests: cards by name, stacked decks, acting as a position.

Stacking changes the state directly (before the events that draw), so a game
arranged with it is for rules tests, not for audits.
"""

from __future__ import annotations

from typing import Any

from aggregates.ettin import cards as cd
from aggregates.ettin.commands import Sell
from aggregates.ettin.data import COMPONENTS as C
from aggregates.kernel import Command


def card(name: str, box: int = 0) -> int:
    for u in C.units.values():
        if u.name == name:
            return box * 1000 + u.id
    for a in C.adventures.values():
        if a.name == name:
            return box * 1000 + a.id
    raise KeyError(name)


def stack(g: Any, zone: str, names: list[str]) -> None:
    """Put the named cards on top of ``zone``, in order, from wherever they are."""
    cards = [card(n) for n in names]
    for c in cards:
        for cards_ in g.zones.values():
            if c in cards_:
                cards_.remove(c)
    g.zones[zone][:0] = cards


def put(g: Any, zone: str, names: list[str]) -> list[int]:
    """Move the named cards into ``zone`` (appended), from wherever they are."""
    cards = [card(n) for n in names]
    for c in cards:
        for cards_ in g.zones.values():
            if c in cards_:
                cards_.remove(c)
        g.zones[zone].append(c)
    return cards


def act(g: Any, p: int, command: Command) -> None:
    g.act(g.seating().controller[p], command)


def due(g: Any) -> list[int]:
    return [p for p in range(len(g.nations)) if g.due(p)]


def autoplay(g: Any, positions: set[int], until: Any = None) -> None:
    """Let ``positions`` answer their decisions (selling what they draft, else the
    first legal move) until none of them is due, or ``until(g)`` holds."""
    for _ in range(1000):
        if until is not None and until(g):
            return
        mine = [p for p in due(g) if p in positions]
        if not mine:
            return
        p = mine[0]
        legal = g.legal_actions(g.seating().controller[p])
        sells = [c for c in legal if isinstance(c, Sell)]
        act(g, p, (sells or legal)[0])


def name(c: int) -> str:
    return cd.name(c)
