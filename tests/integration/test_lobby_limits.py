"""The lobby's bounds per caller (docs/playing.md, "The lobby"): tables one
address keeps waiting, tables no one comes to, and watches' server time.

Before: one address opened a table a second (``ARBITER_CREATES_PER_MINUTE``)
and every one waited for ever; listings and quick matches look at the newest
500 tables opened, so in about eight minutes it pushed every real table out
of sight. And a ``WatchTable`` stream looked at its table every second on the
server's time, never its caller's.

What these tests pin: a caller has at most ``ARBITER_WAITING_TABLES_PER_CALLER``
tables gathering players (``RESOURCE_EXHAUSTED`` / ``TOO_MANY_WAITING_TABLES``
past them, for ``OpenTable`` and for a ``QuickMatch`` that would open one;
joining is never capped, and a table that fills, starts or closes frees its
place); a table no one joined or left for ``ARBITER_TABLE_IDLE_SECONDS`` is
closed (``TableClosed``): unlisted, and its seats refused ``TABLE_CLOSED``;
each look of a watch is its caller's call and its CPU its caller's work.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import grpc
import pytest
from arbiter.client import ArbiterClient, ArbiterError
from arbiter.lobby import Lobby, TableClosed
from arbiter.v1 import lobby_pb2

from aggregates.kernel.errors import RuleError
from aggregates.lobby import CLOSED, OPEN, PLAYER, WAITING, LobbyReason
from aggregates.lobby import Lobby as Table
from service.redis_server import free_port
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import refusal, until
from tests.integration.test_shares import has_ipv6_loopback

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("lobby_limits")]

#: The waiting tables per caller of the capped server (the default is 5).
CAP = 3
#: The idle server's idle time: a fraction of a second, awaited by polling.
IDLE = 0.4


def serve(tmp_path_factory: pytest.TempPathFactory, redis_url: str,
          env: dict[str, str]) -> ServerProcess:
    """A server listening on every address (``127.0.0.1`` and ``[::1]`` are two
    callers), to start in a ``with`` block."""
    server = ServerProcess(tmp_path_factory.mktemp("lobby-limits") / "data", redis_url, env)
    server.address = f"[::]:{free_port()}"
    return server


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[ServerProcess]:
    with serve(tmp_path_factory, redis_url,
               {"ARBITER_WAITING_TABLES_PER_CALLER": str(CAP)}) as server:
        yield server


@pytest.fixture(scope="module")
def idle(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[ServerProcess]:
    with serve(tmp_path_factory, redis_url, {"ARBITER_WAITING_TABLES_PER_CALLER": "2",
                                             "ARBITER_TABLE_IDLE_SECONDS": str(IDLE)}) as server:
        yield server


def client_at(server: ServerProcess, host: str) -> ArbiterClient:
    return ArbiterClient(f"{host}:{server.port}", token="")


def test_a_caller_keeps_at_most_a_few_tables_waiting_and_others_are_not_held_back(
        capped: ServerProcess) -> None:
    """Attack: one address opens table after table, none of which anyone joins.
    Past ``CAP`` waiting (by ``OpenTable`` or a ``QuickMatch`` that opens one)
    it is refused ``RESOURCE_EXHAUSTED`` / ``TOO_MANY_WAITING_TABLES``, with
    the cap in the sentence; another address opens as before; joining is
    never capped; and a table of the first address that fills (its game
    starts) or that its host starts frees a place."""
    if not has_ipv6_loopback():
        pytest.skip("no IPv6 loopback: cannot be two callers on one machine")
    with client_at(capped, "127.0.0.1") as own, client_at(capped, "[::1]") as other:
        eve = Lobby(own)
        first = eve.open_table("ethnos", ["open", "open"]).table.table_id
        second = eve.open_table("ethnos", [("player", "Eve"), "open"]).table.table_id
        assert eve.quick_match("nine_empires", 3, "Eve").opened
        refused = refusal(lambda: eve.open_table("ethnos", ["open", "open"]))
        assert (refused.code, refused.reason) == (
            grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_WAITING_TABLES")
        assert f"at most {CAP}" in str(refused)
        matched = refusal(lambda: eve.quick_match("titans", 4, "Eve"))
        assert matched.reason == "TOO_MANY_WAITING_TABLES"
        # Another address opens its own; the capped one still joins tables.
        theirs = Lobby(other).open_table("titans", [("player", "Ann"), "open", "open"])
        assert not eve.quick_match("titans", 3, "Eve").opened
        assert eve.table(theirs.table.table_id).seats[1].name == "Eve"
        # A table filled (started) and one started by its host free two places.
        assert Lobby(other).join(first, "Bob").table.status == "waiting"
        assert Lobby(other).join(first, "Cy").table.status == "started"
        assert eve.start(second).status == "started"
        eve.open_table("ethnos", ["open", "open"])
        eve.open_table("ethnos", ["open", "open"])
        again = refusal(lambda: eve.open_table("ethnos", ["open", "open"]))
        assert again.reason == "TOO_MANY_WAITING_TABLES"


def poll_until_closed(lobby: Lobby, table_id: str) -> lobby_pb2.Table:
    """The table once a look at it finds it closed (each ``GetTable`` is a look)."""
    seen: list[lobby_pb2.Table] = []

    def closed() -> bool:
        seen.append(lobby.table(table_id))
        return seen[-1].status == CLOSED

    assert until(closed, timeout=30, step=IDLE / 4), "the idle table never closed"
    return seen[-1]


def test_a_table_no_one_joins_closes_leaves_the_listings_and_refuses_its_seats(
        idle: ServerProcess) -> None:
    """``TableClosed``: a table gathering players that no one joined or left
    for the idle time closes, once, at the next look (here ``GetTable``
    polls). It is listed no more, a quick match opens a new table rather than
    join it, and every change of its seats is refused ``FAILED_PRECONDITION``
    / ``TABLE_CLOSED``; a watch of it ends with the closed table."""
    with client_at(idle, "127.0.0.1") as client:
        lobby = Lobby(client)
        opened = lobby.open_table("ettin", [("player", "Ada"), "open", "open", "open"])
        table_id = opened.table.table_id
        closed = poll_until_closed(lobby, table_id)
        assert closed.version == opened.table.version + 1  # one event: TableClosed
        assert [s.kind for s in closed.seats] == [PLAYER, OPEN, OPEN, OPEN]
        assert table_id not in [t.table_id for t in lobby.list_tables("ettin", 4)]
        assert lobby.table(table_id).version == closed.version  # closed once
        for call in (lambda: Lobby(client).join(table_id, "Cy"),
                     lambda: lobby.leave(table_id, secret=opened.seat_secrets[0].secret),
                     lambda: lobby.start(table_id)):
            refused = refusal(call)
            assert (refused.code, refused.reason) == (
                grpc.StatusCode.FAILED_PRECONDITION, "TABLE_CLOSED")
        assert [t.status for t in lobby.watch(table_id)] == [CLOSED]
        matched = Lobby(client).quick_match("ettin", 4, "Cy")
        assert matched.opened and matched.table.table_id != table_id


def test_a_caller_at_its_cap_opens_again_once_its_tables_closed(idle: ServerProcess) -> None:
    """Closed tables are no longer the caller's waiting ones: a caller at its
    cap (two here) opens a new table once its idle ones have closed, with no
    one having looked at them in between (the open closes them)."""
    if not has_ipv6_loopback():
        pytest.skip("no IPv6 loopback: the other test's tables would be this caller's")
    with client_at(idle, "[::1]") as client:
        lobby = Lobby(client)
        mine = [lobby.open_table("ethnos", ["open", "open"]).table.table_id for _ in range(2)]
        reasons: list[str] = []

        def opened() -> bool:
            try:
                lobby.open_table("ethnos", ["open", "open"])
            except ArbiterError as exc:
                reasons.append(exc.reason)
                return False
            return True

        assert until(opened, timeout=30, step=IDLE / 4), "never opened again"
        assert set(reasons) <= {"TOO_MANY_WAITING_TABLES"}
        assert CLOSED in [lobby.table(t).status for t in mine]  # the one that made room


def test_waiting_for_a_table_that_closes_says_it_closed(
        idle: ServerProcess, capsys: pytest.CaptureFixture[str]) -> None:
    """A table no one comes to closes rather than start: the SDK's
    ``wait_started`` raises ``TableClosed`` (an ``ArbiterError``, reason
    ``TABLE_CLOSED``, the closed table with it) and ``arbiter lobby wait``
    prints the table, says in a sentence that it closed and exits 1. Before,
    both returned the closed table as a started one: exit 0, no game."""
    from clients.cli import main

    with client_at(idle, "127.0.0.1") as client:
        lobby = Lobby(client)
        waited = lobby.open_table("ethnos", [("player", "Ada"), "open"]).table.table_id
        with pytest.raises(TableClosed) as caught:
            lobby.wait_started(waited)
        assert isinstance(caught.value, ArbiterError)
        assert (caught.value.code, caught.value.reason) == (
            grpc.StatusCode.FAILED_PRECONDITION, "TABLE_CLOSED")
        assert caught.value.table.table_id == waited
        assert caught.value.table.status == CLOSED and not caught.value.table.game_id
        table_id = lobby.open_table("ethnos", [("player", "Ada"), "open"]).table.table_id
    capsys.readouterr()
    assert main(["lobby", "wait", table_id, "--address", f"127.0.0.1:{idle.port}"]) == 1
    out, err = capsys.readouterr()
    assert f"table {table_id}: ethnos, 2 seats, closed" in out
    assert f"error: TABLE_CLOSED: table {table_id} closed before its game started" in err
    assert "no game will start there" in err


# ------------------------------------------------------------ the table's own rules


def table_of(*seats: dict[str, str]) -> Table:
    return Table.open(uuid.uuid4(), "ettin", list(seats), "", 2, 6)


def test_idle_is_counted_from_the_last_join_or_leave_and_closing_replays() -> None:
    """``Lobby.idle`` and ``close_if_idle`` decided at given times: a join
    restarts the count; a full table waiting for its game, and a started one,
    are never idle; ``TableClosed`` replays to the same closed table, whose
    seats are refused ``TABLE_CLOSED``."""
    table = table_of({"kind": PLAYER, "name": "Ada"}, {"kind": OPEN}, {"kind": OPEN})
    table.take("Bob")
    joined_at = table.modified_on
    assert not table.idle(joined_at + timedelta(seconds=9.9), 10)
    assert not table.close_if_idle(joined_at + timedelta(seconds=9.9), 10)
    assert table.idle(joined_at + timedelta(seconds=10), 10)
    table.leave(1, game_over=False)
    assert not table.idle(table.modified_on + timedelta(seconds=9), 10)
    later = table.modified_on + timedelta(seconds=11)
    assert table.close_if_idle(later, 10)
    assert table.status == CLOSED and not table.close_if_idle(later, 10)
    events = table.collect_events()
    assert type(events[-1]).__name__ == "TableClosed"
    rebuilt = None
    for event in events:
        rebuilt = event.mutate(rebuilt)
    assert isinstance(rebuilt, Table)
    assert (rebuilt.status, rebuilt.seats, rebuilt.closed_after) == (CLOSED, table.seats, 10)
    for refused in (lambda: rebuilt.take("Cy"), lambda: rebuilt.leave(0, game_over=False),
                    lambda: rebuilt.start("g", 2), lambda: rebuilt.offer_again("t", True)):
        with pytest.raises(RuleError) as caught:
            refused()
        assert caught.value.reason == LobbyReason.TABLE_CLOSED
    full = table_of({"kind": PLAYER, "name": "Ada"}, {"kind": PLAYER, "name": "Bob"})
    assert full.status == WAITING and not full.idle(full.modified_on + timedelta(days=9), 10)
    started = table_of({"kind": PLAYER, "name": "Ada"}, {"kind": OPEN})
    started.start("g", 2)
    assert not started.idle(started.modified_on + timedelta(days=9), 10)


# ------------------------------------------------------------ watches' server time


class _Context:
    """A streaming call's context as the servicer and the shares read it."""

    def __init__(self, peer: str) -> None:
        self._peer = peer
        self.active = True

    def peer(self) -> str:
        return self._peer

    def invocation_metadata(self) -> list[tuple[str, str]]:
        return []

    def is_active(self) -> bool:
        return self.active


