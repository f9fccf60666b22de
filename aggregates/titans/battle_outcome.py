"""B) Resolving Battles, 4) Battle Outcome (rulebook, "Battle Rules",
"Stronghold in Battles", "Capitol").

The Attacker wins only by exceeding the Defender's Strength. By the difference
(0-2, 3-4, 5+) the loser destroys 0, 1 or 2 units (choosing them; with 1 unit
against 5+ he loses it and the difference counts as 4), withdraws (the
Attacker to the regions he came from; the Defender into one adjacent region
he controls, else one adjacent Empty Region, else his units are destroyed),
draws 1, 2 or 3 Support Cards; the winner scores 1, 2 or 4 VP, +1 if the
loser's Titan was destroyed, +1 for a Stronghold destroyed, +3 for an enemy
Capitol taken. A destroyed Titan goes to its Nation Board: lying if it
attacked, standing if it defended.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from aggregates.kernel import Command, Reason, RuleError
from aggregates.kernel.present import plural
from aggregates.titans import cards, regions, state
from aggregates.titans.abilities import other
from aggregates.titans.battles import (
    acting,
    role_of,
    strength,
)
from aggregates.titans.commands import (
    DestroyUnits,
    Withdraw,
)
from aggregates.titans.data import TABLES, TITAN
from aggregates.titans.state import State

# ------------------------------------------------------- 4) Battle Outcome


def decide_winner(game: State) -> None:
    """Decide: the winner (ties go to the Defender), the difference, the units due."""
    battle = game.battle
    assert battle is not None
    attack = strength(battle["sides"]["attacker"])
    defence = strength(battle["sides"]["defender"])
    winner = "attacker" if attack > defence else "defender"
    loser = other(winner)
    difference = abs(attack - defence)
    due = TABLES.outcome(difference).destroy
    destroy = min(due, len(battle["sides"][loser]["troops"]))
    effective = difference
    if destroy < due:  # "treat the Strength Difference as if it was 4"
        effective = max(r.high for r in TABLES.outcomes
                        if r.destroy == destroy and r.high is not None)
    game.emit("BattleWon", region=battle["region"], winner=battle["sides"][winner]["seat"],
              loser=battle["sides"][loser]["seat"], winner_role=winner,
              attacker_strength=attack, defender_strength=defence, difference=difference,
              effective=effective, destroy=destroy)


def loser_role(battle: Mapping[str, Any]) -> str:
    return other(str(battle["result"]["winner_role"]))


def destroy_options(battle: Mapping[str, Any], distinct: bool = True
                    ) -> list[tuple[int, ...]]:
    """Every choice of the loser's units to destroy (indices, sorted); with
    ``distinct`` one per different outcome (the Attacker's units differ by type
    and the region they return to, the Defender's by type only)."""
    role = loser_role(battle)
    troops = battle["sides"][role]["troops"]
    count = int(battle["result"]["destroy"]) - len(battle["result"]["destroyed"])
    seen: set[tuple[tuple[str, str], ...]] = set()
    out = []
    for combo in combinations(range(len(troops)), count):
        key = tuple(sorted((troops[i]["unit"], troops[i]["from"] if role == "attacker" else "")
                           for i in combo))
        if not distinct or key not in seen:
            seen.add(key)
            out.append(combo)
    return out


def destroy(game: State, seat: int, indices: tuple[int, ...], why: str) -> None:
    battle = game.battle
    assert battle is not None
    role = role_of(battle, seat)
    assert role is not None
    troops = battle["sides"][role]["troops"]
    units: dict[str, int] = {}
    for i in indices:
        units[troops[i]["unit"]] = units.get(troops[i]["unit"], 0) + 1
    game.emit("UnitsDestroyed", seat=seat, region=battle["region"], role=role,
              troops=sorted(indices), units=units, titan=TITAN in units, why=why)


def check_destroy_units(game: State, seat: int, command: DestroyUnits) -> None:
    battle = game.battle
    if battle is None or not battle.get("result") or battle["result"]["destroy_done"]:
        raise RuleError(Reason.WRONG_PHASE, "no units are to be destroyed now")
    if battle["sides"][loser_role(battle)]["seat"] != seat:
        raise RuleError(Reason.NOT_YOUR_TURN, "the loser chooses the units destroyed")
    troops = battle["sides"][loser_role(battle)]["troops"]
    need = int(battle["result"]["destroy"])
    if len(set(command.troops)) != need or len(command.troops) != need or any(
            not 0 <= i < len(troops) for i in command.troops):
        raise RuleError(Reason.BAD_ARGUMENT, f"choose {need} of your "
                        f"{plural(len(troops), 'Unit')} in the Battle")


def run_destroy_units(game: State, seat: int, command: DestroyUnits) -> None:
    destroy(game, seat, command.troops, why="battle")


def legal_destroy_units(game: State, seat: int) -> list[Command]:
    battle = game.battle
    if battle is None or not battle.get("result") or battle["result"]["destroy_done"]:
        return []
    if battle["sides"][loser_role(battle)]["seat"] != seat:
        return []
    return [DestroyUnits(troops=c) for c in destroy_options(battle, distinct=False)]


def withdraw_options(game: State) -> list[str]:
    """The defeated Defender's regions to withdraw to: adjacent ones he controls;
    else adjacent Empty Regions; else none (his units are destroyed)."""
    battle = game.battle
    assert battle is not None
    seat = int(battle["sides"]["defender"]["seat"])
    region = battle["region"]
    around = [r for r in regions.neighbours(game, region) if r != region]
    mine = [r for r in around if game.control.get(r) == seat]
    return mine or [r for r in around if regions.empty_region(game, r)]


def must_withdraw(game: State) -> bool:
    battle = game.battle
    return (battle is not None and bool(battle.get("result")) and bool(
        battle["result"]["destroy_done"]) and not battle["result"]["withdrawn"]
            and bool(battle["sides"][loser_role(battle)]["troops"]))


def withdraw(game: State, seat: int, role: str, to: str | None) -> None:
    battle = game.battle
    assert battle is not None
    moves = [{"unit": t["unit"], "from": battle["region"],
              "to": t["from"] if to is None else to}
             for t in battle["sides"][role]["troops"]]
    game.emit("UnitsWithdrew", seat=seat, region=battle["region"], role=role, moves=moves)


def check_withdraw(game: State, seat: int, command: Withdraw) -> None:
    battle = game.battle
    if not must_withdraw(game) or battle is None or loser_role(battle) != "defender":
        raise RuleError(Reason.WRONG_PHASE, "no withdrawal is to be chosen now")
    if battle["sides"]["defender"]["seat"] != seat:
        raise RuleError(Reason.NOT_YOUR_TURN, "the defeated Defender withdraws")
    options = withdraw_options(game)
    if command.region not in options:
        raise RuleError(Reason.ILLEGAL_MOVE, f"withdraw into one of {options}: an adjacent "
                        "region you control, else an adjacent Empty Region")


def run_withdraw(game: State, seat: int, command: Withdraw) -> None:
    withdraw(game, seat, "defender", command.region)


def legal_withdraw(game: State, seat: int) -> list[Command]:
    battle = game.battle
    if not must_withdraw(game) or battle is None or loser_role(battle) != "defender":
        return []
    if battle["sides"]["defender"]["seat"] != seat:
        return []
    return [Withdraw(region=r) for r in withdraw_options(game)]


def resolve(game: State) -> None:
    """Decide: C. the loser's Support Cards, D. the winner's Victory Points."""
    battle = game.battle
    assert battle is not None
    result = battle["result"]
    winner_role = str(result["winner_role"])
    winner = int(battle["sides"][winner_role]["seat"])
    loser = int(battle["sides"][other(winner_role)]["seat"])
    row = TABLES.outcome(int(result["effective"]))
    cards.draw(game, loser, row.cards, why="battle lost")
    region = battle["region"]
    defender = int(battle["sides"]["defender"]["seat"])
    attacker_won = winner_role == "attacker"
    stronghold = attacker_won and region in game.strongholds
    capitol = attacker_won and regions.is_capitol_of(game, region, defender)
    bonus = {"titan": TABLES.bonus_vp["titan"] if result["titan"] else 0,
             "stronghold": TABLES.bonus_vp["stronghold"] if stronghold else 0,
             "capitol": TABLES.bonus_vp["capitol"] if capitol else 0}
    game.emit("BattleResolved", region=region, winner=winner, loser=loser,
              winner_role=winner_role, difference=int(result["effective"]), cards=row.cards,
              vp=row.vp + sum(bonus.values()), tier_vp=row.vp, bonus=bonus,
              stronghold_destroyed=stronghold, capitol_damaged=capitol)


def settle(game: State) -> bool:
    """Decide one automatic step of the Battle being fought; True if one was taken."""
    battle = game.battle
    if battle is None or acting(game) is not None:
        return False
    result = battle.get("result")
    if not result:
        decide_winner(game)
        return True
    loser = loser_role(battle)
    seat = int(battle["sides"][loser]["seat"])
    if not result["destroy_done"]:
        options = destroy_options(battle)
        if len(options) != 1:
            return False  # the loser chooses (destroy_units)
        destroy(game, seat, options[0], why="battle")
        return True
    if must_withdraw(game):
        if loser == "attacker":
            withdraw(game, seat, loser, None)
            return True
        retreats = withdraw_options(game)
        if not retreats:
            destroy(game, seat, tuple(range(len(battle["sides"][loser]["troops"]))),
                    why="no retreat")
            return True
        if len(retreats) == 1:
            withdraw(game, seat, loser, retreats[0])
            return True
        return False  # the Defender chooses (withdraw)
    resolve(game)
    return True


def deciding(game: State) -> tuple[str, int] | None:
    """(step kind, seat) of the Battle's pending outcome decision, if any."""
    battle = game.battle
    if battle is None or not battle.get("result") or acting(game) is not None:
        return None
    seat = int(battle["sides"][loser_role(battle)]["seat"])
    if not battle["result"]["destroy_done"]:
        return (state.DESTROY, seat) if len(destroy_options(battle)) > 1 else None
    if must_withdraw(game) and loser_role(battle) == "defender" and len(
            withdraw_options(game)) > 1:
        return state.WITHDRAW, seat
    return None
