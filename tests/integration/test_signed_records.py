"""A record proves what the server recorded (DESIGN principle 3, "randomness
is provable", and 11, "what is served is what the hash chain proves"), over
a real server process and the ``arbiter`` command line.

Before: another game played on the same server, relabelled with the real
game's id and header and its chain recomputed from its own revealed seed,
passed ``arbiter verify FILE`` with another winner (the header's
``seed_commitment`` was never read, its ``head`` never checked); and a
finished game's record with its seed and dice stripped and its outcome edited
passed "for what could be checked", exit 0. Nothing tied a record to the
server that kept it.

Now the server signs each game's head (Ed25519, a key made from its secret);
``arbiter keys`` prints the public key and ``--pin`` trusts it; ``arbiter
verify FILE --key K --commitment C`` refuses a record that is not the one
the server signed, or not the game whose commitment was handed out.
"""

from __future__ import annotations

import base64
import copy
import json
import os
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arbiter.v1 import game_pb2
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from aggregates.kernel.record import chain
from tests.integration.cli_here import run_cli
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import play

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]


def cli(server: ServerProcess, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``arbiter ...`` as a third party: no token, its own ``ARBITER_HOME``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("ARBITER_TOKEN", "ARBITER_ADMIN_TOKEN")}
    env.update(ARBITER_HOME=str(home), PYTHONPATH=str(REPO))
    return run_cli([*args, "--address", server.address], cwd=home, env=env)


def finished(server: ServerProcess, bot: int) -> game_pb2.CreateGameResponse:
    created = server.stub().CreateGame(game_pb2.CreateGameRequest(rules="enin", seats=["solo"]))
    ended = play(server.stub(), created.game_id, 3000, random.Random(bot))
    assert ended.over
    # Signed when the game ends: the ending move's reply carries the signature.
    assert json.loads(ended.head_signature.statement)["head"] == ended.head_digest
    return created


def exported(server: ServerProcess, home: Path, game_id: str) -> tuple[dict[str, Any],
                                                                       list[dict[str, Any]]]:
    out = cli(server, home, "export", game_id)
    assert out.returncode == 0, out.stderr
    header, *lines = (json.loads(line) for line in out.stdout.splitlines())
    return header, lines


def write(path: Path, header: dict[str, Any], lines: list[dict[str, Any]]) -> str:
    path.write_text("\n".join(json.dumps(x) for x in [header, *lines]) + "\n")
    return str(path)


def relabelled(lines: list[dict[str, Any]], game_id: str, seed: str) -> list[dict[str, Any]]:
    """Another game's events as game ``game_id``'s: every digest recomputed with
    the other game's own revealed seed, so the chain holds."""
    out, prev = [], chain.GENESIS
    for line in copy.deepcopy(lines):
        meta = line["meta"]
        line["digest"] = chain.digest(prev, game_id, line["version"], line["type"], line["time"],
                                      line["payload"], meta, chain.salt(seed, line["version"]))
        line["prev"] = meta["prev"] = prev
        meta["digest"] = prev = line["digest"]
        out.append(line)
    return out


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("signed") / "data", redis_url)
    process.start()
    try:
        yield process
    finally:
        process.stop_soon()


