"""Replay and audit a player can take home (issue 9, items 1-3), against real
server processes on a real SQLite file.

- Time travel: ``GetState`` at every version before the end (up to a middle
  by which every seat has had every kind of event that moves a card into or
  out of a hand), for every seat, equals what that seat saw then (its live
  view at each move, the fold of the record it was sent) and never shows
  another seat's hidden cards; after the end anyone reads every seat's view
  at every seventh version.
- ``History`` carries each event's real global position.
- Export then offline verify passes for random finished games; tampering with
  the SQLite file (a payload changed, an event deleted, two swapped, the
  revealed seed changed, a snapshot edited) and with the exported record makes
  ``Audit`` and offline verification name the exact version that fails.
- ``arbiter audit --all`` / ``--since`` over the whole store.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from arbiter.client import ArbiterClient
from arbiter.v1 import game_pb2

from aggregates.catalog import GAMES
from aggregates.kernel.record.audit import Record
from aggregates.kernel.record.verify import fold, folding
from aggregates.records import export_lines, read_record, records_of, verify_lines
from tests.integration.cli_here import run_cli
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import FeedCollector
from tests.soak import cases

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]


def finish(server: ServerProcess, rules: str, seats: int, rnd: random.Random,
           moves: int = 5000, stop_at: int = 0) -> tuple[str, Any]:
    """A game played with random legal moves (each seat with its own token),
    to its end or to ``stop_at`` events; returns (game id, CreateGameResponse)."""
    created = server.stub("").CreateGame(game_pb2.CreateGameRequest(
        rules=rules, seats=[f"p{n}" for n in range(seats)]))
    play_on(server, created, rnd, moves, stop_at)
    return created.game_id, created


def play_on(server: ServerProcess, created: Any, rnd: random.Random, moves: int = 5000,
            stop_at: int = 0, after_move: Any = None,
            until: Callable[[], bool] | None = None) -> game_pb2.GameState:
    """Random legal moves: at most ``moves``, to the end, to ``stop_at``
    events, or until ``until()`` (asked before each move) holds."""
    stubs = {t.seat: server.stub(t.token) for t in created.seat_tokens}
    state = stubs[0].GetState(game_pb2.GetStateRequest(game_id=created.game_id, seat=0))
    for _ in range(moves):
        if state.over or (stop_at and state.version >= stop_at) or (until and until()):
            break
        seat = state.pending[0].seat
        legal = stubs[seat].LegalActions(
            game_pb2.LegalActionsRequest(game_id=created.game_id, seat=seat))
        action = rnd.choice(list(legal.actions))
        reply = stubs[seat].Act(game_pb2.ActRequest(
            game_id=created.game_id, seat=seat, command=action.command))
        state = reply.state
        if after_move is not None:
            after_move(reply)
    return state


def exported(server: ServerProcess, game_id: str, seat: int | None = None,
             token: str | None = None) -> list[str]:
    """The record's lines as ``arbiter export`` writes them (through the client library)."""
    with ArbiterClient(server.address, token=token or server.admin_token) as client:
        spectator = seat is None
        state = client.state(game_id, seat or 0, spectator)
        events = list(client.history(game_id, seat or 0, spectator))
    return list(export_lines(state, events, "spectator" if spectator else f"seat {seat}"))


def verify_text(lines: list[str]) -> Any:
    header, event_lines = read_record(lines)
    return verify_lines(header, event_lines)


