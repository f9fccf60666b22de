"""Issue 8, item 5: input the store or the decoder cannot take is refused
cleanly, over a real server process on SQLite: ``INVALID_ARGUMENT`` with a
reason code, and no traceback in the server's log.

Before: ``after`` values of 2^63 or more reached SQLite (``OverflowError``,
``INTERNAL``, a traceback per call), and malformed protobuf bytes left as
``INTERNAL`` (``Exception deserializing request!``) with a traceback.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import grpc
import pytest
from arbiter.v1 import game_pb2

from tests.integration.conftest import ServerProcess
from tests.integration.helpers import new_game

pytestmark = pytest.mark.integration

TOO_BIG = [2**63 - 1, 2**63, 2**64 - 1]


def refusal(call: Callable[[], Any]) -> tuple[grpc.StatusCode, str]:
    """The status and arbiter-reason of a call that must be refused."""
    with pytest.raises(grpc.RpcError) as caught:
        result = call()
        if not hasattr(result, "SerializeToString"):
            list(result)  # a stream: the refusal comes with its first message
    error: Any = caught.value
    reasons = [v for k, v in (error.trailing_metadata() or ()) if k == "arbiter-reason"]
    return error.code(), reasons[0] if reasons else ""


def assert_clean_log(server: ServerProcess) -> None:
    text = server.log_path.read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]
    assert "Exception deserializing" not in text, text[-3000:]


def test_oversized_after_values_are_refused_with_a_reason(arbiter_server: ServerProcess) -> None:
    stub = arbiter_server.stub()
    game_id = new_game(stub)
    calls: list[Callable[[], Any]] = []
    for after in TOO_BIG:
        calls += [
            lambda a=after: stub.History(game_pb2.HistoryRequest(game_id=game_id, after_version=a)),
            lambda a=after: stub.Subscribe(game_pb2.SubscribeRequest(game_id=game_id, after=a)),
            lambda a=after: stub.Subscribe(game_pb2.SubscribeRequest(after=a)),
            lambda a=after: stub.ListGames(game_pb2.ListGamesRequest(after=a)),
            lambda a=after: stub.ListGames(game_pb2.ListGamesRequest(rules="enin", after=a)),
            lambda a=after: stub.ListGames(game_pb2.ListGamesRequest(changed_after=a)),
        ]
    for call in calls:
        assert refusal(call) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_ARGUMENT")
    # The largest accepted value still answers (nothing after it).
    fine = 2**63 - 2
    assert list(stub.History(game_pb2.HistoryRequest(game_id=game_id, after_version=fine))) == []
    assert not stub.ListGames(game_pb2.ListGamesRequest(after=fine)).games
    assert not stub.ListGames(game_pb2.ListGamesRequest(changed_after=fine)).games
    assert_clean_log(arbiter_server)


MALFORMED = [
    b"\xff\xff\xff",              # a field number of 0 / a truncated varint
    b"\x0a\x10abc",               # a string field longer than the message
    b"\x0a\x02\xc3\x28",          # a string field that is not UTF-8
    b"\x0b",                      # a group start that never ends
]


def test_malformed_protobuf_bytes_are_invalid_argument(arbiter_server: ServerProcess) -> None:
    with arbiter_server.channel() as channel:
        methods = [
            channel.unary_unary("/arbiter.v1.GameService/GetState"),
            channel.unary_unary("/arbiter.v1.GameService/CreateGame"),
            channel.unary_stream("/arbiter.v1.GameService/History"),
            channel.unary_stream("/arbiter.v1.GameService/Subscribe"),
            channel.unary_unary("/grpc.health.v1.Health/Check"),
            channel.unary_stream("/grpc.health.v1.Health/Watch"),
        ]
        for method, data in itertools.product(methods, MALFORMED):
            code, reason = refusal(lambda m=method, d=data: m(d, timeout=10))
            assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_MESSAGE"), (
                method, data)
        # The server still serves well-formed calls.
        ok = channel.unary_unary("/arbiter.v1.GameService/ListRules")
        assert ok(game_pb2.ListRulesRequest().SerializeToString(), timeout=10)
    assert_clean_log(arbiter_server)
