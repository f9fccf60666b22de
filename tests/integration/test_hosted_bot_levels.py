"""Bots the server hosts at a table's bot seats, at a level (docs/playing.md,
"The lobby"; docs/bots.md, "Bots the server hosts").

What these tests pin: a bot seat's level and budget are recorded and shown
with the table; a table with a greedy bot plays to the end; a level the
server does not host, or a budget past its bound, is refused with a reason
code before a table is recorded; and a hosted bot decides from its seat's
record, view and legal moves alone, never from the game the server holds
(the observations it decided from are compared with what its seat reads).
"""

from __future__ import annotations

import contextlib
import random
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from arbiter.client import ArbiterClient
from arbiter.moves import listed_decision
from arbiter.play import play_seats, random_move
from arbiter.v1 import lobby_pb2, lobby_pb2_grpc

from aggregates.catalog import GAMES
from aggregates.kernel import event_type
from aggregates.kernel.record.recording import payload_of
from clients.bots.seat import legal_of, read_by
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import grpc_refusal

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("hosted_bot_levels")]


@pytest.fixture(scope="module")
def client(shared_server: ServerProcess) -> Iterator[ArbiterClient]:
    with ArbiterClient(shared_server.address, token="") as client:
        yield client


def open_table(server: ServerProcess, rules: str,
               seats: list[lobby_pb2.SeatSpec]) -> lobby_pb2.OpenTableResponse:
    stub = lobby_pb2_grpc.LobbyServiceStub(server.channel())
    reply: lobby_pb2.OpenTableResponse = stub.OpenTable(
        lobby_pb2.OpenTableRequest(rules=rules, seats=seats), timeout=10)
    return reply


def test_a_table_with_a_greedy_bot_seat_plays_to_the_end(
        shared_server: ServerProcess, client: ArbiterClient) -> None:
    """Ada plays her seat at random over ``Play``; the server's greedy bot
    plays the other, at a small budget, until the game is over."""
    opened = open_table(shared_server, "ettin", [
        lobby_pb2.SeatSpec(kind="player", name="Ada"),
        lobby_pb2.SeatSpec(kind="bot", level="greedy", budget_seconds=0.01)])
    table = opened.table
    assert table.status == "started" and table.game_id
    assert [(s.kind, s.level) for s in table.seats] == [("player", "random"), ("bot", "greedy")]
    assert table.seats[1].budget_seconds == pytest.approx(0.01)
    client.add_tokens(table.game_id, {0: opened.seat_secrets[0].secret})
    rng = random.Random(3)
    played = play_seats(lambda after: client.play(table.game_id, [0], after_version=after),
                        lambda turn: random_move(turn, rng))
    assert played.final[0].over, "the game with a greedy bot did not end"


def test_a_bot_level_or_budget_the_server_does_not_host_is_refused(
        shared_server: ServerProcess) -> None:
    """``BAD_LEVEL`` and ``BAD_BUDGET`` (``INVALID_ARGUMENT``), before a table
    is recorded; a seat given no level is a random bot at the server's bound."""
    ada = lobby_pb2.SeatSpec(kind="player", name="Ada")
    for bot, reason in ((lobby_pb2.SeatSpec(kind="bot", level="grandmaster"), "BAD_LEVEL"),
                        (lobby_pb2.SeatSpec(kind="bot", level="Greedy"), "BAD_LEVEL"),
                        (lobby_pb2.SeatSpec(kind="bot", level="ismcts", budget_seconds=5.0),
                         "BAD_BUDGET"),
                        (lobby_pb2.SeatSpec(kind="open", budget_seconds=-1.0), "BAD_BUDGET"),
                        (lobby_pb2.SeatSpec(kind="bot", budget_seconds=float("nan")),
                         "BAD_BUDGET")):
        assert grpc_refusal(lambda b=bot: open_table(shared_server, "ettin", [ada, b])) == (
            grpc.StatusCode.INVALID_ARGUMENT, reason), bot
    plain = open_table(shared_server, "ettin", [ada, lobby_pb2.SeatSpec(kind="open")])
    assert plain.table.seats[1].level == "random"
    assert plain.table.seats[1].budget_seconds == pytest.approx(0.2)  # the default bound


