"""The lobby attacked as a stranger would (docs/playing.md, "The lobby"):
requests no table could take, quick matches racing, a leave racing the
start, tables that could never start.

What these tests pin: every bad request is refused with a status and a reason
code before anything is recorded (no table saved that can never start, no
seat taken by a join that then fails); two players quick-matching at once
meet at one table; a player who leaves while the last seat is being taken
loses the game's seat as every mid-game leaver does.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import pytest
from arbiter.client import ArbiterClient, ArbiterError
from arbiter.lobby import Lobby
from arbiter.v1 import lobby_pb2, lobby_pb2_grpc

from aggregates.kernel.errors import RuleError
from aggregates.lobby import BOT, OPEN, PLAYER, LobbyReason
from aggregates.lobby import Lobby as Table
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import grpc_refusal, refusal

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("lobby_attacks")]

#: The largest number a ``uint32`` field carries.
UINT32_MAX = 2**32 - 1


@pytest.fixture(scope="module")
def client(shared_server: ServerProcess) -> Iterator[ArbiterClient]:
    with ArbiterClient(shared_server.address, token="") as client:
        yield client




@pytest.mark.parametrize("players", [UINT32_MAX, 17, 7])
def test_quick_match_for_more_seats_than_the_rules_take_is_refused_bad_seats(
        client: ArbiterClient, players: int) -> None:
    """Attack: ``QuickMatch`` with a player count far past the rules' (a
    ``uint32``: four billion). It is refused ``INVALID_ARGUMENT`` /
    ``BAD_SEATS`` from the count alone, before a table of that many seats
    is made in memory (four billion seats: the server's memory, or an
    ``INTERNAL`` error). Ethnos takes 2 to 6 players (rulebook, "Setup")."""
    refused = refusal(lambda: Lobby(client).quick_match("ethnos", players, "Eve"))
    assert (refused.code, refused.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_SEATS")
    assert "2 to 6" in str(refused)


def test_two_players_quick_matching_at_once_meet_at_one_table(client: ArbiterClient) -> None:
    """Attack (a race): two players quick-match a size no table waits for, at
    the same moment, round after round. They must meet: one opens the table,
    the other joins it and the game starts, never two tables of one player
    each, waiting for ever for each other."""
    for round_ in range(12):
        barrier = threading.Barrier(2)

        def match(name: str, barrier: threading.Barrier = barrier
                  ) -> lobby_pb2.QuickMatchResponse:
            with ArbiterClient(client.address, token="") as own:
                barrier.wait(timeout=10)
                return Lobby(own).quick_match("ettin", 2, name)

        with ThreadPoolExecutor(2) as pool:
            ada, bob = pool.map(match, [f"Ada{round_}", f"Bob{round_}"])
        assert ada.table.table_id == bob.table.table_id, f"round {round_}: two tables"
        assert sorted([ada.opened, bob.opened]) == [False, True]
        assert ada.seat.seat != bob.seat.seat
        # Full, so started: nothing of that size waits for the next round.
        assert not Lobby(client).list_tables("ettin", 2)


def test_options_no_table_of_its_size_can_start_with_are_refused_at_open(
        client: ArbiterClient) -> None:
    """Attack: a two-seat Ethnos table with six tribes chosen (six are for 4
    to 6 players, five for 2 or 3: rulebook, "Setup"). The options read well
    alone, so the table would open, and the join that fills it would take
    the seat and then fail to start the game: a full table waiting for
    ever, its last player holding a seat with no secret. It is refused at
    open, ``INVALID_ARGUMENT`` / ``BAD_OPTIONS``; six tribes at four seats open."""
    six = '{"tribes": ["centaurs", "dwarves", "elves", "giants", "halflings", "merfolk"]}'
    lobby = Lobby(client)
    refused = refusal(lambda: lobby.open_table("ethnos", [("player", "Ada"), "open"], six))
    assert (refused.code, refused.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_OPTIONS")
    assert "tribes" in str(refused)
    opened = lobby.open_table("ethnos", [("player", "Ada"), "open", "open", "open"], six)
    table_id = opened.table.table_id
    for name in ("Bob", "Cy", "Di"):
        joined = Lobby(client).join(table_id, name)
    assert joined.table.status == "started" and joined.table.game_id


def test_a_table_of_bots_alone_is_refused_before_it_is_recorded(
        shared_server: ServerProcess) -> None:
    """Attack: a table whose every seat is a bot's. No player could ever sit
    at it and its start is refused, so it is refused at open
    (``FAILED_PRECONDITION`` / ``NOT_ENOUGH_PLAYERS``) by the table's own
    decision, before a ``TableOpened`` is recorded (a full table that waits
    for ever, unlisted, was saved before)."""
    with pytest.raises(RuleError) as decided:
        Table.open(uuid.uuid4(), "ethnos", [{"kind": BOT}, {"kind": BOT, "name": "Rex"}],
                   "", 2, 6)
    assert decided.value.reason == LobbyReason.NOT_ENOUGH_PLAYERS
    stub = lobby_pb2_grpc.LobbyServiceStub(shared_server.channel())
    with pytest.raises(grpc.RpcError) as caught:
        stub.OpenTable(lobby_pb2.OpenTableRequest(
            rules="ethnos", seats=[lobby_pb2.SeatSpec(kind=BOT)] * 2), timeout=10)
    trailers = dict(caught.value.trailing_metadata())  # type: ignore[attr-defined]
    assert (caught.value.code(), trailers["arbiter-reason"]) == (  # type: ignore[attr-defined]
        grpc.StatusCode.FAILED_PRECONDITION, "NOT_ENOUGH_PLAYERS")
    # A table with an open seat and bots is one a player can still join.
    assert Table.open(uuid.uuid4(), "ethnos", [{"kind": BOT}, {"kind": OPEN}], "", 2, 6)


class _Context:
    """A call's context as the servicer reads it: its metadata alone."""

    def __init__(self, token: str) -> None:
        self.token = token

    def invocation_metadata(self) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {self.token}")] if self.token else []

    def abort(self, code: grpc.StatusCode, details: str) -> None:
        raise AssertionError(f"refused {code}: {details}")

    def set_trailing_metadata(self, metadata: Any) -> None:
        pass


