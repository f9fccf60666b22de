"""``arbiter bot``: the bot levels as clients of the per-seat ``Play`` stream
(docs/bots.md, "arbiter bot").

What these tests pin: a bot plays its seats to the end of a game through the
stream alone, at more than one level; and a bot decides only from what its
seat's stream carried: each seat's record, as the bot kept it and handed it to
its level, is exactly the seat's own ``History`` (another seat's private event
reaches it redacted, never whole), and each turn's view is the seat's own.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from arbiter.client import ArbiterClient
from arbiter.lobby import Lobby
from arbiter.v1 import game_pb2

from clients import bot as bot_cli
from clients import cli
from clients.bots import Determiniser
from tests.integration.conftest import ServerProcess

pytestmark = [pytest.mark.integration]


@pytest.fixture
def client(shared_server: ServerProcess) -> Iterator[ArbiterClient]:
    with ArbiterClient(shared_server.address, token="") as c:
        yield c


def created(server: ServerProcess, rules: str, seats: list[str]) -> game_pb2.CreateGameResponse:
    reply: game_pb2.CreateGameResponse = server.stub().CreateGame(
        game_pb2.CreateGameRequest(rules=rules, seats=seats))
    return reply


def test_ismcts_plays_enin_to_its_end_over_the_stream(
        shared_server: ServerProcess, client: ArbiterClient) -> None:
    """Enin, "End of the game": the bot's seat is played until the game ends,
    every decision by IS-MCTS (Enin hides nothing, so the seat's folded record
    is a belief and no decision falls back to random)."""
    game = created(shared_server, "enin", ["bot"])
    bot, played = bot_cli.play_game(client, game.game_id, [game.seat_tokens[0].token],
                                    "ismcts", budget=0.002, seed=3, keep=True)
    assert played.final and played.final[0].over
    assert played.refused == 0
    seat = bot.seats[0]
    assert seat.decisions > 0 and seat.blind == 0
    assert all(obs.belief is not None for obs in bot.observations if len(obs.legal) > 1)


def test_greedy_searches_worlds_folded_from_its_seats_record(
        shared_server: ServerProcess, client: ArbiterClient) -> None:
    """Greedy's worlds come from the seat's own record, folded by the rules:
    at each decision the folded game shows the seat the very view the server
    sent with the turn (so the belief is the seat's game, not a guess)."""
    game = created(shared_server, "enin", ["bot"])
    bot, played = bot_cli.play_game(client, game.game_id, [game.seat_tokens[0].token],
                                    "greedy", budget=0.02, seed=5, max_moves=12,
                                    keep=True)
    assert played.refused == 0 and bot.seats[0].blind == 0
    searched = [obs for obs in bot.observations if len(obs.legal) > 1]
    assert searched
    for obs in searched:
        assert isinstance(obs.belief, Determiniser)
        assert obs.belief.base.view(0) == obs.view


def test_the_cli_plays_two_games_of_its_tokens(shared_server: ServerProcess,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """``arbiter bot --token GAME:TOKEN ...``: both games, in one process, to the end."""
    games = [created(shared_server, "enin", ["bot"]) for _ in range(2)]
    argv = ["bot", "--address", shared_server.address, "--level", "random", "--parallel", "2"]
    for game in games:
        argv += ["--token", f"{game.game_id}:{game.seat_tokens[0].token}"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    for game in games:
        assert f"game {game.game_id}: Player 1 (random): " in out
        state = shared_server.stub().GetState(game_pb2.GetStateRequest(game_id=game.game_id))
        assert state.over


def test_the_cli_refuses_a_token_of_no_game(shared_server: ServerProcess,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A bare token needs ``--game``: refused with its reason, nothing played."""
    assert cli.main(["bot", "--address", shared_server.address, "--token", "abc"]) == 2
    assert "NO_GAME" in capsys.readouterr().err


def test_a_bot_reads_only_what_its_seats_stream_carried(
        shared_server: ServerProcess, client: ArbiterClient) -> None:
    """Ethnos deals hands face down ("Setup"): each seat's record as the bot
    built its observations from is exactly that seat's ``History`` before the
    end: the other seats' draws redacted, its own whole. A bot that read the
    full record (the admin's, or another seat's) would differ here."""
    game = created(shared_server, "ethnos", ["a", "b", "c"])
    tokens = [t.token for t in game.seat_tokens]
    bot, played = bot_cli.play_game(client, game.game_id, tokens, "greedy", budget=0.02,
                                    seed=1, max_moves=40, keep=True)
    assert not played.final  # stopped mid-game: History is still per seat
    for number, seat in bot.seats.items():
        last = seat.records[-1].version
        history = list(shared_server.stub(tokens[number]).History(
            game_pb2.HistoryRequest(game_id=game.game_id, seat=number)))[:last]
        assert [(r.type, r.payload) for r in seat.records] == [
            (e.type, json.loads(e.payload_json or "{}")) for e in history]
        assert any(e.redacted for e in history)  # something was hidden from it
        assert [r.redacted for r in seat.reads] == [e.redacted for e in history]
        views = [obs for obs in bot.observations if obs.seat == number]
        assert views and views[-1].seen == tuple(
            (r.type, r.payload) for r in seat.records[:len(views[-1].seen)])


def test_the_cli_sits_at_an_open_lobby_seat_and_plays_it(
        shared_server: ServerProcess, client: ArbiterClient,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``arbiter bot --lobby TABLE --name N``: the bot joins the table's open
    seat by name (the filling join starts the game) and plays it to the end."""
    opened = Lobby(client).open_table("enin", ["open"])
    table_id = opened.table.table_id
    assert cli.main(["bot", "--address", shared_server.address, "--lobby", table_id,
                     "--name", "Botty", "--level", "ismcts", "--budget", "0.002"]) == 0
    table = Lobby(client).table(table_id)
    assert [(s.kind, s.name) for s in table.seats] == [("player", "Botty")]
    state = shared_server.stub().GetState(game_pb2.GetStateRequest(game_id=table.game_id))
    assert state.over
    assert f"game {table.game_id}: Player 1 (ismcts): " in capsys.readouterr().out
