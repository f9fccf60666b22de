"""``Play``: a seat's game on one bidirectional stream (docs/bots.md, "The
client loop"). One server for the module; each test plays its own games.

What the stream promises and these tests pin: hidden information stays per
seat (a seat never receives another seat's private form of an event, as
``History`` redacts it for that seat); events are gap-free and resume by
version on a new stream; a refused move comes back as a result with the
reason ``Act`` gives, and the stream plays on; a command id sent twice is
applied once (exactly once, as ``Act``'s).
"""

from __future__ import annotations

import dataclasses
import queue
import random
import threading
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from arbiter.client import ArbiterClient
from arbiter.play import Move, legal_of, play_seats, random_move
from arbiter.v1 import game_pb2, game_pb2_grpc

from tests.integration.conftest import ServerProcess

pytestmark = [pytest.mark.integration]


def created(server: ServerProcess, rules: str, seats: list[str]) -> game_pb2.CreateGameResponse:
    reply: game_pb2.CreateGameResponse = server.stub().CreateGame(
        game_pb2.CreateGameRequest(rules=rules, seats=seats))
    return reply


@dataclasses.dataclass(frozen=True)
class Item:
    """One thing a message held: a result, an event, a turn, or its status."""

    kind: str
    value: Any


class RawPlay:
    """A ``Play`` call on the generated stub: requests put in, messages read out."""

    def __init__(self, server: ServerProcess, token: str, join: game_pb2.PlayJoin) -> None:
        self.requests: queue.SimpleQueue[game_pb2.PlayRequest | None] = queue.SimpleQueue()
        self.requests.put(game_pb2.PlayRequest(join=join))
        stub = game_pb2_grpc.GameServiceStub(server.channel())
        self.call = stub.Play(self._requests(), metadata=(("authorization", f"Bearer {token}"),),
                              timeout=60)
        self.messages: Iterator[game_pb2.PlayMessage] = iter(self.call)
        self.items = self._items()

    def _requests(self) -> Iterator[game_pb2.PlayRequest]:
        while (request := self.requests.get()) is not None:
            yield request

    def send(self, move: game_pb2.PlayMove) -> None:
        self.requests.put(game_pb2.PlayRequest(move=move))

    def _items(self) -> Iterator[Item]:
        """What the messages hold, one by one, in their order (results,
        events, turns, status)."""
        for message in self.messages:
            yield from (Item("result", r) for r in message.results)
            yield from (Item("event", e) for e in message.events)
            yield from (Item("turn", t) for t in message.turns)
            if message.status:
                yield Item("status", message)

    def until(self, kind: str) -> tuple[list[Item], Item]:
        """The items up to the next one of ``kind``, and that one."""
        seen: list[Item] = []
        for item in self.items:
            if item.kind == kind:
                return seen, item
            seen.append(item)
        raise AssertionError(f"the stream ended before a {kind}")

    def close(self) -> None:
        self.requests.put(None)
        self.call.cancel()


