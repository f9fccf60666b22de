"""Reads of the store's events table by statements of the server's own, where
the library has no query for what is asked (a game's global positions, the
newest version of many aggregates at once), on PostgreSQL or SQLite: which
engine, the table's name and its schema, and how each returns its rows, said
once here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.application import ArbiterApp


def event_rows(app: ArbiterApp, postgres: str, postgres_args: Sequence[Any],
               sqlite: str, sqlite_args: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The rows of one query of ``app``'s events table, in the engine's own
    words: ``postgres`` (``%s`` parameters; aggregate ids as UUIDs) or
    ``sqlite`` (``?`` parameters; ids as hex, as the library keeps them), each
    naming the table ``{events}``. A row's columns come in the statement's order."""
    recorder: Any = app.recorder
    table, datastore = recorder.events_table_name, recorder.datastore
    if hasattr(datastore, "schema"):  # PostgreSQL
        from psycopg.sql import SQL, Identifier

        statement = SQL(postgres).format(
            events=SQL("{}.{}").format(Identifier(datastore.schema), Identifier(table)))
        with datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(statement, list(postgres_args))
            return [tuple(row.values()) for row in curs.fetchall()]
    with datastore.transaction(commit=False) as cursor:
        cursor.execute(sqlite.format(events=table), list(sqlite_args))
        return [tuple(row) for row in cursor.fetchall()]
