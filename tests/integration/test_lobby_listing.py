"""What a lobby listing reads (docs/playing.md, "The lobby"): the tables it
lists in one pass, and each table as it is now, whoever changed it.

Before: ``ListTables`` read each gathering table's new events with a query of
its own (and copied each table three times), so 500 waiting tables cost about
100 ms of CPU a listing; now the newest version of every listed table comes
from one query, and only the tables that changed since this process last read
them are read again.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from arbiter.v1 import lobby_pb2

from aggregates.lobby import OPEN
from tests.spies import calls_to

pytestmark = pytest.mark.integration

TABLES = 30


class _Context:
    """A call's context as the lobby reads it: an address, no token."""

    def peer(self) -> str:
        return "ipv4:10.0.0.3:4242"

    def invocation_metadata(self) -> list[tuple[str, str]]:
        return []

    def is_active(self) -> bool:
        return True


class _Hub:
    """The feeds' hub as the lobby uses it (no Redis here)."""

    def __init__(self) -> None:
        self.stopping = threading.Event()

    def committed(self, game_id: str, version: int) -> None:
        pass


def lobby_on(app: Any) -> Any:
    """A lobby servicer on ``app``'s store, as one server process has it: two
    on one store are two servers, each with tables of its own in memory."""
    from service.lobby import LobbyService

    return LobbyService(app, _Hub(), None, waiting_per_caller=TABLES + 1)  # type: ignore[arg-type]


def listed(lobby: Any) -> dict[str, lobby_pb2.Table]:
    found = lobby.ListTables(lobby_pb2.ListTablesRequest(limit=200), _Context()).tables
    return {table.table_id: table for table in found}


def test_a_listing_of_tables_that_did_not_change_reads_the_store_once(
        app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    lobby = lobby_on(app)
    for _ in range(TABLES):
        lobby.OpenTable(lobby_pb2.OpenTableRequest(
            rules="ethnos", seats=[lobby_pb2.SeatSpec(kind=OPEN)] * 3), _Context())
    assert len(listed(lobby)) == TABLES
    reads = calls_to(monkeypatch, app.events, "get")
    assert len(listed(lobby)) == TABLES
    # The lobby's log once (its new entries); no table's events: none changed.
    assert len(reads) <= 1, f"{len(reads)} reads of events for {TABLES} tables"


def test_a_listing_shows_each_table_as_another_server_left_it(app: Any) -> None:
    """Two servers on one store: a table joined through one is listed with
    its seat taken by the other (which had read it before), and a table
    filled through one leaves the other's listing."""
    here, there = lobby_on(app), lobby_on(app)
    opened = [here.OpenTable(lobby_pb2.OpenTableRequest(
        rules="ethnos", seats=[lobby_pb2.SeatSpec(kind=OPEN)] * 3), _Context()).table
        for _ in range(3)]
    before = listed(here)
    assert [s.kind for s in before[opened[0].table_id].seats] == [OPEN] * 3
    there.JoinTable(lobby_pb2.JoinTableRequest(table_id=opened[0].table_id, name="ana"),
                    _Context())
    for name in ("bo", "cy", "di"):
        there.JoinTable(lobby_pb2.JoinTableRequest(table_id=opened[1].table_id, name=name),
                        _Context())
    after = listed(here)
    assert [s.name for s in after[opened[0].table_id].seats] == ["ana", "", ""]
    assert opened[1].table_id not in after, "a full table is listed no more"
    assert after[opened[2].table_id].version == before[opened[2].table_id].version
