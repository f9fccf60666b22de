"""The client library's pure parts: error parsing and request building."""

from __future__ import annotations

import uuid

import grpc
import pytest
from arbiter.v1 import enin_pb2, game_pb2

from clients.client import ArbiterError, build_act_request, default_address
from clients.wire import WireError


def test_error_from_trailers_and_details() -> None:
    error = ArbiterError.from_parts(
        grpc.StatusCode.FAILED_PRECONDITION,
        "ILLEGAL_MOVE: you cannot travel to the Lost Wastes from here",
        (("arbiter-reason", "ILLEGAL_MOVE"), ("arbiter-version", "7")),
    )
    assert error.code == grpc.StatusCode.FAILED_PRECONDITION
    assert error.reason == "ILLEGAL_MOVE"
    assert error.message == "you cannot travel to the Lost Wastes from here"
    assert error.version == 7
    assert str(error) == "ILLEGAL_MOVE: you cannot travel to the Lost Wastes from here"


def test_error_reason_from_details_when_no_trailer() -> None:
    error = ArbiterError.from_parts(grpc.StatusCode.NOT_FOUND, "UNKNOWN_GAME: no game 'x'", ())
    assert (error.reason, error.message, error.version) == ("UNKNOWN_GAME", "no game 'x'", 0)


def test_error_without_arbiter_metadata_falls_back_to_code_name() -> None:
    error = ArbiterError.from_parts(
        grpc.StatusCode.UNAVAILABLE, "failed to connect to all addresses: refused", None
    )
    assert error.reason == "UNAVAILABLE"
    assert error.message == "failed to connect to all addresses: refused"


def test_error_keeps_sentence_with_colon_that_is_not_a_reason() -> None:
    error = ArbiterError.from_parts(grpc.StatusCode.INTERNAL, "Oops: something", ())
    assert error.reason == "INTERNAL"
    assert error.message == "Oops: something"


def test_error_bytes_metadata_and_bad_version() -> None:
    error = ArbiterError.from_parts(
        grpc.StatusCode.ABORTED, "stale",
        (("arbiter-reason", b"VERSION_MISMATCH"), ("arbiter-version", "x")),
    )
    assert (error.reason, error.message, error.version) == ("VERSION_MISMATCH", "stale", 0)


def test_act_request_from_json_command_gets_fresh_ids() -> None:
    command = {"name": "travel", "args": {"to": 2}}
    first = build_act_request("enin", "g1", 0, command, expected_version=4)
    second = build_act_request("enin", "g1", 0, command)
    assert first.command.enin.travel.to == 2
    assert first.expected_version == 4
    assert uuid.UUID(first.command_id) and first.command_id != second.command_id


def test_act_request_keeps_given_id_and_typed_command() -> None:
    typed = game_pb2.Command()
    typed.enin.attack.SetInParent()
    request = build_act_request("", "g1", 0, typed, command_id="abc")
    assert request.command_id == "abc"
    assert request.command.enin.WhichOneof("command") == "attack"


def test_act_request_enum_argument() -> None:
    request = build_act_request("enin", "g", 0, {"name": "buy", "args": {"item": "map_of_enin"}})
    assert request.command.enin.buy.item == enin_pb2.MAP_OF_ENIN


def test_act_request_rejects_unknown_command() -> None:
    with pytest.raises(WireError):
        build_act_request("enin", "g", 0, {"name": "teleport", "args": {}})


def test_default_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARBITER_ADDRESS", raising=False)
    assert default_address() == "localhost:50051"
    monkeypatch.setenv("ARBITER_ADDRESS", "example:1234")
    assert default_address() == "example:1234"
