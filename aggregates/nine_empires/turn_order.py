"""Turn Order, and the React windows of Timing: the game's frames on the
kernel's frame stack (``kernel.flow``).

- Action passing (``kflow.passing``): one frame for the Summer or Autumn
  Phase, and one over it for the battle or raid being resolved.
- The Attack Phase and the Raiding Phase: sub-phase frames over the phase in
  which they were declared (``kflow.sub_phase``).
- React windows (``kflow.reaction_window``): one over every announced ability
  and every engagement, carrying what was announced (``what``: ``ability`` or
  ``engagement``) and its facts. A React is announced with a window of its own
  pushed over the one it answered: a React to a React. Each seat in the
  window's order is asked in turn; by rules 1.7.0 a React on it sends the
  window back to the seat with precedence (``reacted``), so it closes when
  every seat in its order has passed in a row since the last React.

The seat to act in a passing is the first seat still in the game from
``at``, clockwise in the passing's order, and the run of passes counts the
seats still in (Turn Order; Battle Action & Resolution).
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel import flow as kflow
from aggregates.nine_empires.state import EARLIER_ONCE, EARLIER_PROGRESS, State


def windows(state: State) -> list[dict[str, Any]]:
    """The open windows, innermost last (the same dicts as on the stack)."""
    return [f for f in kflow.frames(state) if f["kind"] == "window"]


def passing(state: State) -> dict[str, Any] | None:
    """The innermost action passing (a battle's or raid's over the phase's)."""
    return kflow.top(state, "passing")


def push_window(state: State, what: str, order: list[int], **facts: Any) -> None:
    """Apply: a React window over what was just announced."""
    state.windows += 1
    frame = kflow.reaction_window(f"{what}:{facts.get('source') or facts.get('seat')}",
                                  order, state.windows)
    kflow.push(state, {**frame, "what": what, "step": "react", **facts})


def open_phase(state: State, phase: str, order: list[int] | None = None) -> None:
    """Apply: the Summer or Autumn Phase begins, actions passing round ``order``
    (by default the seats still in, clockwise from the Ordained: Turn Order)."""
    kflow.enter(state, phase)
    if order is None:
        order = kflow.order_from(state.ordained, len(state.seats), skip=state.out)
    kflow.push(state, kflow.passing(order))


def spring_began(state: State) -> None:
    """Apply, after the Spring's straightening: by rules 1.5.0 the Summer
    follows at once (the Spring has no actions), entered here; 1.4.0 and before
    were in the Spring until their ``PhaseBegan``."""
    kflow.enter(state, "spring")
    if EARLIER_PROGRESS not in state.EARLIER:
        open_phase(state, "summer")


def pop_window(state: State) -> dict[str, Any]:
    return kflow.pop(state, "window")


def reacted(state: State, window: dict[str, Any], seat: int, source: str) -> None:
    """Apply: ``seat`` Reacted (``source``) in ``window``. By rules 1.7.0 the
    window is asked again from the seat with precedence, in its order, once the
    React resolves (its own window, pushed over this one, is answered first):
    React abilities give precedence "always ... to the Ordained ... or the
    defender" whenever several players wish to React, and the window closes
    only when every seat passes in a row since the last React (the rulings: "a
    React window closes when every eligible seat passes"). 1.6.0 and before
    asked each seat once: the next in precedence after the one that Reacted
    (``state.EARLIER_ONCE``)."""
    kflow.after_response(window, seat, source)
    if EARLIER_ONCE not in state.EARLIER:
        window["at"] = 0


# ------------------------------------------------------------ action passing


def to_act(state: State, passing: dict[str, Any] | None) -> int | None:
    """The seat whose action it is in a passing (None: it is over)."""
    if passing is None or kflow.all_passed(passing, skip=state.out):
        return None
    return kflow.priority(passing, skip=state.out)


def current_passing(state: State) -> dict[str, Any] | None:
    """The passing actions go to now: the battle's or raid's, else the phase's."""
    c = state.conflict
    if c is not None and c.get("step") != "actions":
        return None
    return passing(state)


def acting_seat(state: State) -> int | None:
    """The seat whose action it is now (None: nobody's)."""
    return to_act(state, current_passing(state))


def _advance(state: State, frame: dict[str, Any], passed: bool) -> None:
    """Apply: the seat to act acted (the run of passes restarts) or passed;
    the next seat still in the game has the action (``kflow.after_*``)."""
    seat = to_act(state, frame)
    if seat is not None:
        frame["at"] = frame["order"].index(seat)
    (kflow.after_pass if passed else kflow.after_action)(frame)


def passed(state: State) -> None:
    """Apply: the seat to act passed (a phase's or a conflict's passing)."""
    frame = passing(state)
    if frame is not None:
        _advance(state, frame, True)


def acted(state: State) -> None:
    """Apply: the seat to act took an action (not a React): the next seat's turn."""
    frame = current_passing(state)
    if frame is not None:
        _advance(state, frame, False)
