"""A failed test shows the tail of each server process it used or started
(``tests.integration.conftest.failure_logs``, called by ``tests/conftest.py``'s
report hook): a server's INTERNAL error is logged by the server only, and a CI
run was lost to one whose log nobody saw."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration import conftest as servers
from tests.integration.conftest import ServerProcess


@pytest.fixture
def logged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ServerProcess:
    """A server (never started: its log written here) this process counts as started."""
    server = ServerProcess(tmp_path / "data", "redis://unused")
    server.data_dir.mkdir(parents=True)
    server.log_path.write_text("".join(f"before {n}\n" for n in range(100)))
    monkeypatch.setattr(servers, "SERVERS", [server])
    return server


def test_a_used_servers_log_shows_its_tail_from_the_tests_start(logged: ServerProcess) -> None:
    before = servers.log_sizes()
    with open(logged.log_path, "a") as log:
        log.write("".join(f"during {n}\n" for n in range(80)))
        log.write("Traceback: INTERNAL\n")
    [(title, text)] = servers.failure_logs({"web_server": (logged, 1)}, before)
    lines = text.splitlines()
    assert str(logged.log_path) in title and "during the test" in title
    assert len(lines) == servers.LOG_TAIL_LINES and lines[-1] == "Traceback: INTERNAL"
    assert not any(line.startswith("before") for line in lines), "older lines shown"


def test_a_server_started_during_the_test_shows_its_log(logged: ServerProcess) -> None:
    """Not a fixture's value (a server the test body started): shown, from the
    start of its log, since it was not started before the test began."""
    [(title, text)] = servers.failure_logs({}, before={})
    assert text.splitlines()[-1] == "before 99" and "during the test" in title


def test_a_used_server_that_logged_nothing_during_the_test_shows_its_last_lines(
        logged: ServerProcess) -> None:
    [(title, text)] = servers.failure_logs({"server": logged}, servers.log_sizes())
    assert "none during it" in title and text.splitlines()[-1] == "before 99"


def test_servers_of_no_test_are_not_shown(logged: ServerProcess) -> None:
    assert servers.failure_logs({"tmp_path": logged.data_dir}, servers.log_sizes()) == []
