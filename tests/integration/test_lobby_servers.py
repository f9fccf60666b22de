"""The lobby on several servers of one store (docs/operations.md, "Several
servers"): two server processes on one PostgreSQL store.

Before: a quick match was made one at a time per server only (a lock in the
process), so two players matching at once on two servers could each find no
table and open one, each waiting for the other for ever.

What these tests pin: a table is opened only at the lobby log's position
the quick match searched (the log's next entry, saved with the table in one
transaction); when the other server listed a table meanwhile the save fails
and the search is made again, so the two players meet at one table. A
caller's waiting tables are counted across the servers the same way.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest
from arbiter.client import ArbiterClient
from arbiter.lobby import Lobby
from arbiter.v1 import lobby_pb2

from tests.integration.conftest import ServerProcess
from tests.integration.helpers import refusal

pytestmark = [pytest.mark.integration, pytest.mark.postgres, pytest.mark.heavy(20),
              pytest.mark.xdist_group("lobby_servers")]

SHARED_ADMIN = "lobby-servers-admin-token-" + "a" * 20
ROUNDS = 16


@pytest.fixture
def servers(tmp_path: Path, redis_url: str,
            postgres_schema: tuple[str, str]) -> Iterator[list[ServerProcess]]:
    """Two servers on one PostgreSQL schema: one secret, one admin token; a
    caller may keep 3 tables waiting (the harness lifts the cap otherwise)."""
    url, schema = postgres_schema
    shared = {"ARBITER_DATABASE_URL": url, "ARBITER_POSTGRES_SCHEMA": schema,
              "ARBITER_SECRET": "lobby-servers-secret-" + "s" * 32,
              "ARBITER_ADMIN_TOKEN": SHARED_ADMIN,
              "ARBITER_WAITING_TABLES_PER_CALLER": "3"}
    pair = [ServerProcess(tmp_path / f"s{n}", redis_url, shared) for n in range(2)]
    try:
        for server in pair:
            server.admin_token = SHARED_ADMIN
            server.start()
        yield pair
    finally:
        for server in pair:
            if server.process is not None:
                server.stop()


def test_two_players_quick_matching_at_once_on_two_servers_meet_at_one_table(
        servers: list[ServerProcess]) -> None:
    """Attack (a race across processes): two players quick-match a size no
    table waits for at the same moment, one on each server, round after
    round. Every round they meet: one opens the table, the other joins it
    and its game starts, never two tables of one player each."""
    clients = [ArbiterClient(server.address, token="") for server in servers]
    try:
        for round_ in range(ROUNDS):
            barrier = threading.Barrier(2)

            def match(n: int, barrier: threading.Barrier = barrier,
                      round_: int = round_) -> lobby_pb2.QuickMatchResponse:
                barrier.wait(timeout=10)
                return Lobby(clients[n]).quick_match("ettin", 2, f"P{n}-{round_}")

            with ThreadPoolExecutor(2) as pool:
                first, second = pool.map(match, [0, 1])
            assert first.table.table_id == second.table.table_id, f"round {round_}: two tables"
            assert sorted([first.opened, second.opened]) == [False, True]
            assert first.seat.seat != second.seat.seat
        for client in clients:  # nothing of that size waits: every round's table started
            assert not Lobby(client).list_tables("ettin", 2)
    finally:
        for client in clients:
            client.close()


def test_a_callers_waiting_tables_are_counted_across_the_servers(
        servers: list[ServerProcess]) -> None:
    """One caller opening tables on both servers at once, six at a time
    against a cap of three: exactly three are opened, whichever server each
    reached, and the rest refused ``TOO_MANY_WAITING_TABLES``."""
    clients = [ArbiterClient(server.address, token="") for server in servers]
    barrier = threading.Barrier(6)

    def open_one(n: int) -> str:
        barrier.wait(timeout=10)
        try:
            Lobby(clients[n % 2]).open_table("ethnos", ["open", "open"])
        except Exception as exc:  # noqa: BLE001 - the refusal is the result
            return getattr(exc, "reason", repr(exc))
        return "opened"

    try:
        with ThreadPoolExecutor(6) as pool:
            results = sorted(pool.map(open_one, range(6)))
        assert results == ["TOO_MANY_WAITING_TABLES"] * 3 + ["opened"] * 3, results
        refused = refusal(lambda: Lobby(clients[1]).open_table("ethnos", ["open", "open"]))
        assert refused.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert len(Lobby(clients[0]).list_tables("ethnos", 2)) == 3
    finally:
        for client in clients:
            client.close()
