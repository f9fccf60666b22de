"""The ``arbiter`` CLI and the client library against a real server process.

The CLI runs by its entry point in this process (``cli_here``: the
environment, working directory, input and exit status a subprocess would
have; ``tail`` following a live game runs as a process of its own, and
``test_cli_conveniences`` and ``test_cli_json`` run the real entry points); the
server is the ``arbiter_server`` fixture of conftest.py (a real process with
a temp data dir and a real Redis) and enforces credentials: every flow here
runs with the tokens the CLI saved in its store (``ARBITER_HOME`` is a temp
dir) or with the admin token, and nothing from the developer's shell.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arbiter.client import ArbiterClient, ArbiterError, AsyncArbiterClient
from arbiter.render import named_seats, player_label

from clients.simulate import playout
from clients.tokens import TokenStore
from tests.integration.cli_here import run_cli
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import play
from tests.soak import cases
from tests.unit.clients.support import isolate_credentials, self_signed_cert

# One worker runs this module's tests, so its module-scoped server starts once.
pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("cli"), pytest.mark.heavy(60)]

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def arbiter_server(shared_server: ServerProcess) -> ServerProcess:
    """One server for the module: no flow here stops or restarts it, and each
    keeps to the games it creates (tokens are saved per test, per game)."""
    return shared_server


@pytest.fixture(autouse=True)
def cli_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A private ARBITER_HOME, no credentials in the environment, and a working
    directory without ``./data/admin.token`` (so only what a test gives is used)."""
    return isolate_credentials(monkeypatch, tmp_path)