class _Hub:
    """The feeds' hub as the lobby tells it of changes (none listens here)."""

    def __init__(self) -> None:
        self.stopping = threading.Event()
        self.stopping.set()  # the bots' threads end at once

    def committed(self, game_id: str, version: int) -> None:
        pass

    def following(self, game_id: str) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()


def test_a_leave_racing_the_last_join_still_revokes_the_leavers_seat(app: Any) -> None:
    """Attack (a race): Ada leaves while Bob takes the last seat. Ada's leave
    read the table waiting (a seat to reopen, nothing to revoke); Bob's join
    filled it and started the game before Ada's leave was saved, so the leave
    is a mid-game leave: a bot takes the seat, and Ada's secret must no
    longer play the game (``SeatRevoked`` in its access record). It is
    decided on the newest table, so it is revoked."""
    from service.lobby import LobbyService

    lobby = LobbyService(app, _Hub())  # type: ignore[arg-type]
    opened = lobby.OpenTable(lobby_pb2.OpenTableRequest(
        rules="ethnos", seats=[lobby_pb2.SeatSpec(kind=PLAYER, name="Ada"),
                               lobby_pb2.SeatSpec(kind=OPEN)]), _Context(""))
    table_id = opened.table.table_id
    ada = opened.seat_secrets[0].secret
    write = lobby.tables.write
    joined: list[lobby_pb2.JoinTableResponse] = []
    raced = threading.Event()

    def bob_first(table: uuid.UUID, decide: Any) -> Any:
        if not raced.is_set():  # Bob's join lands between Ada's read and her save
            raced.set()
            joined.append(lobby.JoinTable(lobby_pb2.JoinTableRequest(
                table_id=table_id, name="Bob"), _Context("")))
        return write(table, decide)

    lobby.tables.write = bob_first  # type: ignore[method-assign,assignment]
    left = lobby.LeaveTable(lobby_pb2.LeaveTableRequest(table_id=table_id), _Context(ada))
    assert joined and joined[0].table.status == "started"
    assert [s.kind for s in left.table.seats] == [BOT, PLAYER]
    access = app.access(uuid.UUID(left.table.game_id))
    assert 0 in access.revoked.values(), "the leaver's secret still plays seat 1"


