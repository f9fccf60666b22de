"""The lobby's index of waiting tables, and its batch reads of tables' events.

A listing or a quick match looks at the tables that may still gather
players: the index (``WaitingIndex``). It holds an entry of the lobby's log
for each table listed and not yet seen to have started or closed, and is
kept as the log is followed: each new entry added once (the log is read
past the newest position the index holds), each table dropped once it is
seen never to gather again. So a listing's work is at most the tables that
may gather players, however many were listed before or after them (a
listing that walked the log back to the oldest waiting table would have one
table kept waiting hold every entry listed after it in every listing).

At a process's start the index is rebuilt from the store in one bounded
read: the newest checkpoint of the index (``IndexCheckpoint``, its own log
beside the lobby's: the entries it held at a log position), then the log's
entries past that position. A checkpoint is written by whichever server's
index has followed at least ``max(CHECKPOINT_EVERY, its size)`` entries past
the newest one it knows (and the tables new since then that finished are
dropped first), so writing them costs each listed table a constant share,
and a restart reads one checkpoint, the index as it was, and about as many
log entries past it (at least ``CHECKPOINT_EVERY``). A checkpoint holds a
superset of the waiting tables at its position (each server's index is:
tables only ever leave the gathering), so any checkpoint, whichever server
wrote it, rebuilds an index that misses none.
A store listed before checkpoints existed has none: its first start reads
the whole log, a page at a time, dropping the finished tables of each page
before the next (once; it then writes the first checkpoint).
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from eventsourcing.application import EventSourcedLog
from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import IntegrityError, StoredEvent

from service.application import ArbiterApp
from service.eventstable import event_rows

#: The index's checkpoints, beside the lobby's log.
INDEX_LOG_ID = uuid.uuid5(uuid.NAMESPACE_URL, "arbiter:lobby-waiting-index")
#: Log entries followed past the newest checkpoint (at least: as many as the
#: index holds) before the index writes another.
CHECKPOINT_EVERY = 500
#: Log entries read at once when following the log; past one page, the
#: finished tables among those followed are dropped before the next page.
PAGE = 5000
#: Tables whose newest versions one query asks for (``newest_versions``):
#: within SQLite's oldest bound on a statement's parameters (999).
VERSIONS_AT_ONCE = 900
#: Openers of tables dropped from the index remembered (their bots' share).
OPENERS_KEPT = 4096


class Entry(NamedTuple):
    """A table the index holds: its id, its opener as the lobby's log names it
    (a keyed hash; "" for none) and its entry's position in the log."""

    table_id: uuid.UUID
    opener: str
    position: int


class IndexCheckpoint(DomainEvent):
    """The index at a position of the lobby's log: the entries it held, each
    table's id (hex), opener and position as three lists in the log's order."""

    position: int
    tables: list[str]
    openers: list[str]
    positions: list[int]


