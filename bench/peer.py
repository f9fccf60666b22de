"""The peer: boardgame.io 0.50.2's own Server and clients, side by side with Arbiter.

A move's cost says little alone; beside what an established game server
spends on a move of the same shape, measured the same way in the same run,
it says how far Arbiter is from the state of the art. The peer is
boardgame.io (its ``Server``: Koa, its socket.io transport, its in-memory
store), pinned by ``bench/peer/package-lock.json`` and installed by the bench
itself (``npm ci`` into ``bench/peer/node_modules``, git-ignored) where Node
and npm are; where they are not, or the install fails, the peer's figures
are skipped with the reason.

Its game (``bench/peer/tide.js``) has the shape of Arbiter's template game as
the bot loops play it: two seats, hidden hands, a few legal moves a turn,
about 56 moves a game. ``bench/peer/client.js`` plays ``games`` of them at
once with boardgame.io's clients and measures, as ``bench.load.measure_loop``
does on Arbiter, the server's CPU per move from /proc and each move's time to
the next decision at the seat that takes it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from bench.procs import ROOT, Process

PEER = ROOT / "bench" / "peer"
#: Written once ``npm ci`` installed the lock file's packages; older than the
#: lock file, the packages are installed again.
STAMP = PEER / "node_modules" / ".installed"


def install() -> str:
    """Install the peer's packages when needed; "" when ready, else why not."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        return "Node.js and npm are not installed here (the peer is boardgame.io, from npm)"
    lock = PEER / "package-lock.json"
    if STAMP.exists() and STAMP.stat().st_mtime >= lock.stat().st_mtime:
        return ""
    try:
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=PEER, capture_output=True, text=True, timeout=600, check=False)
    except subprocess.TimeoutExpired:
        return "npm ci of the peer (boardgame.io) took over 600 s"
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return f"npm ci of the peer (boardgame.io) failed: {tail[0][:200]}"
    STAMP.touch()
    return ""


class PeerServer(Process):
    """``node bench/peer/server.js``: boardgame.io's Server on a free port."""

    def __init__(self, log_dir: Path) -> None:
        node = shutil.which("node") or "node"
        super().__init__("boardgame.io server", [node, str(PEER / "server.js")],
                         log_dir / "peer-server.log")


def play(server: PeerServer, games: int, rounds: int, seed: int) -> dict[str, Any]:
    """``bench/peer/client.js``: ``games`` games at once, ``rounds`` rounds after a
    warm-up round; what it measured."""
    node = shutil.which("node") or "node"
    plan = {"address": server.address, "pid": server.pid, "games": games, "rounds": rounds,
            "seed": seed}
    done = subprocess.run([node, str(PEER / "client.js"), json.dumps(plan)], cwd=PEER,
                          capture_output=True, text=True, timeout=900, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the peer's clients failed (exit {done.returncode}): "
                           f"{done.stderr[-1500:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def measure(work: Path, plans: list[dict[str, Any]], seed: int) -> dict[str, Any] | str:
    """The peer's figures for each plan (``games`` at once, ``rounds``), or why
    there are none."""
    reason = install()
    if reason:
        return reason
    server = PeerServer(work)
    try:
        return {str(p["games"]): play(server, int(p["games"]), int(p["rounds"]), seed)
                for p in plans}
    finally:
        server.stop()
