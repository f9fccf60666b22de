"""Rules names as people type them, on the server and the command line: the
page is ``nine-empires.md``, the id ``nine_empires``, and both name the game
(``CreateGame``, ``ListGames``, ``arbiter new``, ``arbiter rules``). Before:
``arbiter simulate nine-empires`` answered ``UNKNOWN_RULES``. A name that names
no game is still ``UNKNOWN_RULES``, saying which id was likely meant."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from arbiter.v1 import game_pb2

from clients.cli import main
from tests.integration.conftest import ServerProcess

pytestmark = pytest.mark.integration


def test_the_server_takes_the_spelling_people_type(shared_server: ServerProcess) -> None:
    stub = shared_server.stub("")
    made = stub.CreateGame(game_pb2.CreateGameRequest(rules="Nine-Empires"))
    assert made.state.rules == "nine_empires" and len(made.seat_tokens) >= 2
    listed = stub.ListGames(game_pb2.ListGamesRequest(rules="nine-empires", limit=500))
    assert made.game_id in {g.game_id for g in listed.games}
    assert {g.rules for g in listed.games} == {"nine_empires"}


@pytest.mark.parametrize(("typed", "hint"), [
    ("nine-empire", "; did you mean nine_empires?"), ("chess", ""),
])
def test_a_name_of_no_game_is_unknown_rules_with_the_likely_id(
    shared_server: ServerProcess, typed: str, hint: str
) -> None:
    with pytest.raises(grpc.RpcError) as refused:
        shared_server.stub("").CreateGame(game_pb2.CreateGameRequest(rules=typed))
    assert refused.value.code() == grpc.StatusCode.NOT_FOUND
    assert dict(refused.value.trailing_metadata() or ())["arbiter-reason"] == "UNKNOWN_RULES"
    assert refused.value.details() == f"UNKNOWN_RULES: no game {typed!r} is served{hint}"


def test_the_command_line_takes_it_too(
    shared_server: ServerProcess, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ARBITER_HOME", str(tmp_path))
    address = ("--address", shared_server.address)
    assert main(["rules", "nine-empires", *address]) == 0
    assert "nine_empires" in capsys.readouterr().out
    assert main(["new", "NINE-EMPIRES", "-q", *address]) == 0
    game_id = capsys.readouterr().out.strip()
    state = shared_server.stub(shared_server.admin_token).GetState(
        game_pb2.GetStateRequest(game_id=game_id, spectator=True))
    assert state.rules == "nine_empires" and len(state.seats) >= 2
