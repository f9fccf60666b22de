"""A lobby table's bots play on after a restart however old the table is,
whatever call brings its human back (docs/playing.md, "The lobby").

A server's start resumes the bots of the newest 500 tables opened
(``service.lobby.SCAN``); an older started table's bots played on only from a
look at the table (``GetTable``, ``WatchTable``, its page). A human who came
back over ``Play``, or the unary ``Act``/``GetState``/``LegalActions``, found
the game waiting on the bot for ever. Each test here opens a table of a
human and a bot on a real server, stops it with the game waiting on the bot,
lists 500 tables after it (as many callers' tables would), restarts the
server and comes back as the human without a look at the table: the bot's
move comes.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from arbiter.v1 import game_pb2, game_pb2_grpc, lobby_pb2, lobby_pb2_grpc

from tests.integration.conftest import ServerProcess
from tests.integration.test_lobby_listing import listed_directly, lobby_on
from tests.spies import calls_to

pytestmark = pytest.mark.integration

#: Tables listed after the one the test plays: the resume's whole scan.
SCAN = 500
#: How long the bot's move may take to come (it comes in well under a second).
PATIENCE = 30.0


def waiting_on_the_bot(server: ServerProcess) -> tuple[str, str, int]:
    """A started table of the human Ada (seat 0) and a bot (seat 1), its game
    waiting on the bot, then ``SCAN`` tables listed after it, the server
    stopped meanwhile and restarted: (the game's id, Ada's secret, the game's
    version at the restart)."""
    lobby = lobby_pb2_grpc.LobbyServiceStub(server.channel())
    opened = lobby.OpenTable(lobby_pb2.OpenTableRequest(rules="ettin", seats=[
        lobby_pb2.SeatSpec(kind="player", name="Ada"), lobby_pb2.SeatSpec(kind="bot")]))
    assert opened.table.status == "started", opened.table
    game_id, secret = opened.table.game_id, opened.seat_secrets[0].secret
    server.stop()
    from service.application import ArbiterApp
    from service.config import Settings

    app = ArbiterApp(Settings(data_dir=server.data_dir).store_env())
    try:
        for _ in range(50):  # Ada moves, in the store, until the game waits on the bot
            if app.legal_actions(game_id, 1).actions or app.facts(game_id).ended:
                break
            legal = app.legal_actions(game_id, 0)
            app.act(game_id, 0, dict(legal.actions[0].command), rules="ettin")
        assert app.legal_actions(game_id, 1).actions, "the game never waited on the bot"
        version = app.facts(game_id).version
        listed_directly(lobby_on(app), SCAN, started=False)
    finally:
        app.close()
    server.start()
    return game_id, secret, version


def game_version(server: ServerProcess, game_id: str) -> int:
    """The game's version as ``ListGames`` tells the admin: no call of the
    game by a seat (which would set its bots playing itself)."""
    reply = server.stub().ListGames(game_pb2.ListGamesRequest(game_ids=[game_id]))
    return int(reply.games[0].version)


def test_a_seat_back_over_play_gets_the_bots_move_of_a_table_older_than_the_restart(
        arbiter_server: ServerProcess) -> None:
    """``Play``: the human's stream, joined after the restart at the version
    the game stopped at, receives the bot's move (an event past it)."""
    game_id, secret, version = waiting_on_the_bot(arbiter_server)
    requests: queue.Queue[game_pb2.PlayRequest | None] = queue.Queue()
    requests.put(game_pb2.PlayRequest(join=game_pb2.PlayJoin(
        game_id=game_id, seats=[0], after_version=version)))

    def sent() -> Iterator[game_pb2.PlayRequest]:
        while (request := requests.get()) is not None:
            yield request

    stream: Any = game_pb2_grpc.GameServiceStub(arbiter_server.channel()).Play(
        sent(), timeout=PATIENCE, metadata=[("authorization", f"Bearer {secret}")])
    try:
        for message in stream:
            if any(e.event.version > version for e in message.events):
                return
    except grpc.RpcError as exc:
        assert exc.code() != grpc.StatusCode.DEADLINE_EXCEEDED, (
            f"no move of the bot came in {PATIENCE} s: the game waits on it for ever")
        raise
    finally:
        requests.put(None)
        stream.cancel()
    pytest.fail("the stream ended without the bot's move")


