"""``LobbyService`` over gRPC: tables where players find each other (docs/playing.md,
"The lobby"), on one server for the module.

What it promises and these tests pin: a seat joined by name gets a secret
that is its token in the game (it plays on ``Play``) and that no one else is
shown; a seat left before the start opens again and its old secret is worth
nothing; a seat left during the game is a bot's, recorded; a quick match
joins the oldest waiting table of its rules and size, else opens one; play
again seats the same players at a new table, each told its seat; every
refusal has a status and a reason code.
"""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
from arbiter.client import ArbiterClient, ArbiterError
from arbiter.lobby import Lobby
from arbiter.play import play_seats, random_move
from arbiter.v1 import game_pb2, lobby_pb2, lobby_pb2_grpc

from tests.integration.conftest import ServerProcess
from tests.integration.helpers import refusal

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("lobby_service")]


@pytest.fixture(scope="module")
def client(shared_server: ServerProcess) -> Iterator[ArbiterClient]:
    with ArbiterClient(shared_server.address, token="") as client:
        yield client




def play_out(client: ArbiterClient, game_id: str, seat: int, seed: int) -> game_pb2.GameState:
    """Play ``seat`` to the end with random moves on one ``Play`` stream."""
    rng = random.Random(seed)
    played = play_seats(lambda after: client.play(game_id, [seat], after_version=after),
                        lambda turn: random_move(turn, rng))
    return played.final[seat]


def test_join_by_name_gives_a_secret_that_plays_the_seat(client: ArbiterClient) -> None:
    """A table fills by name; the filling join starts the game; each joiner's
    secret is its seat's token on ``Play`` and on every call, and the table as
    others see it shows names, never a secret."""
    host, ada, bob = Lobby(client), Lobby(client), Lobby(client)
    opened = host.open_table("ethnos", ["open", "open"])
    assert [s.kind for s in opened.table.seats] == ["open", "open"]
    assert not opened.seat_secrets and opened.host_secret
    first = ada.join(opened.table.table_id, "Ada")
    assert first.table.status == "waiting" and first.seat.seat == 0
    second = bob.join(opened.table.table_id, "Bob")
    assert second.table.status == "started" and second.table.game_id
    assert [s.name for s in second.table.seats] == ["Ada", "Bob"]
    # The table as anyone reads it: no secret anywhere in it.
    listed = host.table(opened.table.table_id).SerializeToString() + b"".join(
        t.SerializeToString() for t in host.list_tables("ethnos"))
    for secret in (first.seat.secret, second.seat.secret, opened.host_secret):
        assert secret.encode() not in listed
    game_id = second.table.game_id
    state = client.state(game_id, 1, token=second.seat.secret)
    assert list(state.seats) == ["Ada", "Bob"]
    with pytest.raises(ArbiterError) as caught:
        client.state(game_id, 1, token=first.seat.secret)
    assert caught.value.reason == "WRONG_SEAT"
    with client.play(game_id, [0], token=first.seat.secret) as stream:
        first_message = next(iter(stream))  # a refused join raises here
    assert first_message.ListFields(), "an empty first message"
    with pytest.raises(grpc.RpcError) as refused, \
            client.play(game_id, [1], token=first.seat.secret) as stream:
        next(iter(stream))
    assert "WRONG_SEAT" in refused.value.details()  # type: ignore[attr-defined]