class _Hub:
    """The feeds' hub as the lobby's watches and bots use it (no Redis here)."""

    def __init__(self) -> None:
        self.stopping = threading.Event()

    def committed(self, game_id: str, version: int) -> None:
        pass


def test_a_watchs_looks_are_its_callers_calls_and_work(app: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: ``WatchTable`` streams kept open on tables that do not change,
    each look at the table costly (here 30 ms of CPU a look after the first,
    made so) and sending nothing. Each look's CPU is charged to the watcher's
    share of the server's time as it is spent, as a call's is, not once the
    stream next replies (it may never): with a share of 20 ms
    (``ARBITER_CALLS_PER_SECOND`` 10) one look puts it in debt, so the
    watcher's next call is refused ``RATE_LIMITED`` while another address's
    is served, and the watch waits for its share before it looks again (it
    ends as soon as its caller goes). The stream runs as the server runs it,
    through ``CallerShares.wrap``. Uncharged, the watcher's calls were all
    served; charged at its replies alone, too."""
    from service.errors import ServiceError
    from service.limits import CallerShares
    from service.lobby import LobbyService

    def abort(context: Any, exc: Exception) -> None:
        raise exc

    shares = CallerShares(app.credentials, abort, 8, 10, 60)
    hub = _Hub()
    lobby = LobbyService(app, hub, shares)  # type: ignore[arg-type]
    watcher, other = _Context("ipv4:10.0.0.9:4242"), _Context("ipv4:10.0.0.7:4242")
    opened = lobby.OpenTable(lobby_pb2.OpenTableRequest(
        rules="ethnos", seats=[lobby_pb2.SeatSpec(kind=OPEN)] * 2), other)
    looked_at = lobby.looked_at
    looks: list[float] = []

    def costly(table: Table) -> Table:
        """Every look after the first spins 30 ms (the first sends the table)."""
        looks.append(time.monotonic())
        if len(looks) > 1:
            spin = time.thread_time() + 0.03
            while time.thread_time() < spin:
                pass
        return looked_at(table)

    monkeypatch.setattr(lobby, "looked_at", costly)
    request = lobby_pb2.WatchTableRequest(table_id=opened.table.table_id)
    get = "/arbiter.v1.LobbyService/GetTable"
    shares._admit(get, request, watcher)  # served before the watch
    method = "/arbiter.v1.LobbyService/WatchTable"
    handler = shares.wrap(method, grpc.unary_stream_rpc_method_handler(lobby.WatchTable))
    watch = handler.unary_stream(request, watcher)
    sent: list[lobby_pb2.WatchTableResponse] = []
    ended = threading.Event()

    def drive() -> None:
        """The watch on one thread, as gRPC's worker drives a response stream."""
        for message in watch:
            sent.append(message)
        ended.set()

    driver = threading.Thread(target=drive, daemon=True)
    driver.start()

    def refused() -> bool:
        try:
            shares._admit(get, request, watcher)
        except ServiceError as exc:
            assert exc.reason == "RATE_LIMITED", exc
            assert "share of the server's time" in exc.message, exc  # not its calls
            return True
        return False

    try:
        assert until(lambda: sent, timeout=10), "the watch sent nothing"
        assert sent[0].table.table_id == opened.table.table_id
        assert not refused(), "the first look was within the share"
        # Asked 5 times a second: the watcher's calls (10 a second) are not what run out.
        assert until(refused, timeout=10, step=0.2), "the watch's looks were never charged"
        assert len(sent) == 1, "the costly looks sent nothing"
        shares._admit(get, request, other)  # another address is served
    finally:
        watcher.active = False
        with lobby.tables.changed:
            lobby.tables.changed.notify_all()
        driver.join(timeout=10)
        hub.stopping.set()
        shares.idle.stopping.set()
    assert ended.is_set(), "the watch did not end with its caller"


# ------------------------------------------------------------ what a listing sees


def test_tables_that_start_at_once_push_no_waiting_table_out_of_sight(app: Any) -> None:
    """Attack: one caller opens table after table of named players, each
    started at once (a game each, within ``ARBITER_CREATES_PER_MINUTE``),
    15 here. A listing once looked at the newest 500 opened, so a table
    gathering players before them fell out of sight of listings and quick
    matches. It is still listed and quick-matched: a listing looks at the
    lobby's index of the tables that may gather players (every table listed,
    less those seen never to gather again; test_lobby_listing pins it past a
    restart and whatever was listed after it)."""
    from service.lobby import LobbyService

    lobby = LobbyService(app, _Hub())  # type: ignore[arg-type]
    caller = _Context("ipv4:10.0.0.5:4242")
    waiting = lobby.OpenTable(lobby_pb2.OpenTableRequest(
        rules="ettin", seats=[lobby_pb2.SeatSpec(kind=PLAYER, name="Ada"),
                              lobby_pb2.SeatSpec(kind=OPEN)]), caller).table.table_id
    named = lobby_pb2.OpenTableRequest(rules="ethnos", seats=[
        lobby_pb2.SeatSpec(kind=PLAYER, name="Eve"), lobby_pb2.SeatSpec(kind=PLAYER, name="Mal")])
    for _ in range(3 * 5):
        assert lobby.OpenTable(named, caller).table.status == "started"
    listed = lobby.ListTables(lobby_pb2.ListTablesRequest(rules="ettin", players=2), caller)
    assert [t.table_id for t in listed.tables] == [waiting]
    matched = lobby.QuickMatch(lobby_pb2.QuickMatchRequest(
        rules="ettin", players=2, name="Bob"), caller)
    assert not matched.opened and matched.table.table_id == waiting
    assert matched.table.status == "started"
