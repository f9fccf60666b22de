"""Rules versions (issue 9, item 5): a game is re-verified by the rules
version that played it. Tidewatch v2 (``tests/template_game/v2.py``, test
only) changes a rule; with both versions registered a v1 record still
verifies by v1, and a record of a version the registry does not hold is
reported as not loadable -- its chain and dice checked, never a failure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from aggregates import catalog
from aggregates.kernel.record.verify import audit_by_version, verify_records, version_order
from tests.template_game import Template
from tests.template_game.v2 import TemplateV2
from tests.unit.kernel.records import play, record_lines

ROOT = Path(__file__).resolve().parents[3]
BOTH = catalog.registry((Template, TemplateV2))
V1_ONLY = catalog.registry((Template,))
V2_ONLY = catalog.registry((TemplateV2,))


def tide(records: list) -> list[list[int]]:
    return [r.payload["coins"] for r in records if r.type == "TideRose"]


def test_version_two_pays_one_coin_more_each_round() -> None:
    _, v1 = play(Template, 4)
    _, v2 = play(TemplateV2, 4)
    assert v1[0].payload["rules_version"] == "1" and v2[0].payload["rules_version"] == "2"
    assert tide(v1)[0] == [3, 3, 3, 3] and tide(v2)[0] == [4, 4, 4, 4]


def test_the_catalogue_serves_the_newest_version_and_keeps_every_one_loadable() -> None:
    assert catalog.catalogue((Template, TemplateV2))["template"] is TemplateV2
    assert catalog.catalogue((TemplateV2, Template))["template"] is TemplateV2
    assert {("template", "1"): Template, ("template", "2"): TemplateV2} == BOTH
    assert catalog.rules_class("template", "1", BOTH) is Template
    assert catalog.rules_class("template", "3", BOTH) is None
    with pytest.raises(ValueError, match="share the rules id 'template' and version '1'"):
        catalog.registry((Template, type("Copy", (Template,), {})))
    assert version_order("1.10") > version_order("1.9") > version_order("1.0.0")
    assert version_order("2") > version_order("1.0.0")


def test_a_v1_record_still_verifies_by_v1_after_the_rules_change() -> None:
    game, records = play(Template, 5)
    verdict = verify_records({}, records, BOTH)
    assert verdict.ok and verdict.complete, verdict.report.problems
    assert verdict.report.commands == game.commands_applied and not verdict.not_loadable
    assert audit_by_version(records, BOTH).ok
    _, newer = play(TemplateV2, 5)
    assert verify_records({}, newer, BOTH).complete


def test_re_executing_a_v1_record_by_v2_would_fail_at_the_first_rising_tide() -> None:
    """Why the registry is keyed by version: the newest rules decide differently."""
    _, records = play(Template, 6)
    wrong = {("template", "1"): TemplateV2}
    verdict = verify_records({}, records, wrong)
    first_tide = next(r.version for r in records if r.type == "TideRose")
    assert not verdict.ok and verdict.first_failure == first_tide


def test_a_version_this_release_cannot_load_is_a_note_not_a_failure() -> None:
    _, records = play(Template, 7)
    sentence = ("recorded by rules template v1, not loadable by this release "
                "(it loads template v2)")
    verdict = verify_records({}, records, V2_ONLY)
    assert verdict.ok and not verdict.complete
    assert verdict.not_loadable == sentence
    assert verdict.not_checked == [f"re-execution of the commands: {sentence}"]
    assert verdict.report.dice > 0 and verdict.report.commands == 0
    report = audit_by_version(records, V2_ONLY)
    assert report.ok and report.dice > 0 and report.commands == 0
    assert report.problems == [f"note: {sentence}: the chain and the dice were checked, "
                               "the commands were not re-executed (not a failure)"]
    assert catalog.not_loadable("template", "1", {}) == (
        "recorded by rules template v1, not loadable by this release "
        "(it has no rules 'template')")


def test_a_damaged_record_of_an_unloadable_version_still_fails() -> None:
    """Not loadable spares the re-execution only: the chain is still checked."""
    _, records = play(Template, 8)
    records[9] = records[9].__class__(**{**records[9].__dict__, "payload": {"x": 1}})
    verdict = verify_records({}, records, V2_ONLY)
    assert not verdict.ok and verdict.first_failure == 10
    assert not audit_by_version(records, V2_ONLY).ok


def verify_file(tmp_path: Path, lines: list[str], extra_games: str
                ) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "game.arbiter.jsonl"
    path.write_text("\n".join(lines) + "\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), catalog.EXTRA_GAMES_ENV: extra_games}
    return subprocess.run(
        [sys.executable, "-m", "clients.cli", "verify", str(path), "--address", "127.0.0.1:1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_verify_on_the_command_line_with_both_versions_registered(tmp_path: Path) -> None:
    game, records = play(Template, 9)
    both = "tests.template_game:Template,tests.template_game.v2:TemplateV2"
    out = verify_file(tmp_path, record_lines(game, records), both)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "commands re-executed through template 1" in out.stdout
    assert out.stdout.rstrip().endswith("Verification PASSED")


def test_verify_on_the_command_line_of_an_unloadable_version_exits_0(tmp_path: Path) -> None:
    game, records = play(TemplateV2, 10)
    out = verify_file(tmp_path, record_lines(game, records), "tests.template_game:Template")
    assert out.returncode == 0, out.stdout + out.stderr
    assert ("This game was recorded by rules template v2, not loadable by this release "
            "(it loads template v1): its chain and dice are checked above, its commands "
            "are not re-executed (this is not a failure).") in out.stdout
    assert "FAILED" not in out.stdout
    assert out.stdout.rstrip().endswith("Verification PASSED for what could be checked (see above)")