class WaitingIndex:
    """The lobby log's entries of the tables that may still gather players,
    in the log's order, followed from the store (see the module's doc).
    ``finished`` says which of some tables never gather players again (read
    from the store: used while a long backlog of the log is followed)."""

    def __init__(self, app: ArbiterApp, log: EventSourcedLog[Any],
                 finished: Callable[[list[uuid.UUID]], set[uuid.UUID]]) -> None:
        self.app = app
        self.log = log
        self.finished = finished
        self.checkpoints: EventSourcedLog[IndexCheckpoint] = EventSourcedLog(
            app.events, INDEX_LOG_ID, IndexCheckpoint)
        self._entries: dict[uuid.UUID, Entry] = {}
        #: Tables followed since the index last asked which had finished.
        self._fresh: set[uuid.UUID] = set()
        #: The newest log position followed (None: not read yet), the newest
        #: checkpoint's position and version known here.
        self._head: int | None = None
        self._checkpointed = 0
        self._checkpoint_version = 0
        self._openers: OrderedDict[uuid.UUID, str] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def follow(self) -> tuple[list[Entry], int]:
        """The entries held after reading the log's new entries (rebuilt from
        the newest checkpoint first, on the first call), and the log's newest
        position they were read at (0: no entry yet)."""
        with self._lock:
            if self._head is None:
                self._load()
            head = self._head or 0
            while True:
                page = list(self.log.get(gt=head, limit=PAGE))
                for listed in page:
                    head = listed.originator_version
                    self._entries[listed.table_id] = Entry(
                        listed.table_id, getattr(listed, "opener", ""), head)
                    self._fresh.add(listed.table_id)
                self._head = head
                if len(self._fresh) >= PAGE:
                    self._settle()  # a backlog, or tables opened and never listed
                if len(page) < PAGE:
                    break
            settled = len(self._entries) - len(self._fresh)
            if head - self._checkpointed >= max(CHECKPOINT_EVERY, settled):
                self._settle()  # the checkpoint's due unless the new tables all wait
                if head - self._checkpointed >= max(CHECKPOINT_EVERY, len(self._entries)):
                    self._checkpoint()
            return list(self._entries.values()), head

    def _settle(self) -> None:
        """Drop the tables followed since the last time that have finished
        (read in one pass), so the index holds at most ``PAGE`` entries more
        than the tables that may gather players, listed or not."""
        fresh, self._fresh = self._fresh, set()
        self._drop_locked(self.finished([t for t in self._entries if t in fresh]))

    def drop(self, table_ids: Iterable[uuid.UUID]) -> None:
        """These tables never gather players again: the index holds them no more."""
        with self._lock:
            self._drop_locked(table_ids)

    def _drop_locked(self, table_ids: Iterable[uuid.UUID]) -> None:
        for table_id in table_ids:
            self._fresh.discard(table_id)
            entry = self._entries.pop(table_id, None)
            if entry is not None and entry.opener:
                self._openers[table_id] = entry.opener
                while len(self._openers) > OPENERS_KEPT:
                    self._openers.popitem(last=False)

    def known(self, table_id: uuid.UUID) -> list[Entry]:
        """The table's entry, as the index holds it or held it last (the
        newest ``OPENERS_KEPT`` dropped): [] when not known here."""
        with self._lock:
            entry = self._entries.get(table_id)
            if entry is None and table_id in self._openers:
                entry = Entry(table_id, self._openers[table_id], 0)
        return [entry] if entry is not None else []

    def _load(self) -> None:
        """The newest checkpoint's entries (none: the log is followed from its start)."""
        newest = list(self.checkpoints.get(desc=True, limit=1))
        if not newest:
            self._head = 0
            return
        point = newest[0]
        self._entries = {
            uuid.UUID(hex_id): Entry(uuid.UUID(hex_id), opener, position)
            for hex_id, opener, position in zip(point.tables, point.openers, point.positions,
                                                strict=True)}
        self._head = self._checkpointed = point.position
        self._checkpoint_version = point.originator_version

    def _checkpoint(self) -> None:
        """Record the index at the head; another server's checkpoint of the same
        version first is as good (any checkpoint rebuilds a complete index)."""
        entries = list(self._entries.values())
        point = self.checkpoints.trigger_event(
            next_originator_version=self._checkpoint_version + 1, position=self._head or 0,
            tables=[e.table_id.hex for e in entries], openers=[e.opener for e in entries],
            positions=[e.position for e in entries])
        try:
            self.app.save(point)
        except IntegrityError:
            self._checkpoint_version = newest_versions(self.app, [INDEX_LOG_ID]).get(
                INDEX_LOG_ID, self._checkpoint_version)
            return
        self._checkpoint_version = point.originator_version
        self._checkpointed = point.position


def newest_versions(app: ArbiterApp, ids: list[uuid.UUID]) -> dict[uuid.UUID, int]:
    """The newest version of each of ``ids`` that has events, in one query per
    ``VERSIONS_AT_ONCE`` ids (a look in the events' primary key each): what a
    listing needs to know of tables it keeps, where reading each table's new
    events was a query a table."""
    found: dict[uuid.UUID, int] = {}
    for start in range(0, len(ids), VERSIONS_AT_ONCE):
        chunk = ids[start:start + VERSIONS_AT_ONCE]
        rows = event_rows(
            app,
            "SELECT originator_id, MAX(originator_version) FROM {events} "
            "WHERE originator_id = ANY(%s) GROUP BY originator_id", [chunk],
            "SELECT originator_id, MAX(originator_version) FROM {events} "
            f"WHERE originator_id IN ({', '.join('?' * len(chunk))}) GROUP BY originator_id",
            [table_id.hex for table_id in chunk])  # as SQLite keeps them
        found.update((uuid.UUID(str(key)), version) for key, version in rows)
    return found


def events_after(app: ArbiterApp, after: Mapping[uuid.UUID, int]) -> dict[uuid.UUID, list[Any]]:
    """Each aggregate's events after its version in ``after`` (0: all), oldest
    first, in one query per ``VERSIONS_AT_ONCE // 2`` aggregates: the tables
    a listing reads again (new to this process, or changed since), where
    reading them was two queries a table."""
    ids = list(after)
    found: dict[uuid.UUID, list[Any]] = {table_id: [] for table_id in ids}
    mapper = app.events.mapper
    step = VERSIONS_AT_ONCE // 2
    for start in range(0, len(ids), step):
        chunk = ids[start:start + step]
        rows = event_rows(
            app,
            "SELECT e.originator_id, e.originator_version, e.topic, e.state FROM {events} e "
            "JOIN unnest(%s::uuid[], %s::bigint[]) AS k(id, v) "
            "ON e.originator_id = k.id AND e.originator_version > k.v "
            "ORDER BY e.originator_id, e.originator_version",
            [chunk, [after[table_id] for table_id in chunk]],
            f"WITH k(id, v) AS (VALUES {', '.join(['(?, ?)'] * len(chunk))}) "
            "SELECT e.originator_id, e.originator_version, e.topic, e.state FROM {events} e "
            "JOIN k ON e.originator_id = k.id AND e.originator_version > k.v "
            "ORDER BY e.originator_id, e.originator_version",
            [value for table_id in chunk for value in (table_id.hex, after[table_id])])
        for key, version, topic, state in rows:
            table_id = uuid.UUID(str(key))
            found[table_id].append(mapper.to_domain_event(StoredEvent(
                originator_id=table_id, originator_version=version, topic=topic,
                state=bytes(state))))
    return found
