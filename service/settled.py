"""How far the notification log is settled, when inserts do not lock the table.

Readers that follow the store by global position (the relay that publishes
feeds, the all-games feed, ``ListGames`` with ``changed_after``, the
metrics) read "every event after position P" and then move P on. That is only
right if no event can still appear below P later.

With the library's default PostgreSQL insert, every insert takes ``LOCK TABLE
... IN EXCLUSIVE MODE``, so notification ids commit in order and the visible
ids are always a prefix of the log (an id missing below the head was rolled
back and is missing for good). SQLite has one writer at a time, with the same
effect. Without that lock (``POSTGRES_ENABLE_DB_FUNCTIONS``, which inserts
through a function that does not lock), two inserts commit in either order:
id 11 can be visible while id 10's transaction is still running, and a reader
that passed 11 would never see 10.

So, in that mode, readers read only up to the *settled head*: the highest id
such that every id at or below it is visible or will never be. Ids are read
above the last settled one; a contiguous run is settled at once; at a missing
id, the transactions then holding a writer's lock on the events table
(``RowExclusiveLock``, taken before the insert draws its id and held to its
commit) are noted, and the missing ids below the first visible one are
settled only when every one of those transactions has ended: whatever they
had drawn is visible by then, or rolled back and gone. A slow writer delays
readers (the relay publishes late, never out of order); it never makes them
skip an event.
"""

from __future__ import annotations

import threading
from typing import Any

#: Ids read per look at the log's tail.
WINDOW = 5000
#: What a missing id is: still possibly coming, visible after all, gone for good.
WAIT, VISIBLE, GONE = "wait", "visible", "gone"


class SettledHead:
    """The settled head of one PostgreSQL events table (see the module's doc)."""

    def __init__(self, recorder: Any) -> None:
        from psycopg.sql import SQL, Identifier

        self.datastore = recorder.datastore
        schema = Identifier(self.datastore.schema)
        table = Identifier(recorder.events_table_name)
        self._ids = SQL(
            "SELECT notification_id FROM {schema}.{table} WHERE notification_id > %s "
            "ORDER BY notification_id LIMIT %s").format(schema=schema, table=table)
        self._holders = SQL(
            "SELECT l.pid, a.xact_start FROM pg_locks l JOIN pg_stat_activity a "
            "ON a.pid = l.pid WHERE l.locktype = 'relation' AND l.granted "
            "AND l.mode = 'RowExclusiveLock' AND l.pid <> pg_backend_pid() "
            "AND l.relation = (SELECT c.oid FROM pg_class c JOIN pg_namespace n "
            "ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relname = %s)")
        self._names = [self.datastore.schema, recorder.events_table_name]
        self._lock = threading.Lock()
        self.settled = 0
        #: The gap being waited out: ids below ``_upto`` not yet visible, and the
        #: writers' transactions that held the table when it was first seen.
        self._upto = 0
        self._waiting_on: set[tuple[Any, Any]] = set()

    def head(self) -> int:
        """The highest id at or below which every event is visible or never will be."""
        with self._lock, self.datastore.get_connection() as conn, conn.cursor() as curs:
            while True:
                curs.execute(self._ids, [self.settled, WINDOW])
                ids = [row["notification_id"] for row in curs.fetchall()]
                run = self._run(ids)
                if run < len(ids):  # ids missing below ids[run]
                    state = self._gap(curs, ids[run])
                    if state == WAIT:
                        return self.settled
                    if state == GONE:
                        self.settled = ids[run] - 1
                    continue
                if len(ids) < WINDOW:
                    return self.settled

    def _run(self, ids: list[int]) -> int:
        """Settle the contiguous run at the start of ``ids``; its length."""
        for n, ident in enumerate(ids):
            if ident != self.settled + 1:
                return n
            self.settled = ident
        return len(ids)

    def _gap(self, curs: Any, first_visible: int) -> str:
        """The missing ids below ``first_visible``: ``WAIT`` while a writer that
        held the table when they were first seen is still running; then
        ``VISIBLE`` if one of them has appeared (read on), else ``GONE``."""
        curs.execute(self._holders, self._names)
        holders = {(row["pid"], row["xact_start"]) for row in curs.fetchall()}
        if self._upto != first_visible:  # first seen now: note who may hold them
            self._upto = first_visible
            self._waiting_on = holders
        else:
            self._waiting_on &= holders
        if self._waiting_on:
            return WAIT
        curs.execute(self._ids, [self.settled, 1])
        row = curs.fetchone()
        self._upto = 0
        if row is not None and row["notification_id"] < first_visible:
            return VISIBLE
        return GONE
