"""B) Resolving Battles (rulebook, "Battle Rules"): choosing the next Battle,
1) Beginning of the Battle, and the Battle's reading (whose stage it is, each
side's strength) that the stages (``battle_stages.py``) and the outcome
(``battle_outcome.py``) share.

1) Beginning of the Battle: each side takes a die for each of its units in
   the Battle (a Titan rolls 1 Titan die), as far as its reserve of 8 dice
   (3 Infantry, 2 Cavalry, 1 Artillery, 2 Titan) holds; a missing die is not
   replaced. Always-on Nation Cards whose requirement holds add their bonus.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from aggregates.kernel import Command, Reason, RuleError
from aggregates.titans import abilities, dice, movement, regions
from aggregates.titans.commands import (
    ChooseBattle,
)
from aggregates.titans.data import TABLES, TITAN
from aggregates.titans.state import State

ROLES = ("attacker", "defender")


# ------------------------------------------------------------------ reading


def stage_role(battle: Mapping[str, Any]) -> str | None:
    """Whose Battle Stage it is (None once both are over)."""
    at = int(battle["at"])
    return str(battle["order"][at]) if at < len(battle["order"]) else None


def role_of(battle: Mapping[str, Any], seat: int) -> str | None:
    for role in ROLES:
        if battle["sides"][role]["seat"] == seat:
            return role
    return None


def strength(side: Mapping[str, Any]) -> int:
    """Battle Strength: the dice pool's successes and the bonuses gained."""
    return dice.strength(side["pool"]) + int(side["bonus"])


def stage_done(battle: Mapping[str, Any], role: str) -> bool:
    return list(battle["order"]).index(role) < int(battle["at"])


def acting(game: State) -> tuple[str, int] | None:
    """(role, seat) the Battle waits on, and for what (the decisions of ``state.py``)."""
    battle = game.battle
    if battle is None:
        return None
    for key in ("reroll", "reaction"):
        if battle.get(key):
            role = str(battle[key])
            return role, int(battle["sides"][role]["seat"])
    now = stage_role(battle)
    if now is not None:
        return now, int(battle["sides"][now]["seat"])
    return None


def require_stage(game: State, seat: int) -> tuple[dict[str, Any], str]:
    battle = game.battle
    if battle is None or battle.get("reroll") or battle.get("reaction") or battle.get("result"):
        raise RuleError(Reason.WRONG_PHASE, "no Battle Stage is open")
    role = stage_role(battle)
    if role is None or battle["sides"][role]["seat"] != seat:
        raise RuleError(Reason.NOT_YOUR_TURN, "it is the other player's Battle Stage")
    return battle, role


# ------------------------------------------------------- choosing a Battle


def check_choose_battle(game: State, seat: int, command: ChooseBattle) -> None:
    if movement.pending_battle(game, command.region) is None:
        raise RuleError(Reason.BAD_ARGUMENT, f"no Battle is to be resolved in {command.region}")


def run_choose_battle(game: State, seat: int, command: ChooseBattle) -> None:
    begin(game, command.region)


def legal_choose_battle(game: State, seat: int) -> list[Command]:
    return [ChooseBattle(region=b["region"]) for b in (game.turn or {}).get("battles", [])]


def begin(game: State, region: str) -> None:
    """Decide: 1) Beginning of the Battle: both sides' dice rolled at once."""
    assert game.turn is not None
    pending = movement.pending_battle(game, region)
    assert pending is not None
    attacker, defender = int(game.turn["seat"]), int(pending["defender"])
    home = regions.units_at(game, region, defender)
    troops = {"attacker": [dict(t) for t in pending["troops"]],
              "defender": [{"unit": u, "from": region} for u in regions.ordered(home)]}
    fortified = bool(pending["fortified"])
    battle: dict[str, Any] = {
        "region": region, "fortified": fortified,
        "order": ["attacker", "defender"] if fortified else ["defender", "attacker"],
        "at": 0, "reroll": None, "reaction": None, "result": None, "sides": {}}
    for role, seat in (("attacker", attacker), ("defender", defender)):
        battle["sides"][role] = {"seat": seat, "troops": troops[role], "pool": [], "bonus": 0,
                                 "reserve": TABLES.dice.full_reserve(), "passive": [],
                                 "played": [], "moved_in": False, "used": [],
                                 "titan_used": False, "ability_used": False}
    for role in ROLES:
        side = battle["sides"][role]
        kinds = [t["unit"] for t in side["troops"] if t["unit"] != TITAN]
        if any(t["unit"] == TITAN for t in side["troops"]):
            kinds.append(TITAN)  # two Titan dice, but a Titan rolls one
        side["pool"], side["reserve"] = TABLES.dice.take_and_roll(side["reserve"], kinds,
                                                                   game.roll)
        side["bonus"], side["passive"] = abilities.passive_bonus(game, battle, role)
    game.emit("BattleBegun", region=region, attacker=attacker, defender=defender,
              fortified=fortified, order=battle["order"], sides=battle["sides"],
              attacker_strength=strength(battle["sides"]["attacker"]),
              defender_strength=strength(battle["sides"]["defender"]))


def side_of(game: State, role: str) -> dict[str, Any]:
    """The Battle's side of the ``role`` (attacker or defender)."""
    assert game.battle is not None
    return game.battle["sides"][role]  # type: ignore[no-any-return]


def gain(game: State, role: str, strength: int, dice: Sequence[Mapping[str, Any]],
          pool: Sequence[Mapping[str, Any]] | None) -> None:
    """A side gains strength and dice (taken from its reserve), its pool replaced
    first when the effect re-rolled it."""
    side = side_of(game, role)
    side["bonus"] += strength
    if pool is not None:
        side["pool"] = [dict(d) for d in pool]
    for die in dice:
        side["pool"].append(dict(die))
        side["reserve"][die["die"]] -= 1
