"""Group commit (issue 13): concurrent moves to different games share a
transaction, each mover is answered only after its own events committed, and
one mover's conflict never refuses another's move."""

from __future__ import annotations

import random
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.application import ProcessingEvent
from eventsourcing.persistence import IntegrityError

from service.application import ArbiterApp
from service.config import Settings
from service.groupcommit import GroupCommit


class Event:
    """A loose event, as the application saves beside a game (an index entry)."""

    def __init__(self, originator_id: uuid.UUID) -> None:
        self.originator_id = originator_id
        self.originator_version = 1


class Recording:
    def __init__(self, event: Any) -> None:
        self.domain_event = event


class SlowStore:
    """Records processing events after a pause (a disk sync), remembering each
    transaction's events; refuses any transaction holding a conflicting id."""

    def __init__(self, pause: float = 0.02, conflicts: frozenset[uuid.UUID] = frozenset()):
        self.pause = pause
        self.conflicts = conflicts
        self.transactions: list[list[uuid.UUID]] = []
        self.lock = threading.Lock()

    def record(self, processed: ProcessingEvent[uuid.UUID], defer: bool) -> list[Any]:
        ids = [e.originator_id for e in processed.events]
        time.sleep(self.pause)
        if self.conflicts & set(ids):
            raise IntegrityError("another writer has that version")
        with self.lock:
            self.transactions.append(ids)
        return [Recording(e) for e in processed.events]


def save_all(group: GroupCommit, events: list[Event]) -> dict[uuid.UUID, Any]:
    """Each event saved from its own thread, all at once; each thread's answer."""
    answers: dict[uuid.UUID, Any] = {}
    start = threading.Barrier(len(events))

    def mover(event: Event) -> None:
        start.wait()
        try:
            answers[event.originator_id] = group.save(event)
        except Exception as exc:  # noqa: BLE001 - the answer under test
            answers[event.originator_id] = exc

    threads = [threading.Thread(target=mover, args=(e,)) for e in events]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    return answers


def test_a_lone_move_commits_at_once_in_its_own_transaction() -> None:
    store = SlowStore(pause=0)
    group = GroupCommit(store.record)
    event = Event(uuid.uuid4())
    recordings = group.save(event)
    assert [r.domain_event for r in recordings] == [event]
    assert store.transactions == [[event.originator_id]]


def test_concurrent_moves_share_transactions_and_each_gets_its_own_recordings() -> None:
    """32 movers at once, each commit taking 20 ms: far fewer transactions than
    movers, every event in exactly one of them, and every mover answered with
    the recordings of its own events only."""
    store = SlowStore()
    group = GroupCommit(store.record)
    events = [Event(uuid.uuid4()) for _ in range(32)]
    answers = save_all(group, events)
    for event in events:
        answer = answers[event.originator_id]
        assert [r.domain_event for r in answer] == [event]
    committed = [i for t in store.transactions for i in t]
    assert sorted(committed) == sorted(e.originator_id for e in events)
    assert len(store.transactions) < len(events) / 2, store.transactions
    assert group.saved == 32 and group.commits == len(store.transactions)


def test_a_conflict_in_a_batch_refuses_only_its_own_mover() -> None:
    """When a shared transaction fails, each mover's events are recorded again on
    their own: the conflicting mover gets the IntegrityError (and decides again),
    every other mover's move is recorded."""
    events = [Event(uuid.uuid4()) for _ in range(16)]
    loser = events[5].originator_id
    store = SlowStore(conflicts=frozenset({loser}))
    group = GroupCommit(store.record)
    answers = save_all(group, events)
    assert isinstance(answers[loser], IntegrityError)
    for event in events:
        if event.originator_id != loser:
            assert [r.domain_event for r in answers[event.originator_id]] == [event]
    committed = [i for t in store.transactions for i in t]
    assert sorted(committed) == sorted(e.originator_id for e in events if e.originator_id != loser)


@pytest.fixture
def app(tmp_path: Path) -> ArbiterApp:
    return ArbiterApp({
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(tmp_path / "group.sqlite"),
        "CREATE_TABLE": "y",
    }, snapshot_interval=10)


