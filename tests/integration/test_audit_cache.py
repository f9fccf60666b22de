"""Issue 8, item 12: the audit verdict follows what is stored, and a damaged
stored event is named by its version, never a bare ``INTERNAL``.

Before: ``Audit`` kept its verdict per (game, version), so after an event of
a running server was edited in the SQLite file, ``History`` served the edited
card while ``Audit`` still answered OK; and an event whose stored bytes no
longer parse made ``Audit``, ``History`` and ``arbiter verify`` fail with
``INTERNAL`` and a traceback in the log. Now the verdict is cached under a
digest of every stored byte of the game (read afresh on each call), and a
damaged event is reported at its version: ``Audit`` fails there, ``History``
sends the events before it and refuses with ``DATA_LOSS``/``DAMAGED_EVENT``,
and an exported record with a damaged line fails offline at that version.

Against a real server process on a real SQLite file, edited directly while
the server runs (as in ``test_replay`` and ``test_snapshot_trust``).
"""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from arbiter.v1 import game_pb2

from tests.integration.cli_here import run_cli
from tests.integration.conftest import ServerProcess
from tests.integration.test_replay import exported, finish, verify_text

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
SNAPSHOTS = 100  # the server's snapshot interval


def sqlite_file(server: ServerProcess) -> Path:
    return server.data_dir / "arbiter.sqlite"


def row(server: ServerProcess, game_id: str, version: int) -> bytes:
    with contextlib.closing(sqlite3.connect(sqlite_file(server), timeout=30)) as con:
        found = con.execute("SELECT state FROM stored_events WHERE originator_id=? AND "
                            "originator_version=?", (game_id.replace("-", ""), version)).fetchone()
    assert found is not None, version
    return bytes(found[0])


def last_snapshot(server: ServerProcess, game_id: str) -> int:
    """The version of the game's newest stored snapshot (0: none). A snapshot
    is taken at the end of the move that reached a multiple of the interval,
    once that move is answered: it is waited for a little."""
    deadline = time.monotonic() + 10
    while True:
        with contextlib.closing(sqlite3.connect(sqlite_file(server), timeout=30)) as con:
            found = con.execute("SELECT MAX(originator_version) FROM stored_snapshots WHERE "
                                "originator_id=?", (game_id.replace("-", ""),)).fetchone()
        version = int(found[0] or 0)
        if version or time.monotonic() > deadline:
            return version
        time.sleep(0.05)


def put_row(server: ServerProcess, game_id: str, version: int, state: bytes) -> None:
    """Overwrite a stored event's bytes under the running server, as an intruder would."""
    with contextlib.closing(sqlite3.connect(sqlite_file(server), timeout=30)) as con, con:
        changed = con.execute(
            "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
            (state, game_id.replace("-", ""), version)).rowcount
    assert changed == 1