def test_leave_before_the_start_reopens_the_seat_and_voids_its_secret(
        client: ArbiterClient) -> None:
    """``SeatLeft``: the seat is open again; the next holder's secret is new,
    and the old one no longer holds the seat."""
    lobby = Lobby(client)
    opened = lobby.open_table("ethnos", ["open", "open", "open"])
    table_id = opened.table.table_id
    joined = lobby.join(table_id, "Ada", seat=1)
    old_secret = joined.seat.secret
    after = lobby.leave(table_id)
    assert after.seats[1].kind == "open"
    again = Lobby(client).join(table_id, "Cy", seat=1)
    assert again.seat.secret != old_secret
    gone = refusal(lambda: lobby.leave(table_id, secret=old_secret))
    assert (gone.code, gone.reason) == (grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN")


def test_host_starts_with_bots_and_a_leaver_mid_game_is_replaced_by_a_bot(
        client: ArbiterClient) -> None:
    """``TableStarted`` with the open seats bots'; a player leaving during the
    game is ``BotTookSeat``: the bots play both seats to the end."""
    lobby = Lobby(client)
    opened = lobby.open_table("ethnos", [("player", "Ada"), "open"])
    table_id = opened.table.table_id
    not_host = refusal(lambda: lobby.start(table_id, secret=opened.seat_secrets[0].secret))
    assert (not_host.code, not_host.reason) == (grpc.StatusCode.PERMISSION_DENIED, "HOST_ONLY")
    started = lobby.start(table_id)
    assert started.status == "started" and [s.kind for s in started.seats] == ["player", "bot"]
    left = lobby.leave(table_id, secret=opened.seat_secrets[0].secret)
    assert [s.kind for s in left.seats] == ["bot", "bot"]
    for table in lobby.watch(table_id):
        if table.game_over:
            break
    assert client.state(started.game_id, 0, token="").over  # a finished game: public


def test_a_player_who_leaves_mid_game_loses_the_seat_on_every_call_and_stream(
        client: ArbiterClient) -> None:
    """A seat left during the game is no longer its old holder's: the secret
    is revoked in the game's access record (``SeatRevoked``), refused
    ``PERMISSION_DENIED`` / ``SEAT_REVOKED`` on a call, on a new Play stream,
    and on the Play stream it had open when it left."""
    lobby = Lobby(client)
    opened = lobby.open_table("ethnos", [("player", "Ada"), ("player", "Bob")])
    game_id, ada = opened.table.game_id, opened.seat_secrets[0].secret
    assert client.state(game_id, 0, token=ada).seats[0] == "Ada"
    with pytest.raises(grpc.RpcError) as ended, \
            client.play(game_id, [0], token=ada) as stream:
        messages = iter(stream)
        next(messages)  # the stream is open and playing
        lobby.leave(opened.table.table_id, secret=ada)
        for _ in messages:
            pass
    assert ended.value.code() == grpc.StatusCode.PERMISSION_DENIED  # type: ignore[attr-defined]
    assert "SEAT_REVOKED" in ended.value.details()  # type: ignore[attr-defined]
    on_call = refusal(lambda: client.state(game_id, 0, token=ada))
    assert (on_call.code, on_call.reason) == (grpc.StatusCode.PERMISSION_DENIED, "SEAT_REVOKED")
    with pytest.raises(grpc.RpcError) as new_stream, \
            client.play(game_id, [0], token=ada) as stream:
        next(iter(stream))
    assert "SEAT_REVOKED" in new_stream.value.details()  # type: ignore[attr-defined]
    bob = opened.seat_secrets[1].secret
    assert client.state(game_id, 1, token=bob).seats[1] == "Bob"  # the others' still work


def test_quick_match_joins_the_oldest_waiting_table_else_opens_one(
        client: ArbiterClient) -> None:
    """Quick match: the oldest table gathering players of these rules and
    size is joined; none: one is opened with the caller in it."""
    first = Lobby(client).quick_match("nine_empires", 3, "Ada")
    assert first.opened and first.seat.seat == 0
    second = Lobby(client).quick_match("nine_empires", 3, "Bob")
    assert not second.opened and second.table.table_id == first.table.table_id
    assert second.seat.seat == 1
    listed = Lobby(client).list_tables("nine_empires", 3)
    assert first.table.table_id in [t.table_id for t in listed]
    third = Lobby(client).quick_match("nine_empires", 3, "Cy")
    assert third.table.status == "started" and third.table.game_id
    assert first.table.table_id not in [
        t.table_id for t in Lobby(client).list_tables("nine_empires", 3)]


def test_play_again_seats_the_same_players_each_told_its_seat(client: ArbiterClient) -> None:
    """After the game, ``PlayAgainOffered`` names the next round's table: the
    same players, each a seat on, started at once; each player's press gets
    its own new seat and secret, which plays it."""
    ada, host = Lobby(client), Lobby(client)
    opened = host.open_table("ethnos", ["open", "bot"])
    joined = ada.join(opened.table.table_id, "Ada")
    early = refusal(lambda: ada.play_again(opened.table.table_id))
    assert early.reason == "GAME_NOT_OVER"
    game_id = joined.table.game_id
    final = play_out(client, game_id, 0, seed=7)
    assert final.over
    again = ada.play_again(opened.table.table_id)
    assert again.table.again_of == opened.table.table_id
    assert again.seat.seat == 1 and again.seat.name == "Ada"
    assert again.table.status == "started"
    assert [s.kind for s in again.table.seats] == ["bot", "player"]
    assert again.seat.secret != joined.seat.secret
    state = client.state(again.table.game_id, 1, token=again.seat.secret)
    assert state.seats[1] == "Ada"
    once_more = ada.play_again(opened.table.table_id)
    assert once_more.table.table_id == again.table.table_id
    assert host.table(opened.table.table_id).next_table_id == again.table.table_id


@pytest.mark.parametrize(("request_", "code", "reason"), [
    (lobby_pb2.OpenTableRequest(rules="chess", seats=[lobby_pb2.SeatSpec(kind="open")] * 2),
     grpc.StatusCode.NOT_FOUND, "UNKNOWN_RULES"),
    (lobby_pb2.OpenTableRequest(rules="ethnos", seats=[lobby_pb2.SeatSpec(kind="open")]),
     grpc.StatusCode.INVALID_ARGUMENT, "BAD_SEATS"),
    (lobby_pb2.OpenTableRequest(rules="ethnos", seats=[lobby_pb2.SeatSpec(kind="chair")] * 2),
     grpc.StatusCode.INVALID_ARGUMENT, "BAD_SEATS"),
    (lobby_pb2.OpenTableRequest(rules="ethnos", seats=[lobby_pb2.SeatSpec(kind="player")] * 2),
     grpc.StatusCode.INVALID_ARGUMENT, "BAD_NAME"),
    (lobby_pb2.OpenTableRequest(rules="ethnos", options_json="[]",
                                seats=[lobby_pb2.SeatSpec(kind="open")] * 2),
     grpc.StatusCode.INVALID_ARGUMENT, "BAD_OPTIONS"),
    (lobby_pb2.JoinTableRequest(table_id="nope", name="Ada"),
     grpc.StatusCode.INVALID_ARGUMENT, "BAD_TABLE_ID"),
    (lobby_pb2.JoinTableRequest(table_id="6f1d9a52-7c1e-4b9b-9a55-3f0e2d8c4a10", name="Ada"),
     grpc.StatusCode.NOT_FOUND, "UNKNOWN_TABLE"),
])
def test_malformed_requests_are_refused_with_a_reason(
        shared_server: ServerProcess, request_: object, code: grpc.StatusCode,
        reason: str) -> None:
    """Every refusal is a status with its reason in the ``arbiter-reason`` trailer."""
    stub = lobby_pb2_grpc.LobbyServiceStub(shared_server.channel())
    method = stub.OpenTable if isinstance(request_, lobby_pb2.OpenTableRequest) \
        else stub.JoinTable
    with pytest.raises(grpc.RpcError) as caught:
        method(request_, timeout=10)
    trailers = dict(caught.value.trailing_metadata())  # type: ignore[attr-defined]
    assert (caught.value.code(), trailers["arbiter-reason"]) == (code, reason)  # type: ignore[attr-defined]


def test_a_table_refuses_what_its_state_forbids(client: ArbiterClient) -> None:
    """A taken seat, a name already seated, a full or started table, no secret."""
    lobby = Lobby(client)
    opened = lobby.open_table("ethnos", [("player", "Ada"), "open"])
    table_id = opened.table.table_id
    taken = refusal(lambda: Lobby(client).join(table_id, "Bob", seat=0))
    assert (taken.code, taken.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "SEAT_TAKEN")
    twice = refusal(lambda: Lobby(client).join(table_id, "Ada"))
    assert twice.reason == "NAME_TAKEN"
    unknown = refusal(lambda: Lobby(client).join(table_id, "Bob", seat=5))
    assert (unknown.code, unknown.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_SEAT")
    no_token = refusal(lambda: Lobby(client).leave(table_id))
    assert (no_token.code, no_token.reason) == (grpc.StatusCode.UNAUTHENTICATED, "NO_TOKEN")
    Lobby(client).join(table_id, "Bob")
    late = refusal(lambda: Lobby(client).join(table_id, "Cy"))
    assert late.reason == "TABLE_STARTED"
    restart = refusal(lambda: lobby.start(table_id))
    assert restart.reason == "TABLE_STARTED"


def test_the_cli_quick_matches_two_players_and_keeps_the_seat_token(
        shared_server: ServerProcess, tmp_path: object, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``arbiter lobby quick`` twice: the second fills the table; each player's
    secret is kept as its game's seat token, so ``arbiter state`` reads the
    seat with no token given; ``arbiter lobby list`` no longer shows it."""
    from clients.cli import main

    monkeypatch.setenv("ARBITER_HOME", str(tmp_path))
    address = ["--address", shared_server.address]
    assert main(["lobby", "quick", "titans", "--players", "3", "--name", "Ada", *address]) == 0
    assert "opened a new table" in capsys.readouterr().out
    assert main(["lobby", "list", "--rules", "titans", *address]) == 0
    assert "Player 1: Ada" in capsys.readouterr().out
    assert main(["lobby", "quick", "titans", "--players", "3", "--name", "Bob", *address]) == 0
    assert main(["lobby", "quick", "titans", "--players", "3", "--name", "Cy", *address]) == 0
    out = capsys.readouterr().out
    assert "joined a waiting table" in out and "Player 3: Cy" in out
    game_id = out.split("--game ")[1].split()[0]
    assert main(["state", game_id, "--player", "3", *address]) == 0
    assert "Cy" in capsys.readouterr().out


@pytest.mark.timeout(30)  # without its bots, the game would wait for ever
def test_a_tables_bots_play_on_after_the_server_restarts(
        shared_server: ServerProcess) -> None:
    """The bots of a started table are the server's: after a restart they play
    on, so the player's game still ends (it restarts the module's server)."""
    with ArbiterClient(shared_server.address, token="") as client:
        lobby = Lobby(client)
        opened = lobby.open_table("ethnos", [("player", "Ada"), "open"])
        started = lobby.start(opened.table.table_id)
    shared_server.restart()
    with ArbiterClient(shared_server.address, token="") as client:
        client.add_tokens(started.game_id, {0: opened.seat_secrets[0].secret})
        assert play_out(client, started.game_id, 0, seed=5).over


def test_a_table_id_naming_another_record_is_no_table(
        shared_server: ServerProcess, client: ArbiterClient) -> None:
    """Attack: a table id that is a game's id (shown on every started table),
    its access record's, or the lobby's own log's is no table: ``UNKNOWN_TABLE``
    at once, without replaying that record as if it were one."""
    from service.auth import GameAccess
    from service.lobby import LOBBY_LOG_ID

    lobby = Lobby(client)
    started = lobby.open_table("ethnos", [("player", "Ada"), "bot"]).table
    for other in (started.game_id, str(GameAccess.create_id(uuid.UUID(started.game_id))),
                  str(LOBBY_LOG_ID)):
        for call in (lambda t=other: lobby.table(t), lambda t=other: lobby.join(t, "Eve")):
            wrong = refusal(call)
            assert (wrong.code, wrong.reason) == (grpc.StatusCode.NOT_FOUND, "UNKNOWN_TABLE")


def test_two_joins_racing_for_the_last_seat_seat_one_player(client: ArbiterClient) -> None:
    """Attack: two players join the last open seat at once (two threads):
    one sits and the game starts; the other is refused with a reason, and
    no seat is held twice."""
    lobby = Lobby(client)
    table_id = lobby.open_table("ethnos", [("player", "Ada"), "open"]).table.table_id
    barrier = threading.Barrier(2)

    def join(name: str) -> object:
        barrier.wait()
        try:
            return Lobby(client).join(table_id, name)
        except ArbiterError as exc:
            return exc

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(join, ["Bob", "Cy"]))
    joined = [r for r in results if not isinstance(r, ArbiterError)]
    refused = [r for r in results if isinstance(r, ArbiterError)]
    assert len(joined) == 1 and len(refused) == 1
    assert refused[0].reason in ("TABLE_STARTED", "TABLE_FULL", "SEAT_TAKEN")
    table = lobby.table(table_id)
    assert table.status == "started" and [s.kind for s in table.seats] == ["player", "player"]


def test_play_again_pressed_by_two_players_at_once_opens_one_table(
        client: ArbiterClient) -> None:
    """Attack: both players press "play again" at the same moment (two
    threads): one next round, each told its own seat of it."""
    lobby = Lobby(client)
    opened = lobby.open_table("ethnos", [("player", "Ada"), ("player", "Bob")])
    table_id, game_id = opened.table.table_id, opened.table.game_id
    secrets = [s.secret for s in opened.seat_secrets]
    client.add_tokens(game_id, dict(enumerate(secrets)))
    rng = random.Random(11)
    played = play_seats(lambda after: client.play(game_id, [0, 1], after_version=after),
                        lambda turn: random_move(turn, rng))
    assert played.final[0].over
    barrier = threading.Barrier(2)

    def again(secret: str) -> lobby_pb2.PlayAgainResponse | ArbiterError:
        barrier.wait()
        try:
            return lobby.play_again(table_id, secret=secret)
        except ArbiterError as exc:
            return exc

    with ThreadPoolExecutor(2) as pool:
        ada, bob = pool.map(again, secrets)
    assert not isinstance(ada, ArbiterError), ada
    assert not isinstance(bob, ArbiterError), bob
    assert ada.table.table_id == bob.table.table_id
    assert (ada.seat.name, bob.seat.name) == ("Ada", "Bob")
    assert ada.seat.secret != bob.seat.secret


def test_leaving_twice_is_refused_with_a_reason(client: ArbiterClient) -> None:
    """Attack: the same leave sent twice, before and during the game."""
    lobby = Lobby(client)
    table_id = lobby.open_table("ethnos", ["open", "open", "open"]).table.table_id
    ada = Lobby(client).join(table_id, "Ada").seat.secret
    lobby.leave(table_id, secret=ada)
    again = refusal(lambda: lobby.leave(table_id, secret=ada))
    assert (again.code, again.reason) == (grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN")
    opened = lobby.open_table("ethnos", [("player", "Ada"), ("player", "Bob")])
    bob = opened.seat_secrets[1].secret
    lobby.leave(opened.table.table_id, secret=bob)
    twice = refusal(lambda: lobby.leave(opened.table.table_id, secret=bob))
    assert (twice.code, twice.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "NOT_SEATED")


def test_no_watch_of_a_table_shows_a_secret(client: ArbiterClient) -> None:
    """Attack: a stranger watching a table sees its names, never a secret."""
    lobby = Lobby(client)
    opened = lobby.open_table("ethnos", [("player", "Ada"), "open", "open"])
    table_id = opened.table.table_id
    joined = Lobby(client).join(table_id, "Bob")
    watched = next(iter(Lobby(client).watch(table_id))).SerializeToString()
    for secret in (opened.host_secret, opened.seat_secrets[0].secret, joined.seat.secret):
        assert secret.encode() not in watched
    assert b"Bob" in watched


def test_watching_tables_is_bounded_per_caller_like_subscribing(
        shared_server: ServerProcess) -> None:
    """Attack: WatchTable streams left open by the thousand. Each is one of
    its caller's streams (``ARBITER_MAX_STREAMS_PER_PEER``, 32 by default),
    as Subscribe's are: past them the next is refused ``TOO_MANY_STREAMS``."""
    stub = lobby_pb2_grpc.LobbyServiceStub(shared_server.channel())
    table_id = lobby_pb2.OpenTableRequest(rules="ethnos",
                                          seats=[lobby_pb2.SeatSpec(kind="open")] * 2)
    opened = stub.OpenTable(table_id, timeout=10).table.table_id
    streams = []
    try:
        refused = None
        for _ in range(40):
            call = stub.WatchTable(lobby_pb2.WatchTableRequest(table_id=opened), timeout=30)
            streams.append(call)
            try:
                next(call)
            except grpc.RpcError as exc:
                refused = exc
                break
        assert refused is not None, "40 watches held by one address"
        assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED  # type: ignore[attr-defined]
        assert dict(refused.trailing_metadata())["arbiter-reason"] == "TOO_MANY_STREAMS"  # type: ignore[attr-defined]
    finally:
        for call in streams:
            call.cancel()


def test_opening_tables_is_bounded_per_caller_like_creating_games(
        client: ArbiterClient) -> None:
    """Every caller's share (docs/operations): a table opened counts as a game
    created (``ARBITER_CREATES_PER_MINUTE``, 60 here), a table of named
    players too, which starts at once and never waits (waiting tables have a
    cap of their own, five by default: ``test_lobby_limits``); past it the
    caller is refused ``RATE_LIMITED``, and its other lobby calls still
    answer. (The module's last test: it spends the address's share of new
    games.)"""
    lobby = Lobby(client)
    refused = None
    for _ in range(61):
        try:
            opened = lobby.open_table("ethnos", [("player", "Ada"), ("player", "Bob")])
        except ArbiterError as exc:
            refused = exc
            break
        assert opened.table.status == "started"
    assert refused is not None, "61 tables opened within a minute"
    assert (refused.code, refused.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "RATE_LIMITED")
    assert lobby.table(opened.table.table_id).game_id
