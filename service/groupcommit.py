"""Group commit: concurrent moves to different games saved in one transaction.

Every ``Act`` ends in a save, and every save is a transaction: on SQLite a
disk sync, on PostgreSQL a round trip and the events table's lock. Moves to
different games, arriving together, need not each pay for one.

The first saver to arrive leads: it records its own events in one
transaction (the application's ``record``, the library's save steps). Savers
arriving meanwhile queue; when the leader's commit is done it hands the lead
to the first of them, who records the whole queue in one transaction, and so
on (flat combining). A lone move commits at once, with no added wait; under
load, batches grow by themselves, and no leader's move waits for others'
commits after its own. Each saver's events are collected from its
aggregates once, on its own thread (which holds its game's lock), so a
failed batch can record them again.

Each saver is answered only once the transaction holding its events has
committed, so an accepted move is as durable as before. The batch is all or
nothing in the store; when it fails (another server won one of its games'
versions, or anything else), each saver's events are saved again on their
own, so one saver's conflict never refuses another's move.
"""

from __future__ import annotations

import dataclasses
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from eventsourcing.application import ProcessingEvent
from eventsourcing.domain import BaseAggregate

#: The most savers one transaction holds.
MAX_BATCH = 64


#: Records a processing event (its events, in one transaction) and returns the
#: recordings; ``defer`` says whether snapshots due may be taken later.
Record = Callable[[ProcessingEvent[uuid.UUID], bool], list[Any]]


class Latch:
    """A one-shot wake-up: a lock taken at birth, released once by the one who
    wakes, awaited once by its one saver. A ``threading.Event`` does the same
    through a condition (its own lock, a waiter lock per wait, a notify over the
    waiters): under load that bookkeeping was a twentieth of the server's
    Python time, paid once per move."""

    __slots__ = ("_lock", "_set")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lock.acquire()
        self._set = False

    def set(self) -> None:
        """Wake the saver (at most once; later calls do nothing)."""
        if not self._set:
            self._set = True
            self._lock.release()

    def wait(self) -> None:
        """Block until ``set`` was called (at once if it was)."""
        self._lock.acquire()
        self._lock.release()

    def is_set(self) -> bool:
        return self._set


@dataclasses.dataclass
class Ticket:
    """One saver's events, and, once its batch has committed, its answer."""

    processed: ProcessingEvent[uuid.UUID]
    defer: bool
    #: Set when its batch has committed, or when it is to lead the next one.
    wake: Latch = dataclasses.field(default_factory=Latch)
    finished: bool = False
    recordings: list[Any] = dataclasses.field(default_factory=list)
    error: BaseException | None = None


def collected(objs: Sequence[Any]) -> ProcessingEvent[uuid.UUID]:
    """``objs``' new events in a processing event, as ``ProcessingEvent.collect_events``
    gathers them, without its test of each object against two runtime-checkable
    protocols (``typing``'s ``isinstance`` on a protocol walks its members: a
    thirtieth of an ``Act``'s own time): an aggregate is known by its class."""
    processed: ProcessingEvent[uuid.UUID] = ProcessingEvent()
    for obj in objs:
        if isinstance(obj, BaseAggregate):
            processed.events.extend(obj.collect_events())
            processed.aggregates[obj.id] = obj
        else:
            processed.collect_events(obj)  # an event, or nothing
    return processed


class GroupCommit:
    """Saves through ``record`` (the application's), a batch of savers at a time."""

    def __init__(self, record: Record, max_batch: int = MAX_BATCH) -> None:
        self._record = record
        self.max_batch = max_batch
        self._lock = threading.Lock()
        self._queue: list[Ticket] = []
        self._leading = False
        #: Transactions and savers so far (the benchmark reads their ratio),
        #: and the seconds those transactions took (the metrics' commit latency:
        #: its rate over the transactions' rate).
        self.commits = 0
        self.saved = 0
        self.commit_seconds = 0.0

    def save(self, *objs: Any, defer: bool = False) -> list[Any]:
        """Save ``objs`` (aggregates and events) in a transaction, perhaps shared;
        return this saver's recordings once it has committed, or raise what the
        save of this saver's own events raised."""
        ticket = Ticket(collected(objs), defer)
        with self._lock:
            self._queue.append(ticket)
            lead = not self._leading
            if lead:
                self._leading = True
        if not lead:
            ticket.wake.wait()
        if not ticket.finished:  # this saver leads (first to come, or handed the lead)
            self._lead(ticket)
        if ticket.error is not None:
            raise ticket.error
        return ticket.recordings

    def _lead(self, own: Ticket) -> None:
        """Commit batches until the leader's own has committed, then hand the
        lead to the first saver still waiting (so no leader's move waits for
        others' commits after its own), or step down when none waits."""
        while not own.finished:
            with self._lock:
                batch = self._queue[: self.max_batch]
                del self._queue[: self.max_batch]
            self._commit(batch)
        with self._lock:
            if self._queue:
                self._queue[0].wake.set()
            else:
                self._leading = False

    def _commit(self, batch: Sequence[Ticket]) -> None:
        try:
            if len(batch) == 1:
                self._alone(batch[0])
                return
            merged: ProcessingEvent[uuid.UUID] = ProcessingEvent()
            for ticket in batch:
                merged.events.extend(ticket.processed.events)
                merged.aggregates.update(ticket.processed.aggregates)
            started = time.perf_counter()
            try:
                recordings = self._record(merged, all(t.defer for t in batch))
            except BaseException:  # noqa: BLE001 - each saver gets its own answer below
                for ticket in batch:
                    self._alone(ticket)
                return
            self.commit_seconds += time.perf_counter() - started
            self.commits += 1
            self.saved += len(batch)
            by_event = {id(r.domain_event): r for r in recordings}
            for ticket in batch:
                ticket.recordings = [by_event[id(e)] for e in ticket.processed.events
                                     if id(e) in by_event]
        finally:
            for ticket in batch:
                ticket.finished = True
                ticket.wake.set()

    def _alone(self, ticket: Ticket) -> None:
        """One saver's own transaction: its recordings, or its own error."""
        started = time.perf_counter()
        try:
            ticket.recordings = self._record(ticket.processed, ticket.defer)
            self.commit_seconds += time.perf_counter() - started
            self.commits += 1
            self.saved += 1
        except BaseException as exc:  # noqa: BLE001 - handed to its saver's thread
            ticket.error = exc

