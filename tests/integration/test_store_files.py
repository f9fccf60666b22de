"""Issue 8, item 7: the store is the operator's alone.

Before: ``arbiter.sqlite`` and its WAL were 0644 in a 0755 directory, so any
local user read every seed and deck order. After: the data directory is 0700
and every file in it 0600, from a fresh start, from a data directory an older
release left world-readable, and from ``make run``.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import time
from pathlib import Path

import grpc
import pytest
from arbiter.v1 import game_pb2, game_pb2_grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.redis_server import free_port
from tests.integration.conftest import ROOT, BearerToken, ServerProcess
from tests.integration.helpers import new_game, play

pytestmark = pytest.mark.integration


def loose_modes(data_dir: Path) -> dict[str, str]:
    """Everything under ``data_dir`` (itself included) that others may read or enter."""
    found = {}
    for path in [data_dir, *data_dir.rglob("*")]:
        mode = stat.S_IMODE(path.lstat().st_mode)
        if mode & 0o077:
            found[str(path.relative_to(data_dir.parent))] = oct(mode)
    return found


def use_store(stub: game_pb2_grpc.GameServiceStub) -> None:
    """Enough writes that SQLite has its WAL and shared-memory files."""
    import random

    play(stub, new_game(stub), 20, random.Random(3))


@pytest.fixture
def loose_umask() -> object:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def test_fresh_data_dir_is_private(tmp_path: Path, redis_url: str, loose_umask: object) -> None:
    server = ServerProcess(tmp_path / "fresh" / "data", redis_url)
    server.log_path = tmp_path / "server.log"  # the harness's log, outside the data dir
    server.start()
    try:
        use_store(server.stub())
        names = {p.name for p in server.data_dir.iterdir()}
        assert {"arbiter.sqlite", "arbiter.sqlite-wal", "secret"} <= names, names
        assert loose_modes(server.data_dir) == {}
    finally:
        server.stop()
    assert loose_modes(server.data_dir) == {}


def test_world_readable_data_dir_is_tightened(
    tmp_path: Path, redis_url: str, loose_umask: object
) -> None:
    """A store an older release left 0644 in a 0755 folder is made private at start."""
    server = ServerProcess(tmp_path / "data", redis_url)
    server.log_path = tmp_path / "server.log"
    server.start()
    use_store(server.stub())
    server.stop()
    for path in [server.data_dir, *server.data_dir.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    assert loose_modes(server.data_dir)
    server.start()
    try:
        use_store(server.stub())
        assert loose_modes(server.data_dir) == {}
    finally:
        server.stop()


def test_make_run_keeps_its_data_dir_private(
    tmp_path: Path, redis_url: str, loose_umask: object
) -> None:
    port = free_port()
    data_dir = tmp_path / "data"
    env = dict(os.environ, REDIS_URL=redis_url, ARBITER_ADMIN_TOKEN="")
    env.pop("ARBITER_ADMIN_TOKEN")
    with open(tmp_path / "make.log", "wb") as log:
        make = subprocess.Popen(
            ["make", "--no-print-directory", "run", f"ARBITER_LISTEN=127.0.0.1:{port}",
             f"ARBITER_DATA_DIR={data_dir}"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            deadline = time.monotonic() + 120
            while True:
                assert make.poll() is None, (tmp_path / "make.log").read_text()
                try:
                    if health.Check(health_pb2.HealthCheckRequest(), timeout=1).status == 1:
                        break
                except grpc.RpcError:
                    assert time.monotonic() < deadline, (tmp_path / "make.log").read_text()
                    time.sleep(0.2)
            token = (data_dir / "admin.token").read_text().strip()
            stub = game_pb2_grpc.GameServiceStub(
                grpc.intercept_channel(channel, BearerToken(token)))
            use_store(stub)
            assert stub.ListGames(game_pb2.ListGamesRequest()).games
        assert loose_modes(data_dir) == {}
    finally:
        os.killpg(make.pid, signal.SIGTERM)
        make.wait(timeout=30)