def arbiter(server: ServerProcess, *args: str, token: str | None = None,
            stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env_token = ["--token", token] if token else []
    return run_cli([*args, "--address", server.address, *env_token], stdin=stdin, cwd=REPO)


# ------------------------------------------------------------- export/verify


#: Exported and verified: a game of each, at two table sizes in the suite; a
#: second Enin and the largest Ethnos table (six seats, the longest game)
#: under ``make soak``.
@pytest.mark.parametrize(("rules", "seats", "seed"), cases(
    [("enin", 1, 1), ("ethnos", 2, 3), ("ethnos", 4, 4)],
    [("enin", 1, 2), ("ethnos", 6, 5)]))
def test_export_then_offline_verify_passes(
    shared_server: ServerProcess, rules: str, seats: int, seed: int
) -> None:
    game_id, created = finish(shared_server, rules, seats, random.Random(seed))
    lines = exported(shared_server, game_id, token=created.spectator_token)
    header = json.loads(lines[0])
    assert header["over"] and header["seed"] and header["rules_version"]
    assert header["reader"] == "full record"
    events = [json.loads(line) for line in lines[1:]]
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert all(e["meta"] is not None and e["position"] > 0 for e in events)
    assert any(e["meta"].get("cmd") for e in events) and any(e["meta"]["draws"] for e in events)
    verdict = verify_text(lines)
    assert verdict.ok and verdict.complete, verdict.report.problems
    assert verdict.report.commands > 0 and verdict.report.dice > 0
    assert not verdict.not_checked


def test_export_and_verify_on_the_command_line(
    shared_server: ServerProcess, tmp_path: Path
) -> None:
    game_id, created = finish(shared_server, "ethnos", 3, random.Random(7))
    out = arbiter(shared_server, "export", game_id, token=created.spectator_token)
    assert out.returncode == 0, out.stderr
    path = tmp_path / "game.arbiter.jsonl"
    path.write_text(out.stdout)
    verified = arbiter(shared_server, "verify", str(path), "--address", "127.0.0.1:1")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "Verification PASSED" in verified.stdout and "re-executed" in verified.stdout
    # the online form reads the same record from History
    online = arbiter(shared_server, "verify", game_id, token=created.spectator_token)
    assert online.returncode == 0 and "Verification PASSED" in online.stdout


def test_a_running_game_exports_a_seats_own_view(shared_server: ServerProcess) -> None:
    """Redacted, seedless: the links are checked, the rest is named as unchecked."""
    game_id, created = finish(shared_server, "ethnos", 3, random.Random(8), stop_at=60)
    token = created.seat_tokens[1].token
    lines = exported(shared_server, game_id, seat=1, token=token)
    header = json.loads(lines[0])
    assert not header["over"] and not header["seed"] and header["reader"] == "seat 1"
    events = [json.loads(line) for line in lines[1:]]
    assert all(e["meta"] is None for e in events)
    assert any(e["redacted"] for e in events)
    verdict = verify_text(lines)
    assert verdict.ok and not verdict.complete
    assert any("links" in c for c in verdict.checked)
    assert any("dice" in n for n in verdict.not_checked)
    assert any("salted" in n for n in verdict.not_checked)
    # a broken link is still a failure, at its version
    events[10]["prev"] = "f" * 64
    broken = [lines[0], *(json.dumps(e) for e in events)]
    assert verify_text(broken).first_failure == 11
    # the CLI says so and exits 0 (issue 12, item 2)
    out = arbiter(shared_server, "verify", game_id, "--seat", "1", token=token)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "PASSED for what could be checked" in out.stdout and "dice" in out.stdout


# ------------------------------------------------------------------ tampering


def _sqlite(server: ServerProcess) -> Path:
    return server.data_dir / "arbiter.sqlite"


def _edit_state(con: sqlite3.Connection, table: str, game_id: str, version: int,
                edit: Any) -> None:
    row = con.execute(
        f"SELECT state FROM {table} WHERE originator_id=? AND originator_version=?",  # noqa: S608
        (game_id.replace("-", ""), version)).fetchone()
    assert row is not None, (table, version)
    state = json.loads(row[0])
    edit(state)
    con.execute(
        f"UPDATE {table} SET state=? WHERE originator_id=? AND originator_version=?",  # noqa: S608
        (json.dumps(state).encode(), game_id.replace("-", ""), version))


def _snapshot_holding_a_hand(server: ServerProcess, game_id: str) -> int:
    """The version of the game's first stored snapshot in which some hand holds a card."""
    with sqlite3.connect(server.data_dir / "pristine.sqlite") as con:
        rows = con.execute(
            "SELECT originator_version, state FROM stored_snapshots WHERE originator_id=? "
            "ORDER BY originator_version", (game_id.replace("-", ""),)).fetchall()
    held = [version for version, state in rows if any(json.loads(state)["state"]["hands"])]
    assert held, f"no snapshot of {game_id} has a card in a hand"
    return int(held[0])


@pytest.fixture
def tampered_game(arbiter_server: ServerProcess) -> Iterator[tuple[ServerProcess, str, list[str]]]:
    """A finished Ethnos game with snapshots, its exported record, and the
    server stopped with a pristine copy of its store kept aside."""
    rnd = random.Random(11)
    while True:
        game_id, _ = finish(arbiter_server, "ethnos", 3, rnd)
        lines = exported(arbiter_server, game_id)
        if len(lines) > 230:
            break
    arbiter_server.stop()
    shutil.copy(_sqlite(arbiter_server), arbiter_server.data_dir / "pristine.sqlite")
    yield arbiter_server, game_id, lines
    arbiter_server.stop()


def _audit_after(server: ServerProcess, game_id: str, tamper: Any) -> game_pb2.AuditResponse:
    shutil.copy(server.data_dir / "pristine.sqlite", _sqlite(server))
    for extra in ("-wal", "-shm"):
        Path(str(_sqlite(server)) + extra).unlink(missing_ok=True)
    with sqlite3.connect(_sqlite(server)) as con:
        tamper(con)
    server.start()
    try:
        return server.stub().Audit(game_pb2.AuditRequest(game_id=game_id))
    finally:
        server.stop()


def _pick(events: list[dict[str, Any]], kind: str, after: int = 5) -> int:
    return next(e["version"] for e in events if e["type"] == kind and e["version"] > after)


def test_tampering_is_named_by_version(
    tampered_game: tuple[ServerProcess, str, list[str]],
) -> None:
    server, game_id, lines = tampered_game
    header, events = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    assert verify_text(lines).ok
    dealt = _pick(events, "CardDealt", after=120)
    last = events[-1]["version"]

    def with_events(changed: list[dict[str, Any]], head: dict[str, Any] = header) -> list[str]:
        return [json.dumps(head), *(json.dumps(e) for e in changed)]

    # 1. one event's payload changed
    def new_card(state: dict[str, Any]) -> None:
        state["card"] = state["card"] + 1 if state["card"] < 50 else state["card"] - 1

    audit = _audit_after(server, game_id, lambda con: _edit_state(
        con, "stored_events", game_id, dealt, new_card))
    assert not audit.chain_ok and not audit.replay_ok and audit.first_failure == dealt
    changed = [dict(e) for e in events]
    changed[dealt - 1] = {**changed[dealt - 1], "payload": dict(changed[dealt - 1]["payload"])}
    new_card(changed[dealt - 1]["payload"])
    assert verify_text(with_events(changed)).first_failure == dealt

    # 2. one event deleted
    gone = dealt + 3
    audit = _audit_after(server, game_id, lambda con: con.execute(
        "DELETE FROM stored_events WHERE originator_id=? AND originator_version=?",
        (game_id.replace("-", ""), gone)))
    assert not audit.chain_ok and audit.first_failure == gone
    verdict = verify_text(with_events([e for e in events if e["version"] != gone]))
    assert not verdict.ok and verdict.first_failure == gone

    # 3. two events swapped
    first, second = dealt + 1, dealt + 6

    def swap(con: sqlite3.Connection) -> None:
        oid = game_id.replace("-", "")
        rows = {v: con.execute(
            "SELECT topic, state FROM stored_events WHERE originator_id=? AND "
            "originator_version=?", (oid, v)).fetchone() for v in (first, second)}
        for v, other in ((first, second), (second, first)):
            con.execute("UPDATE stored_events SET topic=?, state=? WHERE originator_id=? "
                        "AND originator_version=?", (*rows[other], oid, v))

    audit = _audit_after(server, game_id, swap)
    assert not audit.chain_ok and audit.first_failure == first
    swapped = list(events)
    swapped[first - 1], swapped[second - 1] = swapped[second - 1], swapped[first - 1]
    assert verify_text(with_events(swapped)).first_failure == first

    # 4. the revealed seed changed: in the store (the Ended event) ...
    def other_seed(state: dict[str, Any]) -> None:
        state["seed"] = "00" * 32

    audit = _audit_after(server, game_id, lambda con: _edit_state(
        con, "stored_events", game_id, last, other_seed))
    assert not audit.chain_ok and audit.first_failure == last
    # ... and in the exported record, everywhere it appears: the commitment fails at 1
    forged = [dict(e) for e in events]
    forged[0] = {**forged[0], "payload": {**forged[0]["payload"], "seed": "00" * 32}}
    forged[-1] = {**forged[-1], "payload": {**forged[-1]["payload"], "seed": "00" * 32}}
    verdict = verify_text(with_events(forged, {**header, "seed": "00" * 32}))
    assert not verdict.ok and verdict.first_failure == 1
    assert any("commitment" in p for p in verdict.report.problems)
    only_header = verify_text(with_events(events, {**header, "seed": "00" * 32}))
    assert not only_header.ok and only_header.first_failure == 1

    # 5. a snapshot edited: a card moved from one hand to another (the first
    # snapshot where a hand holds one: at an Age's end every hand is discarded)
    def steal(state: dict[str, Any]) -> None:
        hands = state["state"]["hands"]
        giver = next(s for s, hand in enumerate(hands) if hand)
        hands[(giver + 1) % len(hands)].append(hands[giver].pop())

    snapshot = _snapshot_holding_a_hand(server, game_id)
    audit = _audit_after(server, game_id, lambda con: _edit_state(
        con, "stored_snapshots", game_id, snapshot, steal))
    assert list(audit.bad_snapshots) == [snapshot] and audit.first_failure == snapshot
    assert any(f"snapshot at version {snapshot}" in p for p in audit.problems)

    # untouched, the store audits clean (and the CLI says which version failed otherwise)
    audit = _audit_after(server, game_id, lambda con: None)
    assert audit.chain_ok and audit.dice_ok and audit.replay_ok and not audit.first_failure


# ---------------------------------------------------------------- time travel


class _Reader:
    """``GetState`` of one game, with one stub (one channel) kept per token:
    a stub made for each read was a third of the reads' time."""

    def __init__(self, server: ServerProcess, game_id: str) -> None:
        self.server, self.game_id = server, game_id
        self.stubs: dict[str, Any] = {}

    def __call__(self, token: str, version: int | None, seat: int | None) -> game_pb2.GameState:
        request = game_pb2.GetStateRequest(game_id=self.game_id, seat=seat or 0,
                                           spectator=seat is None)
        if version is not None:
            request.version = version
        if token not in self.stubs:
            self.stubs[token] = self.server.stub(token)
        return self.stubs[token].GetState(request)


def _views(records: list[Record], versions: range) -> Iterator[Any]:
    """The Ethnos game folded from ``records`` at each of ``versions`` (ascending), in
    one pass (``folding``: the one game object, stepped on in place), where a
    ``fold`` from the start at each version was a fifth of the test's time;
    every version asked for is reached, or this fails."""
    wanted = iter(versions)
    want = next(wanted, None)
    for game in folding(records, GAMES["ethnos"]):
        if want is None:
            return
        if game.version == want:
            yield game
            want = next(wanted, None)
    assert want is None, f"the record ends before version {want}"


def _card_ids(value: Any) -> set[int]:
    """Every card id in a view's ``hand`` (the only place hidden cards go)."""
    return {c["id"] for c in value.get("hand", [])}


#: After the end, every seat's view is read again at every so many versions.
AFTER_END_STRIDE = 7
#: The kinds of event that put cards into a hand or take them out (a deal and
#: a draw from the deck are read by their seat alone).
HAND_EVENTS = frozenset({"CardDealt", "DrewFromDeck", "RecruitedFaceUp", "BandPlayed",
                         "HandDiscarded"})
#: The middle of the game, up to which every seat's every version is read
#: back: from ``MIDDLE_AT_LEAST`` on until every seat has had every kind of
#: ``HAND_EVENTS`` (at versions 65-88 in three runs), at most
#: ``MIDDLE_AT_MOST`` (the fixed middle it was; every kind has been seen by
#: then, or the test fails). The fixed middle read back about twice the
#: versions, the same kinds of event (the rest are a tribe's public tokens
#: and markers, and an Age's end, which comes later).
MIDDLE_AT_LEAST = 40
MIDDLE_AT_MOST = 160


def test_the_state_at_every_version_is_what_each_seat_saw(shared_server: ServerProcess) -> None:
    server = shared_server
    seats = 3
    created = server.stub("").CreateGame(game_pb2.CreateGameRequest(
        rules="ethnos", seats=[f"p{n}" for n in range(seats)]))
    game_id = created.game_id
    tokens = {t.seat: t.token for t in created.seat_tokens}
    feeds = {s: FeedCollector(server.stub(tokens[s]), game_pb2.SubscribeRequest(
        game_id=game_id, seat=s, spectator=False)) for s in range(seats)}
    _state = _Reader(server, game_id)
    live: dict[tuple[int, int | None], str] = {}
    acted: dict[int, list[game_pb2.Event]] = {}
    #: After the middle, the versions read again at the end (every 7th): the
    #: only live views compared then (reading every move's, 4 reads a move,
    #: was a seventh used and an eighth of the test's time).
    checked_after: set[int] | None = None

    def seen_now() -> None:
        for s in (*range(seats), None):
            token = tokens[s] if s is not None else created.spectator_token
            now = _state(token, None, s)
            live[(now.version, s)] = now.view_json

    admin = server.stub()
    moved = _hand_moves(admin.History(game_pb2.HistoryRequest(game_id=game_id)))  # the deal

    def look(reply: Any) -> None:
        acted[reply.version] = list(reply.events)
        moved.update(_hand_moves(reply.events))
        if checked_after is None or reply.version in checked_after:
            seen_now()

    every_kind_to_every_seat = {(kind, s) for kind in HAND_EVENTS for s in range(seats)}
    rnd = random.Random(21)
    seen_now()
    play_on(server, created, rnd, stop_at=MIDDLE_AT_LEAST, after_move=look)
    state = play_on(server, created, rnd, stop_at=MIDDLE_AT_MOST, after_move=look,
                    until=lambda: moved >= every_kind_to_every_seat)
    mid = state.version

    # Before the end: each seat's past is its own; nobody reads another's seat.
    history = list(admin.History(game_pb2.HistoryRequest(game_id=game_id)))
    assert {kind for kind, _ in _hand_moves(history)} == HAND_EVENTS, "a kind never read back"
    records = records_of({"game_id": game_id}, [_line(e) for e in history])
    compared = 0
    before = range(1, mid + 1)
    for v, folded in zip(before, _views(records, before), strict=True):
        for s in range(seats):
            past = _state(tokens[s], v, s)
            assert past.version == v and not past.over and not past.seed
            view = json.loads(past.view_json)
            assert view == json.loads(json.dumps(folded.view(s))), (v, s)
            if (v, s) in live:
                assert past.view_json == live[(v, s)], (v, s)
                compared += 1
            others = set().union(*(folded.hands[t] for t in range(seats) if t != s))
            assert not _card_ids(view) & others
        spectator = _state(created.spectator_token, v, None)
        assert "hand" not in json.loads(spectator.view_json)
        if (v, None) in live:
            assert spectator.view_json == live[(v, None)]
    assert compared > 30  # every move's live view, for every seat
    with pytest.raises(grpc.RpcError) as refused:
        _state(tokens[1], 5, 0)
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.RpcError) as refused:
        _state(tokens[0], mid + 1, 0)
    assert refused.value.code() == grpc.StatusCode.OUT_OF_RANGE
    admin_view = json.loads(_state(server.admin_token, 20, 2).view_json)
    assert admin_view == json.loads(json.dumps(fold(records, GAMES["ethnos"], 20).view(2)))

    # The streams each seat followed match the store, version by version.
    checked_after = set(range(1, 1 << 16, AFTER_END_STRIDE))
    state = play_on(server, created, random.Random(22), after_move=look)
    assert state.over
    for feed in feeds.values():
        assert feed.wait_for(lambda f: any(m.startswith("ended") for m in f.statuses), 30)
        feed.close()
        versions = [e.version for e in feed.events]
        assert versions == list(range(1, state.version + 1))
    history = list(admin.History(game_pb2.HistoryRequest(game_id=game_id)))
    records = records_of({"game_id": game_id}, [_line(e) for e in history])

    # After the end anyone with a credential reads every version of every seat.
    strided = range(1, state.version + 1, AFTER_END_STRIDE)
    for v, folded in zip(strided, _views(records, strided), strict=True):
        for s in range(seats):
            past = _state(created.spectator_token, v, s)
            assert json.loads(past.view_json) == json.loads(json.dumps(folded.view(s)))
            assert past.head_digest == feeds[s].events[v - 1].digest == history[v - 1].digest
            assert past.seed  # revealed now
            if (v, s) in live:
                assert past.view_json == live[(v, s)]

    # History carries each event's real global position: the ones Act returned.
    positions = {e.version: e.position for e in history}
    assert all(p > 0 for p in positions.values())
    assert sorted(positions.values()) == [positions[v] for v in sorted(positions)]
    for events in acted.values():
        for ev in events:
            assert ev.position == positions[ev.version]
    for feed in feeds.values():
        assert [e.position for e in feed.events] == [positions[e.version] for e in feed.events]
    later = list(admin.History(game_pb2.HistoryRequest(game_id=game_id, after_version=50)))
    assert [e.position for e in later] == [positions[v] for v in range(51, state.version + 1)]


