"""The private Redis of ``make run`` is the server's alone, and comes back (issue 8.8).

It had no password: anyone on the machine could ``SHUTDOWN`` it (or publish
on its channels), and once it was gone the feeds stayed ``degraded`` for the
life of the server. Now it requires a random password that only the server's
own clients know (not on its command line, not in a log), and a supervisor
restarts it on the same port when it dies, after which the feeds are live
again and the relay publishes what it could not.
"""

from __future__ import annotations

import os
import random
import re
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from arbiter.v1 import game_pb2

from service.redis_server import find_engine
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import FeedCollector, new_game, play

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(find_engine() is None, reason="no Redis engine for a private Redis"),
]

ENGINES = ("redis-server", "valkey-server")


def wait_until(predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def relay_position(server: ServerProcess) -> int:
    """The position the relay has published (0 before its first publish)."""
    try:
        return int((server.data_dir / "relay.position").read_text() or 0)
    except FileNotFoundError:
        return 0


def private_address(server: ServerProcess) -> str:
    """The private Redis's address as the server logs it."""
    found = re.search(r"private Redis at (\S+)", server.log_path.read_text())
    assert found, "the server logs where its private Redis listens"
    return found.group(1)


def engine_pid(server: ServerProcess) -> int | None:
    """The pid of the server's Redis engine (its child), or None."""
    assert server.process is not None
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        if ppid == server.process.pid and comm in ENGINES:
            return int(entry.name)
    return None


@pytest.fixture
def private_server(tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path / "data", redis_url="")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_the_private_redis_refuses_anyone_without_its_password(
    private_server: ServerProcess,
) -> None:
    address = private_address(private_server)
    assert "@" not in address, "the logged address carries no password"
    outsider = redis.Redis.from_url(address, socket_connect_timeout=2)
    with pytest.raises(redis.AuthenticationError):
        outsider.ping()
    pid = engine_pid(private_server)
    assert pid is not None
    with pytest.raises(redis.AuthenticationError):
        outsider.execute_command("SHUTDOWN", "NOSAVE")
    with pytest.raises(redis.AuthenticationError):
        outsider.publish(f"{private_server.redis_prefix}games", "{}")
    assert engine_pid(private_server) == pid, "an outsider's SHUTDOWN did nothing"
    assert b"requirepass" not in Path(f"/proc/{pid}/cmdline").read_bytes(), (
        "the password is not on the engine's command line")
    stub = private_server.stub()
    game_id = new_game(stub)
    feed = FeedCollector(stub, game_pb2.SubscribeRequest(game_id=game_id))
    try:
        state = play(stub, game_id, 3, random.Random(2))
        assert feed.wait_for(lambda f: len(f.events) >= state.version)
        assert feed.statuses[-1] == "live", "the server's own clients know the password"
    finally:
        feed.close()


def test_a_killed_private_redis_comes_back_and_the_feeds_go_live(
    private_server: ServerProcess,
) -> None:
    stub = private_server.stub()
    game_id = new_game(stub)
    feed = FeedCollector(stub, game_pb2.SubscribeRequest(game_id=game_id))
    try:
        assert feed.wait_for(lambda f: f.statuses and f.statuses[-1] == "live")
        first = engine_pid(private_server)
        assert first is not None
        os.kill(first, signal.SIGKILL)  # as a local SHUTDOWN or a crash would end it
        assert wait_until(lambda: engine_pid(private_server) not in (None, first), timeout=60), (
            "the server starts its private Redis again")
        state = play(stub, game_id, 3, random.Random(4))
        assert feed.wait_for(lambda f: len(f.events) >= state.version, timeout=60)
        assert feed.wait_for(lambda f: f.statuses[-1] == "live", timeout=60), feed.statuses
        newest = feed.events[-1].position
        assert wait_until(lambda: relay_position(private_server) >= newest, timeout=60), (
            "the relay publishes again")
        log = private_server.log_path.read_text()
        assert "exited" in log
        assert "redis://:" not in log and "requirepass" not in log, "no password in the log"
    finally:
        feed.close()
