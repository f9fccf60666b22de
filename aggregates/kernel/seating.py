"""Seats, positions, teams, and the audiences built from them.

A *seat* is a credential holder (a player at the table); a *position* is a
place in the game's turn structure. Usually they are one and the same, but a
seat may control several positions (Ettin's odd player also runs the
Mercenary mat), and seats may form *teams* that score together (Ettin's
alliances). ``Seating`` is derived from the recorded setup, never stored apart.

An ``Audience`` says who may read an event's private form: everyone, a set of
seats, or — with ``count_only`` — nobody beyond those seats may learn more than
that it happened. Audiences are resolved to seat sets when an event is
triggered and recorded in its hash-chained meta, so readers and reveals need no
rules code in the service.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any


@dataclasses.dataclass(frozen=True)
class Audience:
    """Who may read an event's private form: everyone, or a set of seats."""

    seats: frozenset[int] | None = None

    @property
    def everyone(self) -> bool:
        return self.seats is None

    def includes(self, seat: int | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)

    def __or__(self, other: Audience) -> Audience:
        if self.seats is None or other.seats is None:
            return EVERYONE
        return Audience(self.seats | other.seats)

    def to_meta(self) -> list[int] | None:
        """The recorded form: None for everyone, else the sorted seats."""
        return None if self.seats is None else sorted(self.seats)

    @classmethod
    def from_meta(cls, value: Any) -> Audience:
        return EVERYONE if value is None else cls(frozenset(int(s) for s in value))


EVERYONE = Audience()
NOBODY = Audience(frozenset())


def seat(s: int) -> Audience:
    """Only seat ``s``."""
    return Audience(frozenset({s}))


@dataclasses.dataclass(frozen=True)
class Seating:
    """Who controls which position, and which seats play as one team.

    ``controller[p]`` is the seat controlling position ``p``; ``teams`` lists
    the seats of each team (a seat in no team is its own team).
    """

    controller: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def one_each(cls, seats: int) -> Seating:
        """The usual table: seat n plays position n, everyone for themselves."""
        return cls(tuple(range(seats)))

    def positions_of(self, s: int) -> list[int]:
        return [p for p, c in enumerate(self.controller) if c == s]

    def team_of(self, s: int) -> tuple[int, ...]:
        for team in self.teams:
            if s in team:
                return tuple(team)
        return (s,)

    def team_index(self, s: int) -> int | None:
        for i, team in enumerate(self.teams):
            if s in team:
                return i
        return None

    def team(self, s: int) -> Audience:
        """The seat and its teammates."""
        return Audience(frozenset(self.team_of(s)))

    def team_totals(self, per_seat: Sequence[int]) -> list[int]:
        """Each team's score: the sum of its seats' (teams score together)."""
        return [sum(per_seat[s] for s in team) for team in self.teams]