def test_a_join_whose_start_fails_keeps_its_secret_and_the_table_starts_later(
        app: Any) -> None:
    """Attack (a fault): the store refuses the game's creation (``BUSY``) just
    as the last join fills the table. The join is saved, so its caller gets
    its seat's secret all the same (refused, it would hold a seat it has no
    secret for: its name taken, the table full); the table, full and
    waiting, is started by the next look at it (``GetTable``, as a page's
    poll or a watch makes), with that secret as the seat's token; and by a
    server's start (``TableBots.resume``) when no one looks."""
    from service.errors import ServiceError
    from service.lobby import LobbyService

    lobby = LobbyService(app, _Hub())  # type: ignore[arg-type]
    create = app.create_game
    faults = [ServiceError("UNAVAILABLE", "BUSY", "the catalogue of games is too busy")] * 2

    def busy(*args: Any, **kwargs: Any) -> Any:
        if faults:
            raise faults.pop()
        return create(*args, **kwargs)

    app.create_game = busy
    tables = []
    for host in ("Ada", "Cy"):
        opened = lobby.OpenTable(lobby_pb2.OpenTableRequest(
            rules="ethnos", seats=[lobby_pb2.SeatSpec(kind=PLAYER, name=host),
                                   lobby_pb2.SeatSpec(kind=OPEN)]), _Context(""))
        joined = lobby.JoinTable(lobby_pb2.JoinTableRequest(
            table_id=opened.table.table_id, name="Bob"), _Context(""))
        assert joined.seat.secret and joined.seat.seat == 1
        assert joined.table.status == "waiting" and not joined.table.game_id
        tables.append((opened.table.table_id, joined.seat.secret))
    looked = lobby.GetTable(lobby_pb2.GetTableRequest(table_id=tables[0][0]), _Context(""))
    assert looked.table.status == "started" and looked.table.game_id
    game_id = uuid.UUID(looked.table.game_id)
    principal = app.credentials.identify(tables[0][1], app.access(game_id))
    assert principal.seat == 1, "the joiner's secret does not play its seat"
    restarted = LobbyService(app, _Hub())  # type: ignore[arg-type]
    restarted.bots._resume()
    resumed = restarted.tables.get(uuid.UUID(tables[1][0]))
    assert resumed.status == "started" and resumed.game_id


CREATOR_TOKEN = "creator-" + "c" * 40


@pytest.fixture(scope="module")
def creators_server(tmp_path_factory: pytest.TempPathFactory,
                    redis_url: str) -> Iterator[ServerProcess]:
    """A server that creates games only for its creator token (docs/operations.md)."""
    server = ServerProcess(tmp_path_factory.mktemp("creators") / "data", redis_url,
                           {"ARBITER_CREATOR_TOKEN": CREATOR_TOKEN})
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_a_server_that_creates_games_for_its_creator_alone_opens_tables_for_it_alone(
        creators_server: ServerProcess) -> None:
    """Attack: on a server whose operator set a creator token, ``CreateGame``
    without it is refused; a table full of named players, opened by anyone,
    would start a game at once, and a quick match no table waits for would
    open one. Opening a table is creating a game: ``UNAUTHENTICATED`` /
    ``CREATOR_REQUIRED`` without the creator token (or the admin's). With
    it, a table opens, and anyone joins it by name (the table was the
    creator's to open) and quick-matches into it."""
    stub = lobby_pb2_grpc.LobbyServiceStub(creators_server.channel())
    creator = (("authorization", f"Bearer {CREATOR_TOKEN}"),)
    full = lobby_pb2.OpenTableRequest(rules="ethnos", seats=[
        lobby_pb2.SeatSpec(kind=PLAYER, name="Ada"), lobby_pb2.SeatSpec(kind=PLAYER, name="Bob")])
    assert grpc_refusal(lambda: stub.OpenTable(full, timeout=10)) == (
        grpc.StatusCode.UNAUTHENTICATED, "CREATOR_REQUIRED")
    quick = lobby_pb2.QuickMatchRequest(rules="ettin", players=3, name="Eve")
    assert grpc_refusal(lambda: stub.QuickMatch(quick, timeout=10)) == (
        grpc.StatusCode.UNAUTHENTICATED, "CREATOR_REQUIRED")
    opened = stub.QuickMatch(quick, metadata=creator, timeout=10)
    assert opened.opened
    for name in ("Ada", "Bob"):
        joined = stub.QuickMatch(lobby_pb2.QuickMatchRequest(
            rules="ettin", players=3, name=name), timeout=10)
        assert joined.table.table_id == opened.table.table_id and not joined.opened
    assert joined.table.status == "started"
    table = stub.OpenTable(lobby_pb2.OpenTableRequest(rules="ethnos", seats=[
        lobby_pb2.SeatSpec(kind=OPEN), lobby_pb2.SeatSpec(kind=OPEN)]),
        metadata=creator, timeout=10).table
    stub.JoinTable(lobby_pb2.JoinTableRequest(table_id=table.table_id, name="Cy"), timeout=10)
    last = stub.JoinTable(lobby_pb2.JoinTableRequest(table_id=table.table_id, name="Di"),
                          timeout=10)
    assert last.table.status == "started" and last.table.game_id


