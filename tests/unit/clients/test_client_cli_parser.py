"""The argparse tree: flags, defaults and usage-error exit codes."""

from __future__ import annotations

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
