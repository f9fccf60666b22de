"""Questing Phase: the location charts (rest, encounters, bandits, treasure,
traps), and the Imp's choice."""

from __future__ import annotations

from aggregates.enin import combat, treasure
from aggregates.enin.character import gold_after, hp_after, resists_poison
from aggregates.enin.commands import LoseItem, Quest
from aggregates.enin.data import MAGIC_ITEMS, TABLES, ChartRow, Trap, lookup
from aggregates.enin.quest import after_action
from aggregates.enin.reasons import EninReason
from aggregates.enin.state import PROGRESS_RECORDED, EninState
from aggregates.kernel import Command, Reason, RuleError


def check_quest(state: EninState, seat: int, command: Quest) -> None:
    """Only in the Questing Phase away from town (the flow checks it)."""


def quest(state: EninState, seat: int, command: Quest) -> None:
    """Roll 1D10 on the chart of the current Location Card and do what it says."""
    assert state.location is not None
    roll = state.roll(10)
    row: ChartRow = lookup(TABLES.location(state.location).chart, roll)
    state.emit("QuestRolled", roll=roll, action=row.action)
    if row.action == "rest":
        state.emit("Rested", hp=hp_after(state.hp, row.hp), amount=row.hp)
        after_action(state)
    elif row.action == "encounter":
        combat.meet_on_card(state, row.card)
    elif row.action == "monster":
        combat.meet_monster(state, row.monster)
    elif row.action == "bandits":
        assert row.dice is not None
        dice = [state.roll(sides) for sides in row.dice.sides]
        amount = row.dice.total(dice)
        state.emit("Robbed", dice=dice, amount=amount, gold=gold_after(state.gold, -amount))
        after_action(state)
    elif row.action == "treasure":
        treasure.roll_treasure(state, row.count)
    elif row.action == "trap":
        spring_trap(state)
    else:  # pragma: no cover - the data loader refuses other actions
        raise AssertionError(row.action)


def spring_trap(state: EninState) -> None:
    """The Lost Wastes' 0: roll 1D6 on the trap list."""
    roll = state.roll(TABLES.trap_dice.sides[0])
    trap: Trap = lookup(TABLES.traps, roll)
    # The Imp's trap names what it may take: nothing when no magic item is held.
    takeable = list(state.magic_items) if trap.trap == "imp" else []
    state.emit("TrapSprung", roll=roll, trap=trap.trap, takeable=takeable)
    if trap.trap == "poison_gas":
        if not resists_poison(state) and not state.poisoned:
            state.emit("Poisoned")
    elif trap.trap == "spiked_pit":
        state.emit("Wounded", amount=trap.hp, hp=hp_after(state.hp, -trap.hp))
        if state.hp == 0:
            return
    elif takeable:  # the Imp's choice waits (``TrapSprung`` entered it)
        if PROGRESS_RECORDED in state.earlier:
            state.emit("ImpStruck")
        return
    after_action(state)


def check_lose_item(state: EninState, seat: int, command: LoseItem) -> None:
    if command.item not in MAGIC_ITEMS:
        raise RuleError(Reason.BAD_ARGUMENT, f"{command.item!r} is not a magic item")
    if command.item not in state.magic_items:
        raise RuleError(EninReason.NOT_HELD,
                        f"you do not hold the {TABLES.magic_items[command.item].name}")


def lose_item(state: EninState, seat: int, command: LoseItem) -> None:
    state.emit("ItemLost", item=command.item)
    after_action(state)


def legal_quest(state: EninState, seat: int) -> list[Command]:
    return [Quest()]


def legal_lose_item(state: EninState, seat: int) -> list[Command]:
    return [LoseItem(item=i) for i in MAGIC_ITEMS if i in state.magic_items]
