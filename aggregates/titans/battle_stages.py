"""B) Resolving Battles, 2) and 3): the Defender's Battle Stage, then the
Attacker's (the other way round when the Defender holds a Stronghold or an
undamaged Capitol) (rulebook, "Battle Rules").

In his stage a player may, in any order and as often as he likes: play
Support Cards (singly or in sets), discard a Support Card to re-roll chosen
dice once, use Nation Cards (once per Battle / once per Round), the Titan
Special Ability and the Nation Starting Ability (once per Battle each). A
unit moving into the Battle rolls its die at once; the opponent, his stage
over, may then use a [1 / Battle] Nation Card that has become usable. The
Battle's reading (whose stage, its strength) is ``battles.py``'s.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from itertools import combinations
from typing import Any

from aggregates.kernel import Command, Reason, RuleError
from aggregates.kernel.abilities import Ability
from aggregates.kernel.data import Record
from aggregates.titans import abilities, cards, dice, regions
from aggregates.titans.abilities import other
from aggregates.titans.battles import (
    require_stage,
    role_of,
    stage_done,
    stage_role,
)
from aggregates.titans.commands import (
    Decline,
    DiscardToReroll,
    EndStage,
    PlayMoveUnit,
    PlaySupport,
    RerollDice,
    UseNationAbility,
    UseNationCard,
    UseTitanAbility,
)
from aggregates.titans.data import NATION_CARDS, NATIONS, SUPPORTS, TABLES, TITAN, Nation
from aggregates.titans.reasons import TitansReason
from aggregates.titans.state import State

# ------------------------------------------------------- Support Cards


def requirement_met(battle: Mapping[str, Any], role: str, card: int) -> bool:
    return abilities.met(battle, role, SUPPORTS[card].condition)


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


def use_effect(game: State, seat: int, event: str, ability: Ability, **facts: Any) -> None:
    """Decide: roll what the ability rolls, record its use, then draw what it draws."""
    battle = game.battle
    assert battle is not None
    role = role_of(battle, seat)
    assert role is not None
    result = abilities.use(game, role, ability)
    game.emit(event, seat=seat, region=battle["region"], role=role, effect=ability.verb,
              **facts, **result)
    if result["draw"]:
        cards.draw(game, seat, int(result["draw"]), why="ability")


def run_use_nation_card(game: State, seat: int, command: UseNationCard) -> None:
    spec = NATION_CARDS[command.card]
    use_effect(game, seat, "NationCardUsed", spec.ability, card=command.card,
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


class OncePerBattle(Record):
    """A Nation's ability used once per Battle, and its move's rules: the
    command using it, which ability it is, the side's flag that it was used,
    whether it needs the Titan in the army, the event recording its use, and
    the refusal's words."""

    command: type[Command]
    of: Callable[[Nation], Ability]
    used: str
    needs_titan: bool
    event: str
    refusal: str

    def usable(self, game: State, seat: int) -> bool:
        try:
            battle, role = require_stage(game, seat)
        except RuleError:
            return False
        side = battle["sides"][role]
        return (not side[self.used] and (not self.needs_titan or TITAN in abilities.army(side))
                and abilities.usable(battle, role, self.of(NATIONS[game.nations[seat]])))

    def check(self, game: State, seat: int, command: Command) -> None:
        require_stage(game, seat)
        if not self.usable(game, seat):
            raise RuleError(TitansReason.REQUIREMENT, self.refusal)

    def run(self, game: State, seat: int, command: Command) -> None:
        ability = self.of(NATIONS[game.nations[seat]])
        use_effect(game, seat, self.event, ability, name=ability.name)

    def legal(self, game: State, seat: int) -> list[Command]:
        return [self.command()] if self.usable(game, seat) else []


TITAN_ABILITY = OncePerBattle(
    UseTitanAbility, lambda nation: nation.titan_ability, "titan_used", True,
    "TitanAbilityUsed", "the Titan Special Ability needs your Titan in the Battle, once per "
    "Battle, and something to do")
STARTING_ABILITY = OncePerBattle(
    UseNationAbility, lambda nation: nation.starting_ability, "ability_used", False,
    "NationAbilityUsed", "the Nation Starting Ability is used once per Battle, its "
    "requirement met")


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
