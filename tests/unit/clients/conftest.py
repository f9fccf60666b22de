"""A fake in-process GameService that records the credential of every call.

Fast enough for unit tests (no store, no Redis, no rules): it answers every
RPC with a small fixed reply, issues predictable tokens from CreateGame, and
can refuse chosen tokens with a chosen status and reason code.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest
from arbiter.v1 import game_pb2, game_pb2_grpc

from tests.unit.clients.support import FLAVOURS, Perform, isolate_credentials


@dataclass
class Call:
    method: str
    authorization: str | None
    request: Any


@dataclass
class FakeGameService(game_pb2_grpc.GameServiceServicer):
    """Records ``Call``s; ``refuse`` maps a token to (status, reason) to refuse it with."""

    calls: list[Call] = field(default_factory=list)
    refuse: dict[str, tuple[grpc.StatusCode, str]] = field(default_factory=dict)
    over: bool = False
    playable_seat: int | None = None  # offer this seat one move; the game ends after it
    ended: set[str] = field(default_factory=set)
    seats: dict[str, list[str]] = field(default_factory=dict)
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def _note(self, method: str, request: Any, context: grpc.ServicerContext) -> None:
        metadata = dict(context.invocation_metadata())
        authorization = metadata.get("authorization")
        self.calls.append(Call(method, authorization, request))
        token = (authorization or "").removeprefix("Bearer ")
        if token in self.refuse:
            code, reason = self.refuse[token]
            context.set_trailing_metadata((("arbiter-reason", reason),))
            context.abort(code, f"{reason}: refused by the fake")

    def tokens(self, method: str | None = None) -> list[str | None]:
        """The bare tokens sent, in call order (of one method, if given)."""
        return [
            c.authorization.removeprefix("Bearer ") if c.authorization else None
            for c in self.calls if method is None or c.method == method
        ]

    def _state(self, game_id: str) -> game_pb2.GameState:
        over = self.over or game_id in self.ended
        outcome = '{"result": "won"}' if over else ""
        return game_pb2.GameState(
            game_id=game_id, rules="enin", version=1, over=over, outcome_json=outcome,
            seats=self.seats.get(game_id, ["Ada"]),
        )

    def ListRules(self, request: Any, context: Any) -> game_pb2.ListRulesResponse:
        self._note("ListRules", request, context)
        info = game_pb2.RulesInfo(id="enin", title="The Land of Enin", min_seats=1, max_seats=2)
        return game_pb2.ListRulesResponse(rules=[info])

    def CreateGame(self, request: Any, context: Any) -> game_pb2.CreateGameResponse:
        self._note("CreateGame", request, context)
        game_id = f"game-{next(self._ids)}"
        self.seats[game_id] = list(request.seats)
        tokens = [
            game_pb2.SeatToken(seat=n, name=name, token=f"seat{n}-{game_id}")
            for n, name in enumerate(request.seats)
        ]
        return game_pb2.CreateGameResponse(
            game_id=game_id, version=1, seed_commitment="c0ffee", rules_version="1",
            state=self._state(game_id), seat_tokens=tokens, spectator_token=f"spec-{game_id}",
        )

    def Act(self, request: Any, context: Any) -> game_pb2.ActResponse:
        self._note("Act", request, context)
        self.ended.add(request.game_id)
        return game_pb2.ActResponse(version=2, state=self._state(request.game_id))

    def GetState(self, request: Any, context: Any) -> game_pb2.GameState:
        self._note("GetState", request, context)
        return self._state(request.game_id)

    def LegalActions(self, request: Any, context: Any) -> game_pb2.LegalActionsResponse:
        self._note("LegalActions", request, context)
        if request.seat != self.playable_seat or request.game_id in self.ended:
            return game_pb2.LegalActionsResponse(version=1)
        command = game_pb2.Command()
        command.enin.roll_start.SetInParent()
        move = game_pb2.LegalAction(
            command=command, json='{"name": "roll_start", "args": {}}', label="roll"
        )
        return game_pb2.LegalActionsResponse(version=1, actions=[move])

    def Play(self, requests: Iterator[game_pb2.PlayRequest],
             context: Any) -> Iterator[game_pb2.PlayMessage]:
        """The playable seat's one move (its turn, then the move's result), then
        every joined seat's final state and the end; each move noted as ``PlayMove``."""
        join = next(requests).join
        self._note("Play", join, context)
        if self.playable_seat in join.seats and join.game_id not in self.ended:
            command = game_pb2.Command()
            command.enin.roll_start.SetInParent()
            move = game_pb2.LegalAction(command=command, json='{"name": "roll_start"}',
                                        label="roll")
            yield game_pb2.PlayMessage(turns=[game_pb2.PlayTurn(
                seat=self.playable_seat, state=self._state(join.game_id), actions=[move],
                complete=True)])
            sent = next(requests).move
            self.calls.append(Call("PlayMove", None, sent))
            self.ended.add(join.game_id)
            yield game_pb2.PlayMessage(results=[game_pb2.PlayResult(
                command_id=sent.command_id, accepted=True, version=2)])
        yield game_pb2.PlayMessage(
            turns=[game_pb2.PlayTurn(seat=seat, state=self._state(join.game_id))
                   for seat in join.seats],
            status="ended: the game is over", state=game_pb2.FEED_STATE_ENDED)

    def History(self, request: Any, context: Any) -> Iterator[game_pb2.Event]:
        self._note("History", request, context)
        yield game_pb2.Event(game_id=request.game_id, version=1, type="Created")

    def Subscribe(self, request: Any, context: Any) -> Iterator[game_pb2.FeedMessage]:
        self._note("Subscribe", request, context)
        event = game_pb2.Event(game_id=request.game_id or "game-x", version=1, type="Created")
        yield game_pb2.FeedMessage(event=event)

    def Audit(self, request: Any, context: Any) -> game_pb2.AuditResponse:
        self._note("Audit", request, context)
        return game_pb2.AuditResponse(chain_ok=True, dice_ok=True, replay_ok=True, over=True)

    def ListGames(self, request: Any, context: Any) -> game_pb2.ListGamesResponse:
        self._note("ListGames", request, context)
        return game_pb2.ListGamesResponse()


