"""The map as the rules read it: control, occupants, Control Tokens, Last Region.

The kernel ``Board`` answers the graph questions; this module asks them of
the Titans state (``state.State``): who stands where, which regions a Nation
controls, how many Control Tokens it has on the map, and whether a region
may be attacked (rulebook, "Last Region").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aggregates.titans import pieces
from aggregates.titans.data import BOARD, TABLES, UNITS
from aggregates.titans.state import State


def occupants(game: State) -> dict[str, int]:
    """Region -> the seat whose units stand there."""
    return {r: int(a["nation"]) for r, a in game.armies.items()}


def units_at(game: State, region: str, seat: int) -> dict[str, int]:
    army = game.armies.get(region)
    if army is None or army["nation"] != seat:
        return {}
    return dict(army["units"])


def neighbours(game: State, region: str) -> tuple[str, ...]:
    return BOARD.neighbours(region, game.inactive)


def active(game: State, region: str) -> bool:
    return region in BOARD.regions and region not in game.inactive


def controlled(game: State, seat: int) -> list[str]:
    """The regions ``seat`` controls (its units, a Control Token or its Capitol)."""
    return BOARD.controlled_by(game.control, seat)


def is_capitol_of(game: State, region: str, seat: int) -> bool:
    """Whether ``region`` holds ``seat``'s undamaged Capitol (which counts as a Token)."""
    capitol = game.capitols.get(region)
    return capitol is not None and capitol["owner"] == seat and not capitol["damaged"]


def battle_region(game: State) -> str | None:
    return game.battle["region"] if game.battle else None


def tokens_in_use(game: State, seat: int) -> int:
    """Control Tokens of ``seat`` on the map: its controlled regions with none of
    its units, less its undamaged Capitol (the Capitol is its own token). The
    region of the Battle being fought is not counted: its units are in the Battle."""
    fighting = battle_region(game)
    return sum(1 for r in controlled(game, seat)
               if r != fighting and not units_at(game, r, seat)
               and not is_capitol_of(game, r, seat))


def tokens_left(game: State, seat: int) -> int:
    return TABLES.control_tokens - tokens_in_use(game, seat)


def leaves_empty(game: State, region: str, seat: int, units: dict[str, int]) -> bool:
    """Whether moving ``units`` out leaves ``seat`` no unit in ``region``."""
    return pieces.size(units_at(game, region, seat)) == pieces.size(units)


def token_needed(game: State, origin: str, seat: int, units: dict[str, int],
                 to: str | None = None) -> bool:
    """Whether this move needs a Control Token ``seat`` has none left of: it
    empties ``origin`` (not its Capitol) and brings none back from ``to``."""
    if not leaves_empty(game, origin, seat, units) or is_capitol_of(game, origin, seat):
        return False
    freed = (to is not None and game.control.get(to) == seat and not units_at(game, to, seat)
             and not is_capitol_of(game, to, seat))
    return not freed and tokens_left(game, seat) <= 0


def empty_region(game: State, region: str) -> bool:
    """An Empty Region: active, no units, controlled by nobody."""
    return active(game, region) and region not in game.armies and region not in game.control


def owner_of(game: State, region: str) -> int | None:
    """The Nation a region belongs to for an attacker: its units' or its controller."""
    army = game.armies.get(region)
    if army is not None:
        return int(army["nation"])
    owner = game.control.get(region)
    return None if owner is None else int(owner)


def protected(game: State, seat: int, region: str) -> bool:
    """Last Region: a Nation controlling 1 region may not be attacked there; one
    controlling 2 may be attacked in only 1 of them in one turn."""
    owner = owner_of(game, region)
    if owner is None or owner == seat:
        return False
    held = controlled(game, owner)
    if len(held) <= 1:
        return True
    entered = [r for n, r in (game.turn or {}).get("entered", []) if n == owner]
    return len(held) == 2 and bool(entered) and region not in entered


def units_on_map(game: State, seat: int) -> dict[str, int]:
    return pieces.total(a["units"] for a in game.armies.values() if a["nation"] == seat)


def unit_count_on_map(game: State, seat: int) -> int:
    return pieces.size(units_on_map(game, seat))


def ordered(units: dict[str, int]) -> tuple[str, ...]:
    return tuple(pieces.units_of(units, UNITS))


def region_view(game: State, region: str) -> dict[str, Any]:
    army = game.armies.get(region)
    return {"units": dict(army["units"]) if army else {},
            "nation": army["nation"] if army else None,
            "control": game.control.get(region)}


def add_units(game: State, region: str, seat: int, units: Mapping[str, int]) -> None:
    """Units join the seat's army in a region, which it then controls."""
    army = game.armies.get(region)
    if army is None:
        game.armies[region] = {"nation": seat, "units": dict(units)}
    else:
        assert army["nation"] == seat, "one Nation per region"
        army["units"] = pieces.plus(army["units"], units)
    game.control[region] = seat


def take_units(game: State, region: str, units: Mapping[str, int]) -> None:
    """Units leave a region's army (an army of none is gone)."""
    army = game.armies[region]
    army["units"] = pieces.minus(army["units"], units)
    if not army["units"]:
        del game.armies[region]
