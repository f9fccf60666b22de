"""The JSON gateway session of docs/web.md ("The JSON gateway") runs as written:
each command of its example against a real server's web side, ``$GAME`` and
``$TOKEN`` taken from the created game the way the session takes them."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.integration.conftest import ROOT, ServerProcess

#: The shell the session runs in: the system's curl and python3, nothing of this checkout.
PATH = "/usr/bin:/bin"


def gateway_session() -> list[str]:
    """The example's commands, one per line (continued lines joined, comments left out)."""
    page = (ROOT / "docs" / "web.md").read_text()
    section = page.split("\n### The JSON gateway\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 1, "the section has one shell example"
    text = blocks[0].replace("\\\n", " ")
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def run(command: str, web_url: str, env: dict[str, str], cwd: Path, timeout: float = 30) -> str:
    command = command.replace("localhost:8080", web_url.removeprefix("http://"))
    done = subprocess.run(["bash", "-c", command], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)
    return done.stdout


def new_game(setup: list[str], web_url: str, cwd: Path) -> dict[str, str]:
    """Run the session's first lines (create, then set GAME and TOKEN): the shell's values."""
    script = "\n".join([*setup, 'printf "%s %s" "$GAME" "$TOKEN"'])
    game, token = run(script, web_url, {"PATH": PATH}, cwd).split()
    created = json.loads((cwd / "game.json").read_text())
    assert (game, token) == (created["game_id"], created["seat_tokens"][0]["token"])
    return {"PATH": PATH, "GAME": game, "TOKEN": token}


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed here")
def test_the_gateway_session_runs_as_written(web_server: ServerProcess, tmp_path: Path) -> None:
    *setup, legal, act, act_as_cli, subscribe = gateway_session()
    assert len(setup) == 3 and "GAME=" in setup[1] and "TOKEN=" in setup[2]
    env = new_game(setup, web_server.web_url, tmp_path)
    listed = json.loads(run(legal, web_server.web_url, env, tmp_path))
    assert listed["version"] == "1" and listed["actions"]  # uint64: a JSON string
    acted = json.loads(run(act, web_server.web_url, env, tmp_path))
    assert int(acted["version"]) > 1, acted
    # The feed streams for ever: read what it sends in two seconds.
    feed = run(f"timeout 2 {subscribe}", web_server.web_url, env, tmp_path)
    versions = [int(json.loads(line[len("data: "):])["event"]["version"])
                for line in feed.splitlines()
                if line.startswith("data: ") and '"event"' in line]
    assert versions == list(range(1, int(acted["version"]) + 1)), feed[:500]
    # The command as the CLI writes it: the same first move, in a game of its own.
    other = new_game(setup, web_server.web_url, tmp_path)
    assert other["GAME"] != env["GAME"]
    acted = json.loads(run(act_as_cli, web_server.web_url, other, tmp_path))
    assert int(acted["version"]) > 1, acted
