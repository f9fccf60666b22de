"""The server's log off a terminal: one JSON object per line, and no secret in it.

A real server process (stderr a file, so JSON by default) serves a few calls,
a refused one included, then stops; every log line must parse as a JSON object,
each call must have its access line (method, game, seat, reason, duration),
the start and stop lines must name the store's file, and no token, the admin
token or the server's secret may appear anywhere in the log.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import grpc
import pytest
from arbiter.v1 import game_pb2

from service.logs import choose_format, redact_url
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import play

pytestmark = [pytest.mark.integration]


def log_records(server: ServerProcess) -> list[dict[str, Any]]:
    """Every stderr line as JSON (the one stdout line, the ready line, left out)."""
    records = []
    for line in server.log_path.read_text().splitlines():
        if line.startswith("arbiter: serving on "):
            continue
        record = json.loads(line)
        assert isinstance(record, dict), line
        assert {"time", "level", "logger", "msg"} <= record.keys(), line
        records.append(record)
    return records


def test_json_lines_access_lines_and_no_secret(tmp_path: Path, redis_url: str) -> None:
    server = ServerProcess(tmp_path / "data", redis_url)
    server.start()
    try:
        created = server.stub("").CreateGame(
            game_pb2.CreateGameRequest(rules="enin", seats=["solo"]))
        seat_token = created.seat_tokens[0].token
        seat_stub = server.stub(seat_token)
        play(seat_stub, created.game_id, 3, random.Random(3))
        assert list(seat_stub.History(game_pb2.HistoryRequest(game_id=created.game_id)))
        with pytest.raises(grpc.RpcError):  # a seat that is not the token's
            seat_stub.LegalActions(game_pb2.LegalActionsRequest(
                game_id=created.game_id, seat=1))
    finally:
        assert server.stop() == 0
    text = server.log_path.read_text()
    records = log_records(server)

    access = [r for r in records if r["logger"] == "arbiter.access"]
    acts = [r for r in access if r["method"] == "Act"]
    assert len(acts) == 3
    for record in acts:
        assert record["game"] == created.game_id and record["seat"] == 0
        assert record["code"] == "OK" and "reason" not in record
        assert isinstance(record["ms"], float | int) and record["ms"] >= 0
    refused = [r for r in access if r.get("reason")]
    assert refused and refused[-1]["method"] == "LegalActions"
    assert refused[-1]["seat"] == 1 and refused[-1]["game"] == created.game_id
    assert refused[-1]["code"] in ("INVALID_ARGUMENT", "PERMISSION_DENIED", "NOT_FOUND")
    assert [r["method"] for r in access if r["method"] == "CreateGame"] == ["CreateGame"]
    assert next(r for r in access if r["method"] == "CreateGame")["game"] == created.game_id
    history = [r for r in access if r["method"] == "History"]
    assert len(history) == 1 and history[0]["code"] == "OK" and history[0]["seat"] == 0

    store = str(tmp_path / "data" / "arbiter.sqlite")
    start = [r for r in records if r.get("event") == "start"]
    stop = [r for r in records if r.get("event") == "stop"]
    assert len(start) == 1 and start[0]["store"] == store and start[0]["port"] == server.port
    assert len(stop) == 1 and stop[0]["store"] == store

    secrets = [server.admin_token, seat_token, created.spectator_token,
               (tmp_path / "data" / "secret").read_text().strip()]
    for secret in filter(None, secrets):
        assert secret not in text


def test_plain_when_asked(tmp_path: Path, redis_url: str) -> None:
    server = ServerProcess(tmp_path / "data", redis_url, {"ARBITER_LOG_FORMAT": "plain"})
    server.start()
    try:
        server.stub().ListRules(game_pb2.ListRulesRequest())
    finally:
        server.stop()
    lines = server.log_path.read_text().splitlines()
    assert not any(line.startswith("{") for line in lines)
    assert any("arbiter.access ListRules OK" in line for line in lines)


def test_format_follows_the_terminal() -> None:
    class Tty:
        def isatty(self) -> bool:
            return True

    class Pipe:
        def isatty(self) -> bool:
            return False

    assert choose_format("", Tty()) == "plain"  # type: ignore[arg-type]
    assert choose_format("", Pipe()) == "json"  # type: ignore[arg-type]
    assert choose_format("JSON", Tty()) == "json"  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        choose_format("xml")


def test_urls_lose_their_passwords() -> None:
    assert redact_url("redis://:s3cret@cache:6379/0") == "redis://***@cache:6379/0"
    assert redact_url("rediss://user:pw@cache:6380/1") == "rediss://user:***@cache:6380/1"
    assert (redact_url("postgresql://arbiter:pw@db:5432/arbiter?sslmode=verify-full"
                       "&password=x") == "postgresql://arbiter:***@db:5432/arbiter")
    assert redact_url("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
    assert redact_url("/var/lib/arbiter/arbiter.sqlite") == "/var/lib/arbiter/arbiter.sqlite"
