"""A non-Python client plays whole games (issue 12): tests/clients/node/play.js,
grpc-js with proto-loader from the npm registry (``make tools`` installs them
into .tools), against a real server. Skipped, visibly, only when the machine
has no ``node`` or ``npm``; an install that fails is a failure, not a skip."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from arbiter.v1 import game_pb2

from tests.integration.conftest import ROOT, ServerProcess

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("node_client")]

SCRIPT = ROOT / "tests" / "clients" / "node" / "play.js"
PACKAGES = ROOT / ".tools" / "node_modules"


@pytest.fixture(scope="module")
def node() -> str:
    """The node binary, with grpc-js and proto-loader installed into .tools."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node and npm are needed to run the Node.js client (not on this machine)")
    if not (PACKAGES / "@grpc" / "grpc-js").is_dir() or not (
        PACKAGES / "@grpc" / "proto-loader"
    ).is_dir():
        made = subprocess.run(["make", "tools"], cwd=ROOT, capture_output=True, text=True,
                              timeout=300)
        assert made.returncode == 0, f"make tools failed:\n{made.stdout}\n{made.stderr}"
    return node


def play(node: str, server: ServerProcess, *args: str) -> dict[str, Any]:
    assert server.tls_root is None, "play.js speaks plaintext gRPC"
    result = subprocess.run([node, str(SCRIPT), server.address, *args], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:] + result.stdout[-2000:]
    summary: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return summary


@pytest.mark.parametrize(("rules", "seats"), [("enin", "0"), ("ettin", "2")])
def test_node_plays_a_whole_game_and_audits_it(
    node: str, shared_server: ServerProcess, rules: str, seats: str
) -> None:
    summary = play(node, shared_server, rules, seats)
    assert summary["over"] and summary["audit"]["ok"] and summary["moves"] > 0
    # The server agrees: the game is over at the version the client saw, and it audits.
    admin = shared_server.stub()
    state = admin.GetState(game_pb2.GetStateRequest(game_id=summary["game_id"], spectator=True))
    assert state.over and str(state.version) == summary["version"]
    assert state.rules == rules
    audit = admin.Audit(game_pb2.AuditRequest(game_id=summary["game_id"]))
    assert audit.chain_ok and audit.dice_ok and audit.replay_ok
    assert audit.commands == summary["moves"]
    # A refusal's google.rpc.Status, decoded in Node with the shipped google/rpc protos.
    assert summary["refusal"] == {"reason": "GAME_OVER", "domain": "arbiter",
                                  "version": summary["version"]}


def test_the_readme_quick_start_runs(
    node: str, shared_server: ServerProcess, tmp_path: Path
) -> None:
    """The Node.js example of docs/other-languages.md, as written, makes a first move."""
    page = (ROOT / "docs" / "other-languages.md").read_text()
    section = page.split("\n## From another language\n", 1)[1].split("\n## ", 1)[0]
    (example,) = re.findall(r"```js\n(.*?)```", section, re.DOTALL)
    assert "localhost:50051" in example
    script = tmp_path / "quick.js"
    script.write_text(example.replace("localhost:50051", shared_server.address))
    result = subprocess.run([node, str(script)], cwd=ROOT, capture_output=True, text=True,
                            timeout=60, env=dict(os.environ, NODE_PATH=str(PACKAGES)))
    assert result.returncode == 0, result.stderr[-3000:]
    assert int(result.stdout.strip()) >= 2  # the game's version after the first move
