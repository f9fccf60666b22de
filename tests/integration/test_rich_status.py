"""Refusals carry google.rpc.Status with ErrorInfo, beside the trailers (issue 12)."""

from __future__ import annotations

import random

import grpc
import pytest
from arbiter.client import ArbiterClient, ArbiterError
from arbiter.v1 import game_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from tests.integration.conftest import ServerProcess
from tests.integration.helpers import new_game, play


def _refused(call: object) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call()  # type: ignore[operator]
    return info.value


def _error_info(error: grpc.RpcError) -> error_details_pb2.ErrorInfo:
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None and status.code == error.code().value[0]
    assert status.message == error.details()
    (detail,) = status.details
    info = error_details_pb2.ErrorInfo()
    assert detail.Unpack(info)
    return info


def test_a_rule_refusal_has_error_info_and_the_trailers(shared_server: ServerProcess) -> None:
    stub = shared_server.stub()
    game_id = new_game(stub)
    error = _refused(lambda: stub.Act(game_pb2.ActRequest(
        game_id=game_id, command=game_pb2.Command(), expected_version=1)))
    info = _error_info(error)
    assert (info.reason, info.domain) == ("BAD_COMMAND", "arbiter")
    trailers = dict(error.trailing_metadata())
    assert trailers["arbiter-reason"] == "BAD_COMMAND"
    assert info.metadata["version"] == trailers["arbiter-version"]


def test_authentication_refusals_carry_the_real_version(shared_server: ServerProcess) -> None:
    stub = shared_server.stub()
    game_id = new_game(stub)
    state = play(stub, game_id, 3, random.Random(5))
    assert state.version > 1
    for token, expected in (("", "NO_TOKEN"), ("not-a-token-of-this-game", "BAD_TOKEN")):
        stranger = shared_server.stub(token)
        for call in (
            lambda s=stranger: s.GetState(game_pb2.GetStateRequest(game_id=game_id)),
            lambda s=stranger: list(s.History(game_pb2.HistoryRequest(game_id=game_id))),
        ):
            error = _refused(call)
            assert error.code() == grpc.StatusCode.UNAUTHENTICATED
            trailers = dict(error.trailing_metadata())
            assert trailers["arbiter-reason"] == expected
            assert trailers["arbiter-version"] == str(state.version)
            assert _error_info(error).metadata["version"] == str(state.version)


def test_no_game_known_means_version_zero(shared_server: ServerProcess) -> None:
    stub = shared_server.stub()
    error = _refused(lambda: stub.GetState(game_pb2.GetStateRequest(
        game_id="00000000-0000-4000-8000-000000000000")))
    info = _error_info(error)
    assert (info.reason, info.metadata["version"]) == ("UNKNOWN_GAME", "0")


def test_the_client_library_reads_the_rich_status(shared_server: ServerProcess) -> None:
    with ArbiterClient(shared_server.address, token=shared_server.admin_token) as client:
        game_id = client.create_game("enin", ["solo"]).game_id
        with pytest.raises(ArbiterError) as info:
            client.act(game_id, 0, {"name": "roll_start", "args": {}}, expected_version=9)
    assert info.value.reason == "VERSION_MISMATCH" and info.value.version == 1
    assert info.value.code == grpc.StatusCode.ABORTED
