"""Searching bots over the per-seat ``Play`` stream in the games that hide
cards (docs/bots-search.md, "A belief from the seat's record").

A bot that plays over the stream has its seat's record and nothing else: the
server sends another seat's private events in their public form. These tests
pin that such a bot still searches in Ethnos, Ettin, Titans and Romance of
the Nine Empires: every decision with a choice is made by its level from a
world guessed from the seat's record, never at random, and that world shows
the seat exactly the view the server sent with the turn.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from arbiter.client import ArbiterClient
from arbiter.v1 import game_pb2

from clients import bot as bot_cli
from clients.bots import Determiniser
from tests.integration.conftest import ServerProcess

pytestmark = [pytest.mark.integration]

#: Each hidden-card game, the seats it is played with and the moves played
#: (enough to pass several private events of each seat: deals, draws, a deck
#: shuffled, a Secret Objective kept, a raid's stealth cards).
GAMES = [("ethnos", 3, 60, "greedy"), ("ettin", 2, 70, "greedy"), ("titans", 2, 50, "greedy"),
         ("nine_empires", 2, 50, "greedy"), ("titans", 3, 40, "ismcts")]


@pytest.fixture
def client(shared_server: ServerProcess) -> Iterator[ArbiterClient]:
    with ArbiterClient(shared_server.address, token="") as c:
        yield c


@pytest.mark.parametrize(("rules", "players", "moves", "level"), GAMES)
def test_a_searching_level_plays_a_hidden_card_game_over_the_stream(
        shared_server: ServerProcess, client: ArbiterClient, rules: str, players: int,
        moves: int, level: str) -> None:
    """Every seat, played by a searching level over its own stream: no decision falls
    back to random, and at each decision the guessed world shows the seat
    the view the server sent (its hand, the counts of the others', every
    public zone), though the seat read some events only in public form."""
    game: game_pb2.CreateGameResponse = shared_server.stub().CreateGame(
        game_pb2.CreateGameRequest(rules=rules, seats=[f"p{i}" for i in range(players)]))
    tokens = [t.token for t in game.seat_tokens]
    bot, played = bot_cli.play_game(client, game.game_id, tokens, level, budget=0.01,
                                    seed=2, max_moves=moves, keep=True)
    assert played.refused == 0
    for seat in bot.seats.values():
        assert seat.unguessable == "", seat.unguessable
        assert seat.blind == 0
        assert any(read.redacted for read in seat.reads[1:])  # something was hidden
    searched = [obs for obs in bot.observations if len(obs.legal) > 1]
    assert searched
    for obs in searched:
        assert isinstance(obs.belief, Determiniser)
        assert obs.belief.base.view(obs.seat) == obs.view