def arbiter(
    server: Any,
    *args: str,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``arbiter ARGS --address <server>`` (by its entry point in this process,
    ``cli_here``; ``env`` added to the environment) and capture its output."""
    return run_cli([*args, "--address", server.address], stdin=stdin,
                   env={**os.environ, **(env or {})})


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def refused(result: subprocess.CompletedProcess[str], reason: str) -> str:
    """Exit 1 with ``error: REASON: ...`` first on stderr; returns stderr."""
    assert result.returncode == 1, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    assert result.stderr.startswith(f"error: {reason}: "), result.stderr
    return result.stderr


def new_game(server: Any) -> str:
    game_id = ok(arbiter(server, "new", "enin", "--seat", "Ada", "-q")).strip()
    assert game_id and "\n" not in game_id
    return game_id


def stored(server: Any, game_id: str) -> tuple[str, str]:
    """The seat-0 and spectator tokens the CLI saved for a game."""
    store = TokenStore()
    seat = store.seat_token(server.address, game_id, 0)
    spectator = store.spectator_token(server.address, game_id)
    assert seat and spectator
    return seat, spectator


def test_rules(arbiter_server: Any) -> None:
    assert "enin" in ok(arbiter(arbiter_server, "rules"))


def test_new_shows_commitment_and_saves_tokens(arbiter_server: Any, cli_home: Path) -> None:
    out = ok(arbiter(arbiter_server, "new", "enin", "--seat", "Ada"))
    assert "game id:" in out and "seed commitment:" in out
    game_id = out.split("game id:", 1)[1].split()[0]
    seat, spectator = stored(arbiter_server, game_id)
    assert f"Ada (Player 1): {seat}" in out.splitlines()
    assert f"spectator: {spectator}" in out.splitlines()
    tokens = cli_home / "tokens.json"
    assert stat.S_IMODE(tokens.stat().st_mode) == 0o600
    assert stat.S_IMODE(cli_home.stat().st_mode) == 0o700


def test_seats_are_read_and_named_as_people_count_them(arbiter_server: Any) -> None:
    """One numbering for people: ``--player N`` counts from 1, as the results and the
    pages do (``--seat N`` is the same seat as the wire numbers it, from 0)."""
    game_id = new_game(arbiter_server)
    by_player = ok(arbiter(arbiter_server, "legal", game_id, "--player", "1"))
    assert by_player.splitlines()[0].endswith(", Player 1:")
    assert by_player == ok(arbiter(arbiter_server, "legal", game_id, "--seat", "0"))
    result = arbiter(arbiter_server, "legal", game_id, "--player", "0")
    assert result.returncode == 2 and "players are counted from 1" in result.stderr
    both = arbiter(arbiter_server, "legal", game_id, "--player", "1", "--seat", "1")
    assert both.returncode == 2 and "not allowed with" in both.stderr


def test_new_with_web_prints_each_seats_page_link(arbiter_server: Any, cli_home: Path) -> None:
    """``new --web URL``: each seat's page link carries that seat's own token in
    its fragment (never sent to a server), and the spectators' link theirs."""
    out = ok(arbiter(arbiter_server, "new", "enin", "--seat", "Ada", "--web",
                     "http://example.test:8080/"))
    game_id = out.split("game id:", 1)[1].split()[0]
    seat, spectator = stored(arbiter_server, game_id)
    lines = out.splitlines()
    assert (f"web, Ada (Player 1): http://example.test:8080/games/{game_id}/join/0#{seat}"
            in lines)
    assert f"web, spectators:  http://example.test:8080/games/{game_id}/join#{spectator}" \
        in lines


def test_legal_act_state_history(arbiter_server: Any) -> None:
    game_id = new_game(arbiter_server)
    listing = ok(arbiter(arbiter_server, "legal", game_id))
    assert "1." in listing
    legal = json.loads(ok(arbiter(arbiter_server, "legal", game_id, "--json")))
    actions = [a["json"] for a in legal["actions"]]
    assert actions and all("name" in a for a in actions)
    assert all(a["label"] and a["command"] for a in legal["actions"])
    assert isinstance(legal["version"], int) and legal["complete"] is True
    decision = legal["decisions"][0]
    assert decision["seat"] == 0 and decision["id"] and isinstance(decision["choices"], list)
    out = ok(arbiter(arbiter_server, "act", game_id, json.dumps(actions[0])))
    assert out.startswith("ok: version")

    state = ok(arbiter(arbiter_server, "state", game_id))
    assert game_id in state and re.search(r"\bHP\b", state, re.IGNORECASE)
    as_json = json.loads(ok(arbiter(arbiter_server, "state", game_id, "--json")))
    assert as_json["game_id"] == game_id and isinstance(as_json["view"], dict)
    # complete and typed (issue 12): versions are numbers, defaults are there
    assert isinstance(as_json["version"], int) and as_json["version"] >= 2
    assert as_json["over"] is False and not as_json["outcome"]
    assert as_json["pending"][0]["seat"] == 0 and as_json["pending"][0]["id"]
    # the game's own screen, each of its sections drawn by `arbiter state`
    sections = as_json["screen"]["sections"]
    assert sections and all(f"== {s['title']} ==" in state for s in sections)
    spectator = ok(arbiter(arbiter_server, "state", game_id, "--spectator"))
    assert game_id in spectator

    history = ok(arbiter(arbiter_server, "history", game_id)).splitlines()
    assert len(history) >= 2
    assert all(game_id[:8] in line for line in history)
    public = ok(arbiter(arbiter_server, "history", game_id, "--spectator")).splitlines()
    assert len(public) == len(history)

    audit = arbiter(arbiter_server, "audit", game_id)  # unfinished: the stored token
    assert "Audit PASSED" in ok(audit)
    assert game_id in ok(arbiter(arbiter_server, "games"))


def test_refusals_print_reason_and_exit_1(arbiter_server: Any, tmp_path: Path) -> None:
    game_id = new_game(arbiter_server)
    version = json.loads(ok(arbiter(arbiter_server, "state", game_id, "--json")))
    stale = int(version.get("version", 0)) + 5
    result = arbiter(
        arbiter_server, "act", game_id, '{"name": "end_turn", "args": {}}',
        "--expect-version", str(stale),
    )
    refused(result, "VERSION_MISMATCH")
    illegal = arbiter(arbiter_server, "act", game_id, '{"name": "attack", "args": {}}')
    assert illegal.returncode == 1 and illegal.stderr.startswith("error: ")
    unknown = arbiter(arbiter_server, "state", "00000000-0000-4000-8000-000000000000")
    assert unknown.returncode == 1 and "error: UNKNOWN_GAME" in unknown.stderr
    usage = arbiter(arbiter_server, "act", game_id, "{oops")
    assert usage.returncode == 2
    # another machine (an empty store) and no admin token: no credential at all
    elsewhere = {"ARBITER_HOME": str(tmp_path / "elsewhere")}
    err = refused(arbiter(arbiter_server, "legal", game_id, env=elsewhere), "NO_TOKEN")
    assert "hint: " in err
    refused(arbiter(arbiter_server, "state", game_id, "--token", "arb_forged", env=elsewhere),
            "BAD_TOKEN")


def test_another_seats_token_is_refused_with_wrong_seat(arbiter_server: Any) -> None:
    game_id = new_game(arbiter_server)
    seat0, spectator = stored(arbiter_server, game_id)
    before = json.loads(ok(arbiter(arbiter_server, "state", game_id, "--json")))["version"]
    # Enin is solo, so "another seat" is seat 1 acted for with seat 0's token: the
    # server checks the credential first and names the seat the token is for.
    command = '{"name": "roll_start", "args": {}}'
    err = refused(
        arbiter(arbiter_server, "act", game_id, command, "--seat", "1", "--token", seat0),
        "WRONG_SEAT",
    )
    assert "seat 0" in err.splitlines()[0] and err.splitlines()[1].startswith("hint: ")
    refused(arbiter(arbiter_server, "act", game_id, command, "--token", spectator),
            "SPECTATOR_ONLY")
    other_game = new_game(arbiter_server)
    refused(arbiter(arbiter_server, "act", game_id, command,
                    "--token", stored(arbiter_server, other_game)[0]), "BAD_TOKEN")
    after = json.loads(ok(arbiter(arbiter_server, "state", game_id, "--json")))["version"]
    assert after == before, "a refused command records nothing"
    ok(arbiter(arbiter_server, "act", game_id, command))  # the stored seat-0 token acts


def test_simulate_finishes_all_games(arbiter_server: Any) -> None:
    result = arbiter(arbiter_server, "simulate", "enin", "--games", "3", "--seed", "7")
    out = ok(result)
    assert "games finished: 3/3" in out
    assert "refused" not in out
    assert "3/3 games" in result.stderr  # the progress bar


@pytest.mark.parametrize("players", cases([2], [5]))
def test_simulate_ethnos_for_n_players(arbiter_server: Any, players: int) -> None:
    """Issue 3: `arbiter simulate ethnos --players N` plays whole games through the server."""
    result = arbiter(arbiter_server, "simulate", "ethnos", "--games", "2", "--players",
                     str(players), "--seed", "3")
    out = ok(result)
    assert "games finished: 2/2" in out
    assert "refused" not in out


def test_play_to_the_end(arbiter_server: Any) -> None:
    out = ok(arbiter(arbiter_server, "play", "enin", stdin="1\n" * 4000))
    assert "Token of Player 1: arb_" in out
    assert "Your choices:" in out and "What happened:" in out
    assert "Game over" in out
    assert "Seed (revealed):" in out
    assert "Audit PASSED" in out


def test_play_leaves_cleanly_on_eof_and_resumes_with_the_stored_token(
    arbiter_server: Any,
) -> None:
    out = ok(arbiter(arbiter_server, "play", "enin", stdin="1\n"))
    assert "resume with: arbiter play enin --game" in out
    game_id = out.split("--game", 1)[1].split()[0]
    again = ok(arbiter(arbiter_server, "play", "enin", "--game", game_id, stdin="1\n"))
    # asked again where it left off (one possible move is offered alone, taken on Enter)
    assert f"game {game_id}" in again and re.search(r"Your (choices|only choice):", again)


def test_play_ethnos_to_the_end_against_bots(arbiter_server: Any) -> None:
    """`arbiter play ethnos`: the person's seat through stdin, random bots at the others,
    all through the one generic loop; left halfway (while the game still hides the
    bots' hands) and resumed to the end.

    Answering 1 to every prompt always makes progress (option 1 is always legal;
    hand card 1 alone is always a band), so a bounded script finishes the game.
    """
    result = arbiter(arbiter_server, "play", "ethnos", "--players", "3", "--bot-seed", "1",
                     stdin="1\n" * 40)
    out = ok(result)
    lines = out.splitlines()
    assert "for 3 players; you play Player 1," in out and "Token of Player 1: arb_" in out
    found = re.search(r"New ethnos game (\S+)", out)
    left = re.search(r"Left game \S+ at version (\d+)", out)
    assert found and left, "40 answers do not finish a game"
    game_id = found.group(1)
    # the person is asked the server's question, with the server's choices
    assert "Your decision: " in out and "Your choices:" in out
    store = TokenStore()
    tokens = {s: store.seat_token(arbiter_server.address, game_id, s) for s in range(3)}
    assert all(tokens.values()), "the bots' tokens are kept to resume the game"
    with ArbiterClient(arbiter_server.address) as client:
        state = client.state(game_id, 0, token=tokens[0])
        mine = list(client.history(game_id, 0, token=tokens[0]))
        theirs = {s: list(client.history(game_id, s, token=tokens[s])) for s in (1, 2)}
    assert not state.over
    # the server's screen for the seat, every section drawn
    sections = json.loads(state.screen_json)["sections"]
    assert sections and all(f"== {s['title']} ==" in lines for s in sections)
    # what happened, in the server's words as seat 0 reads them: every event after the deal
    first = int(re.findall(r"^--- ethnos game \S+, version (\d+) ---$", out, re.M)[0])
    assert "What happened:" in out
    told = [e for e in mine if first < e.version <= int(left.group(1))]
    assert told and all(f"  * {e.text}" in lines for e in told)
    # the bots' moves are told, their draws only in public form
    public = {e.version: e.text for e in mine}
    private = [e.text for s in (1, 2) for e in theirs[s]
               if not e.audience.everyone and 0 not in e.audience.seats
               and e.text != public[e.version]]
    assert private, "the bots drew cards seat 0 may not see"
    assert not any(f"  * {text}" in lines for text in private)

    again = ok(arbiter(arbiter_server, "play", "ethnos", "--game", game_id,
                       stdin="1\n" * 3000))
    with ArbiterClient(arbiter_server.address) as client:
        final = client.state(game_id, 0, token=tokens[0])
    # the end: the last screen, the outcome with the winners by name, the seed, the audit
    lines = again.splitlines()
    sections = json.loads(final.screen_json)["sections"]
    assert sections and all(f"== {s['title']} ==" in lines for s in sections)
    outcome = json.loads(final.outcome_json)
    assert final.over and "Game over: " in again
    names = ", ".join(player_label(w, final.seats) for w in outcome["winners"])
    assert f"Winner: {names}" in lines or f"Winners (tied): {names}" in lines
    assert f"Game over: {named_seats(outcome['summary'], final.seats)}" in lines
    assert "Scores: " + ", ".join(f"{player_label(s, final.seats)} {g}" for s, g in enumerate(
        outcome["breakdown"]["glory"])) in lines
    assert "Seed (revealed):" in again and "Audit PASSED" in again
    for text in (out, again):
        assert "Refused" not in text and "refused" not in text


def test_play_ethnos_quits_and_resumes_with_the_stored_bot_tokens(arbiter_server: Any) -> None:
    out = ok(arbiter(arbiter_server, "play", "ethnos", "--players", "2", "--seat", "1",
                     stdin="q\n"))
    assert "resume with: arbiter play ethnos --game" in out
    game_id = out.split("--game", 1)[1].split()[0]
    # The hint names the seat as people count it and keeps the server's address.
    assert out.rstrip().endswith(f"--player 2 --address {arbiter_server.address}")
    again = ok(arbiter(arbiter_server, "play", "ethnos", "--game", game_id, "--player", "2",
                       stdin="1\n" * 3000))
    assert f"game {game_id}" in again and "Your decision: " in again
    assert "Audit PASSED" in again


def test_tail_catches_up_then_goes_live(arbiter_server: Any) -> None:
    game_id = new_game(arbiter_server)
    recorded = len(ok(arbiter(arbiter_server, "history", game_id)).splitlines())
    tail = subprocess.Popen(
        [sys.executable, "-m", "clients.cli", "tail", game_id, "--count", str(recorded + 1),
         "--address", arbiter_server.address],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        seat_token, _ = stored(arbiter_server, game_id)
        with ArbiterClient(arbiter_server.address, token=seat_token) as client:
            legal = client.legal(game_id)
            client.act(game_id, 0, legal.actions[0].command)
        out, err = tail.communicate(timeout=60)
    finally:
        if tail.poll() is None:
            tail.kill()
            tail.communicate()
    lines = out.splitlines()
    assert tail.returncode == 0, err
    assert len(lines) == recorded + 1
    assert all(game_id[:8] in line for line in lines)
    assert lines[-1].split()[2] == f"v{recorded + 1}"


def test_tail_of_all_games_needs_the_admin_token(arbiter_server: Any) -> None:
    game_id = new_game(arbiter_server)
    err = refused(arbiter(arbiter_server, "tail", "--count", "1"), "NO_TOKEN")
    assert "hint: " in err
    seat_token, _ = stored(arbiter_server, game_id)
    refused(arbiter(arbiter_server, "tail", "--count", "1", "--token", seat_token),
            "ADMIN_ONLY")
    admin = arbiter_server.admin_token
    out = ok(arbiter(arbiter_server, "tail", "--count", "1", "--admin-token", admin))
    assert len(out.splitlines()) == 1
    out = ok(arbiter(arbiter_server, "tail", "--count", "1",
                     env={"ARBITER_ADMIN_TOKEN": admin}))
    assert len(out.splitlines()) == 1
    Path("data").mkdir()  # what `make run` leaves in the working directory
    Path("data/admin.token").write_text(admin + "\n")
    out = ok(arbiter(arbiter_server, "tail", "--count", "1"))
    assert len(out.splitlines()) == 1


def test_audit_of_a_finished_game_needs_no_token(arbiter_server: Any, tmp_path: Path) -> None:
    with ArbiterClient(arbiter_server.address) as client:
        finished = playout(client, "enin", ["Ada"], random.Random(3))
        unfinished = client.create_game("enin", ["Bo"]).game_id
    assert finished.result is not None
    nobody = {"ARBITER_HOME": str(tmp_path / "nobody")}
    assert "Audit PASSED" in ok(arbiter(arbiter_server, "audit", finished.game_id, env=nobody))
    # a stale credential found by the lookup does not stop a public audit either
    stale = {**nobody, "ARBITER_TOKEN": "arb_stale"}
    assert "Audit PASSED" in ok(arbiter(arbiter_server, "audit", finished.game_id, env=stale))
    refused(arbiter(arbiter_server, "audit", unfinished, env=nobody), "NO_TOKEN")


def test_library_sync_and_async(arbiter_server: Any) -> None:
    with ArbiterClient(arbiter_server.address) as client:
        created = client.create_game("enin", ["Ada"])
        assert len(created.seat_tokens) == 1 and created.spectator_token
        legal = client.legal(created.game_id)  # the remembered seat token
        first = json.loads(legal.actions[0].json)
        response = client.act(created.game_id, 0, first, command_id="fixed-id")
        again = client.act(created.game_id, 0, first, command_id="fixed-id")
        assert again.version == response.version and again.replayed
        with pytest.raises(ArbiterError) as refusal:
            client.act(created.game_id, 0, first, expected_version=1)
        assert refusal.value.reason and refusal.value.version == response.version
        events = list(client.history(created.game_id))
        assert [e.version for e in events] == list(range(1, len(events) + 1))
        with pytest.raises(ArbiterError) as wrong:
            client.legal(created.game_id, 0, token=created.spectator_token)
        assert wrong.value.reason == "SPECTATOR_ONLY"
    with ArbiterClient(arbiter_server.address) as stranger:
        with pytest.raises(ArbiterError) as none:
            stranger.state(created.game_id)
        assert none.value.reason == "NO_TOKEN"
        admin = stranger.state(created.game_id, token=arbiter_server.admin_token)
        assert admin.version == response.version

    async def run() -> None:
        async with AsyncArbiterClient(arbiter_server.address) as aclient:
            assert any(r.id == "enin" for r in await aclient.list_rules())
            game = await aclient.create_game("enin", ["Bo"])
            legal = await aclient.legal(game.game_id)
            await aclient.act(game.game_id, 0, json.loads(legal.actions[0].json))
            state = await aclient.state(game.game_id)
            assert state.version >= 2
            versions = [e.version async for e in aclient.history(game.game_id)]
            assert versions[-1] == state.version
            audit = await aclient.audit(game.game_id)
            assert audit.chain_ok
        async with AsyncArbiterClient(
            arbiter_server.address, token=arbiter_server.admin_token
        ) as admin:
            async for message in admin.subscribe(after=0):  # every game: admin only
                assert message.WhichOneof("item") in ("event", "status")
                break

    asyncio.run(run())


# --- TLS ---------------------------------------------------------------------


class TlsServer(ServerProcess):
    """The server with ARBITER_TLS_CERT/KEY set; readiness is checked over TLS."""

    def __init__(self, data_dir: Path, redis_url: str, cert: Path, key: Path) -> None:
        super().__init__(data_dir, redis_url,
                         {"ARBITER_TLS_CERT": str(cert), "ARBITER_TLS_KEY": str(key)})
        self.ca = cert

    def wait_serving(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        with ArbiterClient(self.address, tls_ca=str(self.ca), timeout=1) as client:
            while time.monotonic() < deadline:
                assert self.process is not None
                if self.process.poll() is not None:
                    raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
                try:
                    client.list_rules()
                    return
                except ArbiterError:
                    time.sleep(0.1)
        raise RuntimeError("the TLS server did not answer")


@pytest.fixture
def tls_server(tmp_path: Path, redis_url: str) -> Iterator[TlsServer]:
    key, cert = self_signed_cert(tmp_path)
    server = TlsServer(tmp_path / "data", redis_url, cert, key)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_cli_over_tls(tls_server: TlsServer) -> None:
    ca = str(tls_server.ca)
    game_id = ok(arbiter(tls_server, "new", "enin", "-q", "--tls-ca", ca)).strip()
    legal = json.loads(ok(arbiter(tls_server, "legal", game_id, "--json", "--tls-ca", ca)))
    assert ok(arbiter(tls_server, "act", game_id, json.dumps(legal["actions"][0]["json"]),
                      env={"ARBITER_TLS_CA": ca})).startswith("ok: version")
    assert game_id in ok(arbiter(tls_server, "state", game_id, env={"ARBITER_TLS_CA": ca}))
    # plaintext, or TLS trusting only the system's roots, cannot talk to it (gRPC
    # itself may log the failed handshake on stderr before the CLI's error line)
    for flags in ([], ["--tls"]):
        result = arbiter(tls_server, "rules", *flags)
        assert result.returncode == 1 and "error: UNAVAILABLE: " in result.stderr


def test_verify_checks_a_finished_game_locally(arbiter_server: Any) -> None:
    """`arbiter verify`: the hash chain and every die re-derived on the client;
    a running game's chain so far, with the dice named as checkable at the end."""
    game_id = new_game(arbiter_server)
    unfinished = arbiter(arbiter_server, "verify", game_id)
    assert unfinished.returncode == 0, unfinished.stdout + unfinished.stderr
    assert "PASSED for what could be checked" in unfinished.stdout
    assert "the dice: checkable against the seed and its commitment at the end" in (
        unfinished.stdout)
    seat, _ = stored(arbiter_server, game_id)
    assert play(arbiter_server.stub(seat), game_id, 3000, random.Random(4)).over
    out = ok(arbiter(arbiter_server, "verify", game_id))
    assert "Verification PASSED" in out and "dice re-derived" in out