@pytest.mark.parametrize("call", ["LegalActions", "GetState", "Act"])
def test_a_seat_back_over_a_unary_call_gets_the_bots_move_of_a_table_older_than_the_restart(
        arbiter_server: ServerProcess, call: str) -> None:
    """``LegalActions`` (``GetState``; an ``Act``, refused: not the human's
    turn) once, as the human back after the restart: the bot's move is made
    (the game's version, read by the admin's ``ListGames``, goes past the one
    the game stopped at)."""
    game_id, secret, version = waiting_on_the_bot(arbiter_server)
    stub = arbiter_server.stub(secret)
    if call == "LegalActions":
        stub.LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=0))
    elif call == "GetState":
        stub.GetState(game_pb2.GetStateRequest(game_id=game_id, seat=0))
    else:
        with pytest.raises(grpc.RpcError):  # a command of no game's: refused, yet a call
            stub.Act(game_pb2.ActRequest(game_id=game_id, seat=0))
    deadline = time.monotonic() + PATIENCE
    while game_version(arbiter_server, game_id) == version:
        assert time.monotonic() < deadline, (
            f"no move of the bot in {PATIENCE} s after {call}: the game waits on it for ever")
        time.sleep(0.1)


class _Seat:
    """A call's context carrying a seat's token, as the game servicer reads it."""

    def __init__(self, token: str) -> None:
        self.token = token

    def invocation_metadata(self) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {self.token}")]

    def peer(self) -> str:
        return "ipv4:10.0.0.3:4242"


CALLS = 50


def test_a_game_with_no_table_costs_no_lobby_check_and_a_tables_game_one_a_process(
        app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check rides the hot path at no measurable cost: ``CALLS`` reads
    (``GetState``, ``LegalActions``) of a game created by ``CreateGame`` (no
    table) never tell the lobby (its access record is not revocable: one
    attribute read); as many of a lobby table's game tell it each time but
    read the game's link to its table once (one indexed read a process a
    game), and set the idle bots playing once."""
    from service.lobby import LobbyService
    from service.servicer import GameServicer
    from tests.integration.test_lobby_listing import _Hub

    hub = _Hub()
    lobby = LobbyService(app, hub, None)  # type: ignore[arg-type]
    played: list[str] = []
    monkeypatch.setattr(lobby.bots, "play", lambda table, host="": played.append(table.game_id))
    told: list[str] = []

    def seat_called(game_id: str) -> None:
        told.append(game_id)
        lobby.bots.seat_called(game_id)

    games = GameServicer(app, hub)  # type: ignore[arg-type]
    games.lobby_games = seat_called
    links = calls_to(monkeypatch, lobby.tables, "table_of")

    plain = app.create_game("ettin", ["Ada", "Bob"])
    plain_token = app.credentials.seat_token(plain.id, 0)
    opened = lobby.OpenTable(lobby_pb2.OpenTableRequest(rules="ettin", seats=[
        lobby_pb2.SeatSpec(kind="player", name="Ada"), lobby_pb2.SeatSpec(kind="bot")]),
        _Seat(""))
    tabled, tabled_token = opened.table.game_id, opened.seat_secrets[0].secret
    assert played == [tabled]  # started: its bots set playing (here, counted alone)
    played.clear()

    for game_id, token in ((str(plain.id), plain_token), (tabled, tabled_token)):
        for _ in range(CALLS // 2):
            games.GetState(game_pb2.GetStateRequest(game_id=game_id, seat=0), _Seat(token))
            games.LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=0),
                               _Seat(token))
    assert str(plain.id) not in told, "a game with no table told the lobby"
    assert told.count(tabled) == CALLS
    deadline = time.monotonic() + PATIENCE
    while not played:  # the check runs on a thread of its own
        assert time.monotonic() < deadline, "the idle bots were never set playing"
        time.sleep(0.01)
    time.sleep(0.2)
    assert links == [(tabled,)], f"the link was read {len(links)} times, not once"
    assert played == [tabled]
