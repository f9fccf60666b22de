"""Combat: the Encounter Cards, the 2D10 attack, luck and the Shield of Nines,
damage and poison, fighting on or fleeing, and XP for a defeated monster."""

from __future__ import annotations

from typing import Any

from aggregates.enin import state as s
from aggregates.enin import treasure
from aggregates.enin.character import (
    attack_modifier,
    has_reroll,
    hp_after,
    level_for,
    level_hp_bonus,
    resists_poison,
    xp_after,
)
from aggregates.enin.commands import AcceptRoll, Attack, Flee, Reroll, SpendLuck
from aggregates.enin.data import TABLES, Dice, Monster, lookup
from aggregates.enin.quest import after_action
from aggregates.enin.reasons import EninReason
from aggregates.enin.state import EninState
from aggregates.kernel import Command, Reason, RuleError

# ----------------------------------------------------------------- meeting


def meet_on_card(state: EninState, card: str) -> None:
    """Roll 1D10 on the Encounter Card's band for your current level."""
    roll = state.roll(10)
    monster: Monster = lookup(TABLES.encounter_cards[card][state.level], roll)
    state.emit("MonsterMet", card=card, level=state.level, roll=roll,
               monster=monster.as_state())


def meet_monster(state: EninState, key: str) -> None:
    """A monster named on the Location Card itself (the Dragon): no further roll."""
    monster = TABLES.monsters[key]
    state.emit("MonsterMet", card=key, level=state.level, roll=None, monster=monster.as_state())


def foe(state: EninState) -> dict[str, Any]:
    assert state.encounter is not None
    monster: dict[str, Any] = state.encounter["monster"]
    return monster


# ------------------------------------------------------------------ attack


def check_attack(state: EninState, seat: int, command: Attack) -> None:
    """In combat, or to fight on after a lost exchange (the flow checks it)."""


def attack(state: EninState, seat: int, command: Attack) -> None:
    state.emit("AttackRolled", dice=state.roll_dice(2, 10))


def adjusted(die: dict[str, int]) -> int:
    return die["rolled"] + die["luck"]


# -------------------------------------------------------- luck and shield


def check_die(state: EninState, die: int) -> None:
    if not 0 <= die < len(state.table):
        raise RuleError(EninReason.NO_SUCH_DIE,
                        f"there is no die {die}; the table holds {len(state.table)} "
                        f"(dice are numbered from 0)")


def check_spend_luck(state: EninState, seat: int, command: SpendLuck) -> None:
    check_die(state, command.die)
    if command.amount == 0:
        raise RuleError(Reason.BAD_ARGUMENT, "spend at least one point of luck (+ or -)")
    if abs(command.amount) > state.luck:
        raise RuleError(EninReason.NOT_ENOUGH_LUCK,
                        f"you have {state.luck} luck, not {abs(command.amount)}")
    if adjusted(state.table[command.die]) + command.amount < 0:
        raise RuleError(Reason.ILLEGAL_MOVE,
                        f"a die cannot be brought below 0 (die {command.die} shows "
                        f"{adjusted(state.table[command.die])})")


def spend_luck(state: EninState, seat: int, command: SpendLuck) -> None:
    state.emit("LuckSpent", die=command.die, amount=command.amount,
               luck=state.luck - abs(command.amount))


def check_reroll(state: EninState, seat: int, command: Reroll) -> None:
    check_die(state, command.die)
    if not has_reroll(state):
        raise RuleError(EninReason.NOT_HELD, "only the Shield of Nines gives a re-roll")
    if state.shield_used:
        raise RuleError(EninReason.SHIELD_USED,
                        "the Shield of Nines was already used in this encounter")


def reroll(state: EninState, seat: int, command: Reroll) -> None:
    state.emit("Rerolled", die=command.die, value=state.roll(10))


def check_accept_roll(state: EninState, seat: int, command: AcceptRoll) -> None:
    """Only with dice on the table (the flow checks it)."""


