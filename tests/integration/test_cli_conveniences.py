"""`arbiter --version`, the no-server hint, `act` by name or number, `rules GAME`
(issue 12)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from service.redis_server import free_port
from tests.integration.test_cli import arbiter, cli_home, new_game, ok  # noqa: F401

pytestmark = pytest.mark.integration


def test_version() -> None:
    result = subprocess.run([sys.executable, "-m", "clients.cli", "--version"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.startswith("arbiter 0."), result


def test_no_server_gives_a_hint() -> None:
    address = f"127.0.0.1:{free_port()}"
    for args in (["rules"], ["state", "some-game"], ["act", "some-game", "{}"]):
        result = subprocess.run(
            [sys.executable, "-m", "clients.cli", *args, "--address", address],
            capture_output=True, text=True, timeout=60,
        )
        assert result.returncode == 1, result
        assert result.stderr.startswith(
            f"error: UNAVAILABLE: no server at {address} — is `make run` running?"), result.stderr


def test_act_by_name_and_by_number(arbiter_server: Any) -> None:
    game_id = new_game(arbiter_server)
    assert ok(arbiter(arbiter_server, "act", game_id, "roll_start")).startswith("ok: version 2")
    legal = json.loads(ok(arbiter(arbiter_server, "legal", game_id, "--json")))
    out = ok(arbiter(arbiter_server, "act", game_id, "1"))
    assert out.startswith("ok: version ")
    assert int(out.split()[2]) > legal["version"]
    bad = arbiter(arbiter_server, "act", game_id, "999")
    assert bad.returncode == 2 and "no legal entry 999" in bad.stderr
    nonsense = arbiter(arbiter_server, "act", game_id, "Roll Start!")
    assert nonsense.returncode == 2 and "a command name" in nonsense.stderr


def test_rules_of_one_game_lists_each_command_with_its_arguments(arbiter_server: Any) -> None:
    out = ok(arbiter(arbiter_server, "rules", "enin"))
    lines = {line.split()[0]: line for line in out.splitlines()[3:] if line.startswith("  ")}
    assert "(no arguments)" in lines["roll_start"]
    assert "to: whole number" in lines["travel"]
    assert "item:" in lines["buy"] and "map_of_enin" in lines["buy"]
    assert "die: whole number, amount: integer" in lines["spend_luck"]
    ethnos = ok(arbiter(arbiter_server, "rules", "ethnos"))
    assert "cards: [whole number, ...]" in ethnos
    missing = arbiter(arbiter_server, "rules", "chess")
    assert missing.returncode == 2 and "plays no 'chess'" in missing.stderr
