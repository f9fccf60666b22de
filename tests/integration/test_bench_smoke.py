"""`make bench` runs end to end: quick mode, every phase, results.json's shape.

No timing is asserted: on a shared CI machine a figure says nothing; that
every figure and every goal is there, with a number or a stated reason, does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.report import GOALS, NEEDS
from tests.conftest import TEST_PROCESS_ONLY_ENV
from tests.soak import SOAK

ROOT = Path(__file__).resolve().parents[2]
FIGURES = {
    "act_32_sqlite_enin", "act_32_sqlite_ethnos", "act_seq_enin", "act_seq_ethnos",
    "act_seq_p50_enin", "act_seq_p50_ethnos", "server_cpu_per_act_enin",
    "server_cpu_per_act_ethnos", "feed_subscribe_p50", "feed_subscribe_p99", "feed_direct_p99",
    "cold_load", "snapshot_bytes", "replay_rate", "audit_rate", "audit_long_game",
    "memory_enin", "memory_ethnos", "memory_ettin", "library_get_save_sqlite",
    "getstate_spectators", "move_cpu_many_vs_noop", "audit_vs_trivial",
}
#: Figures beside the peer (boardgame.io): there when the peer ran, else its
#: goals say why not.
PEER_FIGURES = {"move_cpu_many", "move_p50_one"}
#: A bot loop's phase: what each of its results holds (a number each).
LOOP_KEYS = {"games_at_once", "moves", "seconds", "cpu_ms_per_move", "p50_ms", "p99_ms"}


def _strict(text: str) -> Any:
    """JSON that refuses NaN and Infinity (not JSON, though Python writes them)."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} in results.json")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.integration
@pytest.mark.heavy(40)
@pytest.mark.skipif(not SOAK, reason="a minute of the bench's own servers: make soak runs it "
                    "(ARBITER_SOAK=1), as make bench does whole")
def test_quick_bench_writes_every_figure_and_goal(tmp_path: Path, redis_url: str) -> None:
    out = tmp_path / "results.json"
    env = {k: v for k, v in os.environ.items() if k not in TEST_PROCESS_ONLY_ENV}
    postgres = os.environ.get("ARBITER_TEST_POSTGRES_URL",
                              "postgresql://postgres@127.0.0.1:5432/postgres")
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--out", str(out),
         "--redis-url", redis_url, "--postgres-url", postgres],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "| goal | value | target | met |" in done.stdout

    results = _strict(out.read_text())
    assert results["quick"] is True
    assert {"when", "seconds", "machine", "figures", "goals", "skipped", "raw"} <= set(results)
    assert results["machine"]["cpus"] >= 1

    figures = results["figures"]
    postgres_ran = "postgres" not in results["skipped"]
    assert not FIGURES - set(figures), FIGURES - set(figures)
    assert ("act_32_postgres_enin" in figures) == postgres_ran
    # One server process against two on one port (ARBITER_REUSE_PORT).
    assert ("reuse_port_two_vs_one" in figures) == postgres_ran
    # The bot loops, 1 and several games at once, each loop the server has
    # (Play, unary); the peer's beside them, or the reason it did not run.
    loops = results["raw"]["sqlite"]["loops"]
    assert {p["loop"] for p in loops} >= {"unary"}
    assert {p["games_at_once"] for p in loops} == {1, 4}
    for phase in loops:
        assert not LOOP_KEYS - set(phase), phase
        assert phase["moves"] > 0 and not phase["errors"], phase
    peer_ran = "peer" not in results["skipped"]
    if peer_ran:
        assert not PEER_FIGURES - set(figures)
        assert set(results["raw"]["peer"]) == {"1", "4"}
        for played in results["raw"]["peer"].values():
            assert not LOOP_KEYS - set(played) and played["moves"] > 0, played
    else:
        assert results["skipped"]["peer"]
    # arbiter audit --all by one process and by two (on PostgreSQL: two servers, one store).
    if "audit_all" in results["skipped"]:
        assert "audit_all_two_vs_one" not in figures
    else:
        assert set(results["raw"]["audit_all"]) == {"1", "2"}
        for run in results["raw"]["audit_all"].values():
            assert run["games"] > 0 and run["events"] > 0 and run["failed"] == 0, run
        assert "audit_all_two_vs_one" in figures
    for name, fig in figures.items():
        assert {"value", "unit", "floor", "ratio", "about"} <= set(fig), name
        assert isinstance(fig["value"], int | float), name
        if fig["floor"]:
            assert isinstance(fig["ratio"], int | float), name

    goals = {g["name"]: g for g in results["goals"]}
    assert list(goals) == [name for name, *_ in GOALS]
    for name, goal in goals.items():
        assert {"name", "value", "target", "met"} <= set(goal), name
        assert goal["target"].split()[0] in (">=", "<=", "<"), name
        skipped_by = NEEDS.get(name)
        if skipped_by and skipped_by in results["skipped"]:
            assert goal["value"] is None and goal["met"] is None
            assert goal["skipped"] == results["skipped"][skipped_by]
        else:
            assert isinstance(goal["value"], int | float), name
            assert isinstance(goal["met"], bool), name
