"""B) Resolving Battles (rulebook, "Battle Rules", "Stronghold in Battles", "Capitol").

1) Beginning of the Battle: each side takes a die for each of its units in
   the Battle (a Titan rolls 1 Titan die), as far as its reserve of 8 dice
   (3 Infantry, 2 Cavalry, 1 Artillery, 2 Titan) holds; a missing die is not
   replaced. Always-on Nation Cards whose requirement holds add their bonus.
2)/3) The Defender's stage, then the Attacker's (the other way round when the
   Defender holds a Stronghold or an undamaged Capitol). In his stage a player
   may, in any order and as often as he likes: play Support Cards (singly or in
   sets), discard a Support Card to re-roll chosen dice once, use Nation Cards
   (once per Battle / once per Round), the Titan Special Ability and the
   Nation Starting Ability (once per Battle each). A unit moving into the
   Battle rolls its die at once; the opponent, his stage over, may then use a
   [1 / Battle] Nation Card that has become usable.
4) Battle Outcome: the Attacker wins only by exceeding the Defender's Strength.
   By the difference (0-2, 3-4, 5+) the loser destroys 0, 1 or 2 units
   (choosing them; with 1 unit against 5+ he loses it and the difference counts
   as 4), withdraws (the Attacker to the regions he came from; the Defender into
   one adjacent region he controls, else one adjacent Empty Region, else his
   units are destroyed), draws 1, 2 or 3 Support Cards; the winner scores 1, 2
   or 4 VP, +1 if the loser's Titan was destroyed, +1 for a Stronghold
   destroyed, +3 for an enemy Capitol taken. A destroyed Titan goes to its
   Nation Board: lying if it attacked, standing if it defended.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from aggregates.kernel import Command, Reason, RuleError
from aggregates.kernel.present import plural
from aggregates.titans import abilities, cards, dice, movement, regions, steps
from aggregates.titans.abilities import other
from aggregates.titans.commands import (
    ChooseBattle,
    Decline,
    DestroyUnits,
    DiscardToReroll,
    EndStage,
    PlayMoveUnit,
    PlaySupport,
    RerollDice,
    UseNationAbility,
    UseNationCard,
    UseTitanAbility,
    Withdraw,
)
from aggregates.titans.data import NATION_CARDS, NATIONS, SUPPORTS, TABLES, TITAN
from aggregates.titans.reasons import TitansReason
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
    """(role, seat) the Battle waits on, and for what (see ``steps``)."""
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


# ------------------------------------------------------- Support Cards


def requirement_met(battle: Mapping[str, Any], role: str, card: int) -> bool:
    support = SUPPORTS[card]
    army = abilities.army(battle["sides"][role if support.side == "own" else other(role)])
    return support.unit in army


def set_effect(effect: str, size: int) -> Mapping[str, Any] | None:
    return TABLES.support_sets.get(effect, {}).get(size)


def check_play_support(game: State, seat: int, command: PlaySupport) -> None:
    battle, role = require_stage(game, seat)
    chosen = command.cards
    if not chosen or len(set(chosen)) != len(chosen):
        raise RuleError(Reason.BAD_ARGUMENT, "play one card or a set of different cards")
    if any(c not in game.hands[seat] for c in chosen):
        raise RuleError(TitansReason.NOT_HELD, "play Support Cards of your hand")
    effects = {SUPPORTS[c].effect for c in chosen}
    effect = next(iter(effects))
    if len(effects) != 1 or effect == "move_unit" or set_effect(effect, len(chosen)) is None:
        raise RuleError(TitansReason.BAD_SET, "a set is 2 Add a Die or 2-3 Add Strength cards "
                        "of the same effect (Move 1 Unit: play_move_unit)")
    if not all(requirement_met(battle, role, c) for c in chosen):
        raise RuleError(TitansReason.REQUIREMENT, "a card's requirement is not met")
    gives = set_effect(effect, len(chosen))
    assert gives is not None
    if "die" in gives and not battle["sides"][role]["reserve"].get(gives["die"], 0):
        raise RuleError(TitansReason.NO_DIE, f"no {gives['die']} die is left in your reserve")


def run_play_support(game: State, seat: int, command: PlaySupport) -> None:
    battle = game.battle
    assert battle is not None
    role = role_of(battle, seat)
    effect = SUPPORTS[command.cards[0]].effect
    gives = set_effect(effect, len(command.cards))
    assert gives is not None and role is not None
    rolled = [TABLES.dice.roll(gives["die"], game.roll)] if "die" in gives else []
    game.emit("SupportPlayed", seat=seat, region=battle["region"], role=role,
              cards=sorted(command.cards), effect=effect, dice=rolled,
              strength=int(gives.get("strength", 0)), unit=None, origin=None, token=False,
              reaction=None)


def legal_play_support(game: State, seat: int) -> list[Command]:
    try:
        battle, role = require_stage(game, seat)
    except RuleError:
        return []
    out: list[Command] = []
    reserve = battle["sides"][role]["reserve"]
    for effect in ("add_die", "add_strength"):
        eligible = sorted(c for c in game.hands[seat]
                          if SUPPORTS[c].effect == effect and requirement_met(battle, role, c))
        for size, gives in sorted(TABLES.support_sets[effect].items()):
            if "die" in gives and not reserve.get(gives["die"], 0):
                continue
            out.extend(PlaySupport(cards=combo) for combo in combinations(eligible, size))
    return out


def move_origins(game: State, battle: Mapping[str, Any], seat: int, unit: str) -> list[str]:
    """Neighbouring regions a unit of ``seat`` may join the Battle from: its own,
    with such a unit, not the scene of another Battle waiting to be resolved."""
    waiting = {b["region"] for b in (game.turn or {}).get("battles", [])}
    out = []
    for origin in regions.neighbours(game, battle["region"]):
        units = {unit: 1}
        if origin in waiting or not regions.units_at(game, origin, seat).get(unit):
            continue
        if regions.token_needed(game, origin, seat, units):
            continue
        out.append(origin)
    return out


def check_play_move_unit(game: State, seat: int, command: PlayMoveUnit) -> None:
    battle, role = require_stage(game, seat)
    if command.card not in game.hands[seat]:
        raise RuleError(TitansReason.NOT_HELD, f"Support Card {command.card} is not in your hand")
    if SUPPORTS[command.card].effect != "move_unit":
        raise RuleError(TitansReason.BAD_SET, "that card is not a Move 1 Unit card")
    if battle["sides"][role]["moved_in"]:
        raise RuleError(TitansReason.ALREADY_USED,
                        "only 1 Move 1 Unit card may be played by a player in a Battle")
    if not requirement_met(battle, role, command.card):
        raise RuleError(TitansReason.REQUIREMENT, "the card's requirement is not met")
    if command.origin not in move_origins(game, battle, seat, command.unit):
        raise RuleError(TitansReason.NO_UNITS, f"no {command.unit} of yours can join from "
                        f"{command.origin}")


def reaction_for(game: State, battle: Mapping[str, Any], role: str, seat: int,
                 unit: str, origin: str) -> str | None:
    """Who may react to a unit joining: the opponent, his stage over, with a
    [1 / Battle] Nation Card usable now that was not before."""
    them = other(role)
    if not stage_done(battle, them):
        return None
    before = usable_battle_cards(game, battle, them)
    after_battle = copy.deepcopy(dict(battle))
    after_battle["sides"][role]["troops"].append({"unit": unit, "from": origin})
    after = usable_battle_cards(game, after_battle, them)
    return them if set(after) - set(before) else None


def run_play_move_unit(game: State, seat: int, command: PlayMoveUnit) -> None:
    battle = game.battle
    assert battle is not None
    role = role_of(battle, seat)
    assert role is not None
    side = battle["sides"][role]
    rolled = ([TABLES.dice.roll(command.unit, game.roll)]
              if side["reserve"].get(command.unit, 0) else [])
    token = regions.leaves_empty(game, command.origin, seat, {command.unit: 1}) and not (
        regions.is_capitol_of(game, command.origin, seat))
    game.emit("SupportPlayed", seat=seat, region=battle["region"], role=role,
              cards=[command.card], effect="move_unit", dice=rolled, strength=0,
              unit=command.unit, origin=command.origin, token=token,
              reaction=reaction_for(game, battle, role, seat, command.unit, command.origin))


def legal_play_move_unit(game: State, seat: int) -> list[Command]:
    try:
        battle, role = require_stage(game, seat)
    except RuleError:
        return []
    if battle["sides"][role]["moved_in"]:
        return []
    out: list[Command] = []
    for card in sorted(game.hands[seat]):
        if SUPPORTS[card].effect != "move_unit" or not requirement_met(battle, role, card):
            continue
        for unit in ("infantry", "cavalry", "artillery", "titan"):
            out.extend(PlayMoveUnit(card=card, unit=unit, origin=o)
                       for o in move_origins(game, battle, seat, unit))
    return out


# ------------------------------------------------------- re-rolls


def check_discard_to_reroll(game: State, seat: int, command: DiscardToReroll) -> None:
    battle, role = require_stage(game, seat)
    if command.card not in game.hands[seat]:
        raise RuleError(TitansReason.NOT_HELD, f"Support Card {command.card} is not in your hand")
    if not battle["sides"][role]["pool"]:
        raise RuleError(Reason.ILLEGAL_MOVE, "your pool has no dice to re-roll")


def run_discard_to_reroll(game: State, seat: int, command: DiscardToReroll) -> None:
    cards.discard(game, seat, [command.card], why="reroll")


def legal_discard_to_reroll(game: State, seat: int) -> list[Command]:
    try:
        battle, role = require_stage(game, seat)
    except RuleError:
        return []
    if not battle["sides"][role]["pool"]:
        return []
    return [DiscardToReroll(card=c) for c in sorted(game.hands[seat])]


def check_reroll_dice(game: State, seat: int, command: RerollDice) -> None:
    battle = game.battle
    if battle is None or not battle.get("reroll"):
        raise RuleError(Reason.WRONG_PHASE, "discard a Support Card first (discard_to_reroll)")
    pool = battle["sides"][battle["reroll"]]["pool"]
    if battle["sides"][battle["reroll"]]["seat"] != seat:
        raise RuleError(Reason.NOT_YOUR_TURN, "the other player re-rolls")
    picked = command.dice
    if not picked or len(set(picked)) != len(picked) or any(
            not 0 <= i < len(pool) for i in picked):
        raise RuleError(Reason.BAD_ARGUMENT,
                        f"choose dice of your pool by index 0..{len(pool) - 1}")


def run_reroll_dice(game: State, seat: int, command: RerollDice) -> None:
    battle = game.battle
    assert battle is not None
    role = str(battle["reroll"])
    before = battle["sides"][role]["pool"]
    after = TABLES.dice.reroll(before, command.dice, game.roll)
    game.emit("DiceRerolled", seat=seat, region=battle["region"], role=role,
              dice=sorted(command.dice), before=[dict(d) for d in before], pool=after)


def legal_reroll_dice(game: State, seat: int) -> list[Command]:
    battle = game.battle
    if battle is None or not battle.get("reroll"):
        return []
    side = battle["sides"][battle["reroll"]]
    if side["seat"] != seat:
        return []
    return [RerollDice(dice=s) for s in dice.reroll_subsets(side["pool"])]


# ------------------------------------------------------- Nation Cards and abilities


def usable_battle_cards(game: State, battle: Mapping[str, Any], role: str,
                        timings: tuple[str, ...] = ("battle",)) -> list[int]:
    side = battle["sides"][role]
    seat = int(side["seat"])
    out = []
    for card in game.nation_cards[seat]:
        spec = NATION_CARDS[card]
        if spec.timing not in timings:
            continue
        if spec.timing == "battle" and card in side["used"]:
            continue
        if spec.timing == "round" and card in game.rotated[seat]:
            continue
        if abilities.usable(battle, role, spec.ability):
            out.append(card)
    return sorted(out)


def reacting(game: State, seat: int) -> str | None:
    battle = game.battle
    if battle is None or not battle.get("reaction"):
        return None
    role = str(battle["reaction"])
    return role if battle["sides"][role]["seat"] == seat else None


def check_use_nation_card(game: State, seat: int, command: UseNationCard) -> None:
    role = reacting(game, seat)
    timings: tuple[str, ...] = ("battle",)
    if role is None:
        _battle, role = require_stage(game, seat)
        timings = ("battle", "round")
    battle = game.battle
    assert battle is not None
    if command.card not in game.nation_cards[seat]:
        raise RuleError(TitansReason.NOT_HELD, f"Nation Card {command.card} is not yours")
    if command.card not in usable_battle_cards(game, battle, role, timings):
        raise RuleError(TitansReason.REQUIREMENT, f"{NATION_CARDS[command.card].name} cannot be "
                        "used now (already used, always on, or its requirement is not met)")


def use_effect(game: State, seat: int, event: str, effect: Mapping[str, Any],
               **facts: Any) -> None:
    """Decide: roll what the effect rolls, record its use, then draw what it draws."""
    battle = game.battle
    assert battle is not None
    role = role_of(battle, seat)
    assert role is not None
    result = abilities.outcome(game, role, effect)
    game.emit(event, seat=seat, region=battle["region"], role=role, effect=effect["kind"],
              **facts, **result)
    if result["draw"]:
        cards.draw(game, seat, int(result["draw"]), why="ability")


def run_use_nation_card(game: State, seat: int, command: UseNationCard) -> None:
    spec = NATION_CARDS[command.card]
    use_effect(game, seat, "NationCardUsed", spec.ability.effect, card=command.card,
               timing=spec.timing)


def legal_use_nation_card(game: State, seat: int) -> list[Command]:
    role = reacting(game, seat)
    timings: tuple[str, ...] = ("battle",)
    if role is None:
        try:
            _battle, role = require_stage(game, seat)
        except RuleError:
            return []
        timings = ("battle", "round")
    assert game.battle is not None
    return [UseNationCard(card=c) for c in usable_battle_cards(game, game.battle, role, timings)]


def titan_usable(game: State, seat: int) -> bool:
    try:
        battle, role = require_stage(game, seat)
    except RuleError:
        return False
    side = battle["sides"][role]
    ability = NATIONS[game.nations[seat]].titan_ability
    return (not side["titan_used"] and TITAN in abilities.army(side)
            and abilities.usable(battle, role, ability))


def check_use_titan_ability(game: State, seat: int, command: UseTitanAbility) -> None:
    require_stage(game, seat)
    if not titan_usable(game, seat):
        raise RuleError(TitansReason.REQUIREMENT, "the Titan Special Ability needs your Titan in "
                        "the Battle, once per Battle, and something to do")


def run_use_titan_ability(game: State, seat: int, command: UseTitanAbility) -> None:
    ability = NATIONS[game.nations[seat]].titan_ability
    use_effect(game, seat, "TitanAbilityUsed", ability.effect, name=ability.name)


def legal_use_titan_ability(game: State, seat: int) -> list[Command]:
    return [UseTitanAbility()] if titan_usable(game, seat) else []


def nation_ability_usable(game: State, seat: int) -> bool:
    try:
        battle, role = require_stage(game, seat)
    except RuleError:
        return False
    ability = NATIONS[game.nations[seat]].starting_ability
    return not battle["sides"][role]["ability_used"] and abilities.usable(battle, role, ability)


def check_use_nation_ability(game: State, seat: int, command: UseNationAbility) -> None:
    require_stage(game, seat)
    if not nation_ability_usable(game, seat):
        raise RuleError(TitansReason.REQUIREMENT, "the Nation Starting Ability is used once per "
                        "Battle, its requirement met")


def run_use_nation_ability(game: State, seat: int, command: UseNationAbility) -> None:
    ability = NATIONS[game.nations[seat]].starting_ability
    use_effect(game, seat, "NationAbilityUsed", ability.effect, name=ability.name)


def legal_use_nation_ability(game: State, seat: int) -> list[Command]:
    return [UseNationAbility()] if nation_ability_usable(game, seat) else []


# ------------------------------------------------------- ending a stage


def check_end_stage(game: State, seat: int, command: EndStage) -> None:
    require_stage(game, seat)


def run_end_stage(game: State, seat: int, command: EndStage) -> None:
    battle = game.battle
    assert battle is not None
    game.emit("StageEnded", seat=seat, region=battle["region"], role=stage_role(battle))


def legal_end_stage(game: State, seat: int) -> list[Command]:
    try:
        require_stage(game, seat)
    except RuleError:
        return []
    return [EndStage()]


def check_decline(game: State, seat: int, command: Decline) -> None:
    if reacting(game, seat) is None:
        raise RuleError(Reason.WRONG_PHASE, "nothing to decline")


def run_decline(game: State, seat: int, command: Decline) -> None:
    assert game.battle is not None
    game.emit("ReactionDeclined", seat=seat, region=game.battle["region"],
              role=reacting(game, seat))


def legal_decline(game: State, seat: int) -> list[Command]:
    return [Decline()] if reacting(game, seat) is not None else []


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
        return (steps.DESTROY, seat) if len(destroy_options(battle)) > 1 else None
    if must_withdraw(game) and loser_role(battle) == "defender" and len(
            withdraw_options(game)) > 1:
        return steps.WITHDRAW, seat
    return None
