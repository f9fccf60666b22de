"""A game keeps only its newest client command ids (issue 13).

``command_ids`` grew with every command: a 10,000-event game's snapshot was
239 KB, and every cache copy and cold load grew with it. It now holds the
newest ``COMMAND_WINDOW`` ids, in the order applied, so a replay (and an
audit's re-execution) keeps exactly the same ones and the state's size is
bounded; the server finds older ids in the store's index (see
``tests/integration/test_hot_path.py`` for exactly-once past the window).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from eventsourcing.domain import Snapshot

from aggregates.kernel import recording as kernel_recording
from aggregates.kernel.audit import audit
from tests.unit.kernel.toy import Pass, Race

WINDOW = 8


@pytest.fixture(autouse=True)
def small_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel_recording, "COMMAND_WINDOW", WINDOW)


def passes(moves: int) -> tuple[Race, list[Any]]:
    """A race in which the seats only pass: as many commands as asked, each with an id."""
    game = Race.start(["a", "b"])
    events = list(game.collect_events())
    for n in range(moves):
        game.act(game.waiting_on()[0], Pass(), command_id=f"id-{n}")
        events.extend(game.collect_events())
    return game, events


def replayed(events: list[Any]) -> Race:
    game: Any = None
    for ev in events:
        game = ev.mutate(game)
    assert isinstance(game, Race)
    return game


def test_the_window_keeps_the_newest_ids_in_order() -> None:
    game, _ = passes(WINDOW * 3)
    keys = list(game.command_ids)
    assert len(keys) == WINDOW and game.command_window_full()
    assert [k.split(":", 1)[1] for k in keys] == [f"id-{n}" for n in range(WINDOW * 2, WINDOW * 3)]
    assert game.command_version(0, "id-0") is None and game.command_version(1, "id-0") is None


def test_a_window_not_yet_full_is_every_id() -> None:
    game, _ = passes(WINDOW - 1)
    assert not game.command_window_full()
    assert len(game.command_ids) == WINDOW - 1


def test_a_replay_keeps_the_same_window() -> None:
    game, events = passes(WINDOW * 2 + 3)
    assert replayed(events).command_ids == game.command_ids


def test_a_snapshot_no_longer_grows_with_the_game() -> None:
    short, _ = passes(WINDOW * 2)
    long, _ = passes(WINDOW * 20)
    size = [len(json.dumps(Snapshot.take(g).state["command_ids"])) for g in (short, long)]
    assert size[1] <= size[0] + 4 * WINDOW  # longer version numbers only


def test_a_game_loaded_with_more_ids_is_trimmed_by_its_next_command() -> None:
    """A game snapshotted before the window held every id: its next command
    leaves it with the same window a replay of its events makes."""
    game, events = passes(WINDOW * 2)
    loaded = replayed(events)
    loaded.command_ids = {f"0:old-{n}": n + 1 for n in range(WINDOW * 3)} | loaded.command_ids
    game.act(game.waiting_on()[0], Pass(), command_id="next")
    loaded.act(loaded.waiting_on()[0], Pass(), command_id="next")
    assert list(loaded.command_ids) == list(game.command_ids)


def test_the_audit_re_executes_a_game_past_its_window() -> None:
    game, events = passes(WINDOW * 3)
    report = audit(events, Race)
    assert report.replay_ok and report.chain_ok, report.problems
