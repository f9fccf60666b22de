"""A record that cannot be retold (DESIGN principle 3, "randomness is provable",
and 11, "what is served is what the hash chain proves"): an exported record
edited where the hash chain does not reach is refused by ``arbiter verify``
with its reason, and ``arbiter replay`` never tells the edited story.

Before: every event's ``text`` replaced by "Player 1 resigns and Player 2
wins." passed ``arbiter verify FILE --key K --commitment C`` (exit 0,
"Verification PASSED") and ``arbiter replay FILE --all`` printed the forged
sentences; a header naming rules version 9.9 passed and printed "(ethnos
9.9)" while the game was replayed with 1.0.0. The sentences are now re-told
from each payload during verify, a replay shows the re-told ones, and every
header field verify shows is checked against the creation event it heads.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from aggregates.records import read_record, verify_lines
from clients.cli import main
from tests.integration.conftest import ServerProcess
from tests.integration.test_replay import exported, finish
from tests.integration.test_signed_records import public_key, write

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("record_forgeries")]

FORGED = "Player 1 resigns and Player 2 wins."


def arbiter(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, home: Path,
            *args: str) -> tuple[int, str, str]:
    """``arbiter ...`` in this process (exit status, stdout, stderr), as a third
    party with no token and its own ``ARBITER_HOME``."""
    monkeypatch.setenv("ARBITER_HOME", str(home))
    monkeypatch.delenv("ARBITER_TOKEN", raising=False)
    capsys.readouterr()
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("forgeries") / "data", redis_url)
    process.start()
    try:
        yield process
    finally:
        process.stop_soon()


@pytest.fixture(scope="module")
def ethnos(server: ServerProcess, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A finished 2-seat Ethnos game's full record, and a running one's as seat 1 read it."""
    game_id, created = finish(server, "ethnos", 2, random.Random(33))
    header, lines = read_record(exported(server, game_id))
    assert header["over"] and lines[-1]["type"] == "Ended"
    running, made = finish(server, "ethnos", 2, random.Random(34), stop_at=40)
    token = next(t.token for t in made.seat_tokens if t.seat == 1)
    seat_header, seat_lines = read_record(exported(server, running, seat=1, token=token))
    key = public_key(server, tmp_path_factory.mktemp("keys"))
    return {"created": created, "full": (header, lines), "seat": (seat_header, seat_lines),
            "trust": ("--key", key, "--commitment", created.seed_commitment)}


def test_the_honest_records_verify_with_every_sentence_retold(ethnos: dict[str, Any]) -> None:
    for kind in ("full", "seat"):
        header, lines = ethnos[kind]
        verdict = verify_lines(header, lines)
        assert verdict.ok, verdict.report.problems
        assert any(f"{len(lines)} event sentences, each re-told" in c for c in verdict.checked)


def test_forged_sentences_fail_verify_and_never_reach_a_replay(
    ethnos: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    header, lines = ethnos["full"]
    forged = [dict(line, text=FORGED) for line in lines]
    path = write(tmp_path / "forged.jsonl", header, forged)
    status, out, _ = arbiter(capsys, monkeypatch, tmp_path, "verify", path, *ethnos["trust"])
    assert status == 1, out
    assert "Verification FAILED at version 1" in out
    assert f"version 1: its sentence '{FORGED}' is not what its payload tells" in out
    status, shown, err = arbiter(capsys, monkeypatch, tmp_path, "replay", path, "--all")
    assert status == 0, err
    assert FORGED not in shown
    assert f"Event v6: {lines[5]['text']}" in shown  # the sentence its payload tells


@pytest.mark.parametrize("kind", ["full", "seat"])
def test_one_forged_sentence_is_named_by_its_version(ethnos: dict[str, Any], kind: str) -> None:
    header, lines = ethnos[kind]
    at = len(lines) // 2
    forged = copy.deepcopy(lines)
    forged[at]["text"] = FORGED
    verdict = verify_lines(header, forged)
    assert not verdict.ok and verdict.first_failure == forged[at]["version"]
    assert len(verdict.report.problems) == 1


@pytest.mark.parametrize(("field", "value"), [
    ("rules_version", "9.9"), ("rules", "enin"), ("seats", ["Mallory", "Eve"]), ("events", 3),
])
def test_every_header_field_shown_is_the_recorded_one(
    ethnos: dict[str, Any], field: str, value: Any
) -> None:
    header, lines = ethnos["full"]
    verdict = verify_lines(dict(header, **{field: value}), lines)
    assert not verdict.ok and verdict.first_failure in (1, 4)
    assert any(field.replace("_", " ") in problem for problem in verdict.report.problems)


def test_a_relabelled_rules_version_fails_verify_and_is_refused_by_replay(
    ethnos: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    header, lines = ethnos["full"]
    path = write(tmp_path / "relabelled.jsonl", dict(header, rules_version="9.9"), lines)
    status, out, _ = arbiter(capsys, monkeypatch, tmp_path, "verify", path, *ethnos["trust"])
    assert status == 1 and "Verification FAILED at version 1" in out
    assert "the header gives rules version '9.9', the creation event records '1.1.0'" in out
    assert "(ethnos 1.1.0)" in out and "9.9)" not in out
    status, _, err = arbiter(capsys, monkeypatch, tmp_path, "replay", path, "--to", "6")
    assert status == 2
    assert "header says rules version '9.9', but its creation event records '1.1.0'" in err
