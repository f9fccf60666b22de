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
from aggregates.nine_empires.state import EARLIER_PROGRESS, State

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
    """A new year: Spring straightens every card, then Spring effects apply.
    By rules 1.5.0 the Spring opens the Summer: ``SpringBegan`` enters it
    (``turn_order.spring_began``)."""
    turn = state.turn + 1
    state.emit("TurnBegan", turn=turn, ordained=state.ordained)
    bowed = [i["id"] for i in t.table(state).in_play() if i["bowed"]]
    state.emit("SpringBegan", turn=turn, straightened=bowed)
    card_effects.fire(state, "SpringBegan", {})


def new_turn(state: State) -> str:
    """The phase a new turn begins with: the Summer, whose beginning is the
    Spring's (``begin_summer``); rules 1.4.0 and before ran the Spring as a
    phase of its own before it."""
    return "spring" if EARLIER_PROGRESS in state.EARLIER else "summer"


def begin_summer(state: State) -> None:
    """Each turn's Summer: the year's Spring, whose ``SpringBegan`` enters it
    (rules 1.4.0 and before: the Spring was over, ``PhaseBegan`` entered it)."""
    if EARLIER_PROGRESS in state.EARLIER:
        begin_phase(state, "summer")
    else:
        begin_turn(state)


def begin_phase(state: State, phase: str) -> None:
    """Summer and Autumn: passing from the Ordained, clockwise. Rules 1.4.0 and
    before record it (``PhaseBegan``); 1.5.0 reads it from the event before
    (the Spring's ``SpringBegan``, the Summer's ``PhaseEnded``), so the Autumn
    is entered before its begin."""
    if EARLIER_PROGRESS in state.EARLIER:
        state.emit("PhaseBegan", phase=phase, turn=state.turn,
                   order=t.order_from(state, state.ordained))


def end_phase(state: State) -> None:
    """All passed in a row: Summer gives way to Autumn, Autumn to Winter (by
    rules 1.5.0 the next phase is entered by this event: ``phase_ended``)."""
    state.emit("PhaseEnded", phase=state.phase, turn=state.turn)


def phase_over(state: State) -> bool:
    return (state.phase in ("summer", "autumn") and state.conflict is None
            and not state.stack and turn_order.to_act(state, turn_order.passing(state)) is None)
