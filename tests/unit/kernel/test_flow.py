"""Kernel 3's flow: steps route commands by the pending decision, phases run as
declared data, and frames (sub-phases, passing, windows, hidden choices) live
on one stack moved only by events, so a replay rebuilds them exactly.

The game here is a two-seat toy ("Relay"), only for testing the kernel: in
phase ``call`` the seat to call names a number; a caller may be answered by a
reaction window, and a reaction may itself be answered (a React to a React);
after two calls phase ``score`` records the end.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from eventsourcing.domain import event

from aggregates.kernel import (
    Command,
    CommandSet,
    Decision,
    Flow,
    Game,
    Move,
    Phase,
    Reason,
    RuleError,
    Step,
)
from aggregates.kernel import flow as kflow
from aggregates.kernel.record.audit import audit
from tests.unit.kernel.toy import Pass, Roll


@dataclasses.dataclass(frozen=True)
class Call(Command):
    NAME = "call"
    number: int


@dataclasses.dataclass(frozen=True)
class Answer(Command):
    NAME = "answer"
    counter: bool = False


def _check_call(state: Any, seat: int, command: Call) -> None:
    if not 1 <= command.number <= 3:
        raise RuleError(Reason.ILLEGAL_MOVE, "call 1 to 3")


def _call(state: Any, seat: int, command: Call) -> None:
    state.emit("Called", seat=seat, number=command.number)
    state.emit("WindowOpened", trigger=f"call:{state.calls}", seat=1 - seat)


def _answer(state: Any, seat: int, command: Answer) -> None:
    if command.counter and len(kflow.frames(state)) < 2:
        # A reaction to the reaction: a window over the open one, which waits.
        state.emit("WindowOpened", trigger="counter", seat=1 - seat)
    else:
        state.emit("Answered", seat=seat, counter=command.counter)


RELAY_FLOW = Flow(
    [
        Step("call", "call a number", (
            Move(Call, _check_call, _call, lambda s, a: [Call(n) for n in (1, 2, 3)]),)),
        Step("answer", "counter or let it stand", (
            Move(Answer, None, _answer, lambda s, a: [Answer(True), Answer(False)]),),
            passes=Answer),
    ],
    [
        # The calling is over after two calls, once their windows are answered.
        Phase("call", begin=lambda s: s.emit("CallingBegan"),
              end_if=lambda s: s.calls >= 2 and kflow.top(s, "window") is None, next="score"),
        Phase("score", begin=lambda s: s.emit("Scored", total=s.total)),
    ],
    start="call",
)


class Relay(Game):
    RULES_ID = "relay"
    TITLE = "Relay"
    RULES_VERSION = "0"
    MIN_SEATS = 2
    MAX_SEATS = 2
    COMMANDS = CommandSet(Call, Answer)
    FLOW = RELAY_FLOW

    def setup(self, setup: dict[str, Any]) -> None:
        self.calls = 0
        self.total = 0
        self.done = False

    def pending(self) -> list[Decision]:
        if self.ended or self.done:
            return []
        window = kflow.top(self, "window")
        if window is not None:
            return [Decision(window["seat"], "answer", "counter or let it stand",
                             default="pass")]
        return [Decision(self.calls % 2, "call", "call a number")]

    def finished(self) -> dict[str, Any] | None:
        return {"total": self.total} if self.done else None

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"total": self.total}

    @event("CallingBegan")
    def _calling_began(self) -> None:
        kflow.enter(self, "call")

    @event("Called")
    def _called(self, seat: int, number: int) -> None:
        self.calls += 1
        self.total += number

    @event("WindowOpened")
    def _window_opened(self, trigger: str, seat: int) -> None:
        kflow.push(self, {**kflow.reaction_window(trigger, [seat], len(kflow.frames(self))),
                          "seat": seat})

    @event("Answered")
    def _answered(self, seat: int, counter: bool) -> None:
        kflow.pop(self, "window")
        if counter:
            self.total += 10

    @event("Scored")
    def _scored(self, total: int) -> None:
        kflow.enter(self, "score")
        self.done = True


def test_a_command_answers_only_a_decision_pending_for_its_seat() -> None:
    game = Relay.start(["a", "b"], seed="00" * 32)
    assert [d.kind for d in game.pending_decisions()] == ["call"]
    with pytest.raises(RuleError) as info:
        game.act(1, Call(1))
    assert info.value.reason == Reason.NOT_YOUR_TURN
    with pytest.raises(RuleError) as info:
        game.act(0, Answer(True))
    assert info.value.reason == Reason.WRONG_PHASE and "call a number" in info.value.message
    version = game.version
    with pytest.raises(RuleError) as info:
        game.act(0, Call(9))  # the move's check refuses it; nothing is recorded
    assert info.value.reason == Reason.ILLEGAL_MOVE and game.version == version
    assert game.legal_actions(0) == [Call(1), Call(2), Call(3)] and game.legal_actions(1) == []


def test_a_reaction_to_a_reaction_is_answered_first_then_the_one_below() -> None:
    game = Relay.start(["a", "b"], seed="00" * 32)
    game.act(0, Call(2))
    assert [d.seat for d in game.pending()] == [1]  # the window over the phase
    game.act(1, Answer(True))  # counters: a window over the window, for seat 0
    assert [f["trigger"] for f in game.frames] == ["call:1", "counter"]
    assert game.pending()[0].seat == 0
    game.act(0, Answer(True))  # the innermost window closes (no room for a third)
    assert [f["trigger"] for f in game.frames] == ["call:1"]
    assert game.pending()[0].seat == 1  # the window below is answered now
    game.act(1, Answer(False))
    assert game.frames == [] and game.pending()[0].kind == "call" and game.total == 12


def test_phases_run_as_declared_and_a_replay_rebuilds_the_stack() -> None:
    game = Relay.start(["a", "b"], seed="00" * 32)
    assert game.phase == "call"
    game.act(0, Call(1))
    game.act(1, Answer(False))
    game.act(1, Call(3))
    game.act(0, Answer(False))
    assert game.ended and game.phase == "score" and game.outcome == {"total": 4}
    events = game.collect_events()
    replayed: Any = None
    for ev in events:
        replayed = ev.mutate(replayed)
    assert replayed.frames == game.frames and replayed.phase == "score"
    assert audit(events, Relay).ok


def test_a_pass_default_sends_the_step_s_declared_pass() -> None:
    game = Relay.start(["a", "b"], seed="00" * 32, options=None)
    game.act(0, Call(1))
    game.act_default(1)  # the step passes with Answer(), whose default is "no counter"
    assert game.pending()[0].kind == "call" and game.total == 1


def test_a_flow_is_checked_when_declared() -> None:
    step = Step("roll", "roll", (Move(Roll, None, lambda *a: None),))
    with pytest.raises(ValueError):
        Flow([step, step])
    with pytest.raises(ValueError):
        Flow([step], [Phase("a", next="b")])
    with pytest.raises(ValueError):
        Flow([step], [Phase("a")], start="b")
    flow = Flow([step, Step("rest", "rest", (Move(Pass, None, lambda *a: None),))])
    decisions = [Decision(0, "rest", "rest a while")]
    with pytest.raises(RuleError) as info:
        flow.answering(decisions, Roll())
    assert info.value.reason == Reason.WRONG_PHASE and "rest a while" in info.value.message
    assert flow.answering(decisions, Pass()) is decisions[0]


def test_a_phase_whose_begin_records_nothing_is_a_bug_caught_at_once() -> None:
    class Broken(Relay):
        RULES_ID = "broken"
        FLOW = Flow(RELAY_FLOW.steps.values(), [Phase("call")], start="call")

    with pytest.raises(AssertionError, match="began without an event"):
        Broken.start(["a", "b"], seed="00" * 32)
