"""Rock-paper-scissors with a reaction window, only for testing the kernel.

It exercises what Ettin and Romance of the Nine Empires will need: a
simultaneous hidden choice (both seats choose at once; each choice is read
only by its chooser until both are in, then revealed) and a reaction window
(after the reveal, the loser may react once — "concede" or "demand a rematch"
— before the round is scored).
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
    Flow,
    Game,
    Move,
    Reason,
    RuleError,
    Step,
)

SIGNS = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}


@dataclasses.dataclass(frozen=True)
class Choose(Command):
    NAME = "choose"
    sign: str


@dataclasses.dataclass(frozen=True)
class React(Command):
    NAME = "react"
    rematch: bool


def _check_choose(state: Any, seat: int, command: Choose) -> None:
    if command.sign not in SIGNS:
        raise RuleError(Reason.BAD_ARGUMENT, f"{command.sign!r} is not a sign")


def _choose(state: Any, seat: int, command: Choose) -> None:
    state.emit("Chose", seat=seat, sign=command.sign)
    if all(state.chosen):
        a, b = state.chosen
        loser = None if a == b else (1 if BEATS[str(a)] == b else 0)
        state.emit("Revealed", signs=[str(a), str(b)], loser=loser)


def _react(state: Any, seat: int, command: React) -> None:
    state.emit("Reacted", seat=seat, rematch=command.rematch)


FLOW = Flow([
    Step("choose", "choose a sign", (
        Move(Choose, _check_choose, _choose, lambda state, seat: [Choose(s) for s in SIGNS]),)),
    Step("react", "concede or demand a rematch", (
        Move(React, None, _react, lambda state, seat: [React(True), React(False)]),)),
])


class Rps(Game):
    RULES_ID = "rps"
    TITLE = "Rock-paper-scissors"
    RULES_VERSION = "0"
    MIN_SEATS = 2
    MAX_SEATS = 2
    COMMANDS = CommandSet(Choose, React)
    FLOW = FLOW

    def setup(self, setup: dict[str, Any]) -> None:
        self.chosen: list[str | None] = [None, None]
        self.loser: int | None = None
        self.wins = [0, 0]
        self.rounds = 0

    @event("Chose")
    def _chose(self, seat: int, sign: str) -> None:
        self.chosen[seat] = sign

    @event("Revealed")
    def _revealed(self, signs: list[str], loser: int | None) -> None:
        self.chosen = [None, None]
        self.loser = loser
        self.rounds += 1

    @event("Reacted")
    def _reacted(self, seat: int, rematch: bool) -> None:
        if not rematch:
            self.wins[1 - seat] += 1
        self.loser = None

    def pending(self) -> list[Decision]:
        if self.ended:
            return []
        if self.loser is not None:
            return [Decision(self.loser, "react", "concede or demand a rematch")]
        return [
            Decision(s, "choose", "choose a sign", hidden=True)
            for s in (0, 1) if self.chosen[s] is None
        ]

    def finished(self) -> dict[str, Any] | None:
        return {"winner": self.wins.index(2)} if 2 in self.wins else None

    def view(self, seat: int | None) -> dict[str, Any]:
        mine = self.chosen[seat] if seat is not None else None
        return {"wins": self.wins, "chosen": [c is not None for c in self.chosen], "mine": mine}

    @classmethod
    def audience(cls, event_type: str, payload: Mapping[str, Any]) -> Audience:
        if event_type == "Chose":
            return Audience(frozenset({payload["seat"]}))
        return super().audience(event_type, payload)

    @classmethod
    def public_form(cls, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        if event_type == "Chose":
            return {"seat": payload["seat"]}
        return super().public_form(event_type, payload)
