"""A store sharded by game: several PostgreSQL databases, a game's shard read
from its id.

A platform that outgrows one PostgreSQL primary lists several databases
(``ARBITER_DATABASE_URLS``, in order: a database's place in the list is its
shard number). Each is a whole store of its own (its notification log, its
relay, its catalogue), and each game lives in one of them for good: nothing
of a game spans two databases, so every guarantee of one store (exactly-once
commands, expected versions, gap-free feeds, audit, export, time travel)
holds for it unchanged. There is no directory of games to keep or lose: a
game's id says its shard. A game made on a sharded store has a version-8
UUID whose first 16 bits are the shard's number; any other id (a game made
before the store was sharded, in the database listed first) is shard 0.

New games go to a shard at random, or, for a retried ``request_id``, to the
shard its keyed id chooses (so a retry to any server finds the first
request's game); a shard added at the end of the list takes its share of
new games from then on, and old games stay where they are. The list's
order must never change: each database records its shard number the first
time a server opens it (``arbiter_shard``), and a server refuses to start
when a database says another number than its place in the list.

What reads every game merges the shards: ``ListGames`` (each page one
merge of every shard's catalogue by creation time, its token one cursor per
shard), the all-games feed (each shard's events in its order, a position per
shard, ``Event.shard``) and so ``arbiter audit --all``.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator, Sequence

from service.application import ArbiterApp
from service.errors import ServiceError
from service.ids import parse_game_id, shard_of


class Shards:
    """The stores of a deployment, one application each, and the way to a game's."""

    def __init__(self, apps: Sequence[ArbiterApp]) -> None:
        if not apps:
            raise ValueError("a deployment has at least one store")
        self.apps = list(apps)

    def __len__(self) -> int:
        return len(self.apps)

    def __iter__(self) -> Iterator[ArbiterApp]:
        return iter(self.apps)

    @property
    def first(self) -> ArbiterApp:
        return self.apps[0]

    def of(self, game_id: str | uuid.UUID) -> ArbiterApp:
        """The store of a game; ``NOT_FOUND``/``UNKNOWN_GAME`` for an id whose
        shard this deployment does not have (no such game can exist here)."""
        gid = game_id if isinstance(game_id, uuid.UUID) else parse_game_id(game_id)
        shard = shard_of(gid)
        if shard >= len(self.apps):
            raise ServiceError("NOT_FOUND", "UNKNOWN_GAME", f"no game {str(gid)!r}")
        return self.reachable(shard)

    def reachable(self, shard: int) -> ArbiterApp:
        """The store of ``shard``, unless it cannot be reached now: then refused
        at once, not after the connection pool's waits and the library's
        retries (a minute), and the other shards' games go on."""
        app = self.apps[shard]
        if not app.reachable:
            raise ServiceError("UNAVAILABLE", "STORE_UNAVAILABLE",
                               "the store holding this game cannot be reached now; retry"
                               + (f" (shard {shard})" if len(self.apps) > 1 else ""))
        return app

    def for_new_game(self, keyed: uuid.UUID | None = None) -> ArbiterApp:
        """The store a new game goes to: the one ``keyed`` (a request id's game
        id) chooses, so every server sends a retry there; else one at random."""
        if len(self.apps) == 1:
            return self.apps[0]
        if keyed is not None:
            return self.reachable(keyed.int % len(self.apps))
        # A shard that cannot be reached takes no new game meanwhile.
        return random.choice([app for app in self.apps if app.reachable] or self.apps)


class ShardMismatch(RuntimeError):
    """A database's recorded shard number is not its place in the list."""


def claim(database_url: str, schema: str, shard: int) -> None:
    """Record in the database that it is shard ``shard``, or check that it is.

    Run when a server opens a sharded store, before any game is read: a list
    reordered (or a database swapped) would send games' ids to the wrong
    database, where they would be reported unknown and new games made beside
    them. A database that holds games of an unsharded store (ids of no
    shard: shard 0) may only be listed first."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(database_url, autocommit=True, connect_timeout=5) as conn:
        table = sql.SQL("{}.arbiter_shard").format(sql.Identifier(schema))
        conn.execute(sql.SQL("CREATE TABLE IF NOT EXISTS {} (id integer PRIMARY KEY, "
                             "shard integer NOT NULL)").format(table))
        row = conn.execute(sql.SQL("SELECT shard FROM {} WHERE id = 1").format(table)).fetchone()
        if row is None:
            events = conn.execute("SELECT to_regclass(%s)",
                                  (f'"{schema}".arbiter_events',)).fetchone()
            if shard != 0 and events is not None and events[0] is not None and conn.execute(
                    sql.SQL("SELECT 1 FROM {}.arbiter_events LIMIT 1").format(
                        sql.Identifier(schema))).fetchone():
                raise ShardMismatch(
                    f"shard {shard} holds games of an unsharded store: list it first "
                    "(its games' ids name no shard, so they are shard 0's)")
            conn.execute(sql.SQL("INSERT INTO {} (id, shard) VALUES (1, %s) "
                                 "ON CONFLICT (id) DO NOTHING").format(table), (shard,))
            row = conn.execute(sql.SQL("SELECT shard FROM {} WHERE id = 1").format(
                table)).fetchone()
        if row is None or int(row[0]) != shard:
            raise ShardMismatch(
                f"the database listed as shard {shard} is shard {row[0] if row else '?'}: "
                "the list's order must never change (add new shards at its end)")
