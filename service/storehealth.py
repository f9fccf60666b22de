"""Health that tells whether the store can write.

A server whose store cannot write (a full disk, a read-only file system or
database, a lost lock) still answers reads, but every move and every new
game fails: a load balancer must send players elsewhere. A thread writes a
heartbeat row into the store every few seconds (``arbiter_health``, one row,
beside the events, never in them) and sets the gRPC health of every service
to ``NOT_SERVING`` while that write fails, and back to ``SERVING`` once it
succeeds again. Moves refused meanwhile leave as
``UNAVAILABLE``/``STORE_UNAVAILABLE`` (``ArbiterApp.save``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

TABLE = "arbiter_health"


#: SQLSTATEs of a database going away: class 08 (connection exceptions), and
#: the server shutting down, crashing or not yet taking connections.
GONE_STATES = ("57P01", "57P02", "57P03")


def unreachable(exc: BaseException) -> bool:
    """Whether a failure says the database could not be connected to: a
    connection pool's timeout, a connection error (which, unlike a refused
    statement, carries no SQLSTATE), or a state of a database going away.
    Never for SQLite (a file opens or not)."""
    seen: BaseException | None = exc
    while seen is not None:
        state = getattr(seen, "sqlstate", None)
        if type(seen).__name__ == "PoolTimeout" or (
                type(seen).__module__.startswith("psycopg") and (
                    state is None and type(seen).__name__ == "OperationalError"
                    or isinstance(state, str) and (state.startswith("08")
                                                   or state in GONE_STATES))):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class StoreHealth(threading.Thread):
    """Probes the store's writes; reports each change of "can write"."""

    def __init__(
        self, app: Any, report: Callable[[bool], None], interval: float = 2.0
    ) -> None:
        super().__init__(name="store-health", daemon=True)
        self.app = app
        self.report = report
        self.interval = interval
        self.stopping = threading.Event()
        self.writable: bool | None = None
        #: False while the store's database cannot even be connected to (not a
        #: refused write: a full disk still serves reads): calls for its games
        #: are then refused at once instead of waiting out the connection pool.
        self.reachable = True
        self._table_made = False

    def check(self) -> bool:
        """Probe now (retried once: two servers creating the table at once may
        collide) and report the result if it changed."""
        try:
            self.probe()
        except Exception:  # noqa: BLE001 - any failure means it cannot write
            self._table_made = False
            try:
                self.probe()
            except Exception as exc:  # noqa: BLE001
                return self._set(False, exc, reachable=not unreachable(exc))
        return self._set(True, None, reachable=True)

    def _set(self, writable: bool, exc: Exception | None, reachable: bool = True) -> bool:
        """Record the probe's result; report it when either answer changed."""
        reach_changed = reachable != self.reachable
        self.reachable = reachable
        if writable != self.writable:
            if writable:
                log.info("the store writes: health SERVING")
            else:
                log.warning("the store cannot write (%s): health NOT_SERVING",
                            str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__)
            self.writable = writable
            self.report(writable)
        elif reach_changed:
            self.report(writable)
        return writable

    def run(self) -> None:
        while not self.stopping.wait(self.interval):
            self.check()

    def stop(self) -> None:
        self.stopping.set()

    def probe(self) -> None:
        """Write (and commit) one heartbeat row to the store."""
        datastore: Any = self.app.recorder.datastore
        beat = time.time_ns()
        if hasattr(datastore, "schema"):  # PostgreSQL
            from psycopg.sql import SQL, Identifier

            table = SQL("{schema}.{table}").format(
                schema=Identifier(datastore.schema), table=Identifier(TABLE))
            with datastore.transaction(commit=True) as cursor:
                if not self._table_made:
                    cursor.execute(SQL(
                        "CREATE TABLE IF NOT EXISTS {table} (id integer PRIMARY KEY, beat bigint)"
                    ).format(table=table))
                cursor.execute(SQL(
                    "INSERT INTO {table} (id, beat) VALUES (1, %s) "
                    "ON CONFLICT (id) DO UPDATE SET beat = EXCLUDED.beat"
                ).format(table=table), [beat])
            self._table_made = True
            return
        with datastore.transaction(commit=True) as cursor:
            if not self._table_made:
                cursor.execute(
                    f"CREATE TABLE IF NOT EXISTS {TABLE} (id INTEGER PRIMARY KEY, beat INTEGER)"
                )
            cursor.execute(
                f"INSERT INTO {TABLE} (id, beat) VALUES (1, ?) "  # noqa: S608 - a constant
                "ON CONFLICT (id) DO UPDATE SET beat = excluded.beat",
                [beat],
            )
        self._table_made = True
