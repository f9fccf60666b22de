"""A one-round secret vote, only for testing the kernel's collect-then-reveal,
per-decision staleness and clock defaults apart from any real game."""

from __future__ import annotations

import dataclasses
from typing import Any

from eventsourcing.domain import event

from aggregates.kernel import Command, CommandSet, Decision, Flow, Game, Move, Number, Step
from aggregates.kernel.nature import GameType
from tests.template_game import hidden
from tests.template_game.hidden import HiddenChoices


@dataclasses.dataclass(frozen=True)
class Vote(Command):
    NAME = "vote"
    value: int


def _run(state: Any, seat: int, command: Vote) -> None:
    chosen = state.collect(seat, command.value)
    if chosen is not None:
        state.emit("Tallied", total=sum(chosen.values()))


class SecretVote(HiddenChoices, Game):
    RULES_ID = "vote"
    TITLE = "Secret vote"
    RULES_VERSION = "0"
    MIN_SEATS = 2
    MAX_SEATS = 16
    GAME_TYPE = GameType.of("simultaneous", "explicit", "imperfect", "general_sum",
                            players=(2, 16))
    COMMANDS = CommandSet(Vote)
    EVENTS = hidden.EVENTS
    APPLY = hidden.apply
    FLOW = Flow([Step("vote", "vote 1 to 3", (
        Move(Vote, None, _run, lambda s, seat: [Vote(v) for v in (1, 2, 3)]),))])

    def setup(self, setup: dict[str, Any]) -> None:
        self.total: int | None = None

    def begin(self) -> None:
        self.open_choices("vote", list(range(len(self.seats))))

    def pending(self) -> list[Decision]:
        if self.ended:
            return []
        return [Decision(s, "vote", "vote 1 to 3", hidden=True, deadline=30.0, default="random",
                         choices=(Number("vote", "value", 1, 3),))
                for s in self.waiting_to_choose()]

    def finished(self) -> dict[str, Any] | None:
        return None if self.total is None else {"total": self.total}

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"total": self.total}

    @event("Tallied")
    def _tallied(self, total: int) -> None:
        self.total = total
