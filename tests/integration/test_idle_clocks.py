"""Idle clocked games cost the server nothing until a deadline is due (Kernel
2's clocked decisions, DESIGN principle 11: "every reader's share"), over a
real server process.

Before: the clock loaded every watched game twice a second to ask whether it
was overdue; idle clocked Ettin games took half a core at 1,000 games, and
anyone may create 60 a minute per address. Now the clock holds a timer heap
and loads a game only when its earliest deadline falls due: 150 idle
clocked Ettin games took 0.65 s of CPU in 5 s before, 0.01 s now.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from arbiter.v1 import game_pb2

from tests.integration.conftest import ServerProcess

pytestmark = pytest.mark.integration

GAMES = 150
#: How long the idle server is measured, and the most CPU it may take meanwhile:
#: 5% of a core (the timers' bookkeeping; the polling clock took 13% at 150 games).
WINDOW = 2.5
MOST = 0.05 * WINDOW


def settled(pid: int, step: float = 0.25, timeout: float = 10.0) -> None:
    """Wait until ``pid`` has used at most one clock tick in ``step`` s: the
    creations' own work done (where a fixed second was waited, more than the
    work takes on a quiet machine, less than on a loaded one)."""
    deadline = time.monotonic() + timeout
    before = cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(step)
        now = cpu_seconds(pid)
        if now - before <= 1.0 / os.sysconf("SC_CLK_TCK"):
            return
        before = now
    raise AssertionError(f"the server never went idle: still busy after {timeout} s")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_idle_clocked_games_cost_no_cpu(tmp_path: Path, redis_url: str) -> None:
    server = ServerProcess(tmp_path / "data", redis_url)
    server.start()
    try:
        assert server.process is not None
        stub = server.stub()
        request = game_pb2.CreateGameRequest(rules="ettin", seats=["a", "b", "c", "d"],
                                             options_json='{"clock": true}')
        for _ in range(GAMES):
            created = stub.CreateGame(request)
            assert any(d.deadline_seconds for d in created.state.pending)
        settled(server.process.pid)
        before = cpu_seconds(server.process.pid)
        time.sleep(WINDOW)
        used = cpu_seconds(server.process.pid) - before
        assert used < MOST, f"{GAMES} idle clocked games took {used:.2f} s of CPU in {WINDOW} s"
    finally:
        server.stop()
