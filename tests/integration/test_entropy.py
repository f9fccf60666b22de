"""Dice nobody chose (issue 9 item 6), against real server processes.

- ``CreateGame`` records the request's entropy; ``Contribute`` records a
  seat's, once, with the seat's own token, as a public ``EntropyAdded``
  event; both are mixed into the dice, and ``Audit`` and offline ``verify``
  pass with them.
- Nobody reads the seed before the end, the admin included: not through
  ``GetState`` (now or at a version), ``History``, ``Subscribe``, ``Audit`` or
  an export; the end reveals it.
- A contribution changed in the store fails ``Audit`` at its version.
- ``arbiter new --entropy`` sends a contribution (a random one by default);
  ``arbiter verify --my-seed`` says whether a contribution was used.
"""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
from datetime import UTC
from pathlib import Path
from typing import Any

import grpc
import pytest
from arbiter.client import ArbiterClient
from arbiter.v1 import game_pb2

from aggregates.kernel.record import chain
from aggregates.records import export_lines
from clients.verify import verify_history
from tests.integration.cli_here import run_cli
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import FeedCollector

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
MINE = bytes.fromhex("c0ffee" * 8)


def stored(server: ServerProcess, game_id: str, version: int) -> dict[str, Any]:
    """An event's stored state, read from the SQLite file itself."""
    with sqlite3.connect(server.data_dir / "arbiter.sqlite") as con:
        row = con.execute(
            "SELECT state FROM stored_events WHERE originator_id=? AND originator_version=?",
            (game_id.replace("-", ""), version)).fetchone()
    assert row is not None
    state: dict[str, Any] = json.loads(row[0])
    return state


def play(server: ServerProcess, created: Any, rnd: random.Random, moves: int) -> Any:
    """Random legal moves, each seat with its own token; stops at the end."""
    stubs = {t.seat: server.stub(t.token) for t in created.seat_tokens}
    state = stubs[0].GetState(game_pb2.GetStateRequest(game_id=created.game_id, seat=0))
    for _ in range(moves):
        if state.over:
            break
        seat = state.pending[0].seat
        legal = stubs[seat].LegalActions(
            game_pb2.LegalActionsRequest(game_id=created.game_id, seat=seat))
        state = stubs[seat].Act(game_pb2.ActRequest(
            game_id=created.game_id, seat=seat, command=rnd.choice(list(legal.actions)).command,
        )).state
    return state


def rechained(events: list[game_pb2.Event], seed: str, edit_created: Any,
              ) -> list[game_pb2.Event]:
    """A History with the creation payload edited and the whole chain
    recomputed, as anyone holding the revealed seed could."""
    out, prev = [], chain.GENESIS
    for ev in events:
        copy = game_pb2.Event()
        copy.CopyFrom(ev)
        payload = json.loads(ev.payload_json)
        if ev.version == 1:
            payload = edit_created(payload)
        meta = {**json.loads(ev.meta_json), "prev": prev}
        meta["digest"] = chain.digest(
            prev, ev.game_id, ev.version, ev.type, ev.time.ToDatetime(tzinfo=UTC).isoformat(),
            payload, meta, chain.salt(seed, ev.version))
        copy.payload_json, copy.meta_json = json.dumps(payload), json.dumps(meta)
        copy.prev_digest, copy.digest = prev, meta["digest"]
        prev = meta["digest"]
        out.append(copy)
    return out


def arbiter(server: ServerProcess, *args: str, token: str | None = None,
            ) -> subprocess.CompletedProcess[str]:
    env_token = ["--token", token] if token else []
    return run_cli([*args, "--address", server.address, *env_token], cwd=REPO)


