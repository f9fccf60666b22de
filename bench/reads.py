"""`python -m bench.reads [SERVICE_DIR ...]`: a server's CPU per read and per
move, for the read model: ``GetState`` of one unchanged game by
many spectators, and a move played as a bot plays it (``LegalActions``, then
``Act``), its reply with the state and without (``ActRequest.with_state``).

Each ``SERVICE_DIR`` (a directory holding a ``service`` package: another
checkout's, to compare with; none: this one) gets an ``arbiter-server`` of its
own on the machine's Redis (a channel prefix of its own), turn about, twice
(A B A B), so a shared machine's drift moves every one alike. The figure is
the server process's CPU (all its threads, ``bench.procs.cpu_seconds``) over
the calls, in milliseconds per call.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import grpc
from arbiter.v1 import game_pb2, game_pb2_grpc

from bench import procs
from bench.procs import ROOT, ArbiterServer, cpu_seconds

SPECTATORS = 100
READS_EACH = 20
MOVES = 60
REDIS = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def stub(server: ArbiterServer, token: str) -> tuple[grpc.Channel, Any, Any]:
    channel = grpc.insecure_channel(server.address)
    return channel, game_pb2_grpc.GameServiceStub(channel), (
        ("authorization", f"Bearer {token}"),)


def spectators(server: ArbiterServer) -> float:
    """Server CPU ms per spectator ``GetState`` of one unchanged game."""
    channel, games, admin = stub(server, server.admin_token)
    created = games.CreateGame(game_pb2.CreateGameRequest(rules="ethnos", seats=["a", "b", "c"]),
                               metadata=admin)
    token = (("authorization", f"Bearer {created.spectator_token}"),)
    request = game_pb2.GetStateRequest(game_id=created.game_id, spectator=True)

    def reader(_: int) -> None:
        for _ in range(READS_EACH):
            games.GetState(request, metadata=token)

    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        list(pool.map(reader, range(2)))  # warm
        before = cpu_seconds(server.pid)
        list(pool.map(reader, range(SPECTATORS)))
        spent = cpu_seconds(server.pid) - before
    channel.close()
    return spent / (SPECTATORS * READS_EACH) * 1000


def moves(server: ArbiterServer, with_state: bool | None) -> float:
    """Server CPU ms per move (``LegalActions`` then ``Act``) of a solo Enin game."""
    channel, games, admin = stub(server, server.admin_token)
    total = count = 0.0
    while count < MOVES:
        created = games.CreateGame(game_pb2.CreateGameRequest(rules="enin", seats=["solo"]),
                                   metadata=admin)
        seat = (("authorization", f"Bearer {created.seat_tokens[0].token}"),)
        for _ in range(MOVES):
            before = cpu_seconds(server.pid)
            legal = games.LegalActions(
                game_pb2.LegalActionsRequest(game_id=created.game_id, seat=0), metadata=seat)
            if not legal.actions:
                break
            request = game_pb2.ActRequest(game_id=created.game_id, seat=0,
                                          command=legal.actions[0].command)
            if with_state is not None:
                request.with_state = with_state
            reply = games.Act(request, metadata=seat)
            total += cpu_seconds(server.pid) - before
            count += 1
            if reply.state.over:
                break
    channel.close()
    return total / count * 1000


def one_run(service_dir: str, work: Path) -> dict[str, float]:
    # The server's PYTHONPATH: that directory's ``service`` before this checkout's.
    procs.python_path = lambda: os.pathsep.join([service_dir, str(ROOT)])
    server = ArbiterServer(Path(tempfile.mkdtemp(dir=work)), REDIS)
    try:
        return {
            "getstate_spectator_ms": spectators(server),
            "move_ms": moves(server, None),
            "move_without_state_ms": moves(server, False),
        }
    finally:
        server.stop()


def main() -> None:
    dirs = sys.argv[1:] or [str(ROOT)]
    results: dict[str, list[dict[str, float]]] = {d: [] for d in dirs}
    with tempfile.TemporaryDirectory() as work:
        for _ in range(2):
            for d in dirs:
                results[d].append(one_run(d, Path(work)))
    for d, runs in results.items():
        print(d, json.dumps({k: [round(r[k], 3) for r in runs] for k in runs[0]}))


if __name__ == "__main__":
    main()
