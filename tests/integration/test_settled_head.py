"""PostgreSQL without the table lock (issue 13): readers by position never
skip an event that commits late.

With ``POSTGRES_ENABLE_DB_FUNCTIONS`` the library inserts without ``LOCK
TABLE``, so a later id can commit before an earlier one. These tests hold an
insert open in a transaction of their own (a slow writer), commit another
through the application, and check what a reader by position (the relay, the
all-games feed, ``changed_after``, the metrics: ``ArbiterApp.notifications``)
is given: never the later event while the earlier may still come; both once
it commits; and the later one, with the earlier skipped, once it rolls back.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from service.application import ArbiterApp
from service.config import Settings


@pytest.fixture
def unlocked(postgres_schema: tuple[str, str], monkeypatch: pytest.MonkeyPatch
             ) -> Iterator[tuple[ArbiterApp, str]]:
    url, schema = postgres_schema
    monkeypatch.setenv("ARBITER_POSTGRES_SCHEMA", schema)
    monkeypatch.delenv("ARBITER_POSTGRES_TABLE_LOCK", raising=False)
    env = Settings(database_url=url).store_env()
    assert env["POSTGRES_ENABLE_DB_FUNCTIONS"] == "y"  # the default on PostgreSQL
    app = ArbiterApp(env)
    try:
        yield app, url
    finally:
        app.close()


class SlowWriter:
    """An insert into the events table, held open in a transaction of its own."""

    def __init__(self, app: ArbiterApp, url: str) -> None:
        import psycopg

        recorder: Any = app.recorder
        self.table = f'"{recorder.datastore.schema}"."{recorder.events_table_name}"'
        self.conn = psycopg.connect(url)

    def begin(self) -> int:
        """Draw an id and write an event under it, uncommitted; the id."""
        row = self.conn.execute(
            f"INSERT INTO {self.table} (originator_id, originator_version, topic, state) "  # noqa: S608
            "VALUES (%s, 1, 'tests:Slow', '\\x00') RETURNING notification_id",
            [uuid.uuid4()]).fetchone()
        assert row is not None
        return int(row[0])

    def close(self) -> None:
        self.conn.close()


def ids(app: ArbiterApp, after: int) -> list[int]:
    return [n.id for n in app.notifications(after, limit=100)]


def test_a_late_commit_is_read_in_order_and_a_rollback_is_passed(
        unlocked: tuple[ArbiterApp, str]) -> None:
    app, url = unlocked
    game = app.create_game("enin", ["solo"], "", "settled-1", "test")
    start = max(ids(app, 0))
    writer = SlowWriter(app, url)
    try:
        held = writer.begin()
        seat = game.pending_decisions()[0].seat
        app.act(str(game.id), seat, game.legal_actions(seat)[0].to_json())
        later = [i for i in (n.id for n in app.recorder.select_notifications(
            start=held + 1, limit=100))]
        assert later, "the move committed while the slow insert is open"
        # The hazard is real: the store already shows the later ids...
        assert min(later) > held
        # ...but a reader by position is not given them while the earlier may come.
        assert ids(app, start) == list(range(start + 1, held))
        writer.conn.commit()
        assert ids(app, start) == list(range(start + 1, max(later) + 1))
        after_commit = max(later)

        gone = writer.begin()
        app.act(str(game.id), *next_move(app, str(game.id)))
        newest = max(n.id for n in app.recorder.select_notifications(start=gone, limit=100))
        assert ids(app, after_commit) == list(range(after_commit + 1, gone))
        writer.conn.rollback()
        read = ids(app, after_commit)
        assert gone not in read
        assert read == [i for i in range(after_commit + 1, newest + 1) if i != gone]
    finally:
        writer.close()


def next_move(app: ArbiterApp, game_id: str) -> tuple[int, dict[str, Any]]:
    game = app.game(game_id)
    seat = game.pending_decisions()[0].seat
    return seat, game.legal_actions(seat)[0].to_json()


def test_the_table_lock_can_be_kept(postgres_schema: tuple[str, str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """``ARBITER_POSTGRES_TABLE_LOCK=1`` keeps the library's locked insert, and
    readers then read to the head (ids commit in order)."""
    url, schema = postgres_schema
    monkeypatch.setenv("ARBITER_POSTGRES_SCHEMA", schema)
    monkeypatch.setenv("ARBITER_POSTGRES_TABLE_LOCK", "1")
    env = Settings(database_url=url).store_env()
    assert "POSTGRES_ENABLE_DB_FUNCTIONS" not in env
    app = ArbiterApp(env)
    try:
        app.create_game("enin", ["solo"], "", "locked-1", "test")
        assert app.settled_head() is None
        assert ids(app, 0)
    finally:
        app.close()