def test_contributions_are_recorded_mixed_in_and_verified(
    shared_server: ServerProcess, tmp_path: Path
) -> None:
    server = shared_server
    created = server.stub("").CreateGame(game_pb2.CreateGameRequest(
        rules="ethnos", seats=["a", "b", "c"], entropy=[b"\x01\x02", b"\x03"]))
    game_id = created.game_id
    assert stored(server, game_id, 1)["entropy"] == ["0102", "03"]
    seat1 = server.stub(created.seat_tokens[1].token)
    reply = seat1.Contribute(game_pb2.ContributeRequest(game_id=game_id, seat=1, entropy=MINE))
    assert reply.recorded and reply.version > 1
    added = stored(server, game_id, reply.version)
    assert added["seat"] == 1 and added["entropy"] == MINE.hex()
    # a retry records nothing; other bytes, another seat's token or a bad size are refused
    again = seat1.Contribute(game_pb2.ContributeRequest(game_id=game_id, seat=1, entropy=MINE))
    assert not again.recorded and again.version == reply.version
    for stub, seat, entropy, code in [
        (seat1, 1, b"\x09", grpc.StatusCode.FAILED_PRECONDITION),
        (seat1, 0, b"\x09", grpc.StatusCode.PERMISSION_DENIED),
        (server.stub(created.seat_tokens[0].token), 0, b"", grpc.StatusCode.INVALID_ARGUMENT),
        (server.stub(created.seat_tokens[0].token), 0, bytes(65),
         grpc.StatusCode.INVALID_ARGUMENT),
    ]:
        with pytest.raises(grpc.RpcError) as refused:
            stub.Contribute(game_pb2.ContributeRequest(game_id=game_id, seat=seat,
                                                       entropy=entropy))
        assert refused.value.code() == code, (seat, entropy)
    # everyone reads the contributions (a seat sees its own on the record)
    spectator = server.stub(created.spectator_token)
    history = list(spectator.History(game_pb2.HistoryRequest(game_id=game_id, spectator=True)))
    assert json.loads(history[0].payload_json)["entropy"] == ["0102", "03"]
    entropy_event = history[reply.version - 1]
    assert entropy_event.type == "EntropyAdded" and not entropy_event.redacted
    state = play(server, created, random.Random(5), 5000)
    assert state.over and state.seed
    audit = server.stub().Audit(game_pb2.AuditRequest(game_id=game_id))
    assert audit.chain_ok and audit.dice_ok and audit.replay_ok, audit.problems
    # the History check (clients.verify) mixes the contributions in too
    full = list(spectator.History(game_pb2.HistoryRequest(game_id=game_id, spectator=True)))
    assert verify_history(full).ok
    # contributions dropped, every digest recomputed with the revealed seed: the dice fail
    assert verify_history(rechained(full, state.seed, lambda p: p)).ok
    forged = rechained(full, state.seed, lambda p: {**p, "entropy": []})
    problems = verify_history(forged).problems
    assert problems and all("is not fair" in p for p in problems), problems
    # offline, with --my-seed: the seat's contribution was used; another was not
    out = arbiter(server, "export", game_id, token=created.spectator_token)
    path = tmp_path / "game.arbiter.jsonl"
    path.write_text(out.stdout)
    mine = arbiter(server, "verify", str(path), "--my-seed", MINE.hex())
    assert mine.returncode == 0, mine.stdout + mine.stderr
    assert "Verification PASSED" in mine.stdout and "3 entropy contributions" in mine.stdout
    assert f"your entropy {MINE.hex()}: used, recorded in version {reply.version}" in mine.stdout
    other = arbiter(server, "verify", str(path), "--my-seed", "abcdef")
    assert other.returncode == 1 and "NOT on the record" in other.stdout