def _hand_moves(events: Iterable[game_pb2.Event]) -> set[tuple[str, int]]:
    """The kinds of ``HAND_EVENTS`` among ``events``, with the seat of each."""
    return {(e.type, json.loads(e.payload_json)["seat"]) for e in events
            if e.type in HAND_EVENTS}


def _line(ev: game_pb2.Event) -> dict[str, Any]:
    from aggregates.records import event_line

    return event_line(ev)


def test_state_version_on_the_command_line(shared_server: ServerProcess) -> None:
    game_id, created = finish(shared_server, "enin", 1, random.Random(31), stop_at=12)
    token = created.seat_tokens[0].token
    out = arbiter(shared_server, "state", game_id, "--version", "3", "--json", token=token)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["version"] in (3, "3")
    bad = arbiter(shared_server, "state", game_id, "--version", "999", token=token)
    assert bad.returncode == 1 and "BAD_VERSION" in bad.stderr


# ------------------------------------------------------------ the whole store


def test_audit_all_and_since(arbiter_server: ServerProcess) -> None:
    server = arbiter_server
    finished = [finish(server, "enin", 1, random.Random(n))[0] for n in range(2)]
    running, _ = finish(server, "ethnos", 2, random.Random(5), stop_at=20)
    out = arbiter(server, "audit", "--all", token=server.admin_token)
    assert out.returncode == 0, out.stdout + out.stderr
    for game_id in (*finished, running):
        assert game_id in out.stdout
    assert "3 games audited, 3 ok, 0 failed" in out.stdout
    assert "\r" not in out.stderr  # no progress bar off a terminal

    since = arbiter(server, "audit", "--since", "0", token=server.admin_token)
    assert since.returncode == 0 and "3 games audited" in since.stdout
    mark = int(since.stdout.rsplit("high-water position: ", 1)[1].split()[0])
    nothing = arbiter(server, "audit", "--since", str(mark), token=server.admin_token)
    assert nothing.returncode == 0 and "(no games to audit)" in nothing.stdout
    play_on(server, _created_for(server, running), random.Random(6), moves=3)
    one = arbiter(server, "audit", "--since", str(mark), token=server.admin_token)
    assert one.returncode == 0 and running in one.stdout and "1 games audited" in one.stdout
    refused = arbiter(server, "audit", "--all", token="not-the-admin")
    assert refused.returncode == 1

    # a damaged game fails the whole run, named with its version
    server.stop()
    with sqlite3.connect(_sqlite(server)) as con:
        _edit_state(con, "stored_events", finished[0], 3,
                    lambda state: state["meta"].__setitem__("rng", 999))
    server.start()
    failed = arbiter(server, "audit", "--all", token=server.admin_token)
    assert failed.returncode == 1 and "FAILED at v3" in failed.stdout
    assert "1 failed" in failed.stdout


def _created_for(server: ServerProcess, game_id: str) -> Any:
    """Seat tokens of a game for ``play_on``: the admin acts for every seat."""
    state = server.stub().GetState(game_pb2.GetStateRequest(game_id=game_id))
    return game_pb2.CreateGameResponse(game_id=game_id, seat_tokens=[
        game_pb2.SeatToken(seat=n, token=server.admin_token) for n in range(len(state.seats))])