def refusal(call: Any) -> tuple[grpc.StatusCode, str, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()
    error = info.value
    return error.code(), dict(error.trailing_metadata() or ())["arbiter-reason"], error.details()


def history_until_refused(server: ServerProcess, game_id: str,
                          token: str | None = None) -> tuple[list[int], Any]:
    """The versions ``History`` sent, and the error that ended it (None: none)."""
    versions: list[int] = []
    try:
        for ev in server.stub(token).History(game_pb2.HistoryRequest(game_id=game_id,
                                                                     spectator=True)):
            versions.append(ev.version)
    except grpc.RpcError as exc:
        return versions, exc
    return versions, None


def cli(server: ServerProcess, *args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """``arbiter ...`` with the admin token and no stored credentials."""
    return run_cli([*args, "--address", server.address, "--admin-token", server.admin_token],
                   cwd=REPO, env={**_clean_env(), "ARBITER_HOME": str(home)})


def _clean_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items()
            if k not in ("ARBITER_TOKEN", "ARBITER_ADMIN_TOKEN", "ARBITER_HOME")}


@pytest.fixture
def played(arbiter_server: ServerProcess) -> Iterator[tuple[ServerProcess, str, list[str]]]:
    """A finished Ethnos game whose last few events come after its last snapshot,
    and its exported record."""
    rnd = random.Random(12)
    while True:
        game_id, _ = finish(arbiter_server, "ethnos", 3, rnd)
        lines = exported(arbiter_server, game_id)
        if (len(lines) - 1 > SNAPSHOTS and (len(lines) - 1) % SNAPSHOTS >= 5
                and last_snapshot(arbiter_server, game_id) < len(lines) - 3):
            break
    yield arbiter_server, game_id, lines


def test_an_event_edited_under_a_running_server_fails_the_next_audit(
    played: tuple[ServerProcess, str, list[str]],
) -> None:
    server, game_id, lines = played
    events = [json.loads(line) for line in lines[1:]]
    admin = server.stub()
    request = game_pb2.AuditRequest(game_id=game_id)
    first = admin.Audit(request)
    assert first.chain_ok and first.dice_ok and first.replay_ok and not first.problems
    assert admin.Audit(request) == first  # cached: nothing stored changed

    dealt = next(e for e in events if e["type"] == "CardDealt" and e["version"] > 5)
    version = dealt["version"]
    original = row(server, game_id, version)
    state = json.loads(original)
    state["card"] = state["card"] + 1 if state["card"] < 50 else state["card"] - 1
    put_row(server, game_id, version, json.dumps(state).encode())

    served = [ev for ev in admin.History(game_pb2.HistoryRequest(game_id=game_id))
              if ev.version == version]
    assert json.loads(served[0].payload_json)["card"] == state["card"]  # History serves it
    after = admin.Audit(request)
    assert not after.chain_ok and not after.replay_ok
    assert after.first_failure == version, after.problems
    assert any(f"version {version} digest does not match" in p for p in after.problems)

    # Put back, byte for byte: the stored bytes the first verdict was for.
    put_row(server, game_id, version, original)
    again = admin.Audit(request)
    assert again.chain_ok and again.dice_ok and again.replay_ok and not again.first_failure


def test_a_damaged_event_is_named_by_its_version(
    played: tuple[ServerProcess, str, list[str]], tmp_path: Path,
) -> None:
    server, game_id, lines = played
    last = len(lines) - 1
    damaged = last - 2  # after the last snapshot: a fresh load must read it
    request = game_pb2.AuditRequest(game_id=game_id)
    assert server.stub().Audit(request).replay_ok  # loaded, audited, cached
    log_from = server.log_path.stat().st_size
    put_row(server, game_id, damaged, b'{"originator_id": "not json any more')

    def check(anyone: Any) -> None:
        audit = anyone.Audit(request)
        assert not audit.chain_ok and audit.first_failure == damaged, audit.problems
        assert audit.over and audit.events == last
        assert f"version {damaged} is damaged" in audit.problems[0]
        sent, error = history_until_refused(server, game_id)
        assert sent == list(range(1, damaged))
        assert error is not None and error.code() == grpc.StatusCode.DATA_LOSS
        assert dict(error.trailing_metadata())["arbiter-reason"] == "DAMAGED_EVENT"
        assert f"version {damaged} " in error.details()
        out = cli(server, "verify", game_id, home=tmp_path)
        assert out.returncode == 1 and "DAMAGED_EVENT" in out.stderr, out.stderr
        assert f"version {damaged} " in out.stderr and "INTERNAL" not in out.stderr

    # Under the running server (the game still in its cache) ...
    check(server.stub(""))  # a finished game's audit needs no token
    # ... and after a restart, when loading the game reads the damaged event.
    server.restart()
    check(server.stub(""))
    code, reason, details = refusal(lambda: server.stub().GetState(
        game_pb2.GetStateRequest(game_id=game_id, spectator=True)))
    assert (code, reason) == (grpc.StatusCode.DATA_LOSS, "DAMAGED_EVENT")
    assert f"version {damaged} " in details
    log = server.log_path.read_bytes()[log_from:].decode("utf-8", "replace")
    assert "Traceback" not in log and " failed" not in log
    assert f"game {game_id}: the stored event at version {damaged} does not parse" in log

    # An exported record with that line damaged fails offline at that version.
    broken = list(lines)
    broken[damaged] = broken[damaged][: len(broken[damaged]) // 2]
    verdict = verify_text(broken)
    assert not verdict.ok and verdict.first_failure == damaged
    assert f"version {damaged} (line {damaged + 1}) is damaged" in verdict.report.problems[0]
    path = tmp_path / "damaged.arbiter.jsonl"
    path.write_text("\n".join(broken) + "\n")
    offline = cli(server, "verify", str(path), home=tmp_path)
    assert offline.returncode == 1, offline.stdout + offline.stderr
    assert f"Verification FAILED at version {damaged}" in offline.stdout

    # The newest event damaged too: ListGames still lists the game, from the
    # row's columns (its version, and that it ended), with no INTERNAL.
    put_row(server, game_id, last, b"\xff\xfe not an event")
    listed = [g for g in server.stub().ListGames(game_pb2.ListGamesRequest(page_size=500)).games
              if g.game_id == game_id]
    assert [(g.version, g.over) for g in listed] == [(last, True)]
