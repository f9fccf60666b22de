"""Dice whose faces are data, a limited reserve of them, and re-rolls.

Each kind of die has its own faces (a Titans Infantry die shows 0, 0, 1, 1,
1, 2 successes); ``DiceSet`` holds them with how many dice of each kind one
player's reserve has (3 Infantry, 2 Cavalry, 1 Artillery, 2 Titan). A pool
is the dice a player has rolled, a plain JSON list of ``{"die", "face"}``.

Every die is drawn through the game's recorded ``roll(sides)`` (the
kernel's counter-based generator), so an event states the faces that came
up and a replay never rolls. Taking a die the reserve no longer holds is
refused (``can_take``): a missing die is not replaced by another kind.

The choice "re-roll these dice" is the kernel's ``PickCards`` over the
pool's indices (``reroll_choice``): no new decision kind is needed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from arbiter.decisions import PickCards

from aggregates.kernel.data import DataError, Record, integer

Roll = Callable[[int], int]
Pool = list[dict[str, Any]]


class Die(Record):
    """One kind of die: its name and the value of each face."""

    kind: str
    faces: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.faces) < 2:
            raise DataError(f"die {self.kind!r} has at least two faces")
        for face in self.faces:
            integer(face, f"a face of die {self.kind!r}")

    def roll(self, roll: Roll) -> int:
        """The value of the face that comes up (one recorded draw)."""
        return self.faces[roll(len(self.faces)) - 1]

    @property
    def mean(self) -> float:
        return sum(self.faces) / len(self.faces)


class DiceSet(Record):
    """The kinds of dice and one player's reserve of each."""

    dice: Mapping[str, Die]
    reserve: Mapping[str, int]

    def __post_init__(self) -> None:
        unknown = set(self.reserve) - set(self.dice)
        if unknown:
            raise DataError(f"the reserve names unknown dice {sorted(unknown)}")
        for kind, count in self.reserve.items():
            integer(count, f"reserve of {kind!r} dice")

    @classmethod
    def from_data(cls, raw: Mapping[str, Any]) -> DiceSet:
        """``{"faces": {kind: [values]}, "reserve": {kind: count}}``."""
        dice = {str(k): Die(str(k), tuple(v)) for k, v in raw["faces"].items()}
        return cls(dice, {str(k): integer(v, f"reserve of {k!r}") for k, v in
                          raw["reserve"].items()})

    def die(self, kind: str) -> Die:
        return self.dice[kind]

    def full_reserve(self) -> dict[str, int]:
        return dict(self.reserve)

    def can_take(self, reserve: Mapping[str, int], kind: str) -> bool:
        return reserve.get(kind, 0) > 0

    def roll(self, kind: str, roll: Roll) -> dict[str, Any]:
        """One die of ``kind`` rolled: ``{"die": kind, "face": value}``."""
        return {"die": kind, "face": self.dice[kind].roll(roll)}

    def take_and_roll(self, reserve: Mapping[str, int], kinds: Iterable[str],
                      roll: Roll) -> tuple[Pool, dict[str, int]]:
        """Decide: roll a die of each of ``kinds`` the reserve still holds (in
        order); returns the dice rolled and the reserve left. A kind the
        reserve has run out of is skipped, never replaced."""
        left = dict(reserve)
        rolled: Pool = []
        for kind in kinds:
            if left.get(kind, 0) > 0:
                left[kind] -= 1
                rolled.append(self.roll(kind, roll))
        return rolled, left

    def reroll(self, pool: Sequence[Mapping[str, Any]], indices: Iterable[int],
               roll: Roll) -> list[dict[str, Any]]:
        """Decide: the dice at ``indices`` rolled again (the others kept), as a
        new pool; the old results are gone (no going back)."""
        chosen = set(indices)
        return [self.roll(d["die"], roll) if i in chosen else dict(d)
                for i, d in enumerate(pool)]


def strength(pool: Iterable[Mapping[str, Any]]) -> int:
    """The successes a pool shows."""
    return sum(int(d["face"]) for d in pool)


def reroll_choice(command: str, arg: str, pool: Sequence[Any], prompt: str = "",
                  fixed: Mapping[str, Any] | None = None) -> PickCards:
    """The structured decision "re-roll these dice": 1..all of the pool's indices."""
    return PickCards(command=command, arg=arg, options=tuple(range(len(pool))), low=1,
                     high=len(pool), zone="dice", fixed=dict(fixed or {}), prompt=prompt)


def reroll_subsets(pool: Sequence[Mapping[str, Any]], distinct: bool = False
                   ) -> list[tuple[int, ...]]:
    """Every choice of dice to re-roll (non-empty sets of indices, sorted). With
    ``distinct``, one per different choice: sets taking the same (kind, face)
    dice are alike, the lowest indices stand for them (for bots)."""
    seen: set[tuple[tuple[str, int], ...]] = set()
    out: list[tuple[int, ...]] = []
    for k in range(1, len(pool) + 1):
        for combo in combinations(range(len(pool)), k):
            key = tuple(sorted((str(pool[i]["die"]), int(pool[i]["face"])) for i in combo))
            if not distinct or key not in seen:
                seen.add(key)
                out.append(combo)
    return out
