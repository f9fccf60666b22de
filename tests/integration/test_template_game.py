"""The template game served by a real server process, named only in
ARBITER_EXTRA_GAMES: played whole through gRPC with the client library, through
``arbiter new/legal/act/state/audit``, and through ``arbiter play template``
(the one generic loop), using nothing but LegalActions and its choices.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from arbiter.client import ArbiterClient, ArbiterError
from arbiter.v1 import game_pb2

from aggregates.kernel.present import validate_screen
from clients.cli import main as cli_main
from tests.integration.conftest import ServerProcess
from tests.template_game import Template
from tests.unit.clients.support import isolate_credentials

pytestmark = pytest.mark.integration

EXTRA = {"ARBITER_EXTRA_GAMES": "tests.template_game:Template"}


@pytest.fixture(scope="module")
def template_server(
    tmp_path_factory: pytest.TempPathFactory, redis_url: str
) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path_factory.mktemp("template") / "data", redis_url, EXTRA)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def built(choice: dict[str, Any], rnd: random.Random) -> dict[str, Any] | None:
    """A command built from a choice's JSON, as a generic client would."""
    kind = choice["kind"]
    if kind == "pick_cards":
        k = rnd.randint(choice["low"], choice["high"])
        value: Any = sorted(rnd.sample(choice["options"], k))
    elif kind == "number":
        value = rnd.randint(choice["low"], choice["high"])
    elif kind == "assign":
        value = [rnd.choice(choice["slots"]) for _ in choice["items"]]
    else:
        return None
    return {"name": choice["command"], "args": {**choice["fixed"], choice["arg"]: value}}


def test_listed_with_its_metadata(template_server: ServerProcess) -> None:
    with ArbiterClient(template_server.address) as client:
        rules = {r.id: r for r in client.list_rules()}
    info = rules["template"]
    assert (info.min_seats, info.max_seats, info.dynamics) == (2, 4, "mixed")
    assert list(info.commands) == Template.COMMANDS.names()
    assert list(info.reasons) == list(Template.REASONS)
    assert json.loads(info.options_schema_json) == Template.OPTIONS_SCHEMA


def test_a_whole_game_through_grpc(template_server: ServerProcess) -> None:
    rnd = random.Random(7)
    seats = ["Ada", "Bo", "Cy"]
    with ArbiterClient(template_server.address) as client:
        game_id = client.create_game("template", seats).game_id
        state = client.state(game_id, spectator=True)
        texts: set[str] = set()
        refused = 0
        for _ in range(1000):
            if state.over:
                break
            seat = rnd.choice(list(state.pending)).seat
            legal = client.legal(game_id, seat)
            assert legal.complete and legal.decisions
            choices = json.loads(legal.decisions[0].choices_json)
            command = built(rnd.choice(choices), rnd) if rnd.random() < 0.5 else None
            try:
                reply = client.act(game_id, seat, command or rnd.choice(legal.actions).command)
            except ArbiterError as exc:
                assert command is not None, exc  # only a built combination may be refused
                assert exc.reason in Template.REASONS, exc
                refused += 1
                state = client.state(game_id, spectator=True)
                continue
            for event in reply.events:
                text = Template.describe(event.type, json.loads(event.payload_json), seats)
                assert event.text == text and text != event.type
                texts.add(event.type)
            screen = json.loads(reply.state.screen_json)
            assert validate_screen(screen) == [], screen
            state = client.state(game_id, spectator=True)
            assert validate_screen(json.loads(state.screen_json)) == []
        assert state.over
        outcome = json.loads(state.outcome_json)
        assert [t["team"] for t in outcome["breakdown"]["teams"]] == ["North–South", "East–West"]
        audit = client.audit(game_id)
        assert audit.chain_ok and audit.dice_ok and audit.replay_ok, audit.problems
        assert {"ChoicesRevealed", "BidsSettled", "Passed", "TideEbbed"} <= texts


def test_decisions_go_stale_one_by_one(template_server: ServerProcess) -> None:
    with ArbiterClient(template_server.address) as client:
        created = client.create_game("template", ["Ada", "Bo", "Cy"])
    tokens = {t.seat: t.token for t in created.seat_tokens}
    game_id = created.game_id

    def stub(seat: int) -> Any:
        return template_server.stub(tokens[seat])

    ids = {}
    for seat in (0, 1, 2):
        legal = stub(seat).LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=seat))
        ids[seat] = legal.decisions[0].id
    first = stub(0).LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=0))
    stub(0).Act(game_pb2.ActRequest(game_id=game_id, seat=0, decision_id=ids[0],
                                    command=first.actions[0].command))
    # Seat 2 reads that seat 0 has bid, not what (History goes through the envelope).
    history = list(stub(2).History(game_pb2.HistoryRequest(game_id=game_id, seat=2)))
    made = [e for e in history if e.type == "ChoiceMade"]
    assert len(made) == 1 and made[0].redacted
    assert json.loads(made[0].payload_json) == {"seat": 0, "kind": "bid"}
    assert made[0].text == "Ada has bid"
    # Seat 0's bid made no other seat's decision stale.
    second = stub(2).LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=2))
    assert second.decisions[0].id == ids[2]
    stub(2).Act(game_pb2.ActRequest(game_id=game_id, seat=2, decision_id=ids[2],
                                    command=second.actions[-1].command))
    third = stub(1).LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=1))
    with pytest.raises(grpc.RpcError) as info:
        stub(1).Act(game_pb2.ActRequest(game_id=game_id, seat=1, decision_id="1.bid.0.00000000",
                                        command=third.actions[0].command))
    assert info.value.code() == grpc.StatusCode.ABORTED
    assert "STALE_DECISION" in (info.value.details() or "")


