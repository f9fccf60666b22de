"""Flow: the phases and steps of a game, declared as data beside its moves.

Two halves, after boardgame.io's ``flow.ts``/``turn-order.ts``:

- ``Move`` and ``Flow``: each command belongs to one or more *stages* (the
  decision kinds the game can wait on) and has a check (the rules), a run (the
  decide step that records events) and a lister of its legal instances. The
  kernel dispatches every command through the game's ``Flow``: a command sent
  in a stage it does not belong to is refused with ``WRONG_PHASE`` and the
  stage's prompt, so no game copies ``require_stage``/``HANDLERS``/``LEGAL``.
- Plain-data structures that games keep in their state (they snapshot and
  replay as JSON) and move on in their ``@event`` bodies: turn order,
  ``Simultaneous`` collect-then-reveal, ``Passing`` ("every player passes in a
  row") and ``ReactionWindow`` (who may answer a trigger, by precedence).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from aggregates.kernel.commands import Command
from aggregates.kernel.errors import Reason, RuleError

Check = Callable[[Any, int, Any], None]
Run = Callable[[Any, int, Any], None]
Lister = Callable[[Any, int], list[Command]]


@dataclasses.dataclass(frozen=True)
class Move:
    """A command, the stages it may be sent in, and its rules.

    ``check(state, seat, command)`` raises ``RuleError`` or returns;
    ``run(state, seat, command)`` records the events (it may roll dice);
    ``legal(state, seat)`` lists its legal instances for the stage now.
    """

    command: type[Command]
    stages: tuple[str, ...]
    check: Check | None
    run: Run
    legal: Lister | None = None
    #: The move in the rulebook's words ("Playing a Band"), for refusals.
    what: str = ""


class Flow:
    """A game's stages (with their prompts) and moves, checked once at import."""

    def __init__(self, prompts: Mapping[str, str], moves: Iterable[Move]) -> None:
        self.prompts = dict(prompts)
        self.moves: dict[type[Command], Move] = {}
        for move in moves:
            if move.command in self.moves:
                raise ValueError(f"{move.command.NAME} is declared twice")
            unknown = set(move.stages) - set(self.prompts)
            if unknown:
                raise ValueError(f"{move.command.NAME}: unknown stage(s) {sorted(unknown)}")
            self.moves[move.command] = move
        self._by_stage: dict[str, list[Move]] = {s: [] for s in self.prompts}
        for move in self.moves.values():
            for stage in move.stages:
                self._by_stage[stage].append(move)

    def prompt(self, stage: str) -> str:
        return self.prompts.get(stage, stage)

    def require_stage(self, stage: str, command: Command) -> None:
        """Refuse a command sent outside its stages, naming what is awaited."""
        move = self.moves[type(command)]
        if stage not in move.stages:
            what = f"{move.what} ({command.NAME})" if move.what else command.NAME
            raise RuleError(
                Reason.WRONG_PHASE, f"{what} is not possible now: {self.prompt(stage)}"
            )

    def decide(self, state: Any, stage: str, seat: int, command: Command) -> None:
        """Route a command: its stage, then its rules, then its events."""
        self.require_stage(stage, command)
        move = self.moves[type(command)]
        if move.check is not None:
            move.check(state, seat, command)
        move.run(state, seat, command)

    def legal(self, state: Any, stage: str, seat: int) -> list[Command]:
        """Every legal command of ``seat`` in ``stage``, in declaration order."""
        out: list[Command] = []
        for move in self._by_stage.get(stage, []):
            if move.legal is not None:
                out.extend(move.legal(state, seat))
        return out


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


def order_from(first: int, players: int, step: int = 1) -> list[int]:
    """Every seat once, starting with ``first`` and going round the table."""
    return [(first + step * i) % players for i in range(players)]


# ---------------------------------------------- simultaneous collect-then-reveal


def simultaneous(kind: str, seats: Sequence[int]) -> dict[str, Any]:
    """A hidden choice every seat of ``seats`` makes at once (state, as JSON).

    The kernel's ``Game.collect`` records each choice for its chooser alone and
    reveals them all together in one event when the last is in.
    """
    return {"kind": kind, "seats": list(seats), "chosen": {}}


def waiting(collecting: Mapping[str, Any]) -> list[int]:
    """The seats of a simultaneous choice that have not chosen yet."""
    chosen = collecting["chosen"]
    return [s for s in collecting["seats"] if str(s) not in chosen]


# ----------------------------------------------------- priority passing


def passing(order: Sequence[int], first: int | None = None) -> dict[str, Any]:
    """Actions passed round ``order`` until every player passes in a row."""
    return {"order": list(order), "at": 0 if first is None else list(order).index(first),
            "passes": 0}


def priority(state: Mapping[str, Any]) -> int:
    """The seat holding priority now."""
    return int(state["order"][state["at"]])


def after_action(state: dict[str, Any]) -> None:
    """Evolve: the holder acted; priority moves on and the run of passes restarts."""
    state["passes"] = 0
    state["at"] = (state["at"] + 1) % len(state["order"])


def after_pass(state: dict[str, Any]) -> None:
    """Evolve: the holder passed; priority moves on."""
    state["passes"] += 1
    state["at"] = (state["at"] + 1) % len(state["order"])


def all_passed(state: Mapping[str, Any]) -> bool:
    """True when every player has passed in a row."""
    return int(state["passes"]) >= len(state["order"])


# ----------------------------------------------------- reaction windows


def reaction_window(trigger: str, eligible: Sequence[int], serial: int) -> dict[str, Any]:
    """A window after ``trigger`` in which ``eligible`` seats, in precedence
    order, may each react or decline; ``serial`` numbers windows so a reaction
    meant for one can never answer the next."""
    return {"trigger": trigger, "order": list(eligible), "at": 0, "serial": serial,
            "reactions": []}


def responder(window: Mapping[str, Any]) -> int | None:
    """The seat whose answer the window waits on (None once it is closed)."""
    order = window["order"]
    return int(order[window["at"]]) if window["at"] < len(order) else None


def after_response(window: dict[str, Any], seat: int, reaction: Any | None) -> None:
    """Evolve: ``seat`` reacted (``reaction``) or declined (None); the next in
    precedence is asked."""
    if reaction is not None:
        window["reactions"].append([seat, reaction])
    window["at"] += 1


def closed(window: Mapping[str, Any]) -> bool:
    return window["at"] >= len(window["order"])
