"""Two versions of the server side by side: the ``Play`` loop's server CPU per move, interleaved.

``python -m bench.ab REV_A REV_B [--pairs N] [--games G]``: each revision's code
(``git archive`` of its service, rules, template game and bench; ``.`` for the
working tree as it is) serves from its own ``arbiter-server`` process, both up
at once on one private Redis; then, ``N`` times, the bench's bot loop
(``bench.load.measure_loop``: ``G`` games at once on ``Play`` streams, a warm-up
round and one measured round) plays on one and then the other, the order
swapped every pair, with the no-op floor (``Act`` with 32 in flight, beside the
no-op server) before and after, and with ``--peer`` boardgame.io's (the bench's
peer, ``bench.peer``, the same games at once) beside it. It prints each window and, at the end, each
side's median, its ratio to the no-op floor, and the median of the pairs'
ratios B/A.

On a machine shared with other work a window's figure moves by a fifth from
one minute to the next: two runs of ``make bench`` minutes apart compare two
loads as much as two designs. Windows of the two versions taken turn about,
seconds apart, meet the same load; the median of their ratios is what to
read, with the pairs' spread beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from bench import load, procs
from bench.procs import ROOT, ArbiterServer, NoopServer

#: What a server's code is made of (the rest comes from the installed packages).
PATHS = ["service", "aggregates", "bench", "tests/__init__.py", "tests/template_game"]


def extract(revision: str, paths: list[str], into: Path) -> None:
    """``paths`` as ``revision`` has them, written under ``into``."""
    archive = subprocess.run(["git", "archive", revision, *paths], cwd=ROOT,
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def tree(revision: str, into: Path, base: str = "", only: list[str] | None = None) -> Path:
    """``revision``'s code in ``into`` (``.``: the repository as it is, in
    place); with ``only``, just those paths of it over ``base``'s code (so that
    two revisions differ in those paths alone, whatever else changed between
    them)."""
    if revision == "." and not only:
        return ROOT
    into.mkdir(parents=True)
    if only:
        extract(base, PATHS, into)
        if revision == ".":
            for path in only:
                subprocess.run(["cp", "-r", str(ROOT / path), str(into / Path(path).parent)],
                               check=True)
        else:
            extract(revision, only, into)
    else:
        extract(revision, PATHS, into)
    return into


def serve(root: Path, data: Path, redis_url: str) -> ArbiterServer:
    """A server running the code under ``root``."""
    original = procs.python_path
    procs.python_path = lambda: os.pathsep.join([str(root), original()])
    try:
        return ArbiterServer(data, redis_url)
    finally:
        procs.python_path = original


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ab", description=__doc__.split("\n")[0])
    parser.add_argument("a", help="a git revision, or . for the working tree")
    parser.add_argument("b", help="a git revision, or . for the working tree")
    parser.add_argument("--pairs", type=int, default=6)
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--peer", action="store_true",
                        help="measure boardgame.io's server CPU per move too (the bench's peer, "
                             "the same games at once), before and after the pairs")
    parser.add_argument("--only", action="append", default=[],
                        help="take only this path (service, say) from each revision, the "
                             "rest from A's (repeatable)")
    args = parser.parse_args(argv)
    from service.redis_server import PrivateRedis

    work = Path(tempfile.mkdtemp(prefix="arbiter-ab-"))
    redis = PrivateRedis(work / "redis")
    servers: list[ArbiterServer] = []
    noop: NoopServer | None = None
    try:
        base = "HEAD" if args.a == "." else args.a
        for name, revision in (("a", args.a), ("b", args.b)):
            root = tree(revision, work / name, base, args.only)
            servers.append(serve(root, work / f"{name}-data", redis.url))
        noop = NoopServer(work)
        plans = [{"arbiter": s.address, "arbiter_pid": s.pid, "admin_token": s.admin_token,
                  "redis_url": redis.url, "redis_prefix": s.redis_prefix, "noop": noop.address,
                  "noop_pid": noop.pid, "seed": 1} for s in servers]
        act = {"rules": "enin", "in_flight": 32, "games": 64, "seconds": 2.0,
               "min_rounds": 1, "max_rounds": 20}
        loop = {"rules": "template", "loop": "play", "games": args.games, "rounds": 1}
        floors: list[float] = []
        moves: dict[int, list[float]] = {0: [], 1: []}

        def floor() -> None:
            measured = asyncio.run(load.measure_act(plans[0], act))
            floors.append(measured["noop"]["cpu_ms_per_call"])
            print(json.dumps({"noop_ms": round(floors[-1], 3),
                              "load": os.getloadavg()[0]}), flush=True)

        peers: list[float] = []

        def peer() -> None:
            if not args.peer:
                return
            from bench import peer as peer_module

            measured = peer_module.measure(work, [{"games": args.games, "rounds": 1}], 1)
            if isinstance(measured, str):
                print(json.dumps({"peer_skipped": measured}), flush=True)
                args.peer = False
                return
            peers.append(measured[str(args.games)]["cpu_ms_per_move"])
            print(json.dumps({"peer_ms": round(peers[-1], 3), "load": os.getloadavg()[0]}),
                  flush=True)

        floor()
        peer()
        for pair in range(args.pairs):
            for side in ((0, 1) if pair % 2 == 0 else (1, 0)):
                result: dict[str, Any] = asyncio.run(load.measure_loop(plans[side], loop))
                moves[side].append(result["cpu_ms_per_move"])
                print(json.dumps({"pair": pair, "side": "ab"[side],
                                  "ms_per_move": round(result["cpu_ms_per_move"], 3),
                                  "moves": result["moves"], "p50_ms": round(result["p50_ms"], 1),
                                  "errors": result["errors"], "load": os.getloadavg()[0]}),
                      flush=True)
        floor()
        peer()
        noop_ms = statistics.median(floors)
        a, b = statistics.median(moves[0]), statistics.median(moves[1])
        pairs = [y / x for x, y in zip(moves[0], moves[1], strict=True)]
        summary: dict[str, Any] = {
            "a": args.a, "b": args.b, "a_ms": round(a, 3), "b_ms": round(b, 3),
            "noop_ms": round(noop_ms, 3), "a_vs_noop": round(a / noop_ms, 2),
            "b_vs_noop": round(b / noop_ms, 2)}
        if peers:
            peer_ms = statistics.median(peers)
            summary.update(peer_ms=round(peer_ms, 3), a_vs_peer=round(a / peer_ms, 2),
                           b_vs_peer=round(b / peer_ms, 2))
        summary.update(b_over_a=round(statistics.median(pairs), 3),
                       pairs=[round(p, 3) for p in pairs])
        print(json.dumps(summary), flush=True)
    finally:
        for server in servers:
            server.stop()
        if noop is not None:
            noop.stop()
        redis.stop()


if __name__ == "__main__":
    main()
