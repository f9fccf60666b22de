"""The CLI's credentials against the fake GameService: saved tokens, lookup order,
global flags and refusal messages."""

from __future__ import annotations

import io
import stat
from pathlib import Path

import grpc
import pytest

from clients.cli import build_parser, main
from clients.tokens import TokenStore
from tests.unit.clients.conftest import FakeServer

CLIENT_COMMANDS = [
    ["rules"], ["new", "enin"], ["act", "g", "{}"], ["state", "g"], ["legal", "g"],
    ["history", "g"], ["tail"], ["audit", "g"], ["games"], ["play", "enin"],
    ["simulate", "enin"],
]


def run(fake: FakeServer, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main([*args, "--address", fake.address])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("command", CLIENT_COMMANDS)
def test_every_client_command_takes_the_global_flags(command: list[str]) -> None:
    args = build_parser().parse_args(
        [*command, "--token", "t", "--admin-token", "a", "--tls-ca", "ca.pem", "--tls",
         "--creator-token", "c"]
    )
    assert (args.token, args.admin_token, args.tls_ca, args.tls) == ("t", "a", "ca.pem", True)
    assert args.creator_token == "c"


def test_serve_takes_no_client_credentials() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--token", "t"])


def test_new_prints_and_saves_the_tokens(
    fake_server: FakeServer, capsys: pytest.CaptureFixture[str], clean_auth_env: Path
) -> None:
    status, out, _ = run(fake_server, capsys, "new", "enin", "--seat", "Ada", "--seat", "Bo")
    assert status == 0
    assert "Ada (Player 1): seat0-game-1" in out.splitlines()
    assert "Bo (Player 2): seat1-game-1" in out.splitlines()
    assert "spectator: spec-game-1" in out.splitlines()
    path = clean_auth_env / "tokens.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(clean_auth_env.stat().st_mode) == 0o700
    store = TokenStore(path)
    assert store.seat_token(fake_server.address, "game-1", 1) == "seat1-game-1"
    assert store.spectator_token(fake_server.address, "game-1") == "spec-game-1"

    status, out, _ = run(fake_server, capsys, "new", "enin", "--seat", "Cy", "-q")
    assert (status, out) == (0, "game-2\n")
    assert store.seat_token(fake_server.address, "game-2", 0) == "seat0-game-2"


def test_commands_use_the_stored_tokens(
    fake_server: FakeServer, capsys: pytest.CaptureFixture[str]
) -> None:
    run(fake_server, capsys, "new", "enin", "--seat", "Ada", "--seat", "Bo", "-q")
    fake = fake_server.service
    fake.calls.clear()
    for args in (
        ["act", "game-1", '{"name": "roll_start", "args": {}}', "--seat", "1"],
        ["state", "game-1"], ["state", "game-1", "--spectator"], ["legal", "game-1", "--seat", "1"],
        ["history", "game-1"], ["history", "game-1", "--spectator"], ["tail", "game-1"],
        ["audit", "game-1"],
    ):
        status, _, err = run(fake_server, capsys, *args)
        assert status == 0, err
    seat0, seat1, spec = "seat0-game-1", "seat1-game-1", "spec-game-1"
    assert [(c.method, t) for c, t in zip(fake.calls, fake.tokens(), strict=True)] == [
        ("GetState", seat1),  # the rules of a JSON command, read with the acting seat's token
        ("Act", seat1), ("GetState", seat0), ("GetState", spec), ("LegalActions", seat1),
        ("History", seat0), ("History", spec), ("Subscribe", spec), ("Audit", spec),
    ]


def test_lookup_order_flag_env_store_admin(
    fake_server: FakeServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run(fake_server, capsys, "new", "enin", "--seat", "Ada", "-q")
    fake = fake_server.service
    fake.calls.clear()
    monkeypatch.setenv("ARBITER_TOKEN", "env")
    monkeypatch.setenv("ARBITER_ADMIN_TOKEN", "admin-env")
    run(fake_server, capsys, "legal", "game-1", "--token", "flag")
    run(fake_server, capsys, "legal", "game-1")
    monkeypatch.delenv("ARBITER_TOKEN")
    run(fake_server, capsys, "legal", "game-1")
    run(fake_server, capsys, "legal", "unknown-game")
    run(fake_server, capsys, "legal", "unknown-game", "--admin-token", "admin-flag")
    monkeypatch.delenv("ARBITER_ADMIN_TOKEN")
    Path("data").mkdir()
    Path("data/admin.token").write_text("admin-file\n")
    run(fake_server, capsys, "legal", "unknown-game")
    assert fake.tokens() == ["flag", "env", "seat0-game-1", "admin-env", "admin-flag", "admin-file"]


def test_tail_of_every_game_uses_the_admin_token(
    fake_server: FakeServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_server.service
    monkeypatch.setenv("ARBITER_TOKEN", "a-seat-token")
    assert run(fake_server, capsys, "tail", "--count", "1", "--admin-token", "adm")[0] == 0
    monkeypatch.setenv("ARBITER_ADMIN_TOKEN", "adm-env")
    assert run(fake_server, capsys, "tail", "--count", "1")[0] == 0
    assert run(fake_server, capsys, "tail", "--count", "1", "--token", "explicit")[0] == 0
    assert fake.tokens("Subscribe") == ["adm", "adm-env", "explicit"]


def test_refusal_shows_reason_and_hint(
    fake_server: FakeServer, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_server.service.refuse["other"] = (grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT")
    status, _, err = run(fake_server, capsys, "act", "g", '{"name": "attack", "args": {}}',
                         "--token", "other")
    assert status == 1
    first, hint = err.splitlines()
    assert first.startswith("error: WRONG_SEAT: ")
    assert hint.startswith("hint: ") and "--seat" in hint


def test_no_token_hint_names_the_store(
    fake_server: FakeServer, capsys: pytest.CaptureFixture[str], clean_auth_env: Path
) -> None:
    fake_server.service.refuse[""] = (grpc.StatusCode.UNAUTHENTICATED, "NO_TOKEN")
    status, _, err = run(fake_server, capsys, "state", "g")
    assert status == 1 and err.startswith("error: NO_TOKEN: ")
    assert str(clean_auth_env / "tokens.json") in err


def test_audit_retries_without_a_found_token_that_is_refused(
    fake_server: FakeServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_server.service
    fake.refuse["stale"] = (grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN")
    monkeypatch.setenv("ARBITER_TOKEN", "stale")
    status, out, _ = run(fake_server, capsys, "audit", "g")
    assert status == 0 and "Audit PASSED" in out
    assert fake.tokens("Audit") == ["stale", None]
    # ... but a token given with --token is the caller's choice: its refusal stands
    status, _, err = run(fake_server, capsys, "audit", "g", "--token", "stale")
    assert status == 1 and err.startswith("error: BAD_TOKEN: ")


def test_audit_without_any_token(
    fake_server: FakeServer, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(fake_server, capsys, "audit", "g")
    assert status == 0 and fake_server.service.tokens("Audit") == [None]


def test_play_saves_and_prints_the_tokens(
    fake_server: FakeServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_server.service.over = True  # the fake's game is over at once: play shows the end
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status, out, _ = run(fake_server, capsys, "play", "enin", "--name", "Ada")
    assert status == 0
    assert "Token of Ada (Player 1): seat0-game-1" in out
    assert "Token of spectator: spec-game-1" in out
    assert TokenStore().seat_token(fake_server.address, "game-1", 0) == "seat0-game-1"
    assert fake_server.service.tokens("GetState") == ["seat0-game-1"]
    # resuming finds the stored token
    status, _, _ = run(fake_server, capsys, "play", "enin", "--game", "game-1")
    assert status == 0
    assert fake_server.service.tokens("GetState")[-1] == "seat0-game-1"


def test_simulate_acts_with_each_seats_token(
    fake_server: FakeServer, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = fake_server.service
    fake.playable_seat = 1
    status, out, _ = run(fake_server, capsys, "simulate", "enin", "--games", "2", "--players", "2")
    assert status == 0 and "games finished: 2/2" in out
    # One Play stream a game, for both seats: seat 0's token on the stream,
    # seat 1's in the join, each checked once by the server.
    plays = [(c.request.game_id, list(c.request.seats), list(c.request.seat_tokens), t)
             for c, t in zip(fake.calls, fake.tokens(), strict=True) if c.method == "Play"]
    assert plays == [("game-1", [0, 1], ["seat1-game-1"], "seat0-game-1"),
                     ("game-2", [0, 1], ["seat1-game-2"], "seat0-game-2")]
    assert [c.request.seat for c in fake.calls if c.method == "PlayMove"] == [1, 1]
    assert not TokenStore().load()["servers"]  # simulations do not fill the store


def test_unreadable_tls_ca_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--tls-ca", "/nonexistent/ca.pem", "--address", "localhost:1"]) == 2
    assert "TLS CA file" in capsys.readouterr().err


def test_games_are_created_with_the_creator_token(
    fake_server: FakeServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    clean_auth_env: Path,
) -> None:
    fake = fake_server.service
    run(fake_server, capsys, "new", "enin", "-q", "--creator-token", "flag-creator")
    monkeypatch.setenv("ARBITER_CREATOR_TOKEN", "env-creator")
    run(fake_server, capsys, "new", "enin", "-q")
    run(fake_server, capsys, "new", "enin", "-q", "--creator-token", "flag-creator")
    assert fake.tokens("CreateGame") == ["flag-creator", "env-creator", "flag-creator"]
    fake.refuse["env-creator"] = (grpc.StatusCode.UNAUTHENTICATED, "CREATOR_REQUIRED")
    status, _, err = run(fake_server, capsys, "new", "enin")
    assert status == 1 and "hint: " in err and "--creator-token" in err
