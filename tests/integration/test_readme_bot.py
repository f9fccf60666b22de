"""The "Write a bot" example of docs/bots.md runs, as written, against a real server (issue 12)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.conftest import ROOT, ServerProcess

pytestmark = pytest.mark.integration


def bot_example() -> str:
    """The one Python block of the page's "Write a bot" section."""
    page = (ROOT / "docs" / "bots.md").read_text()
    section = page.split("\n## Write a bot\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 1, "the section has one Python example"
    return blocks[0]


def test_the_example_is_about_thirty_lines() -> None:
    assert len(bot_example().strip().splitlines()) <= 35


def test_the_readme_bot_plays_a_game_to_the_end_and_audits_it(
    shared_server: ServerProcess, tmp_path: Path
) -> None:
    script = tmp_path / "bot.py"
    script.write_text(bot_example())
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("ARBITER_") or k == "ARBITER_HOME"}
    env["ARBITER_ADDRESS"] = shared_server.address
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert lines[0].startswith("game ") and "over after" in result.stdout
    assert lines[-1] == "audit PASSED"
