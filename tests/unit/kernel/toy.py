"""A two-seat dice race, only for testing the kernel apart from any real game.

Seats take turns rolling a D6; the first to 12 wins. Each roll is private to
the roller until the game ends (so the kernel's audiences can be tested).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from eventsourcing.domain import event

from aggregates.kernel import (
    Audience,
    Command,
    CommandSet,
    Decision,
    DiceTray,
    Flow,
    Game,
    Move,
    Step,
)


@dataclasses.dataclass(frozen=True)
class Roll(Command):
    NAME = "roll"


@dataclasses.dataclass(frozen=True)
class Pass(Command):
    NAME = "pass_turn"
    note: str = ""


def _roll(state: Any, seat: int, command: Roll) -> None:
    state.emit("Rolled", seat=seat, value=state.roll(6))


def _pass(state: Any, seat: int, command: Pass) -> None:
    state.emit("Passed", seat=seat)


class Race(Game):
    RULES_ID = "race"
    TITLE = "Dice Race"
    RULES_VERSION = "0"
    MIN_SEATS = 2
    MAX_SEATS = 2
    COMMANDS = CommandSet(Roll, Pass)
    FLOW = Flow([Step("roll", "roll or pass", (
        Move(Roll, None, _roll, lambda state, seat: [Roll()]),
        Move(Pass, None, _pass, lambda state, seat: [Pass()]),
    ), passes=Pass)])

    @classmethod
    def decide_setup(
        cls, dice: DiceTray, seats: list[str], options: dict[str, Any]
    ) -> dict[str, Any]:
        return {"first": dice.roll(2) - 1}

    def setup(self, setup: dict[str, Any]) -> None:
        self.turn = setup["first"]
        self.totals = [0, 0]

    @event("Rolled")
    def _rolled(self, seat: int, value: int) -> None:
        self.totals[seat] += value
        self.turn = 1 - seat

    @event("Passed")
    def _passed(self, seat: int) -> None:
        self.turn = 1 - seat

    def pending(self) -> list[Decision]:
        return [] if self.ended else [Decision(self.turn, "roll", "roll or pass")]

    def finished(self) -> dict[str, Any] | None:
        winners = [s for s in (0, 1) if self.totals[s] >= 12]
        return {"winner": winners[0]} if winners else None

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"totals": self.totals if self.ended else None, "turn": self.turn}

    @classmethod
    def audience(cls, event_type: str, payload: Mapping[str, Any]) -> Audience:
        if event_type == "Rolled":
            return Audience(frozenset({payload["seat"]}))
        return super().audience(event_type, payload)

    @classmethod
    def public_form(cls, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        if event_type == "Rolled":
            return {"seat": payload["seat"]}
        return super().public_form(event_type, payload)
