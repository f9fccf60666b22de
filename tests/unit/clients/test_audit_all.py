"""``arbiter audit --all``'s loop: a bar on a terminal, a table, failures named."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from typing import Any

import grpc
import pytest
from arbiter.client import ArbiterClient, ArbiterError
from arbiter.v1 import game_pb2, game_pb2_grpc

from clients import audit_all
from clients.audit_all import (
    Listed,
    audit_games,
    audit_one,
    render_summary,
    rows_over_connections,
)
from tests.unit.clients.support import serving


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


class NumberedAudits(game_pb2_grpc.GameServiceServicer):
    """Answers the audit of game ``g-N`` with N events (``bad-N``: failed at
    version 2), some more slowly than others, so answers come back out of
    order; notes each game audited and the token it came with."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def Audit(self, request: Any, context: Any) -> game_pb2.AuditResponse:
        self.seen.append((request.game_id,
                          dict(context.invocation_metadata()).get("authorization", "")))
        kind, number = request.game_id.split("-")
        time.sleep(0.002 * (int(number) % 3))
        if kind == "bad":
            return game_pb2.AuditResponse(chain_ok=False, dice_ok=True, replay_ok=True,
                                          events=int(number), over=True, first_failure=2)
        return game_pb2.AuditResponse(chain_ok=True, dice_ok=True, replay_ok=True,
                                      events=int(number), over=True)


def listed(count: int) -> list[Listed]:
    return [Listed(f"{'bad' if n % 7 == 3 else 'g'}-{n}", "enin", n, True)
            for n in range(count)]


@pytest.mark.parametrize("here", [4, 1], ids=["threads", "helper-processes"])
def test_every_game_is_audited_once_over_each_connection_and_the_rows_keep_its_order(
    here: int, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three connections over two servers: this process's threads (as on a
    machine of few cores), or past ``CONNECTIONS_HERE`` helper processes."""
    monkeypatch.setattr(audit_all, "CONNECTIONS_HERE", here)
    games = listed(150)
    first, second = NumberedAudits(), NumberedAudits()
    with serving(first) as one, serving(second) as two, \
            ArbiterClient(one, token="client-token") as client:
        rows = list(rows_over_connections(client, games, "admin", 3, [one, two]))
        alone = [audit_one(client, game, "admin") for game in games]
    assert rows == alone
    assert [r.version for r in rows] == list(range(150))
    assert [r.result for r in rows[3:5]] == ["FAILED at v2", "ok"]
    audited = [game for game, _ in first.seen + second.seen]
    assert sorted(audited) == sorted([g.game_id for g in games] * 2)  # with ``alone``'s
    assert second.seen, "the connection to the second address audited nothing there"
    assert {token for _, token in first.seen + second.seen} == {"Bearer admin"}


class Peers(NumberedAudits):
    """Notes the peer (the client's address and port) of each audit."""

    def __init__(self) -> None:
        super().__init__()
        self.peers: set[str] = set()

    def Audit(self, request: Any, context: Any) -> game_pb2.AuditResponse:
        self.peers.add(context.peer())
        return super().Audit(request, context)


def test_connections_to_one_address_are_connections_of_their_own() -> None:
    """As to a port several server processes share: the kernel hands each
    connection to one of them, so two channels must not share one."""
    service = Peers()
    with serving(service) as address, ArbiterClient(address) as client:
        rows = list(rows_over_connections(client, listed(60), "admin", 2, []))
    assert len(rows) == 60
    assert len(service.peers) == 2, service.peers


def test_one_connection_audits_here_and_starts_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_process(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("another connection was made")

    monkeypatch.setattr(audit_all.subprocess, "Popen", no_process)
    monkeypatch.setattr(audit_all, "own_connection", no_process)
    service = NumberedAudits()
    with serving(service) as address, ArbiterClient(address) as client:
        rows = list(rows_over_connections(client, listed(5), "admin", 1, [address]))
    assert [r.version for r in rows] == list(range(5))


def test_a_helper_that_ends_before_its_answer_fails_the_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(audit_all, "CONNECTIONS_HERE", 1)
    monkeypatch.setattr(audit_all, "HELPER_ARGS", ("-c", "import sys; sys.stdin.readline()"))
    with serving(NumberedAudits()) as address, ArbiterClient(address) as client, \
            pytest.raises(audit_all.HelperFailed, match="ended"):
        list(rows_over_connections(client, listed(100), "admin", 2, [address]))


def test_a_helper_is_this_module_whatever_folder_it_is_started_from(tmp_path: Any) -> None:
    """A helper is handed the tokens on its first line: started from a folder
    holding a ``clients/audit_all.py`` of its own (another checkout, a
    stranger's), it still runs this module, not that one."""
    decoy = tmp_path / "clients"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("")
    (decoy / "audit_all.py").write_text("print('DECOY', flush=True)\n")
    ran = subprocess.run([sys.executable, *audit_all.HELPER_ARGS], cwd=tmp_path,
                         env=audit_all.helper_env(), input="", capture_output=True,
                         text=True, timeout=60, check=False)
    assert "DECOY" not in ran.stdout + ran.stderr


def test_an_audit_refused_for_a_busy_server_is_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``AUDITS_BUSY`` and ``RATE_LIMITED`` say "not now": an audit changes
    nothing, so it is asked again after a wait; any other refusal is its row's."""
    monkeypatch.setattr(audit_all, "BUSY_WAITS", (0.0, 0.0, 0.0))
    answer = game_pb2.AuditResponse(events=3, chain_ok=True, dice_ok=True, replay_ok=True)

    class Busy:
        def __init__(self, refusals: list[str]) -> None:
            self.refusals = refusals

        def audit(self, game_id: str, token: str | None = None) -> Any:
            if self.refusals:
                raise ArbiterError(grpc.StatusCode.RESOURCE_EXHAUSTED, self.refusals.pop(0),
                                   "busy")
            return answer

    game = listed(1)[0]
    assert audit_all.audit_one(Busy(["AUDITS_BUSY", "RATE_LIMITED"]), game, "admin").ok
    always = audit_all.audit_one(Busy(["AUDITS_BUSY"] * 4), game, "admin")
    assert not always.ok and always.result == "error AUDITS_BUSY"
    other = audit_all.audit_one(Busy(["UNKNOWN_GAME"]), game, "admin")
    assert other.result == "error UNKNOWN_GAME"
