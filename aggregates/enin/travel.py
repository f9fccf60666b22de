"""Travel Phase: the start table on turn 1, then one step left or right
(or anywhere with the Map of Enin)."""

from __future__ import annotations

from aggregates.enin.commands import RollStart, Travel
from aggregates.enin.data import TABLES
from aggregates.enin.reasons import EninReason
from aggregates.enin.state import EninState
from aggregates.kernel import Command, Reason, RuleError


def destinations(state: EninState) -> list[int]:
    """Adjacent Location Cards; with the Map, any other location (you must still move)."""
    here = state.location
    if state.map_held:
        return [n for n in TABLES.locations if n != here]
    return [n for n in (here - 1, here + 1) if n in TABLES.locations] if here else []


def check_roll_start(state: EninState, seat: int, command: RollStart) -> None:
    """Only in the start stage (the flow checks it)."""


def roll_start(state: EninState, seat: int, command: RollStart) -> None:
    roll = state.roll(10)
    location = next(loc for rng, loc in TABLES.start_table if roll in rng)
    state.emit("StartRolled", roll=roll, location=location)


def check_travel(state: EninState, seat: int, command: Travel) -> None:
    if command.to not in TABLES.locations:
        raise RuleError(Reason.BAD_ARGUMENT,
                        f"there is no location {command.to} (1..{len(TABLES.locations)})")
    if command.to == state.location:
        raise RuleError(Reason.ILLEGAL_MOVE, "each turn you must move to another location")
    if command.to not in destinations(state):
        raise RuleError(EninReason.NOT_ADJACENT,
                        f"{TABLES.location(command.to).name} is not next to your location "
                        "(only the Map of Enin lets you go anywhere)")


def travel(state: EninState, seat: int, command: Travel) -> None:
    state.emit("Travelled", to=command.to)


def legal_start(state: EninState, seat: int) -> list[Command]:
    return [RollStart()]


def legal_travel(state: EninState, seat: int) -> list[Command]:
    return [Travel(to=n) for n in destinations(state)]