def test_concurrent_acts_on_a_real_store_record_every_move_once(app: ArbiterApp) -> None:
    """Sixteen Land of Enin games moved from sixteen threads at once, through
    ``ArbiterApp.act`` and SQLite: every accepted move is in the store at the
    version its mover was told, and each game read back from the store alone
    equals the game its mover holds."""
    games = [str(app.create_game("enin", ["solo"], "", f"g{n}", "test").id) for n in range(16)]
    told: dict[str, list[int]] = {g: [] for g in games}
    failures: list[BaseException] = []

    def mover(game_id: str, seed: int) -> None:
        rnd = random.Random(seed)
        try:
            for _ in range(12):
                with app.game_lock(game_id):
                    game = app.game(game_id)
                if game.ended:
                    return
                seat = game.pending_decisions()[0].seat
                action = rnd.choice(game.legal_actions(seat)).to_json()
                result = app.act(game_id, seat, action, defer_snapshots=True)
                told[game_id].append(result.game.version)
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    threads = [threading.Thread(target=mover, args=(g, n)) for n, g in enumerate(games)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures, failures
    assert app.group_commit.saved >= sum(len(v) for v in told.values())
    for game_id in games:
        stored = app.game_events(game_id)
        assert [e.originator_version for e in stored] == list(range(1, len(stored) + 1))
        assert told[game_id] and told[game_id][-1] == len(stored)
        app.repository.forget(uuid.UUID(game_id))
        assert app.game(game_id).version == len(stored)


def test_a_batch_taking_snapshots_now_does_not_wait_for_a_lock_its_savers_hold(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch whose savers do not all defer their snapshots (a contribution, a
    clock's default, an in-process act) takes the snapshots due at once, on
    the leader's thread; a game of another saver in the batch is locked by
    that saver, which waits for this very commit: its snapshot must not wait
    for that lock (it did, and every write of the server stopped for good)."""
    app = ArbiterApp(Settings(data_dir=tmp_path).store_env(), snapshot_interval=1)  # cached
    first, taking, deferring = (str(app.create_game("enin", ["solo"]).id) for _ in range(3))
    moves = {g: app.game(g).legal_actions(0)[0].to_json() for g in (first, taking, deferring)}
    inside, go = threading.Event(), threading.Event()
    record = app._record

    def held_first(processed: Any) -> Any:
        if not inside.is_set():  # the first commit waits until the other two are queued
            inside.set()
            go.wait(10)
        return record(processed)

    monkeypatch.setattr(app, "_record", held_first)
    threads = [
        threading.Thread(target=app.act, args=(first, 0, moves[first]), daemon=True),
        threading.Thread(target=app.act, args=(taking, 0, moves[taking]), daemon=True),
        threading.Thread(target=app.act, args=(deferring, 0, moves[deferring]),
                         kwargs={"defer_snapshots": True}, daemon=True),
    ]
    threads[0].start()
    assert inside.wait(10)
    for queued, thread in enumerate(threads[1:], start=1):
        thread.start()  # queued in this order: the one that snapshots now leads the batch
        deadline = time.monotonic() + 10
        while len(app.group_commit._queue) < queued and time.monotonic() < deadline:
            time.sleep(0.005)
    go.set()
    for thread in threads:
        thread.join(10)
    assert not any(thread.is_alive() for thread in threads), "the writes are deadlocked"
    assert app.group_commit.commits == 2, "the last two moves shared a transaction"
    app.close()


def test_a_move_committed_is_never_reported_failed_nor_applied_twice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What follows a commit (the snapshots due, the notifications) failing must
    not reach the savers: one told its move failed would send it again, and a
    batch reported failed was saved again saver by saver, each refused by the
    store's versions and decided anew (a move without a command id applied
    twice). The snapshot is only a shortcut: logged, not raised."""
    app = ArbiterApp(Settings(data_dir=tmp_path).store_env(), snapshot_interval=1)
    games = [str(app.create_game("enin", ["solo"]).id) for _ in range(2)]
    versions = {g: app.game(g).version for g in games}

    def broken(game_id: Any, version: int) -> None:
        raise RuntimeError("the snapshot store is full")

    monkeypatch.setattr(app, "_take_snapshot_now", broken)
    inside, go = threading.Event(), threading.Event()
    record = app._record

    def held_first(processed: Any) -> Any:
        if not inside.is_set():
            inside.set()
            go.wait(10)
        return record(processed)

    monkeypatch.setattr(app, "_record", held_first)
    results: dict[str, Any] = {}

    def move(game_id: str) -> None:
        try:
            results[game_id] = app.act(game_id, 0, app.game(game_id).legal_actions(0)[0].to_json())
        except BaseException as exc:  # noqa: BLE001 - the assertion below says
            results[game_id] = exc

    first = threading.Thread(target=move, args=(games[0],), daemon=True)
    first.start()
    assert inside.wait(10)
    threads = [threading.Thread(target=move, args=(games[1],), daemon=True), first]
    threads[0].start()
    deadline = time.monotonic() + 10
    while not app.group_commit._queue and time.monotonic() < deadline:
        time.sleep(0.005)
    go.set()
    for thread in threads:
        thread.join(10)
    for game_id in games:
        result = results[game_id]
        assert not isinstance(result, BaseException), result
        stored = app.game_events(game_id)
        assert result.version == len(stored) == versions[game_id] + len(result.events), (
            "applied once, at the version its mover was told")
    app.close()
