"""`make bench`: start the servers, run the load generator, measure the store, report.

One run, in this order, each figure beside its floor:

1. Redis (a private one, so colleagues' test servers on the machine's Redis
   neither see nor disturb the run's traffic), ``arbiter-server`` on SQLite
   and the no-op gRPC server, each its own process on a free port;
2. the load generator (``bench.load``, another process): ``Act`` with 32 in
   flight and one at a time, Enin and Ethnos, each round's requests also sent
   to the no-op server; then the feed (Act reply -> Subscribe message, and ->
   a direct Redis subscriber) interleaved with bare Redis publish -> receive;
   then bot loops playing the template game to its end, 1 and 32 games at
   once, each seat holding its feed;
2b. the peer (``bench.peer``): boardgame.io's server and clients playing a
   game of the same shape the same way (skipped, with the reason, without
   Node.js);
3. the servers stopped, in a fresh process: a 10,000-event game and a 100-event
   game (cold load, snapshot size, replay, audit) beside a trivial
   aggregate's replay, turn about (replay and audit in CPU seconds); games of
   every type for the memory figure (measured in a fresh process); the
   library's own get+save rate;
4. on PostgreSQL (skipped, with the reason, when none answers): a fresh
   database, ``arbiter-server`` on it, ``Act`` with 32 in flight, and the
   library's own get+save beside it; then ``arbiter audit --all`` of the
   games played there, by one process and by two.

The table goes to stdout; every figure, the raw measurements and the goals
to ``bench/results.json`` (or ``--out``).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import multiprocessing
import os
import platform
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import peer, store
from bench.procs import ROOT, ArbiterServer, NoopServer, python_path
from bench.report import clean, figures_and_goals, render_table
from service.config import Settings

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
#: The game the bot loops play on Arbiter (the peer plays one of its shape).
LOOP_RULES = "template"

#: How much of everything a run does. Quick mode is for the smoke test: it
#: checks that every phase runs and the output has its shape; its figures are
#: too short to judge a goal by.
FULL: dict[str, Any] = {
    "act_seconds": 6.0, "games_32": 256, "games_1": 48, "max_rounds": 80,
    "feed_samples": 500, "long_events": 10_000, "repeat": 3, "memory_games": 40,
    "library_seconds": 3.0, "spectator_calls": 4000, "spectator_rounds": 5,
    "loops": [{"games": 1, "rounds": 8}, {"games": 32, "rounds": 2}], "audit_all_games": 400,
}
QUICK: dict[str, Any] = {
    "act_seconds": 0.2, "games_32": 32, "games_1": 6, "max_rounds": 2,
    "feed_samples": 15, "long_events": 1_000, "repeat": 1, "memory_games": 3,
    "library_seconds": 0.5, "spectator_calls": 200, "spectator_rounds": 1,
    "loops": [{"games": 1, "rounds": 1}, {"games": 4, "rounds": 1}], "audit_all_games": 16,
}


def act_phases(size: dict[str, Any], rules: list[str], in_flights: list[int]) -> list[Any]:
    return [
        {"rules": r, "in_flight": n, "games": size["games_32"] if n > 1 else size["games_1"],
         "seconds": size["act_seconds"], "min_rounds": 1, "max_rounds": size["max_rounds"]}
        for n in in_flights for r in rules
    ]


def loop_kinds() -> list[str]:
    """The bot loops to measure: a ``Play`` stream's where the server has it,
    and unary calls'."""
    from arbiter.v1 import game_pb2_grpc

    has_play = hasattr(game_pb2_grpc.GameServiceServicer, "Play")
    return ["play", "unary"] if has_play else ["unary"]


