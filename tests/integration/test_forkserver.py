"""The tests' fork server starts a server as ``python -m service.main`` would.

The integration and web tests fork their servers from a process that has
imported the server once (``tests.integration.forkserver``). What a fresh
process would do differently must not be hidden by that: the same exit status
and sentence for a refused start, the same end for a signal, and a fresh
process wherever an environment variable read while importing differs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.conftest import FORKS, ROOT, ServerProcess, server_env
from tests.integration.forkserver import ForkedProcess, current_umask

pytestmark = [pytest.mark.integration]


def test_a_refused_start_exits_with_the_status_and_sentence_of_a_fresh_one(
        tmp_path: Path, redis_url: str) -> None:
    env = dict(server_env(), REDIS_URL=redis_url, ARBITER_REDIS_CLUSTER="maybe")
    args = ["--address", "127.0.0.1:0", "--data-dir", str(tmp_path / "data")]
    fresh = subprocess.run([sys.executable, "-m", "service.main", *args], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120)
    log = tmp_path / "forked.log"
    forked = FORKS.spawn(args, env, log, server_env())
    assert isinstance(forked, ForkedProcess)
    assert forked.wait(timeout=60) == fresh.returncode == 1
    assert fresh.stdout == "" and log.read_text() == fresh.stderr
    assert "ARBITER_REDIS_CLUSTER must be 1 or 0" in fresh.stderr


def test_signals_end_a_forked_server_as_they_end_a_process(
        tmp_path: Path, redis_url: str) -> None:
    """SIGTERM: a clean stop, status 0; SIGKILL: -9, as ``Popen`` reports them."""
    server = ServerProcess(tmp_path / "data", redis_url)
    server.start()
    assert isinstance(server.process, ForkedProcess)
    assert server.process.poll() is None
    assert server.stop() == 0
    server.start()
    assert server.stop(signal.SIGKILL) == -signal.SIGKILL


def test_what_the_imports_read_differing_means_a_fresh_process(tmp_path: Path,
                                                               redis_url: str) -> None:
    """The served games are read from ARBITER_EXTRA_GAMES while importing: a fork of
    a process that imported without it would not serve the extra game."""
    base = dict(server_env(), REDIS_URL=redis_url)
    assert FORKS.serving(server_env())
    assert "ARBITER_EXTRA_GAMES" in FORKS.imported
    assert FORKS.same_imports(dict(base, REDIS_URL="redis://elsewhere:6379/0",
                                   ARBITER_WEB_ADDRESS="127.0.0.1:0"))
    assert not FORKS.same_imports(dict(base, ARBITER_EXTRA_GAMES="tests.template_game:Template"))
    assert not FORKS.same_imports(dict(base, PYTHONHASHSEED="7"))
    assert FORKS.spawn([], dict(base, ARBITER_EXTRA_GAMES="x:Y"), tmp_path / "no.log",
                       server_env()) is None


def test_a_forked_server_has_the_umask_of_the_test_that_started_it(
        tmp_path: Path, redis_url: str) -> None:
    """A process started by a test has the test's umask at that moment (the data
    directory's tests loosen it to see the server make its files private)."""
    env = dict(server_env(), REDIS_URL=redis_url, ARBITER_REDIS_CLUSTER="maybe")
    old = os.umask(0o027)
    try:
        assert current_umask() == 0o027
        forked = FORKS.spawn(["--address", "127.0.0.1:0", "--data-dir", str(tmp_path / "data")],
                             env, tmp_path / "made.log", server_env())
    finally:
        os.umask(old)
    assert isinstance(forked, ForkedProcess) and forked.wait(timeout=60) == 1
    assert (tmp_path / "made.log").stat().st_mode & 0o777 == 0o644 & ~0o027
