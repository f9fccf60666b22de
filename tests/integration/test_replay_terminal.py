"""``arbiter replay`` against a real server, and rules versions across a
release that changed the rules (issue 9, items 4 and 5).

- A game on the server replayed by time travel (``GetState(version=N)`` and
  ``History``) prints exactly what its exported record prints replayed
  offline, version by version, for a seat and for a spectator.
- A running game replayed as a seat never draws another seat's hand; the
  server refuses a seat's replay with another seat's token.
- The keys step forward, back and to a version over the server too.
- After a release that changed the rules (Tidewatch v2, test only): with v1
  no longer loadable, ``audit``, ``audit --all`` and online ``verify`` of a v1
  game say so in one sentence and exit 0; with v1 kept loadable beside v2,
  the v1 game is re-executed by v1 and passes, while new games are made by v2.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arbiter.v1 import game_pb2

from aggregates import catalog
from tests.integration.cli_here import run_cli
from tests.integration.conftest import ServerProcess

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("replay_terminal"),
              pytest.mark.heavy(40)]

ROOT = Path(__file__).resolve().parents[2]
V1 = "tests.template_game:Template"
V2 = "tests.template_game.v2:TemplateV2"
BOTH = f"{V1},{V2}"
HAND_FACES = re.compile(r"^  (North|East|South|West)'s hand \(\d+\):$", re.M)
STEP = re.compile(r"^--- template game \S+, version (\d+) of", re.M)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("replay") / "data", redis_url,
                            {"ARBITER_EXTRA_GAMES": V1})
    process.start()
    try:
        yield process
    finally:
        process.stop_soon()


def play(server: ServerProcess, seed: int, seats: int = 3, stop_at: int = 0) -> Any:
    """A template game of random legal moves, each seat with its own token;
    to its end or past version ``stop_at``. Returns the CreateGameResponse."""
    rnd = random.Random(seed)
    created = server.stub("").CreateGame(game_pb2.CreateGameRequest(
        rules="template", seats=[f"p{n}" for n in range(seats)]))
    stubs = {t.seat: server.stub(t.token) for t in created.seat_tokens}
    state = created.state
    while not state.over and not (stop_at and state.version >= stop_at):
        seat = rnd.choice(list(state.pending)).seat
        legal = stubs[seat].LegalActions(
            game_pb2.LegalActionsRequest(game_id=created.game_id, seat=seat))
        state = stubs[seat].Act(game_pb2.ActRequest(
            game_id=created.game_id, seat=seat, command=rnd.choice(legal.actions).command)).state
    return created


@contextlib.contextmanager
def release(extra_games: str) -> Iterator[None]:
    """For the block, this process's catalogue (``aggregates.catalog``'s
    ``GAMES`` and ``RULES``, the objects every module that imported them
    holds) is the one a process started with ``ARBITER_EXTRA_GAMES`` set to
    ``extra_games`` makes: built by the module's own steps over those entries,
    as it builds it on its import. Restored after."""
    extra = catalog.extra_games(extra_games)
    games = catalog.catalogue(catalog.SERVED + extra)
    rules = catalog.Rules(catalog.registry(catalog.SERVED + extra), catalog.RELEASED)
    saved_games, saved_rules = dict(catalog.GAMES), dict(vars(catalog.RULES))
    catalog.GAMES.clear()
    catalog.GAMES.update(games)
    vars(catalog.RULES).update(vars(rules))
    try:
        yield
    finally:
        catalog.GAMES.clear()
        catalog.GAMES.update(saved_games)
        vars(catalog.RULES).clear()
        vars(catalog.RULES).update(saved_rules)


def arbiter(server: ServerProcess, *args: str, token: str = "", extra_games: str = V1,
            stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The CLI as its own process would run it (``run_cli``: its entry point
    here, its environment, output and status as the process's; a process
    each, 19 in all, was most of these tests' time), with the catalogue of a
    client that loads ``extra_games`` (``release``)."""
    env = {**os.environ, "ARBITER_EXTRA_GAMES": extra_games, "ARBITER_TOKEN": token,
           "ARBITER_ADMIN_TOKEN": "", "ARBITER_HOME": str(server.data_dir / "home")}
    with release(extra_games):
        return run_cli([*args, "--address", server.address], cwd=ROOT, env=env, stdin=stdin)


def token_of(created: Any, seat: int) -> str:
    return next(t.token for t in created.seat_tokens if t.seat == seat)


def test_a_server_replay_prints_what_the_exported_record_prints_offline(
    server: ServerProcess, tmp_path: Path
) -> None:
    created = play(server, 1)
    game_id = created.game_id
    out = arbiter(server, "export", game_id, token=created.spectator_token)
    assert out.returncode == 0, out.stderr
    record = tmp_path / "game.arbiter.jsonl"
    record.write_text(out.stdout)
    seat1 = token_of(created, 1)
    online = arbiter(server, "replay", game_id, "--all", "--seat", "1", token=seat1)
    offline = arbiter(server, "replay", str(record), "--all", "--seat", "1")
    assert online.returncode == 0 and offline.returncode == 0, online.stderr + offline.stderr
    last = len(out.stdout.splitlines()) - 1
    assert [int(v) for v in STEP.findall(online.stdout)] == list(range(1, last + 1))
    assert online.stdout == offline.stdout
    # As a spectator, by the keys (one process each way, where a process per
    # version took six): the first version, one inside, the last.
    keys = f"g 17\ng {last}\nq\n"
    seen = arbiter(server, "replay", game_id, token=created.spectator_token, stdin=keys)
    assert seen.returncode == 0, seen.stderr
    assert [int(v) for v in STEP.findall(seen.stdout)] == [1, 17, last]
    assert seen.stdout == arbiter(server, "replay", str(record), stdin=keys).stdout
    assert "Game over" in seen.stdout and "as a spectator" in seen.stdout


