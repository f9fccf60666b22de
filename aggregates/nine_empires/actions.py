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

from typing import Any

from aggregates.kernel import Command
from aggregates.kernel import flow as kflow
from aggregates.kernel.abilities import expire
from aggregates.kernel.cards import PLAY
from aggregates.nine_empires import frames
from aggregates.nine_empires import table as t
from aggregates.nine_empires.commands import Pass
from aggregates.nine_empires.state import State

PHASES = ("spring", "summer", "autumn", "winter")


def to_act(state: State, passing: dict[str, Any] | None) -> int | None:
    """The seat whose action it is in a passing (None: it is over)."""
    if passing is None:
        return None
    live = [s for s in passing["order"] if s not in state.out]
    if not live or passing["passes"] >= len(live):
        return None
    order = passing["order"]
    for k in range(len(order)):
        seat = order[(passing["at"] + k) % len(order)]
        if seat not in state.out:
            return int(seat)
    return None


def _advance(state: State, frame: dict[str, Any], passed: bool) -> None:
    """Evolve: the seat to act acted (the run of passes restarts) or passed;
    the next seat still in the game has the action (``kflow.after_*``)."""
    seat = to_act(state, frame)
    if seat is not None:
        frame["at"] = frame["order"].index(seat)
    (kflow.after_pass if passed else kflow.after_action)(frame)


def current_passing(state: State) -> dict[str, Any] | None:
    """The passing actions go to now: the battle's or raid's, else the phase's."""
    c = state.conflict
    if c is not None and c.get("step") != "actions":
        return None
    return frames.passing(state)


def acting_seat(state: State) -> int | None:
    return to_act(state, current_passing(state))


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
    from aggregates.nine_empires import abilities

    abilities.fire(state, "SpringBegan", {})


def begin_phase(state: State, phase: str) -> None:
    """Summer and Autumn: passing from the Ordained, clockwise."""
    state.emit("PhaseBegan", phase=phase, turn=state.turn,
               order=t.order_from(state, state.ordained))


def end_phase(state: State) -> None:
    """All passed in a row: Summer gives way to Autumn, Autumn to Winter."""
    state.emit("PhaseEnded", phase=state.phase, turn=state.turn)


def phase_over(state: State) -> bool:
    return (state.phase in ("summer", "autumn") and state.conflict is None
            and not state.stack and to_act(state, frames.passing(state)) is None)


# --------------------------------------------------------------- evolve

def passed(state: State, where: str) -> None:
    frame = frames.passing(state)
    if frame is not None:
        _advance(state, frame, True)


def acted(state: State) -> None:
    """The seat to act took an action (not a React): the next seat's turn."""
    frame = current_passing(state)
    if frame is not None:
        _advance(state, frame, False)


def turn_began(state: State, turn: int) -> None:
    state.turn = turn
    state.attacked = []
    state.raided = []


def spring_began(state: State, straightened: list[str]) -> None:
    kflow.enter(state, "spring")
    for iid in straightened:
        if state.instances[iid]["zone"] == PLAY:
            state.instances[iid]["bowed"] = False


def phase_began(state: State, phase: str, order: list[int]) -> None:
    kflow.enter(state, phase)
    kflow.push(state, kflow.passing(order))


def phase_ended(state: State) -> None:
    kflow.pop(state, "passing")
    state.lasting = expire(state.lasting, "phase")
