"""Pieces: typed units with a finite supply per owner (6 Infantry, 4 Cavalry...).

A group of units is a plain mapping ``kind -> count`` (a "troop"), so a
game's state holds it as JSON and a replay rebuilds it exactly. ``Supply``
says how many of each kind every owner has in all; an owner's reserve is
what is not on the board. When a kind runs out the owner simply cannot
place another (``can_take``): nothing is ever created beyond the supply,
which ``check`` proves for a whole game state.

The arithmetic (``plus``, ``minus``, ``total``) returns new troops and never
changes its arguments, so the rules can compute with it in the decide step
and the ``@event`` bodies can store the result.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from aggregates.kernel.data import DataError, Record, integer

Troop = Mapping[str, int]


class Supply(Record):
    """Every kind of unit, in order, and how many of it each owner has."""

    counts: Mapping[str, int]

    def __post_init__(self) -> None:
        if not self.counts:
            raise DataError("a supply has at least one kind of unit")
        for kind, count in self.counts.items():
            integer(count, f"supply of {kind!r}", low=1)

    @classmethod
    def from_data(cls, raw: Mapping[str, Any]) -> Supply:
        return cls({str(k): integer(v, f"supply of {k!r}", low=1) for k, v in raw.items()})

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self.counts)

    def full(self) -> dict[str, int]:
        """A whole reserve: every unit of the supply."""
        return dict(self.counts)

    def can_take(self, reserve: Troop, kind: str, count: int = 1) -> bool:
        """Whether ``count`` units of ``kind`` are left in ``reserve``."""
        return kind in self.counts and reserve.get(kind, 0) >= count

    def check(self, reserve: Troop, placed: Iterable[Troop]) -> None:
        """Prove no unit was made or lost: reserve + placed == the supply, per kind."""
        whole = total([reserve, *placed])
        for kind in set(whole) | set(self.counts):
            if whole.get(kind, 0) != self.counts.get(kind, 0):
                raise AssertionError(f"{kind}: {whole.get(kind, 0)} units, the supply is "
                                     f"{self.counts.get(kind, 0)}")


def troop(*kinds: str) -> dict[str, int]:
    """A troop of the given units: ``troop("infantry", "infantry", "titan")``."""
    out: dict[str, int] = {}
    for kind in kinds:
        out[kind] = out.get(kind, 0) + 1
    return out


def size(units: Troop) -> int:
    return sum(units.values())


def plus(a: Troop, b: Troop) -> dict[str, int]:
    """The units of both troops."""
    out = dict(a)
    for kind, n in b.items():
        out[kind] = out.get(kind, 0) + n
    return {k: v for k, v in out.items() if v}


def minus(a: Troop, b: Troop) -> dict[str, int]:
    """``a`` without the units of ``b`` (which it must hold)."""
    out = dict(a)
    for kind, n in b.items():
        if out.get(kind, 0) < n:
            raise ValueError(f"cannot take {n} {kind} from {dict(a)}")
        out[kind] = out[kind] - n
    return {k: v for k, v in out.items() if v}


def contains(a: Troop, b: Troop) -> bool:
    """Whether ``a`` holds every unit of ``b``."""
    return all(a.get(kind, 0) >= n for kind, n in b.items())


def total(troops: Iterable[Troop]) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in troops:
        out = plus(out, t)
    return out


def units_of(units: Troop, order: Iterable[str]) -> list[str]:
    """The units one by one, kinds in ``order`` (``{"cavalry": 2}`` -> two names)."""
    return [kind for kind in order for _ in range(units.get(kind, 0))]
