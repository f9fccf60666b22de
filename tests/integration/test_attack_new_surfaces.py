"""Attacks on the newer surfaces (Contribute, public reads, metrics and logs,
page tokens, the seat a token names, audits), against real server processes.

Each test is one finding: it failed before its fix.
"""

from __future__ import annotations

import base64
from pathlib import Path

import grpc
import pytest
from arbiter.v1 import game_pb2

from tests.integration.conftest import ServerProcess

pytestmark = pytest.mark.integration


def refused(call: object) -> tuple[grpc.StatusCode, str]:
    """The status code and reason of a call that must fail."""
    with pytest.raises(grpc.RpcError) as caught:
        call()  # type: ignore[operator]
    trailers = dict(caught.value.trailing_metadata() or ())
    return caught.value.code(), str(trailers.get("arbiter-reason", ""))


def forged_token(text: bytes) -> str:
    return base64.urlsafe_b64encode(text).decode("ascii").rstrip("=")


def test_a_page_token_whose_position_is_a_boolean_is_a_bad_page_token(
    shared_server: ServerProcess,
) -> None:
    """JSON ``true`` is an int to Python but not to protobuf: it passed the
    token's check and failed building the response, as INTERNAL."""
    anon = shared_server.stub("")
    admin = shared_server.stub()
    anon.CreateGame(game_pb2.CreateGameRequest(rules="enin", seats=["a"]))
    for stub, kind in [(anon, "after"), (admin, "after"), (admin, "changed")]:
        for value in (b"true", b"false"):
            token = forged_token(b'{"k":"%s","p":%s,"r":""}' % (kind.encode(), value))
            code, reason = refused(
                lambda s=stub, t=token: s.ListGames(game_pb2.ListGamesRequest(page_token=t)))
            assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_PAGE_TOKEN"), (
                kind, value)
