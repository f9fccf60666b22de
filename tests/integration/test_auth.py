"""Seats and credentials (issue 4): only a seat's token acts or reads privately for it.

Checked over a real server process: no token, a forged token, another game's
token, a spectator token and another seat's token are each refused with the
right status and reason, and change nothing; tokens are stored only as hashes.
"""

from __future__ import annotations

import hashlib
import random

import grpc
import pytest
from arbiter.v1 import enin_pb2, game_pb2

from tests.integration.conftest import ServerProcess
from tests.integration.helpers import play

# One worker runs this module's tests, so its module-scoped server starts once.
pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("auth")]

ROLL = game_pb2.Command(enin=enin_pb2.EninCommand(roll_start=enin_pb2.EninCommand.RollStart()))


def refusal(call: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()  # type: ignore[operator]
    return info.value.code(), dict(info.value.trailing_metadata() or ())["arbiter-reason"]


@pytest.fixture
def created(shared_server: ServerProcess) -> game_pb2.CreateGameResponse:
    return shared_server.stub("").CreateGame(game_pb2.CreateGameRequest(rules="enin"))


def test_create_issues_one_token_per_seat_and_a_spectator_token(
    created: game_pb2.CreateGameResponse,
) -> None:
    assert [t.seat for t in created.seat_tokens] == [0]
    tokens = [t.token for t in created.seat_tokens] + [created.spectator_token]
    assert len(set(tokens)) == len(tokens) and all(len(t) > 30 for t in tokens)


def test_the_seat_token_acts_for_its_seat(
    shared_server: ServerProcess, created: game_pb2.CreateGameResponse
) -> None:
    player = shared_server.stub(created.seat_tokens[0].token)
    reply = player.Act(game_pb2.ActRequest(game_id=created.game_id, seat=0, command=ROLL))
    assert reply.version > 1


@pytest.mark.parametrize(
    ("credential", "status", "reason"),
    [
        ("none", grpc.StatusCode.UNAUTHENTICATED, "NO_TOKEN"),
        ("forged", grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN"),
        ("other_game", grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN"),
        ("spectator", grpc.StatusCode.PERMISSION_DENIED, "SPECTATOR_ONLY"),
    ],
)
def test_acting_without_the_seat_token_is_refused(
    shared_server: ServerProcess,
    created: game_pb2.CreateGameResponse,
    credential: str,
    status: grpc.StatusCode,
    reason: str,
) -> None:
    other = shared_server.stub("").CreateGame(game_pb2.CreateGameRequest(rules="enin"))
    token = {
        "none": "",
        "forged": "arb_" + "A" * 43,
        "other_game": other.seat_tokens[0].token,
        "spectator": created.spectator_token,
    }[credential]
    stub = shared_server.stub(token)
    request = game_pb2.ActRequest(game_id=created.game_id, seat=0, command=ROLL)
    assert refusal(lambda: stub.Act(request)) == (status, reason)
    assert refusal(lambda: stub.LegalActions(
        game_pb2.LegalActionsRequest(game_id=created.game_id, seat=0))) == (status, reason)
    admin = shared_server.stub()
    assert admin.GetState(game_pb2.GetStateRequest(game_id=created.game_id)).version == 1


def test_a_token_for_another_seat_is_refused(
    shared_server: ServerProcess, created: game_pb2.CreateGameResponse
) -> None:
    stub = shared_server.stub(created.seat_tokens[0].token)
    request = game_pb2.ActRequest(game_id=created.game_id, seat=1, command=ROLL)
    assert refusal(lambda: stub.Act(request)) == (
        grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT")


def test_spectators_see_the_public_view_only(
    shared_server: ServerProcess, created: game_pb2.CreateGameResponse
) -> None:
    watcher = shared_server.stub(created.spectator_token)
    state = watcher.GetState(game_pb2.GetStateRequest(game_id=created.game_id, spectator=True))
    assert state.version == 1 and not state.seed
    assert refusal(lambda: watcher.GetState(
        game_pb2.GetStateRequest(game_id=created.game_id, seat=0))) == (
        grpc.StatusCode.PERMISSION_DENIED, "SPECTATOR_ONLY")
    events = list(watcher.History(
        game_pb2.HistoryRequest(game_id=created.game_id, spectator=True)))
    assert events[0].redacted and "seed" not in events[0].payload_json


def test_all_games_feed_is_for_the_admin(
    shared_server: ServerProcess, created: game_pb2.CreateGameResponse
) -> None:
    for token, expected in [
        ("", (grpc.StatusCode.UNAUTHENTICATED, "NO_TOKEN")),
        (created.seat_tokens[0].token, (grpc.StatusCode.PERMISSION_DENIED, "ADMIN_ONLY")),
    ]:
        stub = shared_server.stub(token)
        assert refusal(lambda s=stub: next(iter(s.Subscribe(game_pb2.SubscribeRequest())))) == (
            expected)
    feed = shared_server.stub().Subscribe(game_pb2.SubscribeRequest())
    first = next(iter(feed))
    feed.cancel()
    assert first.status or first.event.version


def test_audit_needs_a_token_until_the_game_is_over(
    shared_server: ServerProcess, created: game_pb2.CreateGameResponse
) -> None:
    anyone = shared_server.stub("")
    request = game_pb2.AuditRequest(game_id=created.game_id)
    assert refusal(lambda: anyone.Audit(request)) == (
        grpc.StatusCode.UNAUTHENTICATED, "NO_TOKEN")
    player = shared_server.stub(created.seat_tokens[0].token)
    assert play(player, created.game_id, 3000, random.Random(5)).over
    report = anyone.Audit(request)
    assert report.chain_ok and report.dice_ok and report.replay_ok and report.seed


def test_tokens_are_stored_only_as_hashes(
    shared_server: ServerProcess, created: game_pb2.CreateGameResponse
) -> None:
    stored = b"".join(p.read_bytes() for p in shared_server.data_dir.glob("arbiter.sqlite*"))
    for token in [t.token for t in created.seat_tokens] + [created.spectator_token]:
        assert token.encode() not in stored
        assert hashlib.sha256(token.encode()).hexdigest().encode() in stored


def test_a_retried_create_returns_the_same_game_and_tokens(shared_server: ServerProcess) -> None:
    stub = shared_server.stub("")
    request = game_pb2.CreateGameRequest(rules="enin", request_id="once-only")
    first, second = stub.CreateGame(request), stub.CreateGame(request)
    assert first.game_id == second.game_id
    assert list(first.seat_tokens) == list(second.seat_tokens)
    assert first.spectator_token == second.spectator_token


def test_in_a_multi_seat_game_no_seat_acts_or_reads_for_another(
    shared_server: ServerProcess,
) -> None:
    created = shared_server.stub("").CreateGame(
        game_pb2.CreateGameRequest(rules="ethnos", seats=["ann", "bob", "cy"]))
    state = shared_server.stub().GetState(
        game_pb2.GetStateRequest(game_id=created.game_id, spectator=True))
    turn = state.pending[0].seat
    other = (turn + 1) % 3
    mover = shared_server.stub(created.seat_tokens[turn].token)
    legal = mover.LegalActions(game_pb2.LegalActionsRequest(game_id=created.game_id, seat=turn))
    intruder = shared_server.stub(created.seat_tokens[other].token)
    request = game_pb2.ActRequest(game_id=created.game_id, seat=turn,
                                  command=legal.actions[0].command)
    assert refusal(lambda: intruder.Act(request)) == (
        grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT")
    for call in (
        lambda: intruder.GetState(game_pb2.GetStateRequest(game_id=created.game_id, seat=turn)),
        lambda: intruder.LegalActions(
            game_pb2.LegalActionsRequest(game_id=created.game_id, seat=turn)),
        lambda: list(intruder.History(
            game_pb2.HistoryRequest(game_id=created.game_id, seat=turn))),
    ):
        assert refusal(call) == (grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT")
    out_of_turn = game_pb2.ActRequest(game_id=created.game_id, seat=other,
                                      command=legal.actions[0].command)
    assert refusal(lambda: intruder.Act(out_of_turn)) == (
        grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN")
    assert mover.Act(request).version > state.version


def test_command_ids_belong_to_their_seat(shared_server: ServerProcess) -> None:
    """Exactly-once is per seat: reusing another seat's command id replays nothing of it."""
    created = shared_server.stub("").CreateGame(
        game_pb2.CreateGameRequest(rules="ethnos", seats=["ann", "bob"]))
    stubs = [shared_server.stub(t.token) for t in created.seat_tokens]
    movers = []
    for _ in range(2):
        state = stubs[0].GetState(game_pb2.GetStateRequest(game_id=created.game_id, seat=0))
        seat = state.pending[0].seat
        legal = stubs[seat].LegalActions(
            game_pb2.LegalActionsRequest(game_id=created.game_id, seat=seat))
        reply = stubs[seat].Act(game_pb2.ActRequest(
            game_id=created.game_id, seat=seat, command=legal.actions[0].command,
            command_id="same-id"))
        assert not reply.replayed, f"seat {seat} got another seat's result"
        movers.append(seat)
    assert movers[0] != movers[1], "a recruit passes the turn, so both seats used the id"
