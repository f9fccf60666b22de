"""A game whose stored events were edited is refused alone, with its reason
(DESIGN principle 11, "what is served is what the hash chain proves").

Before: a row of a game changed by hand in the SQLite file, after a restart,
answered every call with ``INTERNAL`` "the server failed" (an edit the rules
could not fold), or was served as the edited game (an edit within the rules:
another kingdom for a marker), until someone audited it. Now a game loaded
from the store is checked as it loads (``service.integrity``): its events'
versions, links and digests. A corrupt one is refused with
``DATA_LOSS``/``RECORD_CORRUPT`` naming its first bad version, counted in the
metrics and reported by the health service ``arbiter.records``, while every
other game plays on; repaired, it plays again.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from arbiter.v1 import game_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client.parser import text_string_to_metric_families

from service.integrity import RECORDS_SERVICE
from tests.integration.conftest import ServerProcess
from tests.integration.test_replay import finish, play_on

#: One worker, in this order: the last test repairs the store the others read.
pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("corrupt_game")]

METRICS_AT = re.compile(r"metrics at (http://\S+/metrics)")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("corrupt") / "data", redis_url,
                            {"ARBITER_METRICS_ADDRESS": "127.0.0.1:0"})
    process.start()
    try:
        yield process
    finally:
        process.stop_soon()


def _rows(db: Path, game_id: str) -> dict[int, dict[str, Any]]:
    with sqlite3.connect(db) as con:
        return {v: json.loads(s) for v, s in con.execute(
            "SELECT originator_version, state FROM stored_events WHERE originator_id=?",
            (game_id.replace("-", ""),))}


def _write(db: Path, game_id: str, version: int, state: dict[str, Any] | None) -> None:
    """Change (``state``) or delete (None) one stored event, by hand."""
    key = (game_id.replace("-", ""), version)
    with sqlite3.connect(db) as con:
        if state is None:
            con.execute("DELETE FROM stored_events WHERE originator_id=? AND "
                        "originator_version=?", key)
        else:
            con.execute("UPDATE stored_events SET state=? WHERE originator_id=? AND "
                        "originator_version=?", (json.dumps(state).encode(), *key))


def _first(rows: dict[int, dict[str, Any]], wanted: Callable[[dict[str, Any]], bool]) -> int:
    return min(v for v, state in rows.items() if v > 1 and wanted(state))


def _refusal(server: ServerProcess, game_id: str) -> tuple[grpc.StatusCode, str, str]:
    with pytest.raises(grpc.RpcError) as refused:
        server.stub(server.admin_token).GetState(
            game_pb2.GetStateRequest(game_id=game_id, spectator=True))
    reason = dict(refused.value.trailing_metadata() or ())["arbiter-reason"]
    return refused.value.code(), reason, refused.value.details()


def _records_health(server: ServerProcess) -> int:
    stub = health_pb2_grpc.HealthStub(server.channel())
    return int(stub.Check(health_pb2.HealthCheckRequest(service=RECORDS_SERVICE)).status)


def _metrics(server: ServerProcess) -> dict[str, float]:
    url = METRICS_AT.findall(server.log_path.read_text())[-1]  # this start's port
    with urllib.request.urlopen(url, timeout=10) as reply:
        text = reply.read().decode()
    return {s.name: s.value for f in text_string_to_metric_families(text) for s in f.samples
            if s.name.startswith(("arbiter_records_corrupt", "arbiter_games_corrupt"))}


@pytest.fixture(scope="module")
def edited(server: ServerProcess) -> dict[str, Any]:
    """Four running Ethnos games (no snapshot yet); with the server stopped, one
    row of three of them changed by hand; then the server started again."""
    rnd = random.Random(331)
    games = {name: finish(server, "ethnos", 2, rnd, stop_at=60 if name == "rules" else 20)
             for name in ("crash", "rules", "deleted", "bystander")}
    server.stop()
    db = server.data_dir / "arbiter.sqlite"
    shutil.copy(db, server.data_dir / "pristine.sqlite")
    rows = {name: _rows(db, game_id) for name, (game_id, _) in games.items()}
    # Not a card of the game: the rules could not fold it.
    crash = _first(rows["crash"], lambda s: "card" in s)
    _write(db, games["crash"][0], crash, dict(rows["crash"][crash], card=10_000))
    # Another kingdom of the game for a marker: a state the rules could have made.
    kingdoms = sorted(rows["rules"][1]["setup"]["glory_tokens"])
    marker = _first(rows["rules"], lambda s: "kingdom" in s)
    other = next(k for k in kingdoms if k != rows["rules"][marker]["kingdom"])
    _write(db, games["rules"][0], marker, dict(rows["rules"][marker], kingdom=other))
    _write(db, games["deleted"][0], 7, None)
    server.start()
    return {"games": games, "at": {"crash": crash, "rules": marker, "deleted": 7}, "db": db}


@pytest.mark.parametrize(("name", "why"), [
    ("crash", "its digest does not match its contents"),
    ("rules", "its digest does not match its contents"),
    ("deleted", "it is missing (the next stored event is version 8)"),
])
def test_a_corrupt_game_is_refused_with_its_reason_and_first_bad_version(
    server: ServerProcess, edited: dict[str, Any], name: str, why: str
) -> None:
    game_id, at = edited["games"][name][0], edited["at"][name]
    code, reason, details = _refusal(server, game_id)
    assert (code, reason) == (grpc.StatusCode.DATA_LOSS, "RECORD_CORRUPT")
    assert f"corrupt at version {at} ({why})" in details
    assert "INTERNAL" not in details
    audit = server.stub(server.admin_token).Audit(game_pb2.AuditRequest(game_id=game_id))
    assert not audit.chain_ok and audit.first_failure == at  # the audit still answers


def test_every_other_game_plays_on_and_health_and_metrics_tell(
    server: ServerProcess, edited: dict[str, Any]
) -> None:
    for name in ("crash", "rules", "deleted"):
        _refusal(server, edited["games"][name][0])
    _, created = edited["games"]["bystander"]
    before = server.stub(server.admin_token).GetState(
        game_pb2.GetStateRequest(game_id=created.game_id, spectator=True)).version
    assert play_on(server, created, random.Random(5), moves=3).version > before
    assert _records_health(server) == health_pb2.HealthCheckResponse.NOT_SERVING
    stub = health_pb2_grpc.HealthStub(server.channel())
    assert stub.Check(health_pb2.HealthCheckRequest()).status == \
        health_pb2.HealthCheckResponse.SERVING
    seen = _metrics(server)
    assert seen["arbiter_games_corrupt"] == 3
    assert seen["arbiter_records_corrupt_total"] >= 3


def test_a_repaired_store_plays_again(server: ServerProcess, edited: dict[str, Any]) -> None:
    pristine = server.data_dir / "pristine.sqlite"
    for name in ("crash", "rules", "deleted"):
        game_id = edited["games"][name][0]
        rows = _rows(pristine, game_id)
        for version in (edited["at"][name],):
            _write(edited["db"], game_id, version, None)
            with sqlite3.connect(pristine) as source, sqlite3.connect(edited["db"]) as target:
                row = source.execute(
                    "SELECT * FROM stored_events WHERE originator_id=? AND originator_version=?",
                    (game_id.replace("-", ""), version)).fetchone()
                target.execute(f"INSERT INTO stored_events VALUES ({','.join('?' * len(row))})",
                               row)
        assert rows  # the pristine copy holds the game
        state = server.stub(server.admin_token).GetState(
            game_pb2.GetStateRequest(game_id=game_id, spectator=True))
        assert state.version >= 20
    assert _records_health(server) == health_pb2.HealthCheckResponse.SERVING
    assert _metrics(server)["arbiter_games_corrupt"] == 0
