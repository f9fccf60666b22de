"""The ``arbiter`` CLI and the client library against a real server process.

The CLI runs as a subprocess, as a person or a script would run it; the
server is the ``arbiter_server`` fixture of conftest.py (a real process with
a temp data dir and a real Redis).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clients.client import ArbiterClient, ArbiterError, AsyncArbiterClient

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]


def arbiter(
    server: Any, *args: str, stdin: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``arbiter ARGS --address <server>`` and capture its output."""
    env = dict(os.environ)
    env.pop("ARBITER_ADDRESS", None)
    return subprocess.run(
        [sys.executable, "-m", "clients.cli", *args, "--address", server.address],
        input=stdin, capture_output=True, text=True, timeout=timeout, cwd=REPO, env=env,
    )


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def new_game(server: Any) -> str:
    game_id = ok(arbiter(server, "new", "enin", "--seat", "Ada", "-q")).strip()
    assert game_id and "\n" not in game_id
    return game_id


def test_rules(arbiter_server: Any) -> None:
    assert "enin" in ok(arbiter(arbiter_server, "rules"))


def test_new_shows_commitment(arbiter_server: Any) -> None:
    out = ok(arbiter(arbiter_server, "new", "enin", "--seat", "Ada"))
    assert "game id:" in out and "seed commitment:" in out


def test_legal_act_state_history(arbiter_server: Any) -> None:
    game_id = new_game(arbiter_server)
    listing = ok(arbiter(arbiter_server, "legal", game_id))
    assert "1." in listing
    actions = json.loads(ok(arbiter(arbiter_server, "legal", game_id, "--json")))
    assert actions and all("name" in a for a in actions)
    out = ok(arbiter(arbiter_server, "act", game_id, json.dumps(actions[0])))
    assert out.startswith("ok: version")

    state = ok(arbiter(arbiter_server, "state", game_id))
    assert game_id in state and "HP " in state
    as_json = json.loads(ok(arbiter(arbiter_server, "state", game_id, "--json")))
    assert as_json["game_id"] == game_id and isinstance(as_json["view"], dict)
    spectator = ok(arbiter(arbiter_server, "state", game_id, "--spectator"))
    assert game_id in spectator

    history = ok(arbiter(arbiter_server, "history", game_id)).splitlines()
    assert len(history) >= 2
    assert all(game_id[:8] in line for line in history)

    audit = arbiter(arbiter_server, "audit", game_id)
    assert "Audit PASSED" in ok(audit)
    assert game_id in ok(arbiter(arbiter_server, "games"))


def test_refusals_print_reason_and_exit_1(arbiter_server: Any) -> None:
    game_id = new_game(arbiter_server)
    version = json.loads(ok(arbiter(arbiter_server, "state", game_id, "--json")))
    stale = int(version.get("version", 0)) + 5
    result = arbiter(
        arbiter_server, "act", game_id, '{"name": "end_turn", "args": {}}',
        "--expect-version", str(stale),
    )
    assert result.returncode == 1
    assert result.stderr.startswith("error: VERSION_MISMATCH: ")
    illegal = arbiter(arbiter_server, "act", game_id, '{"name": "attack", "args": {}}')
    assert illegal.returncode == 1 and illegal.stderr.startswith("error: ")
    unknown = arbiter(arbiter_server, "state", "00000000-0000-4000-8000-000000000000")
    assert unknown.returncode == 1 and "error: UNKNOWN_GAME" in unknown.stderr
    usage = arbiter(arbiter_server, "act", game_id, "{oops")
    assert usage.returncode == 2


def test_simulate_finishes_all_games(arbiter_server: Any) -> None:
    result = arbiter(arbiter_server, "simulate", "enin", "--games", "3", "--seed", "7",
                     timeout=300)
    out = ok(result)
    assert "games finished: 3/3" in out
    assert "3/3 games" in result.stderr  # the progress bar


def test_play_to_the_end(arbiter_server: Any) -> None:
    out = ok(arbiter(arbiter_server, "play", "enin", stdin="1\n" * 4000, timeout=300))
    assert "Your choices:" in out and "What happened:" in out
    assert "Game over" in out
    assert "Seed (revealed):" in out
    assert "Audit PASSED" in out


def test_play_leaves_cleanly_on_eof(arbiter_server: Any) -> None:
    out = ok(arbiter(arbiter_server, "play", "enin", stdin="1\n"))
    assert "resume with: arbiter play enin --game" in out


def test_tail_catches_up_then_goes_live(arbiter_server: Any) -> None:
    game_id = new_game(arbiter_server)
    recorded = len(ok(arbiter(arbiter_server, "history", game_id)).splitlines())
    env = dict(os.environ)
    tail = subprocess.Popen(
        [sys.executable, "-m", "clients.cli", "tail", game_id, "--count", str(recorded + 1),
         "--address", arbiter_server.address],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO, env=env,
    )
    try:
        with ArbiterClient(arbiter_server.address) as client:
            legal = client.legal(game_id)
            client.act(game_id, 0, legal.actions[0].command)
        out, err = tail.communicate(timeout=60)
    finally:
        if tail.poll() is None:
            tail.kill()
            tail.communicate()
    lines = out.splitlines()
    assert tail.returncode == 0, err
    assert len(lines) == recorded + 1
    assert all(game_id[:8] in line for line in lines)
    assert lines[-1].split()[2] == f"v{recorded + 1}"


def test_tail_all_games(arbiter_server: Any) -> None:
    new_game(arbiter_server)
    out = ok(arbiter(arbiter_server, "tail", "--count", "1", timeout=60))
    assert len(out.splitlines()) == 1


def test_library_sync_and_async(arbiter_server: Any) -> None:
    with ArbiterClient(arbiter_server.address) as client:
        created = client.create_game("enin", ["Ada"])
        legal = client.legal(created.game_id)
        first = json.loads(legal.actions[0].json)
        response = client.act(created.game_id, 0, first, command_id="fixed-id")
        again = client.act(created.game_id, 0, first, command_id="fixed-id")
        assert again.version == response.version and again.replayed
        with pytest.raises(ArbiterError) as refused:
            client.act(created.game_id, 0, first, expected_version=1)
        assert refused.value.reason and refused.value.version == response.version
        events = list(client.history(created.game_id))
        assert [e.version for e in events] == list(range(1, len(events) + 1))

    async def run() -> None:
        async with AsyncArbiterClient(arbiter_server.address) as aclient:
            assert any(r.id == "enin" for r in await aclient.list_rules())
            game = await aclient.create_game("enin", ["Bo"])
            legal = await aclient.legal(game.game_id)
            await aclient.act(game.game_id, 0, json.loads(legal.actions[0].json))
            state = await aclient.state(game.game_id)
            assert state.version >= 2
            versions = [e.version async for e in aclient.history(game.game_id)]
            assert versions[-1] == state.version
            audit = await aclient.audit(game.game_id)
            assert audit.chain_ok

    asyncio.run(run())