@dataclass
class FakeServer:
    address: str
    service: FakeGameService


def start_fake(
    credentials: grpc.ServerCredentials | None = None,
) -> tuple[grpc.Server, FakeServer]:
    service = FakeGameService()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    game_pb2_grpc.add_GameServiceServicer_to_server(service, server)
    if credentials is None:
        port = server.add_insecure_port("127.0.0.1:0")
    else:
        port = server.add_secure_port("127.0.0.1:0", credentials)
    server.start()
    return server, FakeServer(f"127.0.0.1:{port}", service)


@pytest.fixture
def fake_server() -> Iterator[FakeServer]:
    server, fake = start_fake()
    try:
        yield fake
    finally:
        server.stop(None)


@pytest.fixture(params=sorted(FLAVOURS))
def perform(request: pytest.FixtureRequest) -> Perform:
    """Each client in turn (``perform_blocking``, ``perform_asyncio``): the two
    share one request pipeline, and a test taking this checks that of both."""
    return FLAVOURS[request.param]


@pytest.fixture(autouse=True)
def clean_auth_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No credential from the developer's shell, a private ARBITER_HOME (returned)
    and a cwd without ``./data/admin.token``."""
    return isolate_credentials(monkeypatch, tmp_path)


# --- a real server in this process ----------------------------------------------


@dataclass
class RealServer:
    """The real servicer on a real store (SQLite in a temp dir), no Redis, no process:
    every RPC but a live Subscribe behaves as in production."""

    address: str


@pytest.fixture
def real_server(tmp_path: Path) -> Iterator[RealServer]:
    """The real servicer in this process, on the store as the server configures
    its own (``Settings.store_env``: with its aggregate cache, which spares each
    move and each Play round rebuilding the game from the store; a whole game
    without it took twice as long), served as the server serves it."""
    from service.aio import LoopServer
    from service.application import ArbiterApp
    from service.config import Settings
    from service.feeds import FeedHub
    from service.servicer import GameServicer, add_to_server

    settings = Settings(data_dir=tmp_path / "data")
    app = ArbiterApp(settings.store_env(), settings.snapshot_interval)

    hub = FeedHub("redis://127.0.0.1:1")  # never started: no live feeds here
    # As the server serves it: gRPC's asyncio server, which runs Play on its loop.
    server = LoopServer(futures.ThreadPoolExecutor(max_workers=8), [], [])
    add_to_server(GameServicer(app, hub), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield RealServer(f"127.0.0.1:{port}")
    finally:
        server.stop(None).wait()
