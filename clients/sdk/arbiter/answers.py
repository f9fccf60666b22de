"""A seat's decisions as a client sees them: menus, typed answers, built commands.

``LegalActions`` gives a seat's legal commands (perhaps not all of them) and its
pending decisions, each with choice structures (``choices_json``, see
``clients/sdk/arbiter/decisions.py``): pick one of the list; pick cards of a
zone (perhaps marking one of them); assign items to slots; a number in a
range. This module turns those into menu options, builds the command from an
answer with the kernel's own ``build`` (so a client and the rules agree on the
command's shape) and makes random answers for bots; reading a person's typed
answer is the terminal's (``clients.typed``).
No game is known here: the server checks every answer. Both the terminal
(``clients.play``) and the seat's web page (``service.web.seat``) ask through it.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from arbiter.decisions import Assign, Number, PickCards, PickPath
from arbiter.moves import listed_decision, random_listed
from arbiter.render import (
    action_label,
    capitalize,
    describe_choice,
    loads_list,
    loads_object,
)
from arbiter.v1 import game_pb2

#: The choice kinds that build a command from an answer (``pick_one`` picks from the list).
STRUCTURED = ("pick_cards", "assign", "number")
#: Those the terminal asks: ``pick_path`` too (a question after another). A
#: client that does not ask one keeps the listed commands it groups.
TERMINAL = (*STRUCTURED, "pick_path")

CardId = int | str


@dataclasses.dataclass(frozen=True)
class Option:
    """One entry of a seat's menu: a listed action, or a choice structure to fill in."""

    label: str
    decision_id: str
    action: game_pb2.LegalAction | None = None
    choice: Mapping[str, Any] | None = None


def command_name(action: game_pb2.LegalAction) -> str:
    """The command name of a listed action (from its JSON)."""
    return str(loads_object(action.json).get("name", ""))


def structured_choices(legal: game_pb2.LegalActionsResponse, kinds: Sequence[str] = STRUCTURED
                       ) -> list[tuple[str, dict[str, Any]]]:
    """``(decision id, choice)`` of every structure of ``kinds`` that builds a
    command, each once."""
    out: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    for decision in legal.decisions:
        for choice in loads_list(decision.choices_json):
            if not isinstance(choice, dict) or choice.get("kind") not in kinds:
                continue
            key = json.dumps(choice, sort_keys=True)
            if key not in seen:
                seen.add(key)
                out.append((decision.id, choice))
    return out


def list_decision(legal: game_pb2.LegalActionsResponse) -> str:
    """The id of the decision a listed action answers (``kernel.moves``)."""
    return listed_decision(legal)


def menu(legal: game_pb2.LegalActionsResponse, kinds: Sequence[str] = STRUCTURED) -> list[Option]:
    """The seat's menu: the listed actions in their game's words, then one entry per
    choice structure (of the ``kinds`` this client asks). A command a structure
    builds is asked through it, not listed once per combination."""
    structured = structured_choices(legal, kinds)
    built = {str(c.get("command", "")) for _, c in structured}
    listed = list_decision(legal)
    options = [Option(action_label(a), listed, action=a)
               for a in legal.actions if command_name(a) not in built]
    options += [Option(describe_choice(c), d, choice=c) for d, c in structured]
    return options


# --- building commands with the kernel's semantics -----------------------------


def _fixed(choice: Mapping[str, Any]) -> dict[str, Any]:
    fixed = choice.get("fixed")
    return dict(fixed) if isinstance(fixed, Mapping) else {}


def build_pick_cards(
    choice: Mapping[str, Any], picked: Sequence[CardId], marked: CardId | None = None
) -> dict[str, Any]:
    """``{name, args}``: args = {**fixed, arg: [picked], mark: marked} (mark only if named)."""
    structure = PickCards(
        command=str(choice["command"]), arg=str(choice["arg"]),
        options=tuple(choice.get("options") or ()), low=int(choice.get("low", 0)),
        high=int(choice.get("high", 0)), zone=str(choice.get("zone", "")),
        mark=str(choice.get("mark") or ""), fixed=_fixed(choice),
    )
    return structure.build(list(picked), marked)


def build_assign(choice: Mapping[str, Any], slots: Sequence[CardId]) -> dict[str, Any]:
    """``{name, args}``: args = {**fixed, arg: [the slot of each item, in item order]}."""
    structure = Assign(
        command=str(choice["command"]), arg=str(choice["arg"]),
        items=tuple(choice.get("items") or ()), slots=tuple(choice.get("slots") or ()),
        fixed=_fixed(choice),
    )
    return structure.build(list(slots))


