"""Issue 8, item 13: a finished game's record is public, so a third party
verifies it with no credential.

Before: ``arbiter verify GAME`` (and ``export``) of a finished game needed a
token, because ``GetState`` and ``History`` did; yet DESIGN principle 4 makes
the full record everyone's once the game has ended (the seed is revealed),
and ``Audit`` already served a finished game to anyone. Now the reads of a
finished game need no token; an unfinished game's still do, refused with a
reason; and the anonymous reader is still a caller of the per-address limits.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any

import grpc
import pytest
from arbiter.v1 import game_pb2

from tests.integration.cli_here import run_cli
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import play

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]


def anonymous_cli(
    server: ServerProcess, home: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    """``arbiter ...`` as a third party: no token anywhere, no stored credentials,
    and not in a folder holding a local server's ``data/admin.token``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("ARBITER_TOKEN", "ARBITER_ADMIN_TOKEN")}
    env["ARBITER_HOME"] = str(home)
    env["PYTHONPATH"] = str(REPO)
    return run_cli([*args, "--address", server.address], cwd=home, env=env)


def refusal(call: Any) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value.code(), dict(info.value.trailing_metadata() or ())["arbiter-reason"]


def new_game(server: ServerProcess, finished: bool) -> str:
    created = server.stub().CreateGame(game_pb2.CreateGameRequest(rules="enin", seats=["solo"]))
    if finished:
        assert play(server.stub(), created.game_id, 3000, random.Random(3)).over
    return created.game_id


def test_a_finished_game_verifies_with_no_credential(
    shared_server: ServerProcess, tmp_path: Path
) -> None:
    game_id = new_game(shared_server, finished=True)
    home = tmp_path / "home"
    home.mkdir()
    out = anonymous_cli(shared_server, home, "verify", game_id)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "read as: full record" in out.stdout and "Verification PASSED" in out.stdout
    assert "re-executed" in out.stdout
    exported = anonymous_cli(shared_server, home, "export", game_id)
    assert exported.returncode == 0, exported.stderr
    header = json.loads(exported.stdout.splitlines()[0])
    assert header["over"] and header["seed"] and header["reader"] == "full record"
    assert not list(home.iterdir()), "nothing was stored for the third party"
    # The same through the API: no token, the full record (seed and dice meta).
    anyone = shared_server.stub("")
    events = list(anyone.History(game_pb2.HistoryRequest(game_id=game_id, spectator=True)))
    assert json.loads(events[0].payload_json)["seed"] and all(e.meta_json for e in events)
    assert anyone.GetState(game_pb2.GetStateRequest(game_id=game_id, spectator=True)).seed
    # ... and its past, at any version (time travel), as any seat or as a spectator
    past = anyone.GetState(game_pb2.GetStateRequest(game_id=game_id, seat=0, version=2))
    assert past.version == 2 and past.seed
    # A token that is sent is still checked.
    forged = shared_server.stub("arb_" + "A" * 43)
    assert refusal(lambda: list(forged.History(game_pb2.HistoryRequest(
        game_id=game_id, spectator=True)))) == (grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN")


def test_a_game_in_progress_still_needs_a_token(
    shared_server: ServerProcess, tmp_path: Path
) -> None:
    game_id = new_game(shared_server, finished=False)
    out = anonymous_cli(shared_server, tmp_path, "verify", game_id)
    assert out.returncode == 1 and "error: NO_TOKEN" in out.stderr, out.stdout + out.stderr
    anyone = shared_server.stub("")
    no_token = (grpc.StatusCode.UNAUTHENTICATED, "NO_TOKEN")
    for request in (game_pb2.HistoryRequest(game_id=game_id, spectator=True),
                    game_pb2.HistoryRequest(game_id=game_id, seat=0)):
        assert refusal(lambda r=request: list(anyone.History(r))) == no_token
    assert refusal(lambda: anyone.GetState(
        game_pb2.GetStateRequest(game_id=game_id, spectator=True))) == no_token
    assert refusal(lambda: anyone.GetState(
        game_pb2.GetStateRequest(game_id=game_id, spectator=True, version=1))) == no_token
    assert refusal(lambda: next(iter(anyone.Subscribe(
        game_pb2.SubscribeRequest(game_id=game_id, spectator=True))))) == no_token


def test_the_anonymous_reader_is_rate_limited(tmp_path: Path, redis_url: str) -> None:
    """Per address, like any caller: no token buys no larger share."""
    server = ServerProcess(tmp_path / "data", redis_url, {"ARBITER_CALLS_PER_SECOND": "1"})
    server.start()
    try:
        game_id = new_game(server, finished=True)  # the admin is never limited
        anyone = server.stub("")
        request = game_pb2.HistoryRequest(game_id=game_id, spectator=True)
        refused = 0
        for _ in range(20):
            try:
                list(anyone.History(request))
            except grpc.RpcError as exc:
                assert (exc.code(), dict(exc.trailing_metadata())["arbiter-reason"]) == (
                    grpc.StatusCode.RESOURCE_EXHAUSTED, "RATE_LIMITED")
                refused += 1
        assert refused >= 10
    finally:
        server.stop()
