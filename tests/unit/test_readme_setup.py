"""The README's set-up is what a newcomer types: exactly two commands, then how to
pick the ports, where the data lives and how to stop, each named as the Makefile
and the server take it (so that a renamed variable fails here, not for a reader)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
MAKEFILE = (ROOT / "Makefile").read_text()


def section(title: str) -> str:
    start = README.index(f"## {title}\n")
    rest = README[start + len(title) + 4:]
    following = re.search(r"^## ", rest, re.MULTILINE)
    return rest[:following.start()] if following else rest


def test_the_two_commands_are_two() -> None:
    block = re.search(r"```sh\n(.*?)```", section("The two commands"), re.DOTALL)
    assert block, "no command block under 'The two commands'"
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert [c for c in commands if c] == ["make run", "make test"]


def test_ports_data_and_stopping_are_said_as_the_makefile_takes_them() -> None:
    text = section("The two commands")
    for variable in ("ADDRESS", "WEB", "DATA", "METRICS"):
        assert f"{variable}=" in text, f"the README does not say how to set {variable}"
        assert re.search(rf"^{variable} :?= ", MAKEFILE, re.MULTILINE), \
            f"the Makefile takes no {variable}"
    assert "./data" in text and "ARBITER_DATA_DIR ?= ./data" in MAKEFILE
    assert "Ctrl-C" in text


def test_what_make_test_installs_is_said() -> None:
    text = section("The two commands")
    assert "chromium" in text and "apt-get" in text and "npm" in text and ".tools" in text