def test_the_admin_reads_no_seed_before_the_end(shared_server: ServerProcess) -> None:
    server = shared_server
    admin = server.stub()
    created = admin.CreateGame(game_pb2.CreateGameRequest(
        rules="ethnos", seats=["a", "b", "c"], entropy=[MINE]))
    game_id = created.game_id
    seed = stored(server, game_id, 1)["seed"]
    feed = FeedCollector(admin, game_pb2.SubscribeRequest(game_id=game_id, seat=0))
    state = play(server, created, random.Random(6), 25)
    assert not state.over
    seen: list[str] = []
    now = admin.GetState(game_pb2.GetStateRequest(game_id=game_id, seat=1))
    seen.append(str(now))
    for version in (1, 5, now.version):
        seen.append(str(admin.GetState(game_pb2.GetStateRequest(
            game_id=game_id, seat=0, version=version))))
    history = list(admin.History(game_pb2.HistoryRequest(game_id=game_id)))
    assert history[0].meta_json, "the admin still reads the full record (hidden cards)"
    assert "seed" not in json.loads(history[0].payload_json) and history[0].redacted
    seen.extend(str(ev) for ev in history)
    audit = admin.Audit(game_pb2.AuditRequest(game_id=game_id))
    assert audit.dice_ok and not audit.seed
    seen.append(str(audit))
    with ArbiterClient(server.address, token=server.admin_token) as client:
        lines = list(export_lines(client.state(game_id, 0, False),
                                  client.history(game_id, 0, False), "admin"))
    assert json.loads(lines[0])["seed"] == ""
    seen.extend(lines)
    assert feed.wait_for(lambda f: len(f.events) >= now.version, 30)
    feed.close()
    seen.extend(str(ev) for ev in feed.events)
    leaked = [text[:80] for text in seen if seed in text]
    assert not leaked, leaked
    # the end reveals it to everyone
    state = play(server, created, random.Random(7), 5000)
    assert state.over and state.seed == seed
    history = list(admin.History(game_pb2.HistoryRequest(game_id=game_id)))
    assert json.loads(history[0].payload_json)["seed"] == seed


def test_a_contribution_changed_in_the_store_fails_the_audit_at_its_version(
    arbiter_server: ServerProcess,
) -> None:
    """Enin rolls on most moves, so dice follow the contribution (a game that
    rolls nothing after it would notice only in the chain)."""
    server = arbiter_server
    created = server.stub("").CreateGame(game_pb2.CreateGameRequest(
        rules="enin", seats=["solo"]))
    game_id = created.game_id
    seat0 = server.stub(created.seat_tokens[0].token)
    at = seat0.Contribute(game_pb2.ContributeRequest(
        game_id=game_id, seat=0, entropy=MINE)).version
    play(server, created, random.Random(9), 30)
    assert any(stored(server, game_id, v)["meta"]["draws"] for v in range(at + 1, at + 4))
    assert server.stub().Audit(game_pb2.AuditRequest(game_id=game_id)).dice_ok
    server.stop()
    state = stored(server, game_id, at)
    state["entropy"] = "ff" * 24
    with sqlite3.connect(server.data_dir / "arbiter.sqlite") as con:
        con.execute(
            "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
            (json.dumps(state).encode(), game_id.replace("-", ""), at))
    server.start()
    audit = server.stub().Audit(game_pb2.AuditRequest(game_id=game_id))
    assert not audit.dice_ok and not audit.chain_ok, audit.problems
    assert audit.first_failure == at


def test_arbiter_new_sends_entropy_random_by_default(shared_server: ServerProcess) -> None:
    server = shared_server
    chosen = arbiter(server, "new", "enin", "--entropy", "ABCDEF", "-q")
    assert chosen.returncode == 0, chosen.stderr
    assert stored(server, chosen.stdout.strip(), 1)["entropy"] == ["abcdef"]
    auto = arbiter(server, "new", "enin")
    assert auto.returncode == 0, auto.stderr
    game_id = auto.stdout.split("game id:")[1].split()[0]
    recorded = stored(server, game_id, 1)["entropy"]
    assert len(recorded) == 1 and len(bytes.fromhex(recorded[0])) == 32
    assert f"--my-seed {recorded[0]}" in auto.stdout
    none = arbiter(server, "new", "enin", "--entropy", "none", "-q")
    assert stored(server, none.stdout.strip(), 1)["entropy"] == []
    bad = arbiter(server, "new", "enin", "--entropy", "xyz")
    assert bad.returncode != 0 and "--entropy" in bad.stderr