def build_number(choice: Mapping[str, Any], value: int) -> dict[str, Any]:
    """``{name, args}``: args = {**fixed, arg: value}."""
    structure = Number(
        command=str(choice["command"]), arg=str(choice["arg"]),
        low=int(choice.get("low", 0)), high=int(choice.get("high", 0)), fixed=_fixed(choice),
    )
    return structure.build(value)


def build_pick_path(choice: Mapping[str, Any], path: Sequence[CardId]) -> dict[str, Any]:
    """``{name, args}``: args = {**fixed, args[0]: path[0], args[1]: path[1], ...}."""
    structure = PickPath(command=str(choice["command"]),
                         args=tuple(str(a) for a in choice.get("args") or ()),
                         options=(), fixed=_fixed(choice))
    return structure.build(list(path))


def path_step(choice: Mapping[str, Any], path: Sequence[CardId]) -> list[dict[str, Any]]:
    """The branches a ``pick_path`` offers after the answers ``path`` (``[]``: complete)."""
    branches = [b for b in choice.get("options") or [] if isinstance(b, Mapping)]
    for value in path:
        chosen = next((b for b in branches if b.get("value") == value), None)
        if chosen is None:
            return []
        branches = [b for b in chosen.get("then") or [] if isinstance(b, Mapping)]
    return [dict(b) for b in branches]


# --- reading a person's answer --------------------------------------------------


def check_count(count: int, low: int, high: int) -> str:
    """Why ``count`` cards are not ``low``..``high`` ("" when they are)."""
    def cards(n: int) -> str:
        return f"{n} card" if n == 1 else f"{n} cards"

    if low <= count <= high:
        return ""
    if low == high:
        return f"Pick exactly {cards(low)}."
    if count < low:
        return f"Pick at least {cards(low)}."
    return f"Pick at most {cards(high)}."


# --- bots ---------------------------------------------------------------------


def random_answer(choice: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A random answer of the choice's shape (the server judges it); ``None`` if none fits."""
    kind = choice.get("kind")
    if kind == "pick_cards":
        options = list(choice.get("options") or [])
        low = max(0, int(choice.get("low", 0)))
        high = min(int(choice.get("high", 0)), len(options))
        if low > high:
            return None
        picked = rng.sample(options, rng.randint(low, high))
        marked = rng.choice(picked) if choice.get("mark") and picked else None
        return build_pick_cards(choice, picked, marked)
    if kind == "assign":
        slots = list(choice.get("slots") or [])
        items = list(choice.get("items") or [])
        if not slots:
            return None
        return build_assign(choice, [rng.choice(slots) for _ in items])
    if kind == "number":
        low, high = int(choice.get("low", 0)), int(choice.get("high", 0))
        return build_number(choice, rng.randint(low, high)) if low <= high else None
    if kind == "pick_path":
        path: list[CardId] = []
        while branches := path_step(choice, path):
            path.append(rng.choice(branches)["value"])
        return build_pick_path(choice, path) if path else None
    return None


@dataclasses.dataclass(frozen=True)
class BotMove:
    """What a bot sends: a listed command (typed) or a built one (JSON), and for which
    decision; ``guess`` when it was built at random and may well be refused."""

    command: game_pb2.Command | dict[str, Any]
    decision_id: str
    guess: bool = False


def bot_move(
    legal: game_pb2.LegalActionsResponse, rng: random.Random, explore: bool = True
) -> BotMove | None:
    """A uniformly random legal action; with ``explore`` and an incomplete list, the
    choice structures are further candidates (each answered at random)."""
    if not explore or legal.complete:  # the listed actions only: the shared picker
        listed = random_listed(legal, rng)
        return None if listed is None else BotMove(listed[0].command, listed[1])
    candidates: list[Option] = [Option("", list_decision(legal), action=a) for a in legal.actions]
    if explore and not legal.complete:
        candidates += [Option("", d, choice=c) for d, c in structured_choices(legal)]
    while candidates:
        pick = rng.choice(candidates)
        if pick.action is not None:
            return BotMove(pick.action.command, pick.decision_id)
        assert pick.choice is not None
        answer = random_answer(pick.choice, rng)
        if answer is not None:
            return BotMove(answer, pick.decision_id, guess=True)
        candidates.remove(pick)
    return None


def mark_name(choice: Mapping[str, Any]) -> str:
    """The marked card's role in words ("leader" -> "Leader")."""
    return capitalize(str(choice.get("mark", "")).replace("_", " "))
