"""``flow.Readings``: a followed game's pending decisions and legal lists read
once per version; every other game asked afresh each time."""

from __future__ import annotations

import copy
import uuid
from collections import Counter
from typing import Any

import pytest

from aggregates.kernel.flow import Flow
from tests.template_game import Template

SEED = "5" * 64


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """How many times each game object was asked ``pending()`` and listed a
    decision's legal moves (``Flow._listed``), by ``id``."""
    calls: Counter[int] = Counter()
    pending, listed = Template.pending, Flow._listed

    def counted_pending(self: Any) -> Any:
        calls[id(self)] += 1
        return pending(self)

    def counted_listed(state: Any, moves: Any, actor: int) -> Any:
        calls[id(state)] += 1
        return listed(state, moves, actor)

    monkeypatch.setattr(Template, "pending", counted_pending)
    monkeypatch.setattr(Flow, "_listed", staticmethod(counted_listed))
    return calls


def move(game: Template, n: int) -> tuple[Any, Any]:
    """A server's move: the turn's decisions and legal list, then the answer
    handed them; what the turn read."""
    decisions = game.pending_decisions()
    seat = decisions[n % len(decisions)].seat
    legal = game.legal_actions(seat, decisions)
    game.act(seat, legal[n % len(legal)], pending=decisions)
    return decisions, legal


def test_a_followed_game_reads_the_same_and_asks_the_rules_less(asked: Counter[int]) -> None:
    followed = Template.start(["a", "b"], seed=SEED, game_id=uuid.UUID(int=1))
    twin = copy.deepcopy(followed)
    followed.FLOW.readings.follow(followed)
    moves = 0
    while not followed.ended:
        assert move(followed, moves) == move(twin, moves)
        moves += 1
    assert twin.ended
    assert moves > 10
    # Each move asked the twin its pending decisions again after the settle
    # (but the last: the game is over, no settle read them), and listed the
    # answered decision's moves again for the guard.
    assert asked[id(followed)] <= asked[id(twin)] - 2 * (moves - 1)


def test_a_game_not_followed_is_asked_afresh(asked: Counter[int]) -> None:
    game = Template.start(["a", "b"], seed=SEED)
    decisions = game.pending_decisions()
    seat = decisions[0].seat
    before = asked[id(game)]
    game.legal_actions(seat, decisions)
    game.legal_actions(seat, decisions)
    game.pending_decisions()
    assert asked[id(game)] == before + 2 * len(
        [d for d in decisions if d.seat == seat]) + 1


def test_a_followed_game_moving_on_drops_its_older_readings(asked: Counter[int]) -> None:
    game = Template.start(["a", "b"], seed=SEED)
    game.FLOW.readings.follow(game)
    move(game, 0)
    version = game.version
    assert game.FLOW.readings.pending(game) is not None
    game.FLOW.readings.follow(game)  # followed already: its readings kept
    assert game.FLOW.readings.pending(game) is not None
    rebuilt = copy.deepcopy(game)  # another object at the same version: not followed
    assert rebuilt.version == version
    assert rebuilt.FLOW.readings.pending(rebuilt) is None
