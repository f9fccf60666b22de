"""The client library's replay helper and its feed states by name.

``replay`` steps through a recorded game as one reader saw it, against the real
servicer in this process (``real_server``): each step's event is the one
``history`` gives that reader, and its state is the server's own state at that
version, in both clients (``perform``). ``feed_state`` names every ``FeedState``
the wire contract defines.
"""

from __future__ import annotations

import random

import pytest
from arbiter.client import ArbiterClient, FeedState, ReplayStep, feed_state
from arbiter.v1 import game_pb2

from tests.unit.clients.conftest import RealServer
from tests.unit.clients.support import Perform, client_call

pytestmark = pytest.mark.integration


def played_game(address: str, moves: int) -> tuple[str, dict[int, str]]:
    """An Ethnos game for three with ``moves`` random legal moves (seeded); its id and tokens."""
    rng = random.Random(7)
    with ArbiterClient(address) as client:
        created = client.create_game("ethnos", ["Ada", "Bo", "Cy"])
        game_id = created.game_id
        for _ in range(moves):
            state = client.state(game_id, spectator=True)
            seat = min(decision.seat for decision in state.pending)
            legal = client.legal(game_id, seat)
            client.act(game_id, seat, rng.choice(legal.actions).command,
                       expected_version=legal.version, with_state=False)
        return game_id, {t.seat: t.token for t in created.seat_tokens}


def test_replay_gives_each_version_as_the_reader_saw_it(
        real_server: RealServer, perform: Perform) -> None:
    game_id, tokens = played_game(real_server.address, 6)
    with ArbiterClient(real_server.address) as reader:
        history = list(reader.history(game_id, 1, token=tokens[1]))
        states = {ev.version: reader.state(game_id, 1, token=tokens[1], version=ev.version)
                  for ev in history}
    (steps,) = perform(real_server.address, [client_call(
        "replay", game_id, 1, token=tokens[1])])
    assert [s.event for s in steps] == history
    assert all(isinstance(s, ReplayStep) and s.state == states[s.version] for s in steps)
    assert [s.version for s in steps] == list(range(1, len(history) + 1))


def test_replay_takes_a_range_of_versions(real_server: RealServer, perform: Perform) -> None:
    game_id, tokens = played_game(real_server.address, 4)
    (steps,) = perform(real_server.address, [client_call(
        "replay", game_id, 0, start=3, stop=5, token=tokens[0])])
    assert [s.version for s in steps] == [3, 4, 5]
    assert [s.state.version for s in steps] == [3, 4, 5]


def test_feed_state_names_every_state_of_the_wire_contract() -> None:
    """FeedState (the wire contract's enum): every value has its name, and a
    value this client does not know reads as UNSPECIFIED rather than failing."""
    wire = game_pb2.FeedState.items()
    assert {name.removeprefix("FEED_STATE_"): value for name, value in wire} == {
        state.name: state.value for state in FeedState}
    live = game_pb2.FeedMessage(status="live", state=game_pb2.FEED_STATE_LIVE)
    assert feed_state(live) is FeedState.LIVE and feed_state(live) == game_pb2.FEED_STATE_LIVE
    event = game_pb2.FeedMessage(event=game_pb2.Event(version=1))
    assert feed_state(event) is FeedState.UNSPECIFIED
    future = game_pb2.FeedMessage(status="new", state=99)  # type: ignore[arg-type]
    assert feed_state(future) is FeedState.UNSPECIFIED
