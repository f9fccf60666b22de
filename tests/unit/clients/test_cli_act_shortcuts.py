"""`arbiter act` shortcuts: JSON, a command name, a `legal` number (issue 12)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import grpc
import pytest
from arbiter.v1 import game_pb2
from arbiter.wire import WireError, json_to_command

from clients.cli_extras import resolve_command, unreachable


def _legal(*commands: dict[str, Any]) -> Any:
    actions = [game_pb2.LegalAction(command=json_to_command("enin", c), json=json.dumps(c))
               for c in commands]
    return lambda: SimpleNamespace(actions=actions)


TRAVEL_2 = {"name": "travel", "args": {"to": 2}}
TRAVEL_3 = {"name": "travel", "args": {"to": 3}}
QUEST = {"name": "quest", "args": {}}


def test_json_is_taken_as_it_is_without_asking() -> None:
    def never() -> Any:
        raise AssertionError("legal was asked")
    assert resolve_command(json.dumps(TRAVEL_2), never) == TRAVEL_2


def test_a_number_is_that_legal_entry() -> None:
    command = resolve_command("2", _legal(TRAVEL_2, QUEST))
    assert command == json_to_command("enin", QUEST)
    with pytest.raises(WireError, match="no legal entry 3"):
        resolve_command("3", _legal(TRAVEL_2, QUEST))
    with pytest.raises(WireError, match="no legal entry 0"):
        resolve_command("0", _legal(TRAVEL_2))


def test_a_name_is_its_only_legal_form_or_asks_which() -> None:
    assert resolve_command("quest", _legal(TRAVEL_2, QUEST)) == json_to_command("enin", QUEST)
    assert resolve_command("travel", _legal(TRAVEL_2, QUEST)) == json_to_command(
        "enin", TRAVEL_2)
    with pytest.raises(WireError, match=r"travel has 2 legal forms now.*\(1, 2\)"):
        resolve_command("travel", _legal(TRAVEL_2, TRAVEL_3, QUEST))
    # not listed (an incomplete list, or illegal now): the server judges it
    assert resolve_command("attack", _legal(QUEST)) == {"name": "attack", "args": {}}


def test_no_server_is_told_apart_from_a_server_refusing() -> None:
    assert unreachable(grpc.StatusCode.UNAVAILABLE, "UNAVAILABLE")
    assert not unreachable(grpc.StatusCode.UNAVAILABLE, "SHUTTING_DOWN")
    assert not unreachable(grpc.StatusCode.NOT_FOUND, "UNKNOWN_GAME")