class _Context:
    def invocation_metadata(self) -> list[tuple[str, str]]:
        return []

    def set_trailing_metadata(self, metadata: Any) -> None:
        pass


class _Hub:
    """The feeds' hub as the lobby tells it of changes: its bots' threads end
    at once (the test drives the moves)."""

    def __init__(self) -> None:
        self.stopping = threading.Event()
        self.stopping.set()

    def committed(self, game_id: str, version: int) -> None:
        pass

    def following(self, game_id: str) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()


@pytest.mark.parametrize("level", ["greedy", "ismcts"])
def test_a_hosted_bot_decides_from_its_seats_record_view_and_moves_alone(
        app: Any, level: str) -> None:
    """The table's searching bot (seat 2 of Ethnos, whose hands are hidden) is
    given, at each decision, its seat's view, its seat's legal moves and its
    seat's record: each event in the form seat 2 reads it, the other hand's
    cards left out. Were it handed the server's game or the full record (an
    admin's reader), the record or the view compared here would differ."""
    from service.hostedbots import SeatBots
    from service.lobby import LobbyService

    lobby = LobbyService(app, _Hub())  # type: ignore[arg-type]
    opened = lobby.OpenTable(lobby_pb2.OpenTableRequest(rules="ethnos", seats=[
        lobby_pb2.SeatSpec(kind="player", name="Ada"),
        lobby_pb2.SeatSpec(kind="bot", level=level, budget_seconds=0.01)]), _Context())
    game_id = opened.table.game_id
    table_id = uuid.UUID(opened.table.table_id)
    bots = SeatBots(game_id, 0.2, keep=True)
    cls = GAMES["ethnos"]
    rng = random.Random(5)
    redacted_reads = 0
    while len(bots.observations) < 6:
        game = app.game(game_id)
        if 1 in {d.seat for d in game.pending_decisions()}:
            view, legal = game.view(1), legal_of(game, 1)
            events = app.game_events(game_id)
            assert lobby.bots._move(table_id, game_id, bots)
            obs = bots.observations[-1]
            assert obs.seat == 1 and obs.view == view
            assert [item.key() for item in obs.legal] == [item.key() for item in legal]
            assert obs.seen == read_by(cls, events, 1)  # the seat's forms, no other
            # After the creation (read without its seed by every seat): the
            # events whose full form seat 2 may not read.
            redacted_reads += sum(seen != (event_type(ev), payload_of(ev))
                                  for seen, ev in zip(obs.seen[1:], events[1:], strict=True))
            assert obs.belief is not None, f"{level} decided without its seat's belief"
            continue
        legal_0 = app.legal_actions(game_id, 0)
        action = rng.choice(list(legal_0.actions))
        app.act(game_id, 0, action.command, decision_id=listed_decision(legal_0),
                rules="ethnos")
    assert redacted_reads, "no event was hidden from seat 2: the test would catch nothing"
    assert bots.seats[1].level == level and not bots.seats[1].blind


def test_the_cli_opens_a_table_with_a_bot_at_a_level(
        shared_server: ServerProcess, tmp_path: Any, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``arbiter lobby open --seat bot:greedy``: the bot seat's level is the
    server's and shown; a level it does not host is the server's BAD_LEVEL."""
    from clients.cli import main

    monkeypatch.setenv("ARBITER_HOME", str(tmp_path))
    common = ["--address", shared_server.address]
    assert main(["lobby", "open", "ettin", "--seat", "Ada", "--seat", "bot:greedy",
                 "--bot-budget", "0.01", *common]) == 0
    assert "Player 2: a bot (bot, greedy)" in capsys.readouterr().out
    assert main(["lobby", "open", "ettin", "--seat", "Ada", "--seat", "open:wizard",
                 *common]) != 0
    assert "BAD_LEVEL" in capsys.readouterr().err
