"""``tail`` and ``history`` in the game's words and as JSON lines; ``simulate``'s
table and estimate; ``make run ADDRESS=... DATA=...``; the JSON Schemas
``ListRules`` serves, checked against a game played through the server (issue 12).

The CLI runs as a subprocess against the module's shared server process.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clients.simulate import Playout, duration, estimate, standings
from tests.integration.test_cli import arbiter, cli_home, ok  # noqa: F401

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]


def ethnos_game(server: Any) -> str:
    """A two-seat Ethnos game made with the CLI, its first player having moved once."""
    game_id = ok(arbiter(server, "new", "ethnos", "--seat", "Ada", "--seat", "Bo",
                         "-q")).strip()
    state = json.loads(ok(arbiter(server, "state", game_id, "--json")))
    seat = state["pending"][0]["seat"]
    ok(arbiter(server, "act", game_id, "1", "--seat", str(seat)))
    return game_id


def test_history_tells_events_in_the_games_words(shared_server: Any) -> None:
    game_id = ethnos_game(shared_server)
    lines = ok(arbiter(shared_server, "history", game_id, "--spectator")).splitlines()
    records = [json.loads(line) for line in ok(arbiter(
        shared_server, "history", game_id, "--spectator", "--json")).splitlines()]
    assert len(lines) == len(records) >= 5
    for line, record in zip(lines, records, strict=True):
        assert record["text"] and record["text"] in line
        assert "{" not in line  # the sentence, not the payload's JSON
        assert line.split()[2] == f"v{record['version']}"
    assert any("is dealt" in line for line in lines)  # Ethnos' own sentence


def test_history_json_is_complete_and_typed(shared_server: Any) -> None:
    game_id = ethnos_game(shared_server)
    records = [json.loads(line) for line in ok(arbiter(
        shared_server, "history", game_id, "--json")).splitlines()]
    assert [r["version"] for r in records] == list(range(1, len(records) + 1))
    for record in records:
        assert isinstance(record["version"], int) and isinstance(record["position"], int)
        assert isinstance(record["payload"], dict) and isinstance(record["redacted"], bool)
        assert isinstance(record["audience"]["seats"], list)  # defaults printed too
        for key in ("game_id", "type", "time", "digest", "prev_digest", "rules", "text",
                    "command_id", "meta"):
            assert key in record, key
        assert "payload_json" not in record and record["game_id"] == game_id


def test_tail_json_lines(shared_server: Any) -> None:
    game_id = ethnos_game(shared_server)
    result = arbiter(shared_server, "tail", game_id, "--count", "3", "--json")
    records = [json.loads(line) for line in ok(result).splitlines()]
    assert [r["version"] for r in records] == [1, 2, 3]
    assert all(r["text"] and r["game_id"] == game_id for r in records)
    plain = ok(arbiter(shared_server, "tail", game_id, "--count", "3"))
    assert all(r["text"] in line for r, line in zip(records, plain.splitlines(), strict=True))


def test_simulate_ends_with_winners_and_scores_and_says_how_long(shared_server: Any) -> None:
    result = arbiter(shared_server, "simulate", "ettin", "--games", "2", "--players", "2",
                     "--seed", "4")
    out = ok(result)
    table = out.split("winners and scores over 2 finished games", 1)[1].splitlines()
    assert table[1].split()[:5] == ["player", "wins", "win", "%", "mean"]
    rows = [line.split() for line in table[2:4]]
    assert [row[:2] for row in rows] == [["Player", "1"], ["Player", "2"]]  # counted from 1
    assert sum(int(row[2]) for row in rows) >= 2  # each game has a winner (ties count twice)
    assert "the first game took" in result.stderr and "all 2 games will take about" in (
        result.stderr)


def test_standings_arithmetic() -> None:
    seats = ["Ada", "Bo"]
    games = [
        Playout("a", "finished", 1, outcome={"winners": [1], "glory": [10, 30]}, seats=seats),
        Playout("b", "finished", 1, outcome={"winners": [0, 1], "glory": [20, 20]},
                seats=seats),
        Playout("c", None, 5, capped=True, seats=seats),
    ]
    lines = standings(games).splitlines()
    assert lines[0] == "winners and scores over 2 finished games"
    assert lines[2].split() == ["Ada", "(Player", "1)", "1", "50%", "15.0", "20"]
    assert lines[3].split() == ["Bo", "(Player", "2)", "2", "100%", "25.0", "30"]
    solo = [Playout("s", "won", 1, outcome={"result": "won"}, seats=["Ada"])]
    assert standings(solo).splitlines()[2].split() == ["Ada", "(Player", "1)", "1", "100%"]
    assert standings([]) == ""
    assert estimate(1, 10, 2.0) == "about 18s left" and estimate(10, 10, 5.0) == ""
    assert duration(125) == "2m 05s" and duration(3780) == "1h 03m"


def test_make_run_takes_address_data_and_metrics() -> None:
    def dry_run(*args: str, **env: str) -> str:
        clean = {k: v for k, v in os.environ.items() if not k.startswith("ARBITER_")}
        result = subprocess.run(["make", "-s", "-n", "-o", "install", "run", *args],
                                cwd=REPO, capture_output=True, text=True, timeout=60,
                                env={**clean, **env})
        assert result.returncode == 0, result.stderr
        return " ".join(result.stdout.replace("\\\n", " ").split())

    default = dry_run()
    assert "--address localhost:50051 --data-dir ./data" in default
    assert "--metrics-address" not in default
    given = dry_run("ADDRESS=0.0.0.0:6000", "DATA=/srv/a", "METRICS=127.0.0.1:9464")
    assert "--address 0.0.0.0:6000 --data-dir /srv/a --metrics-address 127.0.0.1:9464" in given
    legacy = dry_run(ARBITER_LISTEN="h:7", ARBITER_DATA_DIR="/d",
                     ARBITER_METRICS_ADDRESS="h:8")
    assert "--address h:7 --data-dir /d --metrics-address h:8" in legacy


def test_server_ready_line_says_what_to_try(shared_server: Any) -> None:
    text = shared_server.log_path.read_text()
    line = next(x for x in text.splitlines() if x.startswith("arbiter: serving on"))
    # The CLI beside the server's Python: by name when PATH finds it, else by its path.
    script = Path(sys.executable).parent / "arbiter"
    cli = "arbiter" if shutil.which("arbiter") == str(script) else (
        str(script.relative_to(REPO)) if script.is_relative_to(REPO) else str(script))
    assert f"`{cli} rules --address 127.0.0.1:{shared_server.port}`" in line
    assert f"`{cli} play enin --address 127.0.0.1:{shared_server.port}`" in line


def test_list_rules_serves_schemas_that_real_games_match(shared_server: Any) -> None:
    """Issue 12: every JSON field's schema, per game and rules version, from ListRules;
    a game played through the server matches what it serves."""
    from arbiter.v1 import game_pb2
    from jsonschema import Draft202012Validator

    from aggregates.catalog import GAMES
    from aggregates.kernel.record.schemas import schemas_of
    from tests.integration.helpers import play

    stub = shared_server.stub()
    served = {info.id: json.loads(info.schemas_json)
              for info in stub.ListRules(game_pb2.ListRulesRequest()).rules}
    for rules, cls in GAMES.items():
        assert served[rules] == schemas_of(cls)
        assert served[rules]["rules_version"] == cls.RULES_VERSION
    schemas = served["enin"]
    game_id = stub.CreateGame(game_pb2.CreateGameRequest(rules="enin", seats=["solo"])).game_id
    state = play(stub, game_id, 400, random.Random(8))
    for field in ("view_json", "screen_json", "outcome_json"):
        Draft202012Validator(schemas[field]).validate(json.loads(getattr(state, field)))
    events = list(stub.History(game_pb2.HistoryRequest(game_id=game_id)))
    assert events
    for event in events:
        Draft202012Validator(schemas["payload_json"][event.type]).validate(
            json.loads(event.payload_json))


def test_arbiter_serve_passes_metrics_and_log_format(tmp_path: Path, redis_url: str) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "clients.cli", "serve", "--address", "127.0.0.1:0",
         "--data-dir", str(tmp_path / "data"), "--metrics-address", "127.0.0.1:0",
         "--log-format", "plain"],
        cwd=REPO, env={**os.environ, "REDIS_URL": redis_url}, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("arbiter: serving on 127.0.0.1:0") and "metrics at http://" in line
    finally:
        server.terminate()
        _, err = server.communicate(timeout=30)
    assert server.returncode == 0
    assert "Arbiter stopped" in err and not any(x.startswith("{") for x in err.splitlines())
