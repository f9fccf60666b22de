"""``arbiter audit --all``'s loop: a bar on a terminal, a table, failures named."""

from __future__ import annotations

import io
from typing import Any

import grpc
from arbiter.client import ArbiterError
from arbiter.v1 import game_pb2

from clients.audit_all import audit_games, render_summary


class FakeClient:
    def __init__(self, answers: dict[str, Any]) -> None:
        self.answers = answers

    def audit(self, game_id: str, *, token: str | None = None) -> game_pb2.AuditResponse:
        answer = self.answers[game_id]
        if isinstance(answer, Exception):
            raise answer
        return answer


def summary(game_id: str) -> game_pb2.GameSummary:
    return game_pb2.GameSummary(game_id=game_id, rules="enin", version=9, over=True)


def test_a_bar_a_table_and_the_failing_version() -> None:
    good = game_pb2.AuditResponse(chain_ok=True, dice_ok=True, replay_ok=True, events=9,
                                  over=True)
    bad = game_pb2.AuditResponse(chain_ok=False, dice_ok=True, replay_ok=True, events=9,
                                 over=True, first_failure=4,
                                 problems=["chain: version 4 digest does not match"])
    snap = game_pb2.AuditResponse(chain_ok=True, dice_ok=True, replay_ok=True, events=9,
                                  over=False, bad_snapshots=[100])
    client: Any = FakeClient({
        "a": good, "b": bad, "c": snap,
        "d": ArbiterError.from_parts(grpc.StatusCode.NOT_FOUND, "UNKNOWN_GAME: no game",
                                     [("arbiter-reason", "UNKNOWN_GAME")]),
    })
    bar = io.StringIO()
    rows = audit_games(client, [summary(g) for g in "abcd"], "admin", bar, total=4)
    assert [r.ok for r in rows] == [True, False, False, False]
    assert "\raudit [" in bar.getvalue() and "4/4" in bar.getvalue()
    assert "3 FAILED" in bar.getvalue()
    table = render_summary(rows)
    assert "FAILED at v4" in table and "chain: version 4 digest does not match" in table
    assert "error UNKNOWN_GAME" in table
    assert table.endswith("4 games audited, 1 ok, 3 failed")
    quiet = audit_games(client, [summary("a")], "admin", None)
    assert quiet[0].result == "ok"
