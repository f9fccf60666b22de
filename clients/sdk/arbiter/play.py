"""Playing a game on one ``Play`` stream: a seat's (or a bot's seats') client loop.

The loop players know from boardgame.io (``client.moves.x()``, then the server
pushes the new state) and Colyseus (``room.send()``, then a state patch): send
a move, and the server pushes what follows. ``PlayStream`` is the stream:

>>> with ArbiterClient() as client:
...     with client.play(game_id, seats=[0]) as stream:
...         for message in stream:  # one message a round: results, events, turns
...             for turn in message.turns:
...                 stream.move(turn.actions[0].command, seat=turn.seat,
...                             decision_id=turn.state.pending[0].id)

``play_seats`` is a whole bot on it: it answers every turn of its seats with
the move ``choose`` picks, resumes after a broken stream from the last
version it saw (gap-free), and returns each seat's final state.
"""

from __future__ import annotations

import queue
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import grpc

from arbiter.v1 import game_pb2, game_pb2_grpc
from arbiter.wire import json_to_command

#: A move: the typed command, or its ``{"name", "args"}`` JSON form.
CommandLike = game_pb2.Command | Mapping[str, Any]
#: Refusals a bot loop passes over: the game moved on before its move
#: arrived (another seat first, a clock's default); the next turn says what now.
STALE = frozenset({"STALE_DECISION", "VERSION_MISMATCH", "NOT_YOUR_TURN"})
#: Stream failures a bot loop reconnects after (the server restarting or
#: draining, a connection lost), resuming from the last version it saw.
RECONNECT = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED,
                       grpc.StatusCode.CANCELLED})
_CLOSE = object()


def new_command_id() -> str:
    import uuid

    return uuid.uuid4().hex


class PlayStream:
    """One ``Play`` call: ``move`` sends, iterating receives (``PlayMessage``).

    ``after_version`` resumes the events after it; ``seat_tokens`` are more
    seats' tokens (the stream's own token goes in ``metadata``); ``screens``:
    turns carry the seat's screen, for a client that draws it. ``version``
    is the newest version of the game this stream has delivered an event of.
    """

    def __init__(
        self,
        stub: game_pb2_grpc.GameServiceStub,
        game_id: str,
        rules: str,
        seats: Sequence[int] = (),
        *,
        after_version: int = 0,
        seat_tokens: Sequence[str] = (),
        metadata: Sequence[tuple[str, str]] = (),
        screens: bool = False,
    ) -> None:
        self.game_id = game_id
        self.rules = rules
        self.version = after_version
        self._outbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._outbox.put(game_pb2.PlayRequest(join=game_pb2.PlayJoin(
            game_id=game_id, seats=list(seats), after_version=after_version,
            seat_tokens=list(seat_tokens), screens=screens)))
        self._call = stub.Play(self._requests(), metadata=tuple(metadata))

    def _requests(self) -> Iterator[game_pb2.PlayRequest]:
        while (request := self._outbox.get()) is not _CLOSE:
            yield request

    def move(
        self,
        command: CommandLike,
        *,
        seat: int | None = None,
        decision_id: str = "",
        expected_version: int = 0,
        command_id: str = "",
    ) -> str:
        """Send a move (a ``Command`` or its JSON form); its command id (made
        when not given), which its ``PlayResult`` names: sent again with the
        same id, a move is applied once."""
        typed = command if isinstance(command, game_pb2.Command) else json_to_command(
            self.rules, dict(command))
        move = game_pb2.PlayMove(command=typed, decision_id=decision_id,
                                 expected_version=expected_version,
                                 command_id=command_id or new_command_id())
        if seat is not None:
            move.seat = seat
        self._outbox.put(game_pb2.PlayRequest(move=move))
        return move.command_id

    def __iter__(self) -> Iterator[game_pb2.PlayMessage]:
        for message in self._call:
            if message.events:
                self.version = max(self.version, message.events[-1].event.version)
            yield message

    def close(self) -> None:
        """Stop sending and end the call."""
        self._outbox.put(_CLOSE)
        self._call.cancel()

    def __enter__(self) -> PlayStream:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def legal_of(turn: game_pb2.PlayTurn) -> game_pb2.LegalActionsResponse:
    """A turn as ``LegalActions`` would have answered it (for pickers written for that)."""
    return game_pb2.LegalActionsResponse(
        version=turn.state.version, actions=turn.actions, complete=turn.complete,
        decisions=[d for d in turn.state.pending if d.seat == turn.seat])


