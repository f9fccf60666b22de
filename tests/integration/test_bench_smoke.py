"""`make bench` runs end to end (issue 13): quick mode, every phase, results.json's shape.

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

from bench.report import GOALS
from tests.conftest import TEST_PROCESS_ONLY_ENV

ROOT = Path(__file__).resolve().parents[2]
FIGURES = {
    "act_32_sqlite_enin", "act_32_sqlite_ethnos", "act_seq_enin", "act_seq_ethnos",
    "act_seq_p50_enin", "act_seq_p50_ethnos", "server_cpu_per_act_enin",
    "server_cpu_per_act_ethnos", "feed_subscribe_p50", "feed_subscribe_p99", "feed_direct_p99",
    "cold_load", "snapshot_bytes", "replay_rate", "audit_rate", "audit_long_game",
    "memory_enin", "memory_ethnos", "memory_ettin", "library_get_save_sqlite",
    "getstate_spectators",
}


def _strict(text: str) -> Any:
    """JSON that refuses NaN and Infinity (not JSON, though Python writes them)."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} in results.json")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.integration
@pytest.mark.heavy(40)
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
    # Issue 20: one server process against two on one port (ARBITER_REUSE_PORT).
    assert ("reuse_port_two_vs_one" in figures) == postgres_ran
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
        if name == "act_32_postgres_vs_library" and not postgres_ran:
            assert goal["value"] is None and goal["met"] is None
            assert goal["skipped"] == results["skipped"]["postgres"]
        else:
            assert isinstance(goal["value"], int | float), name
            assert isinstance(goal["met"], bool), name
