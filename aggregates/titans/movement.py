"""Movement Actions (rulebook, "A) Order Phase: Movement Actions").

A move action takes one unit (of its type, or any for "Move one chosen
Unit") across one border; the group move takes 1 to 4 units (the Titan may be
one) from one region to one neighbouring region. Basic rules:

- leaving the last unit of a region places a Control Token there (the Capitol
  is its own token); a Nation has 7, so a move needing an 8th is refused;
  units entering a region with the player's token take it back;
- entering a region with enemy units initiates a Battle (resolved in step B;
  the attackers wait on the border, recorded with the region they came from);
  a Stronghold or Capitol there makes the Defender draw 1 Support Card at once;
- entering an empty enemy region takes it: its owner takes back his Control
  Token; an enemy Capitol is damaged and scores 3 VP at once; a Stronghold
  there is taken over;
- Last Region: a Nation's only region may not be entered, and of two only one
  per turn.
"""

from __future__ import annotations

from collections.abc import Collection
from itertools import combinations_with_replacement

from aggregates.kernel import Command, Reason, RuleError
from aggregates.titans import cards, pieces, regions
from aggregates.titans.commands import GroupMove, MoveUnit
from aggregates.titans.data import MOVE_ACTIONS, TABLES, UNITS
from aggregates.titans.reasons import TitansReason
from aggregates.titans.state import State

GROUP_MAX = 4


def actions_left(game: State) -> list[str]:
    return list((game.turn or {}).get("actions", []))


def check_order_action(game: State, action: str, kinds: Collection[str], what: str) -> None:
    """The command's ``action`` is one of ``kinds`` (``what`` names them) and
    the Order being carried out still has it (Order Phase: each action of the
    Order Card once)."""
    if action not in kinds:
        raise RuleError(Reason.BAD_ARGUMENT, f"{action} is not {what}")
    if action not in actions_left(game):
        raise RuleError(TitansReason.NO_SUCH_ACTION, f"your Order has no {action} action left")


def fortified(game: State, region: str, defender: int) -> bool:
    """A Stronghold there, or the Defender's undamaged Capitol."""
    return region in game.strongholds or regions.is_capitol_of(game, region, defender)


def pending_battle(game: State, region: str) -> dict | None:
    for battle in (game.turn or {}).get("battles", []):
        if battle["region"] == region:
            return dict(battle)
    return None


def check_enter(game: State, seat: int, origin: str, to: str, units: dict[str, int]) -> None:
    """The rules every move shares, for ``units`` going from ``origin`` to ``to``."""
    if not regions.active(game, origin) or not regions.active(game, to):
        raise RuleError(TitansReason.INACTIVE_REGION, f"{origin} or {to} is not in play")
    if to not in regions.neighbours(game, origin):
        raise RuleError(TitansReason.NOT_ADJACENT, f"no border joins {origin} and {to}")
    if not units or not pieces.contains(regions.units_at(game, origin, seat), units):
        raise RuleError(TitansReason.NO_UNITS, f"you have not {dict(units)} in {origin}")
    if regions.protected(game, seat, to):
        raise RuleError(TitansReason.LAST_REGION,
                        f"Last Region: {to} may not be attacked this turn")
    if regions.token_needed(game, origin, seat, units, to):
        raise RuleError(TitansReason.NO_CONTROL_TOKEN,
                        f"leaving {origin} empty needs a Control Token; all "
                        f"{TABLES.control_tokens} are on the map")