def run_load(work: Path, name: str, plan: dict[str, Any]) -> dict[str, Any]:
    """Run ``bench.load`` in its own process with ``plan``; what it measured."""
    plan_path, out_path = work / f"{name}-plan.json", work / f"{name}-load.json"
    plan_path.write_text(json.dumps(plan))
    done = subprocess.run(
        [sys.executable, "-m", "bench.load", str(plan_path), str(out_path)],
        env={**os.environ, "PYTHONPATH": python_path()}, cwd=ROOT,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the load generator failed ({name}, exit {done.returncode})")
    result: dict[str, Any] = json.loads(out_path.read_text())
    return result


def in_fresh_process(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` in a new interpreter (spawned, nothing inherited)."""
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        return pool.submit(function, *args).result()


def postgres_database(url: str) -> tuple[str, Callable[[], None]] | str:
    """A fresh database on the server at ``url`` and how to drop it; or why not."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (make install adds the postgres extra)"
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=3) as conn:
            name = f"arbiter_bench_{uuid.uuid4().hex[:10]}"
            conn.execute(f'CREATE DATABASE "{name}"')
    except Exception as exc:  # noqa: BLE001 - any failure means: no PostgreSQL figure
        return f"PostgreSQL at {url} is not usable: {str(exc).splitlines()[0][:160]}"
    base, _, _ = url.rpartition("/")

    def drop() -> None:
        with psycopg.connect(url, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return f"{base}/{name}", drop


def measure(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    size = QUICK if args.quick else FULL
    raw: dict[str, Any] = {"size": size}
    skipped: dict[str, str] = {}
    took: dict[str, float] = {}
    clock = time.monotonic()

    def lap(name: str) -> None:
        nonlocal clock
        took[name] = round(time.monotonic() - clock, 1)
        clock = time.monotonic()
        print(f"bench: {name} done in {took[name]} s", file=sys.stderr, flush=True)

    private_redis = None
    redis_url = args.redis_url
    if not redis_url:
        from service.redis_server import PrivateRedis

        private_redis = PrivateRedis(work / "redis")
        redis_url = private_redis.url
    try:
        arbiter = ArbiterServer(work / "sqlite", redis_url)
        try:
            noop = NoopServer(work)
        except BaseException:
            arbiter.stop()
            raise
        try:
            plan = {
                "arbiter": arbiter.address, "arbiter_pid": arbiter.pid,
                "admin_token": arbiter.admin_token, "redis_url": redis_url,
                "redis_prefix": arbiter.redis_prefix,
                "noop": noop.address, "noop_pid": noop.pid, "seed": args.seed,
                "act": act_phases(size, ["enin", "ethnos"], [32, 1]),
                "feed": {"samples": size["feed_samples"], "games": 4},
                "spectators": {"spectators": 100, "calls": size["spectator_calls"],
                               "rounds": size["spectator_rounds"]},
                "loops": [{"rules": LOOP_RULES, "loop": kind, **p}
                          for kind in loop_kinds() for p in size["loops"]],
            }
            raw["sqlite"] = run_load(work, "sqlite", plan)
        finally:
            arbiter.stop()
            noop.stop()
        lap("gRPC, feed and bot loops on SQLite")

        found = peer.measure(work, size["loops"], args.seed)
        if isinstance(found, str):
            skipped["peer"] = found
        else:
            raw["peer"] = found
            lap("the peer (boardgame.io)")

        # In a fresh process, as ``python -m bench.store`` measures it: not
        # beside this process's heap and threads from the phases before.
        raw["long_games"] = in_fresh_process(
            store.long_games, work / "long", size["long_events"], size["repeat"], args.seed)
        lap("long games, replay and audit")

        env = store.sqlite_env(work / "memory")
        secret = secrets.token_hex(32)  # one server secret, as on one store
        ids = {r: store.make_games(env, r, size["memory_games"] + 1, args.seed, secret)
               for r in store.rules_measured()}
        raw["memory"] = in_fresh_process(store.cached_game_bytes, env, ids, secret)
        raw["library_sqlite"] = in_fresh_process(
            store.library_get_save, store.sqlite_env(work / "library"), 32,
            size["library_seconds"])
        lap("memory and the library on SQLite")

        if args.no_postgres:
            skipped["postgres"] = skipped["audit_all"] = "--no-postgres was given"
        else:
            made = postgres_database(args.postgres_url)
            if isinstance(made, str):
                skipped["postgres"] = made
                skipped["audit_all"] = f"several servers share a PostgreSQL store: {made}"
            else:
                database_url, drop = made
                try:
                    raw["postgres"] = measure_postgres(work, size, database_url, redis_url,
                                                       args.seed)
                    lap("PostgreSQL")
                    raw["audit_all"] = measure_audit_all(work, size, database_url, redis_url)
                    lap("arbiter audit --all")
                finally:
                    drop()
    finally:
        if private_redis is not None:
            private_redis.stop()
    return {"raw": raw, "skipped": skipped, "phase_seconds": took}


def measure_postgres(work: Path, size: dict[str, Any], database_url: str, redis_url: str,
                     seed: int) -> dict[str, Any]:
    """``Act`` with 32 in flight on PostgreSQL, by one server process and by two
    on one port (``ARBITER_REUSE_PORT``), and the library's own get+save there."""
    arbiter = ArbiterServer(work / "postgres", redis_url, database_url)
    try:
        plan = {
            "arbiter": arbiter.address, "arbiter_pid": arbiter.pid,
            "admin_token": arbiter.admin_token, "redis_url": redis_url, "seed": seed,
            "redis_prefix": arbiter.redis_prefix,
            "act": act_phases(size, ["enin"], [32]),
        }
        load = run_load(work, "postgres", plan)
    finally:
        arbiter.stop()
    env = Settings(database_url=database_url).store_env()
    library = in_fresh_process(store.library_get_save, env, 32, size["library_seconds"])
    return {"load": load, "library": library,
            "reuse_port": measure_reuse_port(work, size, database_url, redis_url, seed)}


def measure_audit_all(work: Path, size: dict[str, Any], database_url: str,
                      redis_url: str) -> dict[str, Any]:
    """``arbiter audit --all``'s events per second over the store's games (at
    most ``audit_all_games`` of them), sent over one connection to one server
    process, then over two (as on two cores), each to a server process of its
    own on one store (as a server process per core on one port serves them).
    What is timed is the command's audit of the games listed: on two cores it
    sends over the client's connection and one more of its own, from a
    thread of this process (``clients.audit_all``)."""
    from arbiter.client import ArbiterClient

    from clients.audit_all import Listed, rows_over_connections

    runs: dict[str, Any] = {}
    for connections in (1, 2):
        first = ArbiterServer(work / f"audit-{connections}-0", redis_url, database_url)
        servers = [first]
        try:
            servers += [ArbiterServer(work / f"audit-{connections}-{n}", redis_url,
                                      database_url, sharing=first)
                        for n in range(1, connections)]
            with ArbiterClient(first.address, token=first.admin_token) as client:
                games = [Listed(g.game_id, g.rules, g.version, g.over)
                         for g in client.iter_games(token=first.admin_token)]
                games = games[:size["audit_all_games"]]
                start = time.perf_counter()
                rows = list(rows_over_connections(client, games, first.admin_token,
                                                  connections, [s.address for s in servers]))
                seconds = time.perf_counter() - start
        finally:
            for server in servers:
                server.stop()
        events = sum(r.version for r in rows)
        runs[str(connections)] = {
            "connections": connections, "games": len(rows), "events": events,
            "seconds": seconds, "events_per_second": events / seconds if seconds else None,
            "failed": sum(not r.ok for r in rows),
        }
    return runs


#: Connections the load generator spreads its games over in the scaling phase,
#: the same for one process and for two: the kernel hands each connection to
#: one of the processes on the port.
REUSE_PORT_CHANNELS = 8


def measure_reuse_port(work: Path, size: dict[str, Any], database_url: str, redis_url: str,
                       seed: int) -> dict[str, Any]:
    """``Act``, 32 in flight over several connections, by one server process,
    then by two on one port and one store (the scaling from one to two)."""
    phases = [dict(p, channels=REUSE_PORT_CHANNELS) for p in act_phases(size, ["enin"], [32])]
    runs: dict[str, Any] = {}
    for processes in (1, 2):
        first = ArbiterServer(work / f"reuse-{processes}-0", redis_url, database_url,
                              reuse_port=True)
        servers = [first]
        try:
            servers += [ArbiterServer(work / f"reuse-{processes}-{n}", redis_url, database_url,
                                      beside=first) for n in range(1, processes)]
            plan = {
                "arbiter": first.address, "arbiter_pid": first.pid,
                "arbiter_pids": [s.pid for s in servers], "admin_token": first.admin_token,
                "redis_url": redis_url, "seed": seed, "redis_prefix": first.redis_prefix,
                "act": phases,
            }
            runs[str(processes)] = run_load(work, f"reuse-{processes}", plan)
        finally:
            for server in servers:
                server.stop()
    return runs


def machine() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(), "platform": platform.platform(),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="a short run that checks every phase (figures too short to judge)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results.json")
    parser.add_argument("--redis-url", default=os.environ.get("ARBITER_BENCH_REDIS_URL", ""),
                        help="a Redis to use (default: a private one started for the run)")
    parser.add_argument("--postgres-url",
                        default=os.environ.get("ARBITER_BENCH_POSTGRES_URL", DEFAULT_POSTGRES),
                        help="a PostgreSQL server where the run may create a database")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs)")
    args = parser.parse_args(argv)

    started = time.monotonic()
    before = machine()
    work = Path(tempfile.mkdtemp(prefix="arbiter-bench-"))
    try:
        measured = measure(args, work)
    finally:
        if args.keep:
            print(f"bench: work directory kept: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    figures, goals = figures_and_goals(measured["raw"], measured["skipped"])
    after = machine()
    results = {
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "quick": args.quick,
        "seconds": round(time.monotonic() - started, 1),
        "machine": {**after, "load_average_before": before["load_average"]},
        "figures": figures,
        "goals": goals,
        "skipped": measured["skipped"],
        "phase_seconds": measured["phase_seconds"],
        "raw": measured["raw"],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    results = clean(results)
    args.out.write_text(json.dumps(results, indent=2, allow_nan=False) + "\n")
    print(render_table(results))
    print(f"\nwritten: {args.out}")


if __name__ == "__main__":
    main()
