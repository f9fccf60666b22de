"""The argparse tree: flags, defaults and usage-error exit codes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from clients.cli import build_parser, main


def test_act_flags() -> None:
    args = build_parser().parse_args(
        ["act", "g1", '{"name": "attack"}', "--seat", "1", "--expect-version", "5",
         "--address", "h:1"]
    )
    assert (args.game_id, args.seat, args.expect_version, args.address) == ("g1", 1, 5, "h:1")


def test_new_repeated_seats_and_tail_defaults() -> None:
    args = build_parser().parse_args(["new", "enin", "--seat", "Ada", "--seat", "Bo"])
    assert args.seat == ["Ada", "Bo"] and args.options is None
    tail = build_parser().parse_args(["tail"])
    assert tail.game_id == "" and tail.after == 0


def test_state_seat_and_spectator_are_exclusive() -> None:
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(["state", "g", "--seat", "1", "--spectator"])
    assert exc.value.code == 2


def test_bad_json_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["act", "g1", "{not json", "--address", "localhost:1"]) == 2
    assert capsys.readouterr().err.startswith("error: BAD_ARGUMENT: not JSON")


def test_bad_options_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "enin", "--seat", "A", "--options", "[1]", "--address", "x:1"]) == 2
    assert "--options must be a JSON object" in capsys.readouterr().err


def test_start_up_loads_no_command_only_module() -> None:
    """Rule: building the parser (what every ``arbiter`` command does first) loads
    neither the bots (``clients.bots``: the rules and the search), nor the rules
    kernel (``aggregates``: ``clients.render``), nor the package metadata
    (``--version``); the commands that use them import them."""
    probe = ("import sys; from clients.cli import build_parser; build_parser(); "
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'aggregates' "
             "or m.startswith('clients.bots') "
             "or m in ('clients.render', 'importlib.metadata')))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]", out


def test_bot_level_choices_come_from_the_bots(capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: ``bot --level`` takes exactly ``clients.bots.LEVELS`` (read when the
    option is checked or the help printed), and refuses any other with exit 2."""
    from clients.bots import LEVELS

    for level in LEVELS:
        assert build_parser().parse_args(["bot", "--level", level, "--token", "t"]).level == level
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["bot", "--level", "grandmaster", "--token", "t"])
    assert exited.value.code == 2
    assert "invalid choice: 'grandmaster'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        build_parser().parse_args(["bot", "--help"])
    assert f"one of {', '.join(LEVELS)} (default random)" in capsys.readouterr().out


def test_version_is_read_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: ``--version`` prints the installed version (read from the package
    metadata then, not when the parser is built) and exits 0."""
    from importlib import metadata

    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"arbiter {metadata.version('arbiter')}\n"
