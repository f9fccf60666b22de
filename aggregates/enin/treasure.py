"""The Treasure Card: gold by the handful to the chest, or a magic item of your
choice (one of each at most)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aggregates.enin import rules as r
from aggregates.enin.character import gold_after, hp_after, luck_after
from aggregates.enin.commands import ChooseTreasure
from aggregates.enin.data import MAGIC_ITEMS, TABLES, TreasureRow, lookup
from aggregates.kernel import Command, Reason

if TYPE_CHECKING:
    from aggregates.enin.game import Enin


def roll_treasure(game: Enin, count: int) -> None:
    """Roll ``count`` times on the Treasure Card, stopping when a magic item is to be
    chosen; then the encounter (if any) ends and the action is done."""
    from aggregates.enin.questing import after_action

    left = count
    while left > 0:
        roll = game.roll(10)
        row: TreasureRow = lookup(TABLES.treasure, roll)
        left -= 1
        game._treasure_rolled(roll=roll, find=row.find, left=left)
        if row.dice is not None:
            dice = [game.roll(s) for s in row.dice.sides]
            amount = row.dice.total(dice)
            game._gold_found(dice=dice, amount=amount, gold=gold_after(game.gold, amount))
        else:
            choices = [i for i in MAGIC_ITEMS if i not in game.magic_items]
            if choices:
                game._magic_item_found(choices=choices)
                return
    if game.encounter is not None:
        game._encounter_ended()
    after_action(game)


def check_choose(game: Enin, command: ChooseTreasure) -> None:
    if command.item not in MAGIC_ITEMS:
        r.refuse(Reason.BAD_ARGUMENT, f"{command.item!r} is not a magic item")
    r.require_stage(game.stage, (r.CHOOSE_TREASURE,), "choosing a magic item")
    if command.item in game.magic_items:
        r.refuse(Reason.ALREADY_HELD, "you may only own one of each magic item")


def choose(game: Enin, command: ChooseTreasure) -> None:
    """Take the item; the Helm's +2 HP and the Ring's +2 luck come once, now."""
    item = TABLES.magic_items[command.item]
    game._magic_item_chosen(item=item.item, hp=hp_after(game.hp, item.hp),
                            luck=luck_after(game.luck, item.luck))
    roll_treasure(game, game.treasure_left)


def legal_choose(game: Enin) -> list[Command]:
    return [ChooseTreasure(item=i) for i in MAGIC_ITEMS if i not in game.magic_items]
