"""Credentials hardening (issue 8, items 1-2), over real server processes: no
start with a short secret; request ids private to their caller and game ids
unguessable; an operator may require a creator credential."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from arbiter.client import ArbiterClient, ArbiterError
from arbiter.v1 import enin_pb2, game_pb2

from aggregates.catalog import GAMES
from service.application import GAMES_LOG_ID, ArbiterApp
from service.auth import Credentials
from service.config import Settings
from service.redis_server import free_port
from tests.integration.cli_here import run_cli
from tests.integration.conftest import ROOT, ServerProcess

pytestmark = pytest.mark.integration


def start_refused(data_dir: Path, redis_url: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run a server that must refuse to start; it is killed if it serves instead."""
    data_dir.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "service.main", "--address", f"127.0.0.1:{free_port()}",
         "--data-dir", str(data_dir)],
        cwd=ROOT, env=dict(os.environ, REDIS_URL=redis_url, **env),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"the server started: {err[-500:]}")
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


@pytest.mark.parametrize("secret", ["", "\n", "0123456789"])
def test_a_server_refuses_to_start_with_a_short_secret_file(
    tmp_path: Path, redis_url: str, secret: str
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "secret").write_text(secret)  # what a full disk or a crash leaves behind
    result = start_refused(data, redis_url, ARBITER_ADMIN_TOKEN="a" * 40)
    assert result.returncode != 0
    assert f"{data / 'secret'} holds" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (data / "redis").exists()  # refused before starting anything


def test_a_server_refuses_to_start_with_a_short_arbiter_secret(
    tmp_path: Path, redis_url: str
) -> None:
    result = start_refused(tmp_path / "data", redis_url, ARBITER_SECRET="short-secret")
    assert result.returncode != 0
    assert "ARBITER_SECRET is 12 bytes long; it must be at least 32" in result.stderr
    assert "Traceback" not in result.stderr


# --- request ids and creators (item 2) ---------------------------------------

ROUND = game_pb2.CreateGameRequest(rules="enin", seats=["Ada"], request_id="round3-table7")
ROLL = game_pb2.Command(enin=enin_pb2.EninCommand(roll_start=enin_pb2.EninCommand.RollStart()))


def refusal(call: Callable[[], object]) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value.code(), dict(info.value.trailing_metadata() or ())["arbiter-reason"]


def test_a_squatted_request_id_never_hands_over_the_platforms_game(
    arbiter_server: ServerProcess,
) -> None:
    attacker = arbiter_server.stub("attacker-" + secrets.token_urlsafe(24))
    squatted = attacker.CreateGame(ROUND)
    platform = arbiter_server.stub("platform-" + secrets.token_urlsafe(24))
    mine = platform.CreateGame(ROUND)
    anonymous = arbiter_server.stub("").CreateGame(ROUND)
    ids = {squatted.game_id, mine.game_id, anonymous.game_id}
    assert len(ids) == 3  # one game per caller
    assert uuid.uuid5(GAMES_LOG_ID, "enin/round3-table7") not in {uuid.UUID(i) for i in ids}
    # each caller's retry is its own game again, with the same tokens
    assert platform.CreateGame(ROUND).seat_tokens == mine.seat_tokens
    assert attacker.CreateGame(ROUND).game_id == squatted.game_id
    assert arbiter_server.stub("").CreateGame(ROUND).game_id == anonymous.game_id
    # and the attacker's tokens do nothing to the platform's game
    request = game_pb2.GetStateRequest(game_id=mine.game_id, seat=0)
    for token in (squatted.seat_tokens[0].token, squatted.spectator_token):
        status, _ = refusal(lambda t=token: arbiter_server.stub(t).GetState(request))
        assert status == grpc.StatusCode.UNAUTHENTICATED


@pytest.fixture
def creator_server(tmp_path: Path, redis_url: str) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path / "data", redis_url,
                           {"ARBITER_CREATOR_TOKEN": CREATOR_TOKEN})
    server.start()
    try:
        yield server
    finally:
        server.stop()


CREATOR_TOKEN = "creator-" + secrets.token_urlsafe(32)


def test_an_operator_can_require_a_creator_credential(
    creator_server: ServerProcess, tmp_path: Path
) -> None:
    request = game_pb2.CreateGameRequest(rules="enin", seats=["Ada"])
    for token in ("", "arb_" + "A" * 43):
        stub = creator_server.stub(token)
        assert refusal(lambda s=stub: s.CreateGame(request)) == (
            grpc.StatusCode.UNAUTHENTICATED, "CREATOR_REQUIRED")
    assert creator_server.stub(CREATOR_TOKEN).CreateGame(request).game_id
    assert creator_server.stub().CreateGame(request).game_id  # the admin token too
    with ArbiterClient(creator_server.address, creator_token=CREATOR_TOKEN) as client:
        created = client.create_game("enin", ["Bo"])
        assert client.state(created.game_id, 0).game_id == created.game_id
    with ArbiterClient(creator_server.address) as client:
        assert client.create_game("enin", ["Cy"], creator_token=CREATOR_TOKEN).game_id
        with pytest.raises(ArbiterError) as info:
            client.create_game("enin", ["Cy"])
        assert info.value.reason == "CREATOR_REQUIRED"


def test_the_cli_passes_the_creator_credential(
    creator_server: ServerProcess, tmp_path: Path
) -> None:
    env = {**os.environ, "ARBITER_HOME": str(tmp_path / "home")}
    env.pop("ARBITER_CREATOR_TOKEN", None)

    def arbiter(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return run_cli([*args, "--address", creator_server.address], cwd=tmp_path,
                       env={**env, **extra})

    refused = arbiter("new", "enin", "-q")
    assert refused.returncode == 1
    assert refused.stderr.startswith("error: CREATOR_REQUIRED: ")
    assert "--creator-token" in refused.stderr
    flag = arbiter("new", "enin", "-q", "--creator-token", CREATOR_TOKEN)
    assert flag.returncode == 0, flag.stderr
    variable = arbiter("new", "enin", "-q", ARBITER_CREATOR_TOKEN=CREATOR_TOKEN)
    assert variable.returncode == 0, variable.stderr
    assert uuid.UUID(flag.stdout.strip()) != uuid.UUID(variable.stdout.strip())


def test_games_stored_before_the_upgrade_keep_working(tmp_path: Path, redis_url: str) -> None:
    """A store written with the old, public ids (uuid5 of rules/request_id)."""
    secret = "s" * 40
    data = tmp_path / "data"
    data.mkdir()
    credentials = Credentials(secret.encode(), "")
    app = ArbiterApp(Settings(data_dir=data).store_env(), credentials=credentials)
    old_id = uuid.uuid5(GAMES_LOG_ID, "enin/round3-table7")
    game = GAMES["enin"].start(["Ada"], {}, game_id=old_id)
    logged = app.games_log.trigger_event(
        game_id=game.id, rules="enin", seats=["Ada"], request_id="round3-table7")
    app.save(game, credentials.issue(game.id, 1), logged)
    app.close()
    server = ServerProcess(data, redis_url, {"ARBITER_SECRET": secret})
    server.start()
    try:
        player = server.stub(credentials.seat_token(old_id, 0))
        request = game_pb2.ActRequest(game_id=str(old_id), seat=0, command=ROLL)
        assert player.Act(request).version > 1
        listed = server.stub("").ListGames(game_pb2.ListGamesRequest())
        assert [g.game_id for g in listed.games] == [str(old_id)]
        # a retry of a request made before the upgrade is a new game (documented)
        assert server.stub("").CreateGame(ROUND).game_id != str(old_id)
    finally:
        server.stop()
