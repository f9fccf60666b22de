"""Driving a real server the way a bot does: only through LegalActions."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

import grpc
import pytest
from arbiter.client import ArbiterError
from arbiter.v1 import game_pb2, game_pb2_grpc


def new_game(stub: game_pb2_grpc.GameServiceStub, rules: str = "enin") -> str:
    return str(stub.CreateGame(game_pb2.CreateGameRequest(rules=rules, seats=["solo"])).game_id)


def play(
    stub: game_pb2_grpc.GameServiceStub, game_id: str, moves: int, rnd: random.Random
) -> game_pb2.GameState:
    """Make up to ``moves`` random legal moves; stop early if the game ends."""
    state = stub.GetState(game_pb2.GetStateRequest(game_id=game_id))
    for _ in range(moves):
        if state.over:
            break
        seat = state.pending[0].seat
        legal = stub.LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=seat))
        names = sorted({a.command.enin.WhichOneof("command") for a in legal.actions})
        name = rnd.choice(names)
        action = rnd.choice(
            [a for a in legal.actions if a.command.enin.WhichOneof("command") == name]
        )
        reply = stub.Act(game_pb2.ActRequest(game_id=game_id, seat=seat, command=action.command))
        state = reply.state
    return state


class FeedCollector:
    """Reads a Subscribe stream in a thread, keeping events and statuses."""

    def __init__(self, stub: game_pb2_grpc.GameServiceStub, request: game_pb2.SubscribeRequest):
        self.call = stub.Subscribe(request)
        self.events: list[game_pb2.Event] = []
        self.statuses: list[str] = []
        #: Every message in the order received (events and statuses).
        self.messages: list[game_pb2.FeedMessage] = []
        self.error: Any = None
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for message in self.call:
                with self.changed:
                    self.messages.append(message)
                    if message.HasField("event"):
                        self.events.append(message.event)
                    else:
                        self.statuses.append(message.status)
                    self.changed.notify_all()
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.CANCELLED:
                with self.changed:  # wake wait_for now, not at its timeout
                    self.error = exc
                    self.changed.notify_all()

    def wait_for(self, predicate: Any, timeout: float = 15.0) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: predicate(self), timeout)

    def close(self) -> None:
        self.call.cancel()
        self.thread.join(timeout=5)


def until(condition: Callable[[], object], timeout: float = 30.0, step: float = 0.02) -> bool:
    """Whether ``condition`` held within ``timeout`` seconds, asked every ``step``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return False


def grpc_refusal(call: Any) -> tuple[grpc.StatusCode, str]:
    """The status and reason code a raw gRPC ``call()`` is refused with (the
    test fails if it returns)."""
    with pytest.raises(grpc.RpcError) as caught:
        call()
    trailers = dict(caught.value.trailing_metadata())  # type: ignore[attr-defined]
    return caught.value.code(), trailers["arbiter-reason"]  # type: ignore[attr-defined]


def refusal(call: object) -> ArbiterError:
    """The client error ``call()`` ends in (the test fails if it returns)."""
    with pytest.raises(ArbiterError) as caught:
        call()  # type: ignore[operator]
    return caught.value
