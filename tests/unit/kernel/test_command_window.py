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

from aggregates.kernel.record import recording as kernel_recording
from aggregates.kernel.record.audit import audit
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


# ------------------------------------------- snapshots leave the window to the events
# Issue 20: the window was most of a long game's snapshot. A snapshot now keeps
# only where the window's ids are recorded (``command_gap``: the newest
# ``count`` ids of the events up to its version); a game loaded from it fills
# the window from those events before its first command.


def mixed(moves: int) -> tuple[Race, list[Any]]:
    """A race of passes, every third without a command id (so the events the
    window is filled from also hold commands that carry none)."""
    game = Race.start(["a", "b"])
    events = list(game.collect_events())
    for n in range(moves):
        game.act(game.waiting_on()[0], Pass(), command_id="" if n % 3 == 2 else f"id-{n}")
        events.extend(game.collect_events())
    return game, events


def snapshot_form(game: Race) -> dict[str, Any]:
    """The state a snapshot of ``game`` keeps."""
    return kernel_recording.window_left_to_events(Snapshot.take(game).state, game.version)


def loaded(events: list[Any], at: int) -> Race:
    """The game loaded from a snapshot at version ``at``, then its later events."""
    before = replayed(events[:at])
    snapshot = Snapshot.take(before)
    game: Any = Snapshot(  # type: ignore[call-arg]
        originator_id=snapshot.originator_id, originator_version=at,
        timestamp=snapshot.timestamp, topic=snapshot.topic, state=snapshot_form(before),
    ).mutate(None)
    for ev in events[at:]:
        game = ev.mutate(game)
    assert isinstance(game, Race)
    return game


def fill(game: Race, events: list[Any]) -> None:
    """Fill the window as the server does: the events up to the gap, newest first."""
    assert game.command_gap is not None
    last, count = game.command_gap
    newest_first = ((ev.originator_version, ev.meta) for ev in reversed(events[:last]))
    game.fill_command_window(kernel_recording.newest_ids(newest_first, count))


def test_a_snapshot_keeps_no_command_id_only_where_they_are() -> None:
    game, _ = mixed(WINDOW * 3)
    state = snapshot_form(game)
    assert state["command_ids"] == {}
    assert state["command_gap"] == [game.version, WINDOW]
    assert {k: v for k, v in state.items() if k not in {"command_ids", "command_gap"}} == {
        k: v for k, v in Snapshot.take(game).state.items() if k != "command_ids"}


def test_a_snapshot_s_size_does_not_grow_with_the_game() -> None:
    short, _ = mixed(WINDOW // 2)
    long, _ = mixed(WINDOW * 20)
    size = [len(json.dumps(snapshot_form(g), default=str)) for g in (short, long)]
    assert size[1] <= size[0] + 16, size  # longer numbers only (version, counters)


@pytest.mark.parametrize("moves", [WINDOW // 2, WINDOW + 1, WINDOW * 3])
def test_a_window_filled_from_the_events_is_the_one_a_replay_makes(moves: int) -> None:
    game, events = mixed(moves)
    window = list(replayed(events).command_ids.items())
    assert window == list(game.command_ids.items())
    for at in range(2, len(events) + 1):
        from_snapshot = loaded(events, at)
        if from_snapshot.command_gap is not None:
            fill(from_snapshot, events)
        assert from_snapshot.command_gap is None
        assert list(from_snapshot.command_ids.items()) == window, at


def test_a_game_loaded_with_a_gap_snapshots_again_without_reading_its_events() -> None:
    """A snapshot of a game still holding its gap (loaded, not yet filled:
    another server's commands came in, or the snapshot was rebuilt from an
    older one) counts the ids applied since into the gap: filled from it, the
    window is still the replay's."""
    _, events = mixed(WINDOW * 3)
    first = len(events) - WINDOW - 2
    again = loaded(events[:first + 5], first)
    assert again.command_gap is not None and again.command_ids, "a gap and newer ids"
    snapshot = Snapshot.take(again)
    state = kernel_recording.window_left_to_events(snapshot.state, again.version)
    assert state["command_gap"] == [again.version, WINDOW]
    twice: Any = Snapshot(  # type: ignore[call-arg]
        originator_id=snapshot.originator_id, originator_version=again.version,
        timestamp=snapshot.timestamp, topic=snapshot.topic, state=state).mutate(None)
    for ev in events[again.version:]:
        twice = ev.mutate(twice)
    fill(twice, events)
    assert list(twice.command_ids.items()) == list(replayed(events).command_ids.items())


def test_a_game_with_a_gap_never_takes_a_miss_for_a_new_id() -> None:
    """Exactly-once: with older ids not filled in, an id not held may have been
    applied, so the game gives no answer rather than a wrong one; an id applied
    after the snapshot is answered."""
    _, events = mixed(WINDOW * 2)
    game = loaded(events, len(events) - 2)
    assert game.command_gap is not None
    newest = list(game.command_ids)[-1]
    seat, command_id = newest.split(":", 1)
    assert game.command_version(int(seat), command_id) == game.command_ids[newest]
    oldest, first = next(iter(replayed(events).command_ids.items()))
    in_gap = oldest.split(":", 1)
    with pytest.raises(kernel_recording.WindowIncomplete):
        game.command_version(int(in_gap[0]), in_gap[1])
    with pytest.raises(kernel_recording.WindowIncomplete):
        game.command_version(0, "never-sent")
    assert game.command_window_full(), "the gap's ids count towards the window"
    fill(game, events)
    assert game.command_version(0, "never-sent") is None
    assert game.command_version(int(in_gap[0]), in_gap[1]) == first


def test_newer_ids_alone_fill_the_window_and_close_its_gap() -> None:
    _, events = mixed(WINDOW * 4)
    game = loaded(events, 4)
    assert game.command_gap is None, "every id of the gap has left the window"
    assert list(game.command_ids.items()) == list(replayed(events).command_ids.items())
    assert "command_gap" not in vars(game), "its state is the replay's"
