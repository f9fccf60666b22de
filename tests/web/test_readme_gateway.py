"""The README's JSON gateway session ("The web side") runs as written: each
``curl`` line of its example against a real server's web side."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from tests.integration.conftest import ROOT, ServerProcess


def readme_session() -> list[str]:
    """The example's commands, one per ``curl`` (continued lines joined)."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n### The JSON gateway\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 1, "the section has one shell example"
    text = blocks[0].replace("\\\n", " ")
    return [line.strip() for line in text.splitlines() if line.strip()]


def run(command: str, web_url: str, env: dict[str, str], timeout: float = 30) -> str:
    command = command.replace("localhost:8080", web_url.removeprefix("http://"))
    done = subprocess.run(["bash", "-c", command], env=env, capture_output=True, text=True,
                          timeout=timeout)
    return done.stdout


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed here")
def test_the_readme_gateway_session_runs_as_written(web_server: ServerProcess) -> None:
    create, legal, act, subscribe = readme_session()
    created = json.loads(run(create, web_server.web_url, {}))
    env = {"PATH": "/usr/bin:/bin", "GAME": created["game_id"],
           "TOKEN": created["seat_tokens"][0]["token"]}
    listed = json.loads(run(legal, web_server.web_url, env))
    assert listed["version"] == 1 and listed["actions"]
    acted = json.loads(run(act, web_server.web_url, env))
    assert acted["version"] > 1, acted
    # The feed streams for ever: read what it sends in two seconds.
    feed = run(f"timeout 2 {subscribe}", web_server.web_url, env)
    versions = [json.loads(line[len("data: "):])["event"]["version"]
                for line in feed.splitlines()
                if line.startswith("data: ") and '"event"' in line]
    assert versions == list(range(1, acted["version"] + 1)), feed[:500]
