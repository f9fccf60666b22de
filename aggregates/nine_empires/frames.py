"""The game's frames on the kernel's frame stack (``kernel.flow``).

- Action passing (``kflow.passing``): one frame for the Summer or Autumn
  Phase, and one over it for the battle or raid being resolved.
- The Attack Phase and the Raiding Phase: sub-phase frames over the phase in
  which they were declared (``kflow.sub_phase``).
- React windows (``kflow.reaction_window``): one over every announced ability
  and every engagement, carrying what was announced (``what``: ``ability`` or
  ``engagement``) and its facts. A React is announced with a window of its own
  pushed over the one it answered: a React to a React.
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel import flow as kflow
from aggregates.nine_empires.state import State


def windows(state: State) -> list[dict[str, Any]]:
    """The open windows, innermost last (the same dicts as on the stack)."""
    return [f for f in kflow.frames(state) if f["kind"] == "window"]


def passing(state: State) -> dict[str, Any] | None:
    """The innermost action passing (a battle's or raid's over the phase's)."""
    return kflow.top(state, "passing")


def push_window(state: State, what: str, order: list[int], **facts: Any) -> None:
    """Evolve: a React window over what was just announced."""
    state.windows += 1
    frame = kflow.reaction_window(f"{what}:{facts.get('source') or facts.get('seat')}",
                                  order, state.windows)
    kflow.push(state, {**frame, "what": what, "step": "react", **facts})


def pop_window(state: State) -> dict[str, Any]:
    return kflow.pop(state, "window")
