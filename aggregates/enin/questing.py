"""Questing Phase: the location charts (rest, encounters, bandits, treasure,
traps), and what follows the action (a quest attempt or the end of the turn)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aggregates.enin import combat, treasure
from aggregates.enin import quest as quest_items
from aggregates.enin import rules as r
from aggregates.enin.character import gold_after, hp_after, resists_poison
from aggregates.enin.commands import LoseItem, Quest
from aggregates.enin.data import MAGIC_ITEMS, TABLES, ChartRow, Trap, lookup
from aggregates.kernel import Command, Reason

if TYPE_CHECKING:
    from aggregates.enin.game import Enin


def check_quest(game: Enin, command: Quest) -> None:
    if game.stage == r.TOWN:
        r.refuse(Reason.WRONG_PHASE,
                 "in the Nigh Towns you buy an item, try to steal the Key, or leave")
    r.require_stage(game.stage, (r.QUESTING,), "rolling on the location chart")


def quest(game: Enin, command: Quest) -> None:
    """Roll 1D10 on the chart of the current Location Card and do what it says."""
    assert game.location is not None
    roll = game.roll(10)
    row: ChartRow = lookup(TABLES.location(game.location).chart, roll)
    game._quest_rolled(roll=roll, action=row.action)
    if row.action == "rest":
        game._rested(hp=hp_after(game.hp, row.hp))
        after_action(game)
    elif row.action == "encounter":
        combat.meet_on_card(game, row.card)
    elif row.action == "monster":
        combat.meet_monster(game, row.monster)
    elif row.action == "bandits":
        assert row.dice is not None
        dice = [game.roll(s) for s in row.dice.sides]
        amount = row.dice.total(dice)
        game._robbed(dice=dice, amount=amount, gold=gold_after(game.gold, -amount))
        after_action(game)
    elif row.action == "treasure":
        treasure.roll_treasure(game, row.count)
    elif row.action == "trap":
        spring_trap(game)
    else:  # pragma: no cover - the data loader refuses other actions
        raise AssertionError(row.action)


def spring_trap(game: Enin) -> None:
    """The Lost Wastes' 0: roll 1D6 on the trap list."""
    roll = game.roll(TABLES.trap_dice.sides[0])
    trap: Trap = lookup(TABLES.traps, roll)
    game._trap_sprung(roll=roll, trap=trap.trap)
    if trap.trap == "poison_gas":
        if not resists_poison(game) and not game.poisoned:
            game._poisoned()
    elif trap.trap == "spiked_pit":
        game._wounded(amount=trap.hp, hp=hp_after(game.hp, -trap.hp))
        if game.hp == 0:
            return
    elif trap.trap == "imp" and game.magic_items:
        game._imp_struck()
        return
    after_action(game)


def check_lose_item(game: Enin, command: LoseItem) -> None:
    if command.item not in MAGIC_ITEMS:
        r.refuse(Reason.BAD_ARGUMENT, f"{command.item!r} is not a magic item")
    r.require_stage(game.stage, (r.LOSE_ITEM,), "losing an item to the Imp")
    if command.item not in game.magic_items:
        r.refuse(Reason.NOT_HELD, f"you do not hold the {TABLES.magic_items[command.item].name}")


def lose_item(game: Enin, command: LoseItem) -> None:
    game._item_lost(item=command.item)
    after_action(game)


def after_action(game: Enin) -> None:
    """The action is done: offer the quest attempt if you hold what it needs, else
    "you do nothing further and your Questing Phase is done"."""
    item = quest_items.attempt_possible(game)
    if item:
        game._quest_attempt_offered(item=item)
    else:
        game._turn_ended(turn=game.turn + 1)


def legal_quest(game: Enin) -> list[Command]:
    return [Quest()]


def legal_lose_item(game: Enin) -> list[Command]:
    return [LoseItem(item=i) for i in MAGIC_ITEMS if i in game.magic_items]
