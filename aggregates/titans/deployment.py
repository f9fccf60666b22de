"""Unit Deployment and Stronghold Construction actions (rulebook, "A) Order Phase").

A deployment takes a unit from the Nation's reserve onto a region it
controls (one of its armies, or an empty region with its Control Token or
Capitol); when the reserve has no unit of a type left, none of it can be
deployed. "Deploy any one Unit" may deploy the Titan while it is on the Nation
Board. A Stronghold is built in a region with the player's units or Control
Token, one per region, while any of the 3 is left.
"""

from __future__ import annotations

from aggregates.kernel import Command, Reason, RuleError
from aggregates.titans import regions
from aggregates.titans.commands import BuildStronghold, DeployUnit
from aggregates.titans.data import DEPLOY_ACTIONS, TABLES, UNITS
from aggregates.titans.movement import actions_left, check_order_action
from aggregates.titans.reasons import TitansReason
from aggregates.titans.state import State


def can_deploy(game: State, seat: int, unit: str, region: str) -> None:
    """The rules of placing one unit from the reserve (deployments, Reinforcements)."""
    if unit not in UNITS:
        raise RuleError(Reason.BAD_ARGUMENT, f"no unit type {unit!r}")
    if not TABLES.supply.can_take(game.reserve[seat], unit):
        raise RuleError(TitansReason.SUPPLY_EXHAUSTED, f"no {unit} is left in your reserve")
    if not regions.active(game, region) or game.control.get(region) != seat:
        raise RuleError(TitansReason.NOT_CONTROLLED, f"you do not control {region}")


def deploy_targets(game: State, seat: int, unit: str) -> list[str]:
    if not TABLES.supply.can_take(game.reserve[seat], unit):
        return []
    return sorted(regions.controlled(game, seat))


def check_deploy_unit(game: State, seat: int, command: DeployUnit) -> None:
    check_order_action(game, command.action, DEPLOY_ACTIONS, "a deployment")
    wanted = DEPLOY_ACTIONS[command.action]
    if wanted is not None and command.unit != wanted:
        raise RuleError(Reason.BAD_ARGUMENT, f"{command.action} deploys {wanted}")
    can_deploy(game, seat, command.unit, command.region)


def run_deploy_unit(game: State, seat: int, command: DeployUnit) -> None:
    game.emit("UnitDeployed", seat=seat, action=command.action, unit=command.unit,
              region=command.region)


def legal_deploy_unit(game: State, seat: int) -> list[Command]:
    out: list[Command] = []
    for action in sorted(set(actions_left(game)) & set(DEPLOY_ACTIONS)):
        wanted = DEPLOY_ACTIONS[action]
        for unit in UNITS:
            if wanted is None or unit == wanted:
                out.extend(DeployUnit(action=action, unit=unit, region=r)
                           for r in deploy_targets(game, seat, unit))
    return out


# ------------------------------------------------------------- Strongholds


def check_build_stronghold(game: State, seat: int, command: BuildStronghold) -> None:
    if "stronghold" not in actions_left(game):
        raise RuleError(TitansReason.NO_SUCH_ACTION, "your Order has no Stronghold action left")
    if game.strongholds_left <= 0:
        raise RuleError(TitansReason.SUPPLY_EXHAUSTED, "no Stronghold is left")
    if game.control.get(command.region) != seat or not regions.active(game, command.region):
        raise RuleError(TitansReason.NOT_CONTROLLED,
                        f"{command.region} has none of your units or Control Tokens")
    if command.region in game.strongholds:
        raise RuleError(Reason.ILLEGAL_MOVE, f"{command.region} has a Stronghold already")


def run_build_stronghold(game: State, seat: int, command: BuildStronghold) -> None:
    game.emit("StrongholdBuilt", seat=seat, region=command.region)


def legal_build_stronghold(game: State, seat: int) -> list[Command]:
    if "stronghold" not in actions_left(game) or game.strongholds_left <= 0:
        return []
    return [BuildStronghold(region=r) for r in sorted(regions.controlled(game, seat))
            if r not in game.strongholds]