@dataclass
class Move:
    """What a bot sends for a turn: a command and the decision it answers."""

    command: CommandLike
    decision_id: str = ""


@dataclass
class Played:
    """How a bot's game on a stream went: each seat's final state (empty
    when the game did not end), the moves sent and refused, and the
    reconnections it took."""

    final: dict[int, game_pb2.GameState] = field(default_factory=dict)
    moves: int = 0
    accepted: int = 0
    refused: int = 0
    reconnections: int = 0
    events: int = 0
    #: A turn ``choose`` had no move for: the loop stopped there.
    stuck: bool = False


def random_move(turn: game_pb2.PlayTurn, rng: random.Random) -> Move | None:
    """A uniformly random listed legal move, with the decision it answers."""
    if not turn.actions:
        return None
    action = rng.choice(list(turn.actions))
    mine = [d for d in turn.state.pending if d.seat == turn.seat]
    return Move(action.command, mine[0].id if len(mine) == 1 else "")


def play_seats(
    open_stream: Callable[[int], PlayStream],
    choose: Callable[[game_pb2.PlayTurn], Move | None],
    *,
    max_moves: int = 100_000,
    max_refusals: int = 10,
    reconnections: int = 5,
    on_message: Callable[[game_pb2.PlayMessage], None] | None = None,
) -> Played:
    """Play every turn of a stream's seats with ``choose``'s move until the game ends.

    ``open_stream(after_version)`` opens the stream (again after a broken one:
    from the last version seen, so nothing is missed or seen twice). Each
    move carries its decision id (staleness then judged for that decision
    alone), or, naming none, the turn's version as its expected version; a
    move the game moved past (``STALE``) is dropped, the next turn
    says what now; ``max_refusals`` other refusals in a row end the loop with
    ``RuntimeError``. A turn ``choose`` has no move for stops it (``stuck``),
    and so does the ``max_moves``-th turn after as many moves.
    """
    played = Played()
    after, in_a_row = 0, 0
    while True:
        stream = open_stream(after)
        try:
            for message in stream:
                if on_message is not None:
                    on_message(message)
                played.events += len(message.events)
                for result in message.results:
                    if result.accepted:
                        in_a_row = 0
                        played.accepted += not result.replayed
                        continue
                    played.refused += 1
                    if result.reason in STALE:
                        continue
                    in_a_row += 1
                    if in_a_row >= max_refusals:
                        raise RuntimeError(f"{in_a_row} moves refused in a row, the last: "
                                           f"{result.reason}: {result.message}")
                for turn in message.turns:
                    if turn.state.over:
                        played.final[turn.seat] = turn.state
                        continue
                    if played.moves >= max_moves:
                        return played
                    move = choose(turn)
                    if move is None:
                        played.stuck = True
                        return played
                    # Named decision: judged stale for it alone (seats choosing at
                    # once never make each other's moves stale); else the version.
                    stream.move(move.command, seat=turn.seat, decision_id=move.decision_id,
                                expected_version=0 if move.decision_id else turn.state.version)
                    played.moves += 1
                if message.state == game_pb2.FEED_STATE_ENDED:
                    return played
            return played
        except grpc.RpcError as exc:
            if exc.code() not in RECONNECT or played.reconnections >= reconnections:
                raise
            played.reconnections += 1
            after = stream.version
            time.sleep(min(0.05 * 2 ** played.reconnections, 2.0))
        finally:
            stream.close()
