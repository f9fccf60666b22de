"""Travel Phase: the start table on turn 1, then one step left or right
(or anywhere with the Map of Enin)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aggregates.enin import rules as r
from aggregates.enin.commands import RollStart, Travel
from aggregates.enin.data import TABLES
from aggregates.kernel import Command, Reason

if TYPE_CHECKING:
    from aggregates.enin.game import Enin


def destinations(game: Enin) -> list[int]:
    """Adjacent Location Cards; with the Map, any other location (you must still move)."""
    here = game.location
    if game.map_held:
        return [n for n in TABLES.locations if n != here]
    return [n for n in (here - 1, here + 1) if n in TABLES.locations] if here else []


def check_roll_start(game: Enin, command: RollStart) -> None:
    r.require_stage(game.stage, (r.START,), "rolling on the start table")


def roll_start(game: Enin, command: RollStart) -> None:
    roll = game.roll(10)
    location = next(loc for rng, loc in TABLES.start_table if roll in rng)
    game._start_rolled(roll=roll, location=location)


def check_travel(game: Enin, command: Travel) -> None:
    if command.to not in TABLES.locations:
        r.refuse(Reason.BAD_ARGUMENT,
                 f"there is no location {command.to} (1..{len(TABLES.locations)})")
    if game.stage == r.START:
        r.refuse(Reason.WRONG_PHASE, "on the first turn roll on the start table (roll_start)")
    r.require_stage(game.stage, (r.TRAVEL,), "travelling")
    if command.to == game.location:
        r.refuse(Reason.ILLEGAL_MOVE, "each turn you must move to another location")
    if command.to not in destinations(game):
        r.refuse(Reason.NOT_ADJACENT,
                 f"{TABLES.location(command.to).name} is not next to your location "
                 "(only the Map of Enin lets you go anywhere)")


def travel(game: Enin, command: Travel) -> None:
    game._travelled(to=command.to)


def legal_start(game: Enin) -> list[Command]:
    return [RollStart()]


def legal_travel(game: Enin) -> list[Command]:
    return [Travel(to=n) for n in destinations(game)]
