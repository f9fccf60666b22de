"""Reads answered on the server's loop, on a store several servers share.

A server answers ``GetState`` and ``LegalActions`` from its cached game,
on its loop, while the game's look at the store is fresher than
``ARBITER_READ_FRESHNESS_MS`` (``service.aio.at_hand``), and keeps it fresh
with looks ahead (``Lookout``) rather than its reads' own catch-ups. What
docs/operations.md promises of several servers must hold all the same: a
read that began that long after another server's move was committed sees
it, whichever way it was answered, and a reader's versions never go back.

Two server processes on one PostgreSQL store: moves through one, reads
through the other without pause. The client knows a move was committed
when its ``Act`` returns; a read it sends later than that by the freshness
began later still on the server, so it must see the move."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from arbiter.v1 import game_pb2

from tests.integration.conftest import ServerProcess

ADMIN = "admin-reads-at-hand-" + "r" * 30
FRESHNESS = 0.3  # seconds: long enough that looks ahead, not lapses, keep reads at hand


@pytest.mark.postgres
@pytest.mark.heavy(6)
def test_a_read_on_one_server_sees_a_move_through_another_once_fresh(
        tmp_path: Path, redis_url: str, postgres_schema: tuple[str, str]) -> None:
    url, schema = postgres_schema
    shared = {"ARBITER_DATABASE_URL": url, "ARBITER_POSTGRES_SCHEMA": schema,
              "ARBITER_SECRET": "reads-at-hand-secret-" + "s" * 32,
              "ARBITER_ADMIN_TOKEN": ADMIN,
              "ARBITER_READ_FRESHNESS_MS": str(int(FRESHNESS * 1000))}
    writer, reader = (ServerProcess(tmp_path / f"s{n}", redis_url, shared) for n in range(2))
    for server in (writer, reader):
        server.admin_token = ADMIN
        server.start()
    try:
        created = writer.stub().CreateGame(
            game_pb2.CreateGameRequest(rules="ethnos", seats=["a", "b", "c"]))
        game_id = created.game_id
        spectator = reader.stub(created.spectator_token)
        request = game_pb2.GetStateRequest(game_id=game_id, spectator=True)
        acked: list[tuple[float, int]] = []  # (when the client had the answer, version)
        read: list[tuple[float, int]] = []  # (when the client sent the read, version)
        stop = threading.Event()

        def read_on() -> None:
            while not stop.is_set():
                sent = time.monotonic()
                read.append((sent, spectator.GetState(request, timeout=10).version))

        readers = [threading.Thread(target=read_on) for _ in range(2)]
        for thread in readers:
            thread.start()
        try:
            seats = [writer.stub(t.token) for t in created.seat_tokens]
            state = writer.stub(created.spectator_token).GetState(request)
            for _ in range(12):
                if state.over or not state.pending:
                    break
                seat = int(state.pending[0].seat)
                legal = seats[seat].LegalActions(
                    game_pb2.LegalActionsRequest(game_id=game_id, seat=seat))
                done = seats[seat].Act(game_pb2.ActRequest(
                    game_id=game_id, seat=seat, command=legal.actions[0].command,
                    expected_version=legal.version, with_state=True))
                acked.append((time.monotonic(), done.version))
                state = done.state if done.HasField("state") else seats[seat].GetState(
                    game_pb2.GetStateRequest(game_id=game_id, seat=seat))
                time.sleep(FRESHNESS * 0.7)  # moves apart: some reads land in every phase
            time.sleep(FRESHNESS * 2)
        finally:
            stop.set()
            for thread in readers:
                thread.join(30)
        assert len(acked) >= 6 and len(read) > 100
        late = []
        for sent, version in read:
            owed = max((v for at, v in acked if sent - at > FRESHNESS), default=0)
            if version < owed:
                late.append((round(sent - acked[0][0], 3), version, owed))
        assert not late, f"reads older than the freshness allows: {late[:10]}"
        final = {version for sent, version in read if sent - acked[-1][0] > FRESHNESS}
        assert final == {acked[-1][1]}, "the reads after the last move's freshness see it"
    finally:
        for server in (writer, reader):
            server.stop()
