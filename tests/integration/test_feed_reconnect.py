"""A feed outlives a server restart (issue 23): the SDK's ``subscribe`` and
``arbiter tail`` reopen the feed after the last event they got, instead of
ending with ``SHUTTING_DOWN``; nothing is missed or repeated."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from arbiter.client import ArbiterClient, ArbiterError

from tests.integration.conftest import ROOT, ServerProcess
from tests.integration.helpers import new_game, play

pytestmark = [pytest.mark.integration]


def test_subscribe_and_tail_reconnect_across_a_restart(tmp_path: Path, redis_url: str) -> None:
    server = ServerProcess(tmp_path / "data", redis_url)
    finished = threading.Event()
    server.start()
    try:
        game_id = new_game(server.stub())
        before = play(server.stub(), game_id, 4, random.Random(5))
        assert not before.over
        versions: list[int] = []
        reconnects: list[str] = []
        got = threading.Condition()

        def follow() -> None:
            """Follow the feed until the test has seen what it needs; the feed's
            retries once the server is stopped for good end quietly, not as an
            exception in a thread that outlives this test."""
            with ArbiterClient(server.address) as client:
                feed = client.subscribe(game_id, token=server.admin_token,
                                        on_reconnect=lambda e: reconnects.append(e.reason))
                try:
                    for message in feed:
                        if message.HasField("event"):
                            with got:
                                versions.append(message.event.version)
                                got.notify_all()
                except ArbiterError:
                    if not finished.is_set():
                        raise

        thread = threading.Thread(target=follow, daemon=True)
        thread.start()
        total = before.version + 3
        tail = subprocess.Popen(
            [sys.executable, "-m", "clients.cli", "tail", game_id, "--count", str(total),
             "--address", server.address, "--admin-token", server.admin_token],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        with got:
            assert got.wait_for(lambda: len(versions) >= before.version, timeout=15)
        assert tail.stdout is not None
        shown = [tail.stdout.readline() for _ in range(before.version)]  # tail's feed is open
        server.restart()
        after = play(server.stub(), game_id, 3, random.Random(6))
        with got:
            assert got.wait_for(lambda: len(versions) >= after.version, timeout=30), versions
        assert versions == list(range(1, after.version + 1)), "no event missed or repeated"
        assert reconnects and set(reconnects) <= {"SHUTTING_DOWN", "UNAVAILABLE"}
        out, err = tail.communicate(timeout=60)
        assert tail.returncode == 0, err
        assert len(shown + out.splitlines()) == total and "# reconnecting" in err
    finally:
        finished.set()
        server.stop()


def test_a_feed_that_never_opened_fails_at_once() -> None:
    """A wrong address is not a restart: no minute of retries before saying so."""
    with ArbiterClient("127.0.0.1:9") as client, pytest.raises(ArbiterError) as caught:
        next(iter(client.subscribe("g", token="t")))
    assert caught.value.code.name == "UNAVAILABLE"
