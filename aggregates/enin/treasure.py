"""The Treasure Card: gold by the handful to the chest, or a magic item of your
choice (one of each at most)."""

from __future__ import annotations

from aggregates.enin.character import gold_after, hp_after, luck_after
from aggregates.enin.commands import ChooseTreasure
from aggregates.enin.data import MAGIC_ITEMS, TABLES, TreasureRow, lookup
from aggregates.enin.quest import after_action
from aggregates.enin.reasons import EninReason
from aggregates.enin.state import FIND_RECORDED, EninState
from aggregates.kernel import Command, Reason, RuleError


def roll_treasure(state: EninState, count: int) -> None:
    """Roll ``count`` times on the Treasure Card, stopping when a magic item is to be
    chosen (the roll that finds it names the choices and enters the choice);
    then the encounter (if any) ends and the action is done."""
    left = count
    while left > 0:
        roll = state.roll(10)
        row: TreasureRow = lookup(TABLES.treasure, roll)
        left -= 1
        # A magic find names what may be chosen: none when all four are held.
        choices = [] if row.dice is not None else [
            i for i in MAGIC_ITEMS if i not in state.magic_items]
        state.emit("TreasureRolled", roll=roll, find=row.find, left=left, choices=choices)
        if row.dice is not None:
            dice = [state.roll(s) for s in row.dice.sides]
            amount = row.dice.total(dice)
            state.emit("GoldFound", dice=dice, amount=amount,
                       gold=gold_after(state.gold, amount))
        elif choices:  # the roll enters the choice (1.0.0 and 1.1.0 recorded it again)
            if FIND_RECORDED in state.earlier:
                state.emit("MagicItemFound", choices=choices)
            return
    if state.encounter is not None:
        state.emit("EncounterEnded")
    after_action(state)


def check_choose(state: EninState, seat: int, command: ChooseTreasure) -> None:
    if command.item not in MAGIC_ITEMS:
        raise RuleError(Reason.BAD_ARGUMENT, f"{command.item!r} is not a magic item")
    if command.item in state.magic_items:
        raise RuleError(EninReason.ALREADY_HELD, "you may only own one of each magic item")


def choose(state: EninState, seat: int, command: ChooseTreasure) -> None:
    """Take the item; the Helm's +2 HP and the Ring's +2 luck come once, now."""
    item = TABLES.magic_items[command.item]
    state.emit("MagicItemChosen", item=item.item, hp=hp_after(state.hp, item.hp),
               luck=luck_after(state.luck, item.luck), hp_gained=item.hp,
               luck_gained=item.luck)
    roll_treasure(state, state.treasure_left)


def legal_choose(state: EninState, seat: int) -> list[Command]:
    return [ChooseTreasure(item=i) for i in MAGIC_ITEMS if i not in state.magic_items]
