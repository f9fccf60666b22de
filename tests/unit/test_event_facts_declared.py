"""Events are the rulebook's facts, never a generic patch of the engine's
state (the design's principle 2, "Events are facts, complete"; issue 17,
item 3), in every registered game.

Two checks per game of the catalogue (and the template game): each event type
it declares (classes or ``@event`` methods) has no patch-style name and no fact named like
a patch (``what``/``changes``/``details``...) or like the engine's scratch
state (``work``, a queue, ``b``, ``chosen``, ``lose``...); and a random game's
recorded payloads, nested values included, carry none of those keys either.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from aggregates.catalog import SERVED
from aggregates.kernel import declared, event_type, payload_of
from tests.template_game import Template

#: Keys of a generic patch: what was changed, and to what.
PATCH_KEYS = frozenset({"what", "changes", "details", "patch", "diff", "updates", "fields",
                        "attrs", "attributes", "state", "set", "values"})
#: Keys naming an engine's scratch state rather than a fact of the game.
SCRATCH_KEYS = frozenset({"work", "queue", "queues", "tasks", "b", "chosen", "lose", "at",
                          "groups", "scratch", "cursor", "index", "pointer", "stack"})
#: Type names of a patch, not a fact.
PATCH_NAME = re.compile(r"(Updated|Changed|Patched|Modified)$|^(Set|Moved|Update)$")
GAMES: list[type[Any]] = [*SERVED, Template]


def declared_events(game_class: type[Any]) -> dict[str, list[str]]:
    """Each event type the game declares (its event classes or ``@event``
    methods, and the kernel's), with its facts."""
    return {name: [f.name for f in ev.fields]
            for name, ev in declared.events(game_class).items()}


def patch_problems(kind: str, keys: list[str]) -> list[str]:
    """Why an event type reads as a patch (nothing: it reads as a fact)."""
    problems = []
    if PATCH_NAME.search(kind):
        problems.append(f"{kind} is named as a patch, not as a fact of the game")
    problems += [f"{kind}.{key} names a patch" for key in keys if key in PATCH_KEYS]
    problems += [f"{kind}.{key} names the engine's scratch state" for key in keys
                 if key in SCRATCH_KEYS]
    return problems


def nested_keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield str(key)
            yield from nested_keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from nested_keys(inner)


def test_the_check_catches_a_patch() -> None:
    """The shapes this test exists for are caught (Ettin's before issue 17)."""
    assert patch_problems("Updated", ["what", "changes", "details"])
    assert patch_problems("BattleGoesOn", ["work"])
    assert patch_problems("Moved", ["source", "target", "cards"])
    assert not patch_problems("Deployed", ["position", "slot", "cards", "scouting"])


@pytest.mark.parametrize("game_class", GAMES, ids=[g.RULES_ID for g in GAMES])
def test_every_declared_event_is_a_fact(game_class: type[Any]) -> None:
    declared = declared_events(game_class)
    assert declared, "the game declares its events"
    problems = [p for kind, keys in declared.items() for p in patch_problems(kind, keys)]
    assert problems == []


@pytest.mark.parametrize("game_class", GAMES, ids=[g.RULES_ID for g in GAMES])
def test_recorded_payloads_carry_no_patch_or_scratch_state(game_class: type[Any]) -> None:
    """A random game to its end: no recorded payload, nested values included,
    has a patch's or the engine's scratch keys."""
    seats = max(game_class.MIN_SEATS, min(4, game_class.MAX_SEATS))
    rnd = random.Random(17)
    game = game_class.start([f"p{i}" for i in range(seats)], seed="17" * 32)
    events = list(game.collect_events())
    for _ in range(5000):
        if game.ended:
            break
        seat = rnd.choice(game.waiting_on())
        game.act(seat, rnd.choice(game.legal_actions(seat)))
        events.extend(game.collect_events())
    assert game.ended
    seen = set()
    for ev in events[1:]:  # the creation event records the setup, not a change
        kind = event_type(ev)
        seen.add(kind)
        bad = (set(nested_keys(payload_of(ev))) & (PATCH_KEYS | SCRATCH_KEYS)) - {"seat"}
        assert not bad, f"{kind} records {sorted(bad)}"
    assert len(seen) > 3
