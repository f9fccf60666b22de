"""Turn Order, and actions passed around the table until all pass in a row.

There are no player turns: each turn (a year) is Spring, Summer, Autumn and
Winter; in each phase, beginning with the Ordained and proceeding clockwise,
each player may take one action at a time or pass, and a player who passed may
act again later. When all players pass consecutively, the phase ends (Turn
Order). A battle or raid is resolved the same way, beginning with the defender
(Battle Action & Resolution).

A passing is a frame on the kernel's stack (``kflow.passing``: ``order``,
``at``, ``passes``); the seat to act is the first seat still in the game from
``at``, and the run of passes counts the seats still in.
"""

from __future__ import annotations

from aggregates.kernel import Command
from aggregates.nine_empires import card_effects, turn_order
from aggregates.nine_empires import cards as t
from aggregates.nine_empires.commands import Pass
from aggregates.nine_empires.state import State

PHASES = ("spring", "summer", "autumn", "winter")


# ------------------------------------------------------------------ passing

def check_pass(state: State, seat: int, command: Pass) -> None:
    """Passing is always allowed to the seat asked (a decision the kernel routes)."""


def run_pass(state: State, seat: int, command: Pass) -> None:
    where = "conflict" if state.conflict is not None else "phase"
    state.emit("Passed", seat=seat, where=where, forced=False)


def legal_pass(state: State, seat: int) -> list[Command]:
    return [Pass()]


# ------------------------------------------------------------------- phases

def begin_turn(state: State) -> None:
    """A new year: Spring straightens every card, then Spring effects apply."""
    turn = state.turn + 1
    state.emit("TurnBegan", turn=turn, ordained=state.ordained)
    bowed = [i["id"] for i in t.table(state).in_play() if i["bowed"]]
    state.emit("SpringBegan", turn=turn, straightened=bowed)
    card_effects.fire(state, "SpringBegan", {})


def begin_phase(state: State, phase: str) -> None:
    """Summer and Autumn: passing from the Ordained, clockwise."""
    state.emit("PhaseBegan", phase=phase, turn=state.turn,
               order=t.order_from(state, state.ordained))


def end_phase(state: State) -> None:
    """All passed in a row: Summer gives way to Autumn, Autumn to Winter."""
    state.emit("PhaseEnded", phase=state.phase, turn=state.turn)


def phase_over(state: State) -> bool:
    return (state.phase in ("summer", "autumn") and state.conflict is None
            and not state.stack and turn_order.to_act(state, turn_order.passing(state)) is None)
