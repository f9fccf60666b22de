"""Structured decisions: what a seat is asked, and how an answer is built.

A pending ``Decision`` names its seat, an id (so staleness is judged per
decision: seats choosing at once never make each other's answers stale), a
kind, a prompt, and the ``Choice`` structures that describe every legal answer
without listing them all (OpenSpiel lists actions; a hand of twelve cards has
thousands of bands, so a choice says "pick 1..12 of these cards" and the
server checks the combination):

- ``PickOne``: one command of the enumerated legal list;
- ``PickCards``: k cards of a zone, optionally naming one of them (a Leader);
- ``Assign``: each of some items to one of some slots;
- ``Number``: an integer in a range;
- ``PickPath``: one answer after another, each step's options depending on
  the answer before ("pick a card, then a place"), so a menu of card x place
  (x Scouting target) becomes two or three short questions.

Each choice builds the command JSON a client sends (``build``), so one generic
play loop serves every game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Literal

Default = Literal["pass", "random"]


@dataclasses.dataclass(frozen=True)
class PickOne:
    """Choose one command of the legal list (the list is given with it)."""

    kind = "pick_one"
    prompt: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "prompt": self.prompt}


@dataclasses.dataclass(frozen=True)
class PickCards:
    """Pick ``low``..``high`` of ``options`` (card ids of ``zone``) for ``command.arg``.

    ``mark`` names a further argument set to one of the picked cards (Ethnos'
    band Leader). ``fixed`` are the command's other arguments.
    """

    command: str
    arg: str
    options: tuple[int | str, ...]
    low: int
    high: int
    zone: str = ""
    mark: str = ""
    fixed: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    prompt: str = ""
    kind = "pick_cards"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "command": self.command, "arg": self.arg,
                "options": list(self.options), "low": self.low, "high": self.high,
                "zone": self.zone, "mark": self.mark, "fixed": dict(self.fixed),
                "prompt": self.prompt}

    def build(self, picked: Sequence[int | str], marked: int | str | None = None
              ) -> dict[str, Any]:
        args = {**self.fixed, self.arg: list(picked)}
        if self.mark:
            args[self.mark] = marked
        return {"name": self.command, "args": args}


@dataclasses.dataclass(frozen=True)
class Assign:
    """Give each of ``items`` one of ``slots``; the answer lists slots in item order."""

    command: str
    arg: str
    items: tuple[int | str, ...]
    slots: tuple[int | str, ...]
    fixed: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    prompt: str = ""
    #: The slots in the game's words ("the Forest", "bid 3"), in slot order.
    slot_labels: tuple[str, ...] = ()
    kind = "assign"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "command": self.command, "arg": self.arg,
                "items": list(self.items), "slots": list(self.slots),
                "slot_labels": list(self.slot_labels),
                "fixed": dict(self.fixed), "prompt": self.prompt}

    def build(self, slots: Sequence[int | str]) -> dict[str, Any]:
        return {"name": self.command, "args": {**self.fixed, self.arg: list(slots)}}


@dataclasses.dataclass(frozen=True)
class Number:
    """An integer ``low``..``high`` for ``command.arg``."""

    command: str
    arg: str
    low: int
    high: int
    fixed: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    prompt: str = ""
    kind = "number"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "command": self.command, "arg": self.arg,
                "low": self.low, "high": self.high, "fixed": dict(self.fixed),
                "prompt": self.prompt}

    def build(self, value: int) -> dict[str, Any]:
        return {"name": self.command, "args": {**self.fixed, self.arg: value}}


@dataclasses.dataclass(frozen=True)
class Branch:
    """One answer at one step of a ``PickPath``: the value sent, its words, and
    the answers the next step offers after it (none: the path is complete)."""

    value: int | str
    label: str
    then: tuple[Branch, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value, "label": self.label}
        if self.then:
            out["then"] = [b.to_json() for b in self.then]
        return out


@dataclasses.dataclass(frozen=True)
class PickPath:
    """Answer ``args`` one after another: a value of ``options`` for ``args[0]``,
    then one of the chosen branch's ``then`` for ``args[1]``, and so on until a
    branch with no ``then``. ``questions`` word each step ("Which card?",
    "Where?"). Arguments a path does not reach keep their ``fixed`` value, so
    paths of different lengths (a card that scouts asks one step more) build
    the same command. Every complete path is a legal command: the tree is the
    legal list, grouped, not a guess the server may refuse."""

    command: str
    args: tuple[str, ...]
    options: tuple[Branch, ...]
    questions: tuple[str, ...] = ()
    fixed: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    prompt: str = ""
    kind = "pick_path"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "command": self.command, "args": list(self.args),
                "options": [b.to_json() for b in self.options],
                "questions": list(self.questions), "fixed": dict(self.fixed),
                "prompt": self.prompt}

    def build(self, path: Sequence[int | str]) -> dict[str, Any]:
        return {"name": self.command,
                "args": {**self.fixed, **dict(zip(self.args, path, strict=False))}}


Choice = PickOne | PickCards | Assign | Number | PickPath
CHOICE_KINDS = ("pick_one", "pick_cards", "assign", "number", "pick_path")


@dataclasses.dataclass(frozen=True)
class Decision:
    """One seat the game is waiting on, and what for.

    ``hidden`` marks a simultaneous secret choice (e.g. a face-down deploy):
    the others learn only that the seat has chosen. ``id`` is filled by the
    kernel when the game leaves it empty (see ``Game.pending_decisions``);
    ``deadline`` (seconds) and ``default`` say what the server may do when a
    game played with clocks waits too long: pass, or a recorded random legal
    choice.
    """

    seat: int
    kind: str
    prompt: str
    hidden: bool = False
    id: str = ""
    choices: tuple[Choice, ...] = ()
    deadline: float | None = None
    default: Default | None = None
    #: The position (of the seat's positions) this decision is for.
    position: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind, "prompt": self.prompt,
                               "hidden": self.hidden, "id": self.id,
                               "choices": [c.to_json() for c in self.choices]}
        if self.deadline is not None:
            out["deadline"] = self.deadline
        if self.default is not None:
            out["default"] = self.default
        if self.position is not None:
            out["position"] = self.position
        return out