def test_each_seat_gets_only_its_own_private_forms(shared_server: ServerProcess) -> None:
    """Hidden information per seat (Ethnos rulebook, "Drawing cards": a hand
    is its owner's alone): over a whole game played on Play streams, seat 0's
    stream carries every event in exactly the form ``History`` gives seat 0,
    never another seat's private form, and it does receive private forms
    redacted (so the check has something to check)."""
    game = created(shared_server, "ethnos", ["a", "b", "c"])
    tokens = {t.seat: t.token for t in game.seat_tokens}
    received: dict[int, list[game_pb2.Event]] = {seat: [] for seat in tokens}
    # Events come in messages; the one that holds the game's end is the full
    # record (as Subscribe sends it): public by then.
    batches: dict[int, list[int]] = {seat: [] for seat in tokens}
    batch = dict.fromkeys(tokens, 0)
    with ArbiterClient(shared_server.address) as client:
        client.add_tokens(game.game_id, tokens)

        def bot(seat: int) -> None:
            rng = random.Random(seat)

            def keep(message: game_pb2.PlayMessage) -> None:
                batch[seat] += 1
                for pushed in message.events:
                    assert list(pushed.for_seats) == [seat]
                    received[seat].append(pushed.event)
                    batches[seat].append(batch[seat])

            play_seats(lambda after: client.play(game.game_id, [seat], after_version=after),
                       lambda turn: random_move(turn, rng), on_message=keep)

        threads = [threading.Thread(target=bot, args=(seat,)) for seat in tokens]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    assert not any(thread.is_alive() for thread in threads)
    history = list(shared_server.stub(tokens[0]).History(
        game_pb2.HistoryRequest(game_id=game.game_id, seat=0)))
    over = shared_server.stub(tokens[0]).GetState(
        game_pb2.GetStateRequest(game_id=game.game_id, seat=0)).over
    assert over
    mine = received[0]
    assert [e.version for e in mine] == list(range(1, len(mine) + 1)), "gap-free, in order"
    assert len(mine) == len(history)
    # History of a finished game is the full record; before the end seat 0's
    # stream got what seat 0 may see: each private event of another seat redacted.
    assert mine[-1].type == "Ended"
    private_to_others = [e for e in mine
                         if not e.audience.everyone and 0 not in e.audience.seats]
    assert private_to_others, "the game had events private to other seats"
    final = batches[0][-1]
    before_end = [e for e, run in zip(mine, batches[0], strict=True)
                  if e in private_to_others and run != final]
    assert before_end and all(e.redacted for e in before_end)
    assert any(e.payload_json != history[e.version - 1].payload_json for e in before_end), \
        "the full record holds what seat 0's stream did not"


def test_a_refused_move_leaves_the_stream_playing_and_a_retried_id_applies_once(
    shared_server: ServerProcess,
) -> None:
    """A move the rules refuse comes back with ``Act``'s reason (an illegal
    move: ``ILLEGAL_MOVE``/``NOT_YOUR_TURN``; a wrong expected version:
    ``VERSION_MISMATCH``) and the same stream then plays; the same command
    id sent again is applied once and answered ``replayed``."""
    game = created(shared_server, "enin", ["solo"])
    token = game.seat_tokens[0].token
    stream = RawPlay(shared_server, token, game_pb2.PlayJoin(game_id=game.game_id))
    try:
        _, turn = stream.until("turn")
        version = turn.value.state.version
        legal = turn.value.actions[0]
        stream.send(game_pb2.PlayMove(command=legal.command, command_id="m1",
                                      expected_version=version + 7))
        _, refused = stream.until("result")
        assert not refused.value.accepted
        assert (refused.value.reason, refused.value.code) == ("VERSION_MISMATCH", "ABORTED")
        assert refused.value.version == version
        _, asked_again = stream.until("turn")
        assert asked_again.value == turn.value, "the refused seat's turn, pushed again"
        stream.send(game_pb2.PlayMove(seat=3, command=legal.command, command_id="m1"))
        _, wrong = stream.until("result")
        assert wrong.value.reason == "WRONG_SEAT"
        stream.until("turn")
        stream.send(game_pb2.PlayMove(command=legal.command, command_id="m1",
                                      expected_version=version))
        _, accepted = stream.until("result")
        assert accepted.value.accepted and not accepted.value.replayed
        after = accepted.value.version
        assert after > version
        stream.send(game_pb2.PlayMove(command=legal.command, command_id="m1",
                                      expected_version=version))
        between, again = stream.until("result")
        assert again.value.accepted and again.value.replayed
        assert again.value.version == after, "applied once: nothing more recorded"
        # The next turn came before the replayed result, or comes after it
        # (the same move twice records nothing: one turn at that version).
        turns = [m for m in between if m.kind == "turn"]
        if turns:
            next_turn, events = turns[0], between
        else:
            rest, next_turn = stream.until("turn")
            events = between + rest
        events = [m for m in events if m.kind == "event"]
        assert [m.value.event.version for m in events] == list(range(version + 1, after + 1))
        assert next_turn.value.state.version == after
    finally:
        stream.close()
    # The same id over Act: the original result, nothing recorded.
    reply = shared_server.stub(token).Act(game_pb2.ActRequest(
        game_id=game.game_id, command=legal.command, command_id="m1"))
    assert reply.replayed and reply.version == after