# ---------------------------------------------------------------------- CLI


def arbiter(server: ServerProcess, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "clients.cli", *args, "--address", server.address],
        capture_output=True, text=True, timeout=60, env=dict(os.environ),
    )
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def arbiter_here(server: ServerProcess, *args: str) -> str:
    """``arbiter ARGS`` run by its entry point in this process (what the console
    script calls): the same parsing, token store and output as ``arbiter``, without
    a Python process started per move (about 0.7 s of CPU each)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = cli_main([*args, "--address", server.address])
    assert status == 0, f"{args}\n{out.getvalue()}"
    return out.getvalue()


def test_a_whole_game_through_the_cli(
    template_server: ServerProcess, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``arbiter new/legal/act/state/audit`` with the tokens the CLI saved; a
    bot that passes more often than not keeps the game (one round) short. The
    moves go through the CLI's entry point in this process; the commands before
    and after them, as separate processes."""
    isolate_credentials(monkeypatch, tmp_path)
    rnd = random.Random(3)
    game_id = arbiter(template_server, "new", "template", "--seat", "Ada", "--seat", "Bo",
                      "--options", '{"rounds": 1}', "-q").strip()
    with ArbiterClient(template_server.address, token=template_server.admin_token) as watcher:
        for _ in range(100):
            state = watcher.state(game_id, spectator=True)
            if state.over:
                break
            seat = str(state.pending[0].seat)
            legal = json.loads(arbiter_here(template_server, "legal", game_id, "--seat", seat,
                                            "--json"))
            assert legal["complete"] and legal["decisions"][0]["seat"] == int(seat)
            actions = [a["json"] if isinstance(a["json"], dict) else json.loads(a["json"])
                       for a in legal["actions"]]
            passes = [a for a in actions if a["name"] == "pass_priority"]
            action = passes[0] if passes and rnd.random() < 0.7 else rnd.choice(actions)
            out = arbiter_here(template_server, "act", game_id, json.dumps(action),
                               "--seat", seat)
            assert out.startswith("ok: version")
        assert state.over
    shown = json.loads(arbiter(template_server, "state", game_id, "--seat", "1", "--json"))
    assert shown["over"] and [t["team"] for t in shown["outcome"]["breakdown"]["teams"]] == [
        "North–South", "East–West"]
    assert "Game over" in arbiter(template_server, "state", game_id, "--spectator")
    assert "Audit PASSED" in arbiter(template_server, "audit", game_id)


def test_arbiter_play_template_through_the_generic_loop(
    template_server: ServerProcess, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``arbiter play template``: the person at seat 1 (East and West, the seat
    that plays two positions) answering 1 to everything, random bots at the
    others; the game's screens, choices and words, and nothing of its own."""
    isolate_credentials(monkeypatch, tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "clients.cli", "play", "template", "--players", "3",
         "--seat", "1", "--bot-seed", "2", "--address", template_server.address],
        input="1\n" * 3000, capture_output=True, text=True, timeout=240, env=dict(os.environ),
    )
    out = result.stdout
    assert result.returncode == 0, f"{out[-3000:]}\n{result.stderr}"
    game_id = out.split("New template game ", 1)[1].split()[0]
    with ArbiterClient(template_server.address, token=template_server.admin_token) as client:
        final = client.state(game_id, spectator=True)
        history = list(client.history(game_id, 1))
    assert final.over and "Game over: " in out and "Audit PASSED" in out
    for section in ("The table", "Your hands", "Vaults (face down: partners see them)"):
        assert f"== {section} ==" in out
    assert "East's hand" in out and "West's hand" in out
    told = {e.text for e in history if e.text}
    assert any(t in out for t in told if t.startswith("The bids are revealed"))
    assert "Refused" not in out


def test_arbiter_simulate_template(template_server: ServerProcess) -> None:
    out = arbiter(template_server, "simulate", "template", "--games", "3", "--players", "4",
                  "--seed", "5", "--token", template_server.admin_token)
    assert "games finished: 3/3" in out and "refused" not in out
