"""The client library's pure parts: error parsing and request building."""

from __future__ import annotations

import json
import uuid

import grpc
import pytest
from arbiter.client import (
    ArbiterError,
    build_act_request,
    choices_of,
    default_address,
    message_to_dict,
    screen_of,
)
from arbiter.v1 import enin_pb2, game_pb2
from arbiter.wire import WireError


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
    assert request.command.enin.buy.item == enin_pb2.ENIN_MARKET_ITEM_MAP_OF_ENIN


def test_act_request_rejects_unknown_command() -> None:
    with pytest.raises(WireError):
        build_act_request("enin", "g", 0, {"name": "teleport", "args": {}})


def test_default_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARBITER_ADDRESS", raising=False)
    assert default_address() == "localhost:50051"
    monkeypatch.setenv("ARBITER_ADDRESS", "example:1234")
    assert default_address() == "example:1234"


def test_act_request_names_the_decision_it_answers() -> None:
    command = {"name": "travel", "args": {"to": 2}}
    assert build_act_request("enin", "g", 0, command, decision_id="0.turn.3").decision_id \
        == "0.turn.3"
    assert build_act_request("enin", "g", 0, command).decision_id == ""


def test_replies_as_data_are_complete_and_typed() -> None:
    """Issue 12: seat 0 is there, versions are numbers, JSON text is decoded."""
    state = game_pb2.GameState(
        game_id="g", version=12, view_json='{"hp": 7}', screen_json='{"sections": []}',
        pending=[game_pb2.Decision(seat=0, id="d", choices_json='[{"kind": "pick_one"}]')],
    )
    data = message_to_dict(state)
    assert data["version"] == 12 and isinstance(data["version"], int)
    assert data["over"] is False and data["seats"] == [] and data["seed"] == ""
    assert data["view"] == {"hp": 7} and data["screen"] == {"sections": []}
    assert data["outcome"] is None and "view_json" not in data
    decision = data["pending"][0]
    assert decision["seat"] == 0 and decision["hidden"] is False
    assert decision["choices"] == [{"kind": "pick_one"}] and decision["deadline_seconds"] == 0
    legal = game_pb2.LegalActionsResponse(
        version=3, complete=False,
        actions=[game_pb2.LegalAction(json='{"name": "attack", "args": {}}', label="Attack")])
    as_data = message_to_dict(legal)
    assert as_data["version"] == 3 and as_data["complete"] is False
    assert as_data["actions"][0]["json"] == {"name": "attack", "args": {}}
    assert as_data["actions"][0]["label"] == "Attack" and as_data["decisions"] == []
    event = game_pb2.Event(version=2, position=99, payload_json='{"to": 1}', text="You go.")
    assert message_to_dict(event)["position"] == 99
    assert message_to_dict(event)["payload"] == {"to": 1}
    json.dumps(data)  # plain data all the way down


def test_screens_and_choices_decoded() -> None:
    state = game_pb2.GameState(screen_json='{"sections": [{"title": "You", "items": []}]}')
    assert screen_of(state)["sections"][0]["title"] == "You"
    assert screen_of(game_pb2.GameState()) == {}
    decision = game_pb2.Decision(choices_json='[{"kind": "number", "low": 1, "high": 3}, 5]')
    assert choices_of(decision) == [{"kind": "number", "low": 1, "high": 3}]
    assert choices_of(game_pb2.Decision(choices_json="oops")) == []


def test_act_request_leaves_with_state_out_unless_asked() -> None:
    """``ActRequest.with_state``: absent means "with the state", as for every
    older client; the library sends it only when its caller says."""
    command = {"name": "travel", "args": {"to": 2}}
    assert not build_act_request("enin", "g", 0, command).HasField("with_state")
    without = build_act_request("enin", "g", 0, command, with_state=False)
    assert without.HasField("with_state") and without.with_state is False
    assert build_act_request("enin", "g", 0, command, with_state=True).with_state is True