def move(game: State, seat: int, action: str, units: dict[str, int], origin: str,
         to: str) -> None:
    """Decide: record the move and what it causes (a Battle, or a region taken)."""
    defender = regions.owner_of(game, to)
    enemy_units = to in game.armies and game.armies[to]["nation"] != seat
    token = regions.leaves_empty(game, origin, seat, units) and not regions.is_capitol_of(
        game, origin, seat)
    if enemy_units or pending_battle(game, to) is not None:
        assert defender is not None
        if pending_battle(game, to) is None:
            strong = fortified(game, to, defender)
            game.emit("BattleDeclared", seat=seat, region=to, defender=defender,
                      fortified=strong)
            if strong:
                cards.draw(game, defender, 1, why="stronghold")
        game.emit("UnitMoved", seat=seat, action=action, units=dict(units), origin=origin,
                  to=to, token=token, result="battle")
        return
    if defender is not None and defender != seat:
        game.emit("UnitMoved", seat=seat, action=action, units=dict(units), origin=origin,
                  to=to, token=token, result="taken")
        capitol = regions.is_capitol_of(game, to, defender)
        game.emit("RegionTaken", seat=seat, region=to, owner=defender, capitol=capitol,
                  stronghold=to in game.strongholds,
                  vp=TABLES.bonus_vp["capitol"] if capitol else 0)
        return
    game.emit("UnitMoved", seat=seat, action=action, units=dict(units), origin=origin, to=to,
              token=token, result="moved")


# -------------------------------------------------------------- move_unit


def check_move_unit(game: State, seat: int, command: MoveUnit) -> None:
    check_order_action(game, command.action, MOVE_ACTIONS, "a move action")
    wanted = MOVE_ACTIONS[command.action]
    if command.unit not in UNITS or (wanted is not None and command.unit != wanted):
        raise RuleError(Reason.BAD_ARGUMENT, f"{command.action} moves {wanted or 'any unit'}")
    check_enter(game, seat, command.origin, command.to, {command.unit: 1})


def run_move_unit(game: State, seat: int, command: MoveUnit) -> None:
    move(game, seat, command.action, {command.unit: 1}, command.origin, command.to)


def enterable(game: State, seat: int, origin: str, units: dict[str, int]) -> list[str]:
    out = []
    for to in regions.neighbours(game, origin):
        try:
            check_enter(game, seat, origin, to, units)
        except RuleError:
            continue
        out.append(to)
    return out


def legal_move_unit(game: State, seat: int) -> list[Command]:
    out: list[Command] = []
    for action in sorted(set(actions_left(game)) & set(MOVE_ACTIONS)):
        wanted = MOVE_ACTIONS[action]
        for origin in sorted(r for r, a in game.armies.items() if a["nation"] == seat):
            for unit in UNITS:
                if (wanted is not None and unit != wanted) or not regions.units_at(
                        game, origin, seat).get(unit):
                    continue
                out.extend(MoveUnit(action=action, unit=unit, origin=origin, to=to)
                           for to in enterable(game, seat, origin, {unit: 1}))
    return out


# -------------------------------------------------------------- group_move


def check_group_move(game: State, seat: int, command: GroupMove) -> None:
    if "group_move" not in actions_left(game):
        raise RuleError(TitansReason.NO_SUCH_ACTION, "your Order has no group move left")
    if not 1 <= len(command.units) <= GROUP_MAX or any(u not in UNITS for u in command.units):
        raise RuleError(Reason.BAD_ARGUMENT, f"a group move takes 1 to {GROUP_MAX} units")
    check_enter(game, seat, command.origin, command.to, pieces.troop(*command.units))


def run_group_move(game: State, seat: int, command: GroupMove) -> None:
    move(game, seat, "group_move", pieces.troop(*command.units), command.origin, command.to)


def groups(units: dict[str, int]) -> list[tuple[str, ...]]:
    """Every group of 1..4 of these units, each once, in unit order."""
    out = []
    for k in range(1, GROUP_MAX + 1):
        for combo in combinations_with_replacement(UNITS, k):
            if pieces.contains(units, pieces.troop(*combo)):
                out.append(tuple(combo))
    return out


def legal_group_move(game: State, seat: int) -> list[Command]:
    if "group_move" not in actions_left(game):
        return []
    out: list[Command] = []
    for origin in sorted(r for r, a in game.armies.items() if a["nation"] == seat):
        for group in groups(regions.units_at(game, origin, seat)):
            out.extend(GroupMove(origin=origin, to=to, units=group)
                       for to in enterable(game, seat, origin, pieces.troop(*group)))
    return out
