"""Combat: the Encounter Cards, the 2D10 attack, luck and the Shield of Nines,
damage and poison, fighting on or fleeing, and XP for a defeated monster."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aggregates.enin import rules as r
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
from aggregates.kernel import Command, Reason

if TYPE_CHECKING:
    from aggregates.enin.game import Enin


# ----------------------------------------------------------------- meeting

def meet_on_card(game: Enin, card: str) -> None:
    """Roll 1D10 on the Encounter Card's band for your current level."""
    roll = game.roll(10)
    monster: Monster = lookup(TABLES.encounter_cards[card][game.level], roll)
    game._monster_met(card=card, level=game.level, roll=roll, monster=monster.as_state())


def meet_monster(game: Enin, key: str) -> None:
    """A monster named on the Location Card itself (the Dragon): no further roll."""
    monster = TABLES.monsters[key]
    game._monster_met(card=key, level=game.level, roll=None, monster=monster.as_state())


def foe(game: Enin) -> dict[str, Any]:
    assert game.encounter is not None
    monster: dict[str, Any] = game.encounter["monster"]
    return monster


# ------------------------------------------------------------------ attack

def check_attack(game: Enin, command: Attack) -> None:
    r.require_stage(game.stage, (r.COMBAT, r.FIGHT_OR_FLEE), "an attack")


def attack(game: Enin, command: Attack) -> None:
    game._attack_rolled(dice=game.roll_dice(2, 10))


def adjusted(die: dict[str, int]) -> int:
    return die["rolled"] + die["luck"]


# -------------------------------------------------------- luck and shield

def check_die(game: Enin, die: int, what: str) -> None:
    r.require_stage(game.stage, r.ROLL_STAGES, what)
    if not 0 <= die < len(game.table):
        r.refuse(Reason.NO_SUCH_DIE, f"there is no die {die}; the table holds {len(game.table)}")


def check_spend_luck(game: Enin, command: SpendLuck) -> None:
    check_die(game, command.die, "spending luck")
    if command.amount == 0:
        r.refuse(Reason.BAD_ARGUMENT, "spend at least one point of luck (+ or -)")
    if abs(command.amount) > game.luck:
        r.refuse(Reason.NOT_ENOUGH_LUCK, f"you have {game.luck} luck, not {abs(command.amount)}")
    if adjusted(game.table[command.die]) + command.amount < 0:
        r.refuse(Reason.ILLEGAL_MOVE, "a die cannot be brought below 0")


def spend_luck(game: Enin, command: SpendLuck) -> None:
    game._luck_spent(die=command.die, amount=command.amount,
                     luck=game.luck - abs(command.amount))


def check_reroll(game: Enin, command: Reroll) -> None:
    check_die(game, command.die, "a re-roll")
    if not has_reroll(game):
        r.refuse(Reason.NOT_HELD, "only the Shield of Nines gives a re-roll")
    if game.shield_used:
        r.refuse(Reason.SHIELD_USED, "the Shield of Nines was already used in this encounter")


def reroll(game: Enin, command: Reroll) -> None:
    game._rerolled(die=command.die, value=game.roll(10))


def check_accept_roll(game: Enin, command: AcceptRoll) -> None:
    r.require_stage(game.stage, r.ROLL_STAGES, "standing on the dice")


def accept_roll(game: Enin, command: AcceptRoll) -> None:
    if game.stage == r.ATTACK_ROLL:
        resolve_attack(game)
    else:
        die = game.table[0]
        gain_xp(game, [die["rolled"]], adjusted(die))
        treasure.roll_treasure(game, foe(game)["treasure"])


def resolve_attack(game: Enin) -> None:
    """Attack total against ATT: win (XP, treasure) or lose DAM (and maybe poison)."""
    monster = foe(game)
    dice = [adjusted(d) for d in game.table]
    modifier = attack_modifier(game)
    total = sum(dice) + modifier
    if total >= monster["att"]:
        game._exchange_won(dice=dice, modifier=modifier, total=total, att=monster["att"])
        award_xp(game, monster)
        return
    dam = Dice.parse(monster["dam"])
    damage_dice = [game.roll(s) for s in dam.sides]
    damage = dam.total(damage_dice)
    game._exchange_lost(dice=dice, modifier=modifier, total=total, att=monster["att"],
                        damage_dice=damage_dice, damage=damage, hp=hp_after(game.hp, -damage))
    if monster["poisons"] and not resists_poison(game) and not game.poisoned:
        game._poisoned()


# ---------------------------------------------------------------- victory

def award_xp(game: Enin, monster: dict[str, Any]) -> None:
    """Fixed XP, or rolled XP; a lone D10 waits for luck/the Shield first."""
    spec = Dice.parse(monster["xp"])
    if spec.single_d10:
        game._xp_rolled(value=game.roll(10))
        return
    dice = [game.roll(s) for s in spec.sides]
    gain_xp(game, dice, spec.total(dice))
    treasure.roll_treasure(game, monster["treasure"])


def gain_xp(game: Enin, dice: list[int], amount: int) -> None:
    """Gain XP; each new level reached gives +1 HP at once."""
    game._xp_gained(dice=dice, amount=amount, xp=xp_after(game.xp, amount))
    for level in range(game.level + 1, level_for(game.xp) + 1):
        game._level_gained(level=level, hp=hp_after(game.hp, level_hp_bonus(level)))


# ------------------------------------------------------------------ flight

def check_flee(game: Enin, command: Flee) -> None:
    r.require_stage(game.stage, (r.FIGHT_OR_FLEE,), "fleeing (only after a lost exchange)")


def flee(game: Enin, command: Flee) -> None:
    from aggregates.enin.questing import after_action

    penalty = foe(game)["flee"]
    game._fled(penalty=penalty, hp=hp_after(game.hp, -penalty))
    if game.hp > 0:
        after_action(game)


# ------------------------------------------------------------------ legal

def legal_combat(game: Enin) -> list[Command]:
    return [Attack()]


def legal_fight_or_flee(game: Enin) -> list[Command]:
    return [Attack(), Flee()]


def legal_roll(game: Enin) -> list[Command]:
    """Stand on the dice first (a menu's option 1), then the Shield's re-rolls, then
    luck on each die: +1.. up to the luck held, then -1.. down to 0 on the die."""
    actions: list[Command] = [AcceptRoll()]
    if has_reroll(game) and not game.shield_used:
        actions.extend(Reroll(die=i) for i in range(len(game.table)))
    for i, die in enumerate(game.table):
        actions.extend(SpendLuck(die=i, amount=a) for a in range(1, game.luck + 1))
        lowest = min(game.luck, adjusted(die))
        actions.extend(SpendLuck(die=i, amount=-a) for a in range(1, lowest + 1))
    return actions
