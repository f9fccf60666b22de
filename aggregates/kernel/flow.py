"""Flow: who acts and how, and the phases a game runs through, declared as data.

After boardgame.io's ``flow.ts``/``turn-order.ts`` (phases with ``next`` and
``endIf``, stages a player is in, ``activePlayers`` pushed and reverted), in
this project's decide/evolve shape:

- A ``Step`` is one kind of decision a seat can be asked (its ``kind``), with
  its prompt and the ``Move``s that answer it. A ``Move`` is one command's
  rules: its check, its run (the decide step that rolls and records events)
  and the lister of its legal instances.
- The game's ``pending()`` is the only source of who acts: each ``Decision``
  names its seat, its position and its step. The kernel routes every command
  to the seat's pending decision whose step lists it, so no game routes
  commands or keeps a stage of its own.
- A ``Phase`` is a part of the game the kernel runs: ``begin`` records the
  game's event that opens it, ``auto`` records automatic steps, ``end_if``
  says when it is over (checked after every command, as boardgame.io's
  ``endIf``; without one, a phase is over once no decision is pending in it),
  ``end`` records what closes it and ``next`` names the phase that follows.
  ``Flow.settle`` runs these transitions after every command.
- The frame stack: sub-phases, priority passing, reaction windows
  (a window opened while another is open is a reaction to a reaction) and
  hidden simultaneous choices are frames on one kernel-owned stack
  (``state.frames``), pushed and popped only by ``@event`` bodies, with the
  helpers below, so that a replay rebuilds them exactly.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from arbiter.decisions import Decision

from aggregates.kernel.commands import Command
from aggregates.kernel.errors import Reason, RuleError

Check = Callable[[Any, int, Any], None]
Run = Callable[[Any, int, Any], None]
Lister = Callable[[Any, int], list[Command]]
Decide = Callable[[Any], object]
Predicate = Callable[[Any], bool]
Next = str | Callable[[Any], str | None] | None

#: Transitions ``settle`` may run after one command before it calls the flow stuck.
SETTLE_LIMIT = 1000
#: Games whose readings at their newest version ``Flow`` keeps (``Readings``).
READINGS_KEPT = 4096
#: A game's readings (``Readings``): the game, its version, its ``pending()``
#: when read, each (decision kind, actor)'s legal list.
Reading = tuple[weakref.ref[Any], int, list[Decision] | None,
                dict[tuple[str, int], list[Command]]]


@dataclasses.dataclass(frozen=True)
class Move:
    """A command and its rules, as one step of the flow lists it.

    ``check(state, actor, command)`` raises ``RuleError`` or returns;
    ``run(state, actor, command)`` records the events (it may roll dice);
    ``legal(state, actor)`` lists its legal instances now. ``actor`` is the
    position the decision is for (the seat when the game has no positions).
    """

    command: type[Command]
    check: Check | None
    run: Run
    legal: Lister | None = None
    #: The move in the rulebook's words ("Playing a Band"), for refusals.
    what: str = ""

    def named(self) -> str:
        name = self.command.NAME
        return f"{self.what} ({name})" if self.what else name

    @classmethod
    def of(cls, command: type[Command], chapter: Any, what: str = "", name: str = "") -> Move:
        """The move whose rules are the chapter module's ``check_<name>``,
        ``run_<name>`` and ``legal_<name>`` (``name``: the command's wire name
        unless given), so a flow declares each move in one line."""
        name = name or command.NAME
        return cls(command, getattr(chapter, f"check_{name}"), getattr(chapter, f"run_{name}"),
                   getattr(chapter, f"legal_{name}"), what)


@dataclasses.dataclass(frozen=True)
class Step:
    """A kind of decision: its prompt, the moves that answer it, and the
    command that passes it (what a ``pass`` default sends when a clock runs out)."""

    name: str
    prompt: str
    moves: tuple[Move, ...]
    passes: type[Command] | None = None

    def move_for(self, command: Command) -> Move | None:
        return next((m for m in self.moves if m.command is type(command)), None)


@dataclasses.dataclass(frozen=True)
class Phase:
    """A part of the game the kernel runs (see the module's docstring)."""

    name: str
    begin: Decide | None = None
    auto: Predicate | None = None
    end_if: Predicate | None = None
    end: Decide | None = None
    next: Next = None
    #: Entered by the event before it (the creation, or the one that closed
    #: the phase before): its ``begin`` may record nothing when the state is
    #: in it already (Ettin's initiative, which the War's end or the setup states).
    #: The facts a phase's ``begin`` records may themselves close it and enter
    #: such a phase (an Ettin draft dealt nothing to draft enters the Deploy).
    entered_before: bool = False


class Readings:
    """What the rules said of a followed game object at one version, kept
    beside it (not in it: a game's attributes are its snapshot's state): its
    ``pending()`` as ``settle`` last read it, and each decision's legal list.

    A server's move read them twice: ``settle`` asked ``pending()`` to know
    the flow waits, and the seat's next turn asked it again for the
    decisions it shows; the turn listed each decision's legal moves, and the
    writer's guard (``route``) listed them again to check the answer.

    Only a game ``follow``-ed is read so: one that changes by its events
    alone, each of which moves its version (a server's cached game, whose
    readings ``service.readmodel`` already keeps by object and version), so
    what was read of this very object at this version is what would be read
    again; a game rebuilt at the same version is another object, not
    followed until it is handed on again. A game whose state is set by hand
    (a test's, a bot's search) is never followed and always asked afresh.
    """

    def __init__(self, kept: int = READINGS_KEPT) -> None:
        self.kept = kept
        self._by_game: dict[int, Reading] = {}  # by id(game)

    def follow(self, state: Any) -> None:
        """Keep ``state``'s readings from now on (see the class)."""
        version: int = state.version
        entry = self._by_game.get(id(state))
        if entry is None or entry[0]() is not state:
            if len(self._by_game) >= self.kept:
                self._by_game.clear()
            self._by_game[id(state)] = (weakref.ref(state), version, None, {})

    def _entry(self, state: Any) -> Reading | None:
        """``state``'s readings at its version, or None when it is not followed."""
        version: int = state.version
        entry = self._by_game.get(id(state))
        if entry is None or entry[0]() is not state:
            return None
        if entry[1] != version:  # moved on: its older readings are no use
            entry = (entry[0], version, None, {})
            self._by_game[id(state)] = entry
        return entry

    def pending(self, state: Any) -> list[Decision] | None:
        """``state.pending()`` as last read at its version, or None (the list
        is shared: not to be changed)."""
        entry = self._entry(state)
        return None if entry is None else entry[2]

    def read_pending(self, state: Any) -> list[Decision]:
        """``state.pending()`` now, kept for this version when followed."""
        decisions: list[Decision] = state.pending()
        entry = self._entry(state)
        if entry is not None:
            self._by_game[id(state)] = (entry[0], entry[1], decisions, entry[3])
        return decisions

    def legal(self, state: Any, kind: str, actor: int,
              make: Callable[[], list[Command]]) -> list[Command]:
        """The legal answers to a ``kind`` decision of ``actor`` at this
        version (a copy), listed once when followed."""
        entry = self._entry(state)
        if entry is None:
            return make()
        kept = entry[3].get((kind, actor))
        if kept is None:
            kept = entry[3][(kind, actor)] = make()
        return list(kept)


class Flow:
    """A game's steps and phases, checked once at import."""

    def __init__(self, steps: Iterable[Step], phases: Iterable[Phase] = (),
                 start: str | None = None) -> None:
        self.steps: dict[str, Step] = {}
        for step in steps:
            if step.name in self.steps:
                raise ValueError(f"step {step.name!r} is declared twice")
            self.steps[step.name] = step
        self.phases = {phase.name: phase for phase in phases}
        for phase in self.phases.values():
            if isinstance(phase.next, str) and phase.next not in self.phases:
                raise ValueError(f"phase {phase.name!r}: no phase {phase.next!r} to go to")
        if start is not None and start not in self.phases:
            raise ValueError(f"no start phase {start!r}")
        self.start = start
        self.commands = {m.command for s in self.steps.values() for m in s.moves}
        self.readings = Readings()

    # ------------------------------------------------------------- routing

    def prompt(self, kind: str) -> str:
        step = self.steps.get(kind)
        return step.prompt if step is not None else kind

    def step(self, kind: str) -> Step:
        return self.steps[kind]

    def answering(self, decisions: Sequence[Decision], command: Command) -> Decision:
        """The decision ``command`` answers among a seat's pending ones, or the
        refusal naming what the seat is asked instead."""
        for decision in decisions:
            if self.steps[decision.kind].move_for(command) is not None:
                return decision
        what = next((m.named() for s in self.steps.values() for m in s.moves
                     if m.command is type(command)), command.NAME)
        asked = "; ".join(d.prompt or self.prompt(d.kind) for d in decisions)
        raise RuleError(Reason.WRONG_PHASE, f"{what} is not possible now: {asked}")

    def route(self, state: Any, decision: Decision, command: Command, guard: bool) -> None:
        """Answer ``decision`` with ``command``: the move's rules, the legal list
        as the last guard (``guard``), then its events."""
        move = self.steps[decision.kind].move_for(command)
        assert move is not None, "answering() chose the decision"
        actor = actor_of(decision)
        if move.check is not None:
            move.check(state, actor, command)
        if guard and command not in self.legal(state, decision):
            raise RuleError(Reason.ILLEGAL_MOVE, f"{command.label()} is not legal now")
        move.run(state, actor, command)

    def legal(self, state: Any, decision: Decision) -> list[Command]:
        """Every legal answer to ``decision``, in declaration order: listed
        once per version (``Readings``: the seat's turn lists them, the
        guard of its answer reads them again)."""
        actor = actor_of(decision)
        moves = self.steps[decision.kind].moves
        return self.readings.legal(state, decision.kind, actor,
                                   lambda: self._listed(state, moves, actor))

    @staticmethod
    def _listed(state: Any, moves: Sequence[Move], actor: int) -> list[Command]:
        out: list[Command] = []
        for move in moves:
            if move.legal is not None:
                out.extend(move.legal(state, actor))
        return out

    # ------------------------------------------------------------- phases

    def phase(self, state: Any) -> Phase | None:
        """The phase being played: the innermost sub-phase, else the game's."""
        name = current_phase(state)
        return None if name is None else self.phases.get(name)

    def open(self, state: Any) -> None:
        """Decide: begin the start phase, then settle (right after creation)."""
        if self.start is not None:
            self._begin(state, self.start)
        self.settle(state)

    def settle(self, state: Any) -> None:
        """Decide: run automatic steps and phase transitions until a decision is
        pending or the game is over."""
        for _ in range(SETTLE_LIMIT):
            phase = self.phase(state)
            if phase is None or state.finished() is not None:
                return
            if phase.auto is not None and phase.auto(state):
                continue
            waiting = bool(self.readings.read_pending(state))
            over = phase.end_if(state) if phase.end_if is not None else not waiting
            if not over:
                if not waiting:
                    raise AssertionError(f"phase {phase.name!r} waits on nobody and is not over")
                return
            if phase.end is not None:
                phase.end(state)
            following = phase.next(state) if callable(phase.next) else phase.next
            if following is None:
                return
            self._begin(state, following)
        raise AssertionError(f"the flow did not settle in phase {self.phase(state)}")

    def _begin(self, state: Any, name: str) -> None:
        phase = self.phases[name]
        before = state.version
        if phase.begin is not None:
            phase.begin(state)
        facts = state.version != before
        recorded = facts or phase.entered_before
        now = current_phase(state)
        passed_on = facts and now in self.phases and self.phases[now].entered_before
        if not recorded or (now != name and not passed_on):
            raise AssertionError(f"phase {name!r} began without an event entering it")


def actor_of(decision: Decision) -> int:
    """Who a decision's moves act for: its position, else its seat."""
    return decision.seat if decision.position is None else decision.position


# ------------------------------------------------------------- the frame stack


def frames(state: Any) -> list[dict[str, Any]]:
    """The kernel-owned stack (a game recorded before Kernel 3 has none yet)."""
    stack: list[dict[str, Any]] | None = getattr(state, "frames", None)
    if stack is None:
        stack = []
        state.frames = stack
    return stack


def top(state: Any, kind: str | None = None) -> dict[str, Any] | None:
    """The innermost frame (of ``kind``), or None."""
    for frame in reversed(getattr(state, "frames", None) or []):
        if kind is None or frame["kind"] == kind:
            return frame
    return None


def current_phase(state: Any) -> str | None:
    """The name of the phase being played: the innermost sub-phase frame, else
    the game's own ``phase`` (the bottom of the stack, kept as the state's
    attribute so that every game recorded before Kernel 3 reads the same)."""
    frame = top(state, "phase")
    return frame["name"] if frame is not None else getattr(state, "phase", None)


def enter(state: Any, phase: str) -> None:
    """Evolve: ``phase`` begins in place of the one being played (the
    innermost sub-phase if one is open, else the game's own phase)."""
    frame = top(state, "phase")
    if frame is not None:
        frame["name"] = phase
    elif getattr(state, "phase", None) != phase:
        state.phase = phase  # (a game may derive its phase from its own facts)


def push(state: Any, frame: Mapping[str, Any]) -> dict[str, Any]:
    """Evolve: a frame on top (a sub-phase, passing, a window, a hidden choice)."""
    pushed = dict(frame)
    frames(state).append(pushed)
    return pushed


def pop(state: Any, kind: str) -> dict[str, Any]:
    """Evolve: take off the innermost frame, which must be of ``kind``."""
    stack = frames(state)
    if not stack or stack[-1]["kind"] != kind:
        raise AssertionError(f"the innermost frame is not a {kind}: {stack[-1:]}")
    return stack.pop()


def sub_phase(name: str) -> dict[str, Any]:
    """A phase frame pushed over the one being played, which resumes when its
    events pop it (a battle inside a turn, say)."""
    return {"kind": "phase", "name": name}


# ------------------------------------------------------------------ turn order


def next_seat(current: int, players: int, skip: Iterable[int] = (), step: int = 1) -> int:
    """The next seat clockwise (``step=-1``: anticlockwise), skipping some."""
    skipped = set(skip)
    if len(skipped) >= players:
        raise ValueError("every seat is skipped")
    seat = current
    for _ in range(players):
        seat = (seat + step) % players
        if seat not in skipped:
            return seat
    raise ValueError("no seat to move to")


def order_from(first: int, players: int, step: int = 1, skip: Iterable[int] = ()) -> list[int]:
    """Every seat once, starting with ``first`` and going round the table,
    leaving out those skipped (seats out of the game): a skipped ``first``
    is left out too, and the order begins with the next seat after it."""
    skipped = set(skip)
    return [seat for seat in ((first + step * i) % players for i in range(players))
            if seat not in skipped]


# ----------------------------------------------------- priority passing


def passing(order: Sequence[int], first: int | None = None) -> dict[str, Any]:
    """A frame: actions passed round ``order`` until every player passes in a row."""
    return {"kind": "passing", "order": list(order),
            "at": 0 if first is None else list(order).index(first), "passes": 0}


def priority(frame: Mapping[str, Any], skip: Iterable[int] = ()) -> int:
    """The position holding priority now: the one at ``at``, or, when it is
    skipped (out of the game), the first after it round the order that is not."""
    order, skipped = frame["order"], set(skip)
    for i in range(len(order)):
        position = int(order[(frame["at"] + i) % len(order)])
        if position not in skipped:
            return position
    raise ValueError("every position is skipped")


def after_action(frame: dict[str, Any]) -> None:
    """Evolve: the holder acted; priority moves on and the run of passes restarts."""
    frame["passes"] = 0
    frame["at"] = (frame["at"] + 1) % len(frame["order"])


def after_pass(frame: dict[str, Any]) -> None:
    """Evolve: the holder passed; priority moves on."""
    frame["passes"] += 1
    frame["at"] = (frame["at"] + 1) % len(frame["order"])


def all_passed(frame: Mapping[str, Any], skip: Iterable[int] = ()) -> bool:
    """True when every player, but those skipped (out of the game), has
    passed in a row."""
    skipped = set(skip)
    return int(frame["passes"]) >= len([p for p in frame["order"] if p not in skipped])


# ----------------------------------------------------- reaction windows


def reaction_window(trigger: str, eligible: Sequence[int], serial: int) -> dict[str, Any]:
    """A frame after ``trigger`` in which ``eligible`` positions, in precedence
    order, may each react or decline; ``serial`` numbers windows so a reaction
    meant for one can never answer the next. Pushed over an open window, it
    is a reaction to a reaction: it is answered first, then the one below."""
    return {"kind": "window", "trigger": trigger, "order": list(eligible), "at": 0,
            "serial": serial, "reactions": []}


def responder(window: Mapping[str, Any]) -> int | None:
    """The position whose answer the window waits on (None once it is closed)."""
    order = window["order"]
    return int(order[window["at"]]) if window["at"] < len(order) else None


def after_response(window: dict[str, Any], position: int, reaction: Any | None) -> None:
    """Evolve: ``position`` reacted (``reaction``) or declined (None); the next
    in precedence is asked."""
    if reaction is not None:
        window["reactions"].append([position, reaction])
    window["at"] += 1


def closed(window: Mapping[str, Any]) -> bool:
    return window["at"] >= len(window["order"])
