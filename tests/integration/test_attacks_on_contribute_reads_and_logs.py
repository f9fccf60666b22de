"""Attacks on Contribute, the public reads, metrics and logs, page tokens,
the seat a token names and audits, against real server processes.

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


def test_a_caller_s_game_id_neither_forges_nor_floods_the_access_log(
    tmp_path: Path, redis_url: str,
) -> None:
    """The access log repeated the request's ``game_id`` as sent: a newline
    in it wrote a line of the caller's choosing into the plain log, and 60 KB
    of it went into every line (both refused BAD_GAME_ID, logged anyway)."""
    server = ServerProcess(tmp_path / "data", redis_url, {"ARBITER_LOG_FORMAT": "plain"})
    server.start()
    try:
        anon = server.stub("")
        forged = "x\n2026-01-01 00:00:00,000 INFO arbiter.access Act OK [game=forged seat=0]"
        for game_id in (forged, "y" * 60_000):
            _, reason = refused(
                lambda g=game_id: anon.GetState(game_pb2.GetStateRequest(game_id=g)))
            assert reason == "BAD_GAME_ID"
    finally:
        server.stop()
    lines = server.log_path.read_text(encoding="utf-8").splitlines()
    assert not [line for line in lines if line.startswith("2026-01-01")], "a forged line"
    assert max(len(line) for line in lines) < 2000
    assert sum("BAD_GAME_ID" in line for line in lines) == 2


def test_the_past_of_a_running_game_is_rebuilt_only_for_a_caller_who_may_read_it(
    shared_server: ServerProcess,
) -> None:
    """``GetState`` with a version rebuilt the past (a snapshot check and up
    to a snapshot interval of events replayed) before asking who called: an
    anonymous caller, or a seat asking for another seat's view, had the work
    done, then a BAD_VERSION naming the game's length (not even a refusal
    for want of a credential). The credential is checked first now."""
    anon = shared_server.stub("")
    created = anon.CreateGame(game_pb2.CreateGameRequest(rules="ethnos", seats=["a", "b", "c"]))
    game_id = created.game_id
    seat1 = shared_server.stub(created.seat_tokens[1].token)
    for version in (1, 2, 10**6):
        assert refused(lambda v=version: anon.GetState(game_pb2.GetStateRequest(
            game_id=game_id, version=v)))[1] == "NO_TOKEN", version
        assert refused(lambda v=version: seat1.GetState(game_pb2.GetStateRequest(
            game_id=game_id, version=v, seat=0)))[1] == "WRONG_SEAT", version
    # with a credential that may read it, the past is served, a bad version refused
    past = seat1.GetState(game_pb2.GetStateRequest(game_id=game_id, version=1))
    assert past.version == 1 and not past.seed
    assert refused(lambda: seat1.GetState(game_pb2.GetStateRequest(
        game_id=game_id, version=10**6)))[1] == "BAD_VERSION"


def test_the_admin_token_cannot_contribute_a_seat_s_entropy(
    shared_server: ServerProcess,
) -> None:
    """An absent ``seat`` is the seat the token names; the admin token names
    none, and Contribute took it as seat 0, recording the operator's bytes as
    seat 0's one contribution: seat 0 could never add its own entropy. And an
    admin naming a seat contributed for it, recorded as the seat's own, by
    whoever can read the store and so the seed. A seat's entropy is now its
    own token's only (PERMISSION_DENIED/SEAT_TOKEN_ONLY), seat named or not."""
    created = shared_server.stub("").CreateGame(
        game_pb2.CreateGameRequest(rules="ethnos", seats=["a", "b", "c"]))
    game_id = created.game_id
    admin = shared_server.stub()
    for request in (game_pb2.ContributeRequest(game_id=game_id, entropy=b"operator"),
                    game_pb2.ContributeRequest(game_id=game_id, seat=2, entropy=b"for 2")):
        code, reason = refused(lambda r=request: admin.Contribute(r))
        assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "SEAT_TOKEN_ONLY")
    for seat in (0, 2):
        own = shared_server.stub(created.seat_tokens[seat].token)
        assert own.Contribute(game_pb2.ContributeRequest(game_id=game_id, entropy=b"mine"))\
            .recorded
    spectator = shared_server.stub(created.spectator_token)
    assert refused(lambda: spectator.Contribute(game_pb2.ContributeRequest(
        game_id=game_id, entropy=b"x")))[1] == "SPECTATOR_ONLY"
    assert refused(lambda: shared_server.stub("").Contribute(game_pb2.ContributeRequest(
        game_id=game_id, entropy=b"x")))[1] == "NO_TOKEN"


def test_an_oversized_rules_id_is_a_bad_argument_not_an_overflowing_echo(
    shared_server: ServerProcess,
) -> None:
    """``ListGames`` and ``CreateGame`` echoed an unknown ``rules`` in the
    UNKNOWN_RULES sentence at any length: a few KB of it overflowed the
    response's metadata, and the caller got RESOURCE_EXHAUSTED ("Stream
    removed") with no reason instead of a clean refusal."""
    anon = shared_server.stub("")
    for rules in ("x" * 5000, "bad\nrules"):
        for call in (
            lambda r=rules: anon.ListGames(game_pb2.ListGamesRequest(rules=r)),
            lambda r=rules: anon.CreateGame(game_pb2.CreateGameRequest(rules=r)),
        ):
            assert refused(call) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_ARGUMENT")
    # a short unknown id is still named in NOT_FOUND
    assert refused(lambda: anon.ListGames(game_pb2.ListGamesRequest(rules="chess"))) == (
        grpc.StatusCode.NOT_FOUND, "UNKNOWN_RULES")
