"""A random bot for the template game that uses only what the kernel offers
every client: the pending decisions, their choice structures, the legal list."""

from __future__ import annotations

import random
from typing import Any

from aggregates.kernel import Assign, Game, Number, PickCards, PickPath, RuleError


def build(choice: Any, rnd: random.Random) -> dict[str, Any] | None:
    """A command built from one choice structure (None for ``PickOne``)."""
    if isinstance(choice, PickCards):
        k = rnd.randint(choice.low, choice.high)
        return choice.build(sorted(rnd.sample(list(choice.options), k)))
    if isinstance(choice, Number):
        return choice.build(rnd.randint(choice.low, choice.high))
    if isinstance(choice, Assign):
        return choice.build([rnd.choice(choice.slots) for _ in choice.items])
    if isinstance(choice, PickPath):
        path, branches = [], choice.options
        while branches:
            branch = rnd.choice(branches)
            path.append(branch.value)
            branches = branch.then
        return choice.build(path)
    return None


def step(game: Game, rnd: random.Random, use_ids: bool = True) -> tuple[int, bool]:
    """One move of one pending seat: built from a choice half the time, else
    picked from the legal list. Returns (seat, whether a built command was
    refused). A built command is accepted exactly when it is on the legal list."""
    decision = rnd.choice(game.pending_decisions())
    seat = decision.seat
    legal = game.legal_actions(seat)
    decision_id = decision.id if use_ids else ""
    choices = game.choices(seat)
    built = build(rnd.choice(choices), rnd) if choices and rnd.random() < 0.5 else None
    if built is not None:
        command = game.COMMANDS.parse(built["name"], built["args"])
        version = game.version
        try:
            game.act(seat, command, decision_id=decision_id)
        except RuleError:
            assert game.version == version, "a refused command recorded something"
            assert command not in legal, f"{command} is legal but was refused"
            return seat, True
        assert command in legal, f"{command} was accepted but is not on the legal list"
        return seat, False
    game.act(seat, rnd.choice(legal), decision_id=decision_id)
    return seat, False


def play_out(game: Game, rnd: random.Random, cap: int = 2000) -> list[Any]:
    """Play to the end; every event recorded, the creation event first."""
    events = list(game.collect_events())
    for _ in range(cap):
        if game.ended:
            return events
        step(game, rnd)
        events += game.collect_events()
    raise AssertionError("the game did not end")
