"""The flow of Romance of the Nine Empires, declared for the kernel (Turn Reference).

The phases: the opening hands reviewed (mulligans), then each turn Spring,
Summer, Autumn and Winter; an Attack Phase or a Raiding Phase is a sub-phase
over the Summer or Autumn in which it was declared. The kernel runs them:
``begin`` records the event that opens a phase, ``auto`` the automatic steps
(``decisions.auto``), ``end_if`` says when it is over, ``end`` records what
closes it and ``next`` names what follows. Who is asked what comes from the
game's ``pending`` (``decisions.pending``), and each command goes to the step
of the decision it answers (``decisions.STEPS``).
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel import Flow, Phase
from aggregates.nine_empires import actions, decisions, setup, winter


def _never(state: Any) -> bool:
    """A sub-phase is closed by its own last event (AttackEnded, RaidEnded)."""
    return False


def _always(state: Any) -> bool:
    return True


FLOW = Flow(
    list(decisions.STEPS.values()),
    [
        Phase("mulligan", begin=setup.deal_opening_hands, end_if=setup.reviewed,
              end=setup.take_ordained, next="spring"),
        Phase("spring", begin=actions.begin_turn, auto=decisions.auto, end_if=_always,
              next="summer"),
        Phase("summer", begin=lambda s: actions.begin_phase(s, "summer"),
              auto=decisions.auto, end_if=actions.phase_over, end=actions.end_phase,
              next="autumn"),
        Phase("autumn", begin=lambda s: actions.begin_phase(s, "autumn"),
              auto=decisions.auto, end_if=actions.phase_over, end=actions.end_phase,
              next="winter"),
        Phase("winter", begin=winter.begin_winter, auto=decisions.auto,
              end_if=winter.hands_checked, end=winter.pass_ordained, next="spring"),
        Phase("attack", auto=decisions.auto, end_if=_never),
        Phase("raid", auto=decisions.auto, end_if=_never),
    ],
    start="mulligan",
)