def test_a_new_stream_resumes_after_the_last_version_without_a_gap(
    shared_server: ServerProcess,
) -> None:
    """Events resume by version, as ``Subscribe``'s do: a stream broken after
    version v and joined again with after_version=v gets v+1 first, and the
    whole record arrives once, in order."""
    game = created(shared_server, "ethnos", ["a", "b"])
    with ArbiterClient(shared_server.address) as client:
        client.add_tokens(game.game_id, {t.seat: t.token for t in game.seat_tokens})
        rng = random.Random(11)
        seen: list[int] = []
        cut = {"at": 25}

        def open_stream(after: int) -> Any:
            stream = client.play(game.game_id, [0, 1], after_version=after)
            return Breaking(stream, cut)

        def keep(message: game_pb2.PlayMessage) -> None:
            for pushed in message.events:
                if not seen or seen[-1] != pushed.event.version:
                    seen.append(pushed.event.version)

        played = play_seats(open_stream, lambda turn: random_move(turn, rng), on_message=keep,
                            max_moves=40)
    assert played.reconnections >= 1
    assert seen == list(range(1, len(seen) + 1)), "nothing missed, nothing twice"


class Breaking:
    """A stream that fails once, as a lost connection does, after ``cut["at"]`` events."""

    def __init__(self, stream: Any, cut: dict[str, int]) -> None:
        self.stream, self.cut = stream, cut

    @property
    def version(self) -> int:
        return int(self.stream.version)

    def move(self, *args: Any, **kwargs: Any) -> str:
        return str(self.stream.move(*args, **kwargs))

    def __iter__(self) -> Iterator[game_pb2.PlayMessage]:
        for message in self.stream:
            yield message
            if message.events and self.cut["at"] and \
                    message.events[-1].event.version >= self.cut["at"]:
                self.cut["at"] = 0
                raise Unavailable()

    def close(self) -> None:
        self.stream.close()


class Unavailable(grpc.RpcError):
    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE


def test_a_stream_refuses_a_seat_its_token_does_not_hold(shared_server: ServerProcess) -> None:
    """One authentication per stream: a seat token plays its own seat only
    (``WRONG_SEAT``), and a stream with no token is refused (``NO_TOKEN``)."""
    game = created(shared_server, "ethnos", ["a", "b"])
    token = game.seat_tokens[0].token
    for join, sent, reason in (
        (game_pb2.PlayJoin(game_id=game.game_id, seats=[1]), token, "WRONG_SEAT"),
        (game_pb2.PlayJoin(game_id=game.game_id, seats=[0]), "", "NO_TOKEN"),
    ):
        stream = RawPlay(shared_server, sent, join)
        with pytest.raises(grpc.RpcError) as refused:
            list(stream.messages)
        assert dict(refused.value.trailing_metadata())["arbiter-reason"] == reason
        stream.close()


def test_legal_of_a_turn_is_what_legal_actions_says(shared_server: ServerProcess) -> None:
    """A turn's moves are the seat's ``LegalActions`` at that version, and its
    view the seat's ``GetState``; its screen only when the stream asked for
    screens (a bot draws none, and the server draws none for it)."""
    game = created(shared_server, "ethnos", ["a", "b"])
    token = {t.seat: t.token for t in game.seat_tokens}
    seat = game.state.pending[0].seat
    turns = []
    for screens in (False, True):
        stream = RawPlay(shared_server, token[seat],
                         game_pb2.PlayJoin(game_id=game.game_id, screens=screens))
        try:
            turns.append(stream.until("turn")[1].value)
        finally:
            stream.close()
    bare, drawn = turns
    legal = shared_server.stub(token[seat]).LegalActions(
        game_pb2.LegalActionsRequest(game_id=game.game_id))
    assert legal_of(bare) == legal_of(drawn) == legal
    assert Move(legal.actions[0].command).decision_id == ""
    state = shared_server.stub(token[seat]).GetState(
        game_pb2.GetStateRequest(game_id=game.game_id))
    assert drawn.state == state
    assert bare.state.screen_json == "" and bare.state.view_json == state.view_json