@pytest.fixture(scope="module")
def two_games(server: ServerProcess, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Game A (the real one) and game B (the forger's), both finished, exported."""
    home = tmp_path_factory.mktemp("home")
    real, other = finished(server, 3), finished(server, 8)
    a_header, a_lines = exported(server, home, real.game_id)
    b_header, b_lines = exported(server, home, other.game_id)
    assert a_header["outcome"] != b_header["outcome"] or a_header["seed"] != b_header["seed"]
    return {"real": real, "a": (a_header, a_lines), "b": (b_header, b_lines)}


def public_key(server: ServerProcess, home: Path) -> str:
    out = cli(server, home, "keys")
    assert out.returncode == 0, out.stderr
    key_id, state, key = out.stdout.splitlines()[0].split()
    assert key_id.startswith("ed25519:") and state == "current"
    return key


def test_the_server_signs_a_finished_games_head(
    server: ServerProcess, two_games: dict[str, Any], tmp_path: Path
) -> None:
    """The signature travels in the record and in Audit, over the head the
    server recorded, by the key ListRules serves."""
    header, _ = two_games["a"]
    signed = header["signature"]
    statement = json.loads(signed["statement"])
    assert statement == {
        "arbiter_head": 1, "game_id": header["game_id"], "rules": "enin",
        "rules_version": header["rules_version"], "version": header["version"],
        "head": header["head"], "seed_commitment": header["seed_commitment"], "over": True}
    keys = server.stub("").ListRules(game_pb2.ListRulesRequest()).signing_keys
    assert [k.key_id for k in keys] == [signed["key_id"]] and keys[0].current
    Ed25519PublicKey.from_public_bytes(base64.b64decode(keys[0].public_key)).verify(
        base64.b64decode(signed["signature"]), signed["statement"].encode())
    audit = server.stub("").Audit(game_pb2.AuditRequest(game_id=header["game_id"]))
    assert audit.head_signature.statement == signed["statement"]
    assert audit.head_signature.signature == signed["signature"]  # Ed25519 is deterministic
    assert public_key(server, tmp_path) == keys[0].public_key


def test_the_genuine_record_verifies_against_the_key_and_commitment(
    server: ServerProcess, two_games: dict[str, Any], tmp_path: Path
) -> None:
    header, lines = two_games["a"]
    path = write(tmp_path / "a.jsonl", header, lines)
    key = public_key(server, tmp_path)
    out = cli(server, tmp_path, "verify", path, "--key", key,
              "--commitment", two_games["real"].seed_commitment)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "the server's signature over the head at version" in out.stdout
    assert "(the game ended), by key ed25519:" in out.stdout
    assert "the seed commitment is the one given at creation" in out.stdout
    assert out.stdout.rstrip().endswith("Verification PASSED")


def test_a_relabelled_game_fails_verify_and_says_why(
    server: ServerProcess, two_games: dict[str, Any], tmp_path: Path
) -> None:
    """The forgery of the issue: game B's events as game A's, A's header (its
    seed made B's), the chain recomputed: verify names the commitment and the
    head, even with no key."""
    a_header, _ = two_games["a"]
    b_header, b_lines = two_games["b"]
    forged = relabelled(b_lines, a_header["game_id"], b_header["seed"])
    header = {**a_header, "seed": b_header["seed"]}
    out = cli(server, tmp_path, "verify", write(tmp_path / "forged.jsonl", header, forged))
    assert out.returncode == 1, out.stdout
    assert "the header's seed commitment" in out.stdout and "another game's" in out.stdout
    assert "the header's head digest" in out.stdout
    assert "Verification FAILED" in out.stdout


def test_a_self_consistent_forgery_fails_against_the_key_or_the_commitment(
    server: ServerProcess, two_games: dict[str, Any], tmp_path: Path
) -> None:
    """A forger who also rewrites the header (B's commitment, the new head, B's
    outcome) has a self-consistent file; only the server's signature and the
    commitment handed out at creation tell it is not game A's record."""
    a_header, _ = two_games["a"]
    b_header, b_lines = two_games["b"]
    forged = relabelled(b_lines, a_header["game_id"], b_header["seed"])
    header = {**b_header, "game_id": a_header["game_id"], "head": forged[-1]["digest"]}
    key = public_key(server, tmp_path)
    unsigned = write(tmp_path / "unsigned.jsonl", {**header, "signature": None}, forged)
    resigned = write(tmp_path / "resigned.jsonl", header, forged)  # B's own signature
    out = cli(server, tmp_path, "verify", unsigned, "--key", key)
    assert out.returncode == 1 and "carries no server signature" in out.stdout, out.stdout
    out = cli(server, tmp_path, "verify", resigned, "--key", key)
    assert out.returncode == 1 and "the signature is over another game id" in out.stdout
    out = cli(server, tmp_path, "verify", unsigned,
              "--commitment", two_games["real"].seed_commitment)
    assert out.returncode == 1, out.stdout
    assert "is not the one given at creation" in out.stdout and "another game's" in out.stdout
    # A pinned key is trusted without --key.
    pinned = cli(server, tmp_path, "keys", "--pin")
    assert pinned.returncode == 0 and "pinned 1 new key" in pinned.stdout, pinned.stderr
    out = cli(server, tmp_path, "verify", unsigned)
    assert out.returncode == 1 and "carries no server signature" in out.stdout


def test_a_signature_by_another_key_or_over_other_bytes_fails(
    server: ServerProcess, two_games: dict[str, Any], tmp_path: Path
) -> None:
    header, lines = two_games["a"]
    someone_else = base64.b64encode(bytes(range(32))).decode()  # a key, not the server's
    out = cli(server, tmp_path, "verify", write(tmp_path / "a.jsonl", header, lines),
              "--key", someone_else)
    assert out.returncode == 1 and "which you do not trust" in out.stdout, out.stdout
    signed = dict(header["signature"])
    statement = json.loads(signed["statement"])
    signed["statement"] = json.dumps({**statement, "version": statement["version"] + 0},
                                     separators=(", ", ": "))  # same facts, other bytes
    out = cli(server, tmp_path, "verify",
              write(tmp_path / "b.jsonl", {**header, "signature": signed}, lines),
              "--key", public_key(server, tmp_path))
    assert out.returncode == 1 and "the signature does not verify" in out.stdout, out.stdout


def test_a_finished_record_with_its_seed_stripped_fails(
    server: ServerProcess, two_games: dict[str, Any], tmp_path: Path
) -> None:
    """The outcome edited, the seed and the dice records stripped: the record
    says the game ended, so it must be checkable in full; it is refused."""
    header, lines = copy.deepcopy(two_games["a"])
    header["seed"], header["outcome"] = "", {"winner": "someone else"}
    for line in lines:
        line["meta"] = None
        line["payload"].pop("seed", None)
    lines[-1]["payload"]["outcome"] = {"winner": "someone else"}
    out = cli(server, tmp_path, "verify", write(tmp_path / "stripped.jsonl", header, lines))
    assert out.returncode == 1, out.stdout
    assert "says the game ended but lacks the revealed seed" in out.stdout
    assert "Verification FAILED at version 1" in out.stdout


def test_a_running_games_export_is_signed_as_read(server: ServerProcess, tmp_path: Path) -> None:
    """On export of a running game the head is signed as read (over: false); the
    record verifies for what a seat can check, the signature included."""
    created = server.stub().CreateGame(game_pb2.CreateGameRequest(rules="enin", seats=["solo"]))
    play(server.stub(), created.game_id, 5, random.Random(1))
    out = cli(server, tmp_path, "export", created.game_id, "--token",
              created.seat_tokens[0].token, "--seat", "0")
    assert out.returncode == 0, out.stderr
    header = json.loads(out.stdout.splitlines()[0])
    assert json.loads(header["signature"]["statement"])["over"] is False
    path = tmp_path / "running.jsonl"
    path.write_text(out.stdout)
    out = cli(server, tmp_path, "verify", str(path), "--key", public_key(server, tmp_path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "(the game running when read), by key ed25519:" in out.stdout


def test_a_rotated_key_still_verifies_the_records_it_signed(
    tmp_path: Path, redis_url: str
) -> None:
    """ARBITER_SIGNING_KEY_EPOCH=2 signs with a new key; the first is served as
    retired, so a record signed before the rotation still verifies with it."""
    server = ServerProcess(tmp_path / "data", redis_url)
    server.start()
    try:
        home = tmp_path / "home"
        home.mkdir()
        before = finished(server, 5)
        old_key = public_key(server, home)
        header, lines = exported(server, home, before.game_id)
        server.extra_env["ARBITER_SIGNING_KEY_EPOCH"] = "2"
        server.restart()
        keys = server.stub("").ListRules(game_pb2.ListRulesRequest()).signing_keys
        assert [k.current for k in keys] == [True, False] and keys[1].public_key == old_key
        assert keys[0].key_id != keys[1].key_id
        path = write(tmp_path / "before.jsonl", header, lines)
        out = cli(server, home, "verify", path, "--key", old_key)
        assert out.returncode == 0, out.stdout + out.stderr
        after, _ = exported(server, home, finished(server, 6).game_id)
        assert after["signature"]["key_id"] == keys[0].key_id
        out = cli(server, home, "verify", path, "--key", keys[0].public_key)
        assert out.returncode == 1 and "which you do not trust" in out.stdout
    finally:
        server.stop()


def test_the_commitment_kept_by_arbiter_new_pins_the_game(
    server: ServerProcess, two_games: dict[str, Any], tmp_path: Path
) -> None:
    """``arbiter new`` keeps the commitment it was handed; ``verify`` of a record
    of that game checks it with no flag, so a relabelled game fails."""
    out = cli(server, tmp_path, "new", "enin", "--seat", "solo", "--entropy", "none", "-q")
    assert out.returncode == 0, out.stderr
    game_id = out.stdout.strip()
    assert play(server.stub(), game_id, 3000, random.Random(3)).over
    header, lines = exported(server, tmp_path, game_id)
    genuine = cli(server, tmp_path, "verify", write(tmp_path / "mine.jsonl", header, lines))
    assert genuine.returncode == 0, genuine.stdout
    assert f"the seed commitment is the one given at creation: {header['seed_commitment']}" \
        in genuine.stdout
    b_header, b_lines = two_games["b"]
    forged = relabelled(b_lines, game_id, b_header["seed"])
    consistent = {**b_header, "game_id": game_id, "head": forged[-1]["digest"],
                  "signature": None}
    out = cli(server, tmp_path, "verify", write(tmp_path / "forged.jsonl", consistent, forged))
    assert out.returncode == 1 and "is not the one given at creation" in out.stdout, out.stdout