def test_a_running_game_replayed_as_a_seat_never_draws_another_seats_hand(
    server: ServerProcess,
) -> None:
    """Three seats: seat 1 plays East and West, seats 0 and 2 North and South."""
    created = play(server, 2, stop_at=40)
    game_id = created.game_id
    mine = arbiter(server, "replay", game_id, "--all", "--seat", "1", token=token_of(created, 1))
    assert mine.returncode == 0, mine.stderr
    assert "Game over" not in mine.stdout
    assert set(HAND_FACES.findall(mine.stdout)) == {"East", "West"}
    assert "hidden from you" in mine.stdout  # the others' deals, in their public form
    watcher = arbiter(server, "replay", game_id, "--all", token=created.spectator_token)
    assert watcher.returncode == 0 and HAND_FACES.findall(watcher.stdout) == []
    admin = arbiter(server, "replay", game_id, "--all", "--seat", "1", token=server.admin_token)
    assert admin.returncode == 0
    assert admin.stdout == mine.stdout  # the admin as seat 1 sees what seat 1 saw
    other = arbiter(server, "replay", game_id, "--to", "5", "--seat", "2",
                    token=token_of(created, 1))
    assert other.returncode == 1 and "WRONG_SEAT" in other.stderr


def test_the_keys_step_through_a_game_on_the_server(server: ServerProcess) -> None:
    created = play(server, 3, stop_at=25)
    out = arbiter(server, "replay", created.game_id, "--seat", "0",
                  token=token_of(created, 0), stdin="n\n\np\ng 12\nq\n")
    assert out.returncode == 0, out.stderr
    assert [int(v) for v in STEP.findall(out.stdout)] == [1, 2, 3, 2, 12]


def test_a_v1_game_after_the_rules_changed_to_v2(
    tmp_path: Path, redis_url: str
) -> None:
    """One store, three releases: v1 only (the game is played), v2 only (v1 is
    not loadable: said, never failed), then v2 with v1 kept loadable (the v1
    game is re-executed by v1 and passes)."""
    process = ServerProcess(tmp_path / "data", redis_url, {"ARBITER_EXTRA_GAMES": V1})
    process.start()
    try:
        created = play(process, 4)
        game_id = created.game_id
        before = arbiter(process, "audit", game_id)
        assert before.returncode == 0 and "replay ok" in before.stdout, before.stdout

        process.extra_env["ARBITER_EXTRA_GAMES"] = V2
        process.restart()
        sentence = ("recorded by rules template v1, not loadable by this release "
                    "(it loads template v2)")
        audit = arbiter(process, "audit", game_id, extra_games=V2)
        assert audit.returncode == 0, audit.stdout + audit.stderr
        assert audit.stdout.startswith(
            "Audit PASSED: hash chain ok, dice ok, replay not run")
        assert f"  note: {sentence}: the chain and the dice were checked" in audit.stdout
        assert "problem" not in audit.stdout
        every = arbiter(process, "audit", "--all", "--admin-token", process.admin_token,
                        extra_games=V2)
        assert every.returncode == 0, every.stdout + every.stderr
        assert "ok, not re-executed (see its note)" in every.stdout
        assert "1 games audited, 1 ok, 0 failed" in every.stdout
        since = arbiter(process, "audit", "--since", "0", "--admin-token", process.admin_token,
                        extra_games=V2)
        assert since.returncode == 0 and "1 games audited, 1 ok" in since.stdout, since.stdout
        verify = arbiter(process, "verify", game_id, extra_games=V2,
                         token=created.spectator_token)
        assert verify.returncode == 0, verify.stdout + verify.stderr
        assert f"This game was {sentence}" in verify.stdout
        replayed = arbiter(process, "replay", game_id, "--to", "10", extra_games=V2,
                           token=created.spectator_token)
        assert replayed.returncode == 0 and "version 10 of" in replayed.stdout
        newer = process.stub("").CreateGame(game_pb2.CreateGameRequest(
            rules="template", seats=["a", "b"]))
        assert newer.rules_version == "2"

        process.extra_env["ARBITER_EXTRA_GAMES"] = BOTH
        process.restart()
        kept = arbiter(process, "audit", game_id, extra_games=BOTH)
        assert kept.returncode == 0 and "replay ok" in kept.stdout, kept.stdout
        assert "note:" not in kept.stdout
        verified = arbiter(process, "verify", game_id, extra_games=BOTH,
                           token=created.spectator_token)
        assert verified.returncode == 0, verified.stdout
        assert "commands re-executed through template 1" in verified.stdout
        assert verified.stdout.rstrip().endswith("Verification PASSED")
    finally:
        process.stop()
