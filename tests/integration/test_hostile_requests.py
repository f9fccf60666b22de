"""Hostile requests checked over a real server process: feeds that would starve
every other call, options nested to crash the decoder, the catalogue's id read as a game."""

from __future__ import annotations

import uuid
from pathlib import Path

import grpc
import pytest
from arbiter.v1 import game_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.integration.conftest import ServerProcess
from tests.integration.helpers import FeedCollector

# One worker runs this module's tests, so its module-scoped server starts once.
pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("hostile_requests")]

GAMES_LOG_ID = uuid.uuid5(uuid.NAMESPACE_URL, "arbiter:games")


def reason(error: grpc.RpcError) -> str:
    return dict(error.trailing_metadata() or ()).get("arbiter-reason", "")


def test_open_feeds_cannot_starve_every_other_call(tmp_path: Path, redis_url: str) -> None:
    """Anyone may create a game and so hold a spectator token; a feed holds a
    server thread while open. Opening more feeds than the server has threads
    used to wedge every call of every client (here: ListRules never answered).
    The server runs with a small pool (64 threads, 48 streams) to show it."""
    arbiter_server = ServerProcess(tmp_path / "data", redis_url,
                                   {"ARBITER_MAX_WORKERS": "64", "ARBITER_MAX_STREAMS": "48"})
    arbiter_server.start()
    anyone = arbiter_server.stub("")
    created = anyone.CreateGame(game_pb2.CreateGameRequest(rules="enin"))
    watcher = arbiter_server.stub(created.spectator_token)
    request = game_pb2.SubscribeRequest(game_id=created.game_id, spectator=True)
    feeds = [FeedCollector(watcher, request) for _ in range(70)]
    channel = arbiter_server.channel()
    watches = [
        health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest())
        for _ in range(10)
    ]
    try:
        for feed in feeds:
            assert feed.wait_for(lambda f: f.statuses or f.error is not None, timeout=30)
        answer = anyone.ListRules(game_pb2.ListRulesRequest(), timeout=5)
        assert answer.rules
        refused = [f.error for f in feeds if f.error is not None]
        assert refused, "more feeds than the cap were all accepted"
        assert {(e.code(), reason(e)) for e in refused} == {
            (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_STREAMS")}
        state = watcher.GetState(
            game_pb2.GetStateRequest(game_id=created.game_id, spectator=True), timeout=5)
        assert state.version == 1
    finally:
        for feed in feeds:
            feed.close()
        for watch in watches:
            watch.cancel()
        channel.close()
    # the slots come back when the feeds end
    again = FeedCollector(watcher, request)
    try:
        assert again.wait_for(lambda f: f.statuses or f.error is not None, timeout=15)
        assert again.error is None
    finally:
        again.close()
        arbiter_server.stop()


def test_deeply_nested_options_are_refused_as_bad_options(shared_server: ServerProcess) -> None:
    stub = shared_server.stub("")
    for text in ("[" * 2000 + "]" * 2000, '{"a":' + "{" * 1000):
        with pytest.raises(grpc.RpcError) as info:
            stub.CreateGame(game_pb2.CreateGameRequest(rules="enin", options_json=text))
        assert (info.value.code(), reason(info.value)) == (
            grpc.StatusCode.INVALID_ARGUMENT, "BAD_OPTIONS")


def test_the_catalogue_id_is_an_unknown_game(shared_server: ServerProcess) -> None:
    stub = shared_server.stub()
    with pytest.raises(grpc.RpcError) as info:
        stub.GetState(game_pb2.GetStateRequest(game_id=str(GAMES_LOG_ID), spectator=True))
    assert (info.value.code(), reason(info.value)) == (
        grpc.StatusCode.NOT_FOUND, "UNKNOWN_GAME")