def accept_roll(state: EninState, seat: int, command: AcceptRoll) -> None:
    if state.stage == s.ATTACK_ROLL:
        resolve_attack(state)
    else:
        die = state.table[0]
        gain_xp(state, [die["rolled"]], [adjusted(die)], adjusted(die))
        treasure.roll_treasure(state, foe(state)["treasure"])


def resolve_attack(state: EninState) -> None:
    """Attack total against ATT: win (XP, treasure) or lose DAM (and maybe poison)."""
    monster = foe(state)
    rolled = [d["rolled"] for d in state.table]
    dice = [adjusted(d) for d in state.table]
    modifier = attack_modifier(state)
    total = sum(dice) + modifier
    if total >= monster["att"]:
        state.emit("ExchangeWon", rolled=rolled, dice=dice, modifier=modifier, total=total,
                   att=monster["att"], strength_bonus=0)
        award_xp(state, monster)
        return
    dam = Dice.parse(monster["dam"])
    damage_dice = [state.roll(sides) for sides in dam.sides]
    damage = dam.total(damage_dice)
    state.emit("ExchangeLost", rolled=rolled, dice=dice, modifier=modifier, total=total,
               att=monster["att"], strength_bonus=0, damage_dice=damage_dice, damage=damage,
               hp=hp_after(state.hp, -damage))
    if monster["poisons"] and not resists_poison(state) and not state.poisoned:
        state.emit("Poisoned")


# ---------------------------------------------------------------- victory


def award_xp(state: EninState, monster: dict[str, Any]) -> None:
    """Fixed XP, or rolled XP; a lone D10 waits for luck/the Shield first."""
    spec = Dice.parse(monster["xp"])
    if spec.single_d10:
        state.emit("XpRolled", value=state.roll(10))
        return
    dice = [state.roll(sides) for sides in spec.sides]
    gain_xp(state, dice, dice, spec.total(dice))
    treasure.roll_treasure(state, monster["treasure"])


def gain_xp(state: EninState, rolled: list[int], dice: list[int], amount: int) -> None:
    """Gain XP; each new level reached gives +1 HP at once. ``rolled``: the XP
    dice as they fell; ``dice``: as they count, luck included (as in an attack)."""
    state.emit("XpGained", rolled=rolled, dice=dice, amount=amount,
               xp=xp_after(state.xp, amount))
    for level in range(state.level + 1, level_for(state.xp) + 1):
        bonus = level_hp_bonus(level)
        state.emit("LevelGained", level=level, hp=hp_after(state.hp, bonus), hp_gained=bonus)


# ------------------------------------------------------------------ flight


def check_flee(state: EninState, seat: int, command: Flee) -> None:
    """Only after a lost exchange (the flow checks it)."""


def flee(state: EninState, seat: int, command: Flee) -> None:
    penalty = foe(state)["flee"]
    state.emit("Fled", penalty=penalty, hp=hp_after(state.hp, -penalty))
    if state.hp > 0:
        after_action(state)


# ------------------------------------------------------------------ legal


def legal_attack(state: EninState, seat: int) -> list[Command]:
    return [Attack()]


def legal_flee(state: EninState, seat: int) -> list[Command]:
    return [Flee()]


def legal_accept_roll(state: EninState, seat: int) -> list[Command]:
    """Standing on the dice comes first (a menu's option 1)."""
    return [AcceptRoll()]


def legal_reroll(state: EninState, seat: int) -> list[Command]:
    if has_reroll(state) and not state.shield_used:
        return [Reroll(die=i) for i in range(len(state.table))]
    return []


def luck_range(state: EninState, die: int) -> tuple[int, int]:
    """The luck that may go on ``die``: down to 0 on the die, up to the luck held."""
    return -min(state.luck, adjusted(state.table[die])), state.luck


def legal_spend_luck(state: EninState, seat: int) -> list[Command]:
    """Luck on each die: +1.. up to the luck held, then -1.. down to 0 on the die."""
    actions: list[Command] = []
    for i in range(len(state.table)):
        low, high = luck_range(state, i)
        actions.extend(SpendLuck(die=i, amount=a) for a in range(1, high + 1))
        actions.extend(SpendLuck(die=i, amount=-a) for a in range(1, -low + 1))
    return actions