@pytest.mark.parametrize("argv", [
    ["join", "6f1d9a52-7c1e-4b9b-9a55-3f0e2d8c4a10", "--name", "Eve", "--seat", "0"],
    ["join", "6f1d9a52-7c1e-4b9b-9a55-3f0e2d8c4a10", "--name", "Eve", "--seat", "9" * 12],
    ["leave", "6f1d9a52-7c1e-4b9b-9a55-3f0e2d8c4a10", "--seat", "-3"],
    ["quick", "ethnos", "--players", "-1", "--name", "Eve"],
    ["list", "--players", "9" * 12],
], ids=["seat-zero", "seat-huge", "seat-negative", "players-negative", "players-huge"])
def test_the_cli_refuses_a_seat_or_count_no_table_has_as_a_usage_error(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Attack: ``arbiter lobby`` given a seat 0 (seats are counted from 1), a
    negative one, or a number past any table (the wire's fields are
    ``uint32``). Each is a usage error (exit status 2, the rule said), not a
    Python traceback from the request's field, and nothing is sent."""
    from clients.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["lobby", *argv, "--address", "127.0.0.1:9"])
    assert exited.value.code == 2
    said = capsys.readouterr().err
    assert "counted from 1" in said or "at most" in said, said


def test_a_table_of_half_a_million_seats_is_refused_from_its_count(app: Any) -> None:
    """Attack: ``OpenTable`` with half a million seats (3.5 MB, under gRPC's
    4 MB). It is refused ``BAD_SEATS`` from the number of seats, before a
    seat of it is checked: its CPU time at most 100 times a seven-seat
    table's refusal (the floor, measured in the same run). Each seat checked
    first cost over half a second of the server's CPU per call."""
    from service.lobby import LobbyService

    lobby = LobbyService(app, _Hub())  # type: ignore[arg-type]

    class Refused(Exception):
        pass

    class Context(_Context):
        def abort(self, code: grpc.StatusCode, details: str) -> None:
            raise Refused(details)

    def cpu_of(seats: int) -> float:
        request = lobby_pb2.OpenTableRequest(
            rules="ethnos", seats=[lobby_pb2.SeatSpec(kind=BOT)] * seats)
        started = time.thread_time()
        with pytest.raises(Refused, match="BAD_SEATS"):
            lobby.OpenTable(request, Context(""))
        return time.thread_time() - started

    floor = min(cpu_of(7) for _ in range(5))
    huge = min(cpu_of(500_000) for _ in range(2))
    assert huge < 100 * max(floor, 1e-4), (huge, floor)


def test_a_seat_taken_and_left_without_end_is_refused_past_a_bound(
        client: ArbiterClient) -> None:
    """Attack: one caller joins and leaves a waiting table's open seat in a
    loop. Each pair records two events on the table, for ever (a table waits
    as long as no one fills it; every server that reads it replays them
    all), at the call rate alone. A table records at most ``MAX_TAKINGS``
    seat takings; past them a join is refused ``FAILED_PRECONDITION`` /
    ``TOO_MANY_TAKINGS`` and the table is still read and left as before."""
    from aggregates.lobby import MAX_TAKINGS

    lobby = Lobby(client)
    table_id = lobby.open_table("ethnos", [("player", "Ada"), "open", "open"]).table.table_id
    refused = None
    for n in range(MAX_TAKINGS + 2):
        try:
            joined = Lobby(client).join(table_id, f"Eve{n}", seat=1)
        except ArbiterError as exc:
            refused = exc
            break
        Lobby(client).leave(table_id, secret=joined.seat.secret)
    assert refused is not None, f"{MAX_TAKINGS + 2} takings of one seat"
    assert (refused.code, refused.reason) == (
        grpc.StatusCode.FAILED_PRECONDITION, "TOO_MANY_TAKINGS")
    table = lobby.table(table_id)
    assert table.status == "waiting" and table.seats[1].kind == OPEN
    assert table.version <= 2 * MAX_TAKINGS + 1
