"""The CLI's token store (a private JSON file) and its token lookup order."""

from __future__ import annotations

import json
import os
import socket
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from clients.tokens import (
    TokenStore,
    TokenStoreError,
    admin_token,
    admin_token_places,
    arbiter_home,
    default_store_path,
    is_local_address,
    resolve_token,
)

ADDRESS = "localhost:50051"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def stored(path: Path) -> TokenStore:
    store = TokenStore(path)
    store.save_game(ADDRESS, "g1", [(0, "Ada", "tok-ada"), (1, "Bo", "tok-bo")], "tok-spec",
                    rules="enin")
    return store


def test_file_is_0600_in_a_0700_folder_whatever_the_umask(tmp_path: Path) -> None:
    path = tmp_path / "home" / "nested" / "tokens.json"
    old = os.umask(0)
    try:
        stored(path)
    finally:
        os.umask(old)
    assert mode(path) == 0o600
    assert mode(path.parent) == 0o700
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".tokens-")]


def test_a_too_open_file_is_made_private_on_the_next_save(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    path.write_text('{"version": 1, "servers": {}}')
    path.chmod(0o644)
    stored(path)
    assert mode(path) == 0o600


def test_round_trip_keyed_by_address_and_game(tmp_path: Path) -> None:
    store = stored(tmp_path / "tokens.json")
    store.save_game("elsewhere:1", "g1", [(0, "Cy", "tok-cy")], "")
    assert store.seat_token(ADDRESS, "g1", 0) == "tok-ada"
    assert store.seat_token(ADDRESS, "g1", 1) == "tok-bo"
    assert store.seat_token(ADDRESS, "g1", 2) is None
    assert store.spectator_token(ADDRESS, "g1") == "tok-spec"
    assert store.seat_token("elsewhere:1", "g1", 0) == "tok-cy"
    assert store.spectator_token("elsewhere:1", "g1") is None
    assert store.seat_token(ADDRESS, "g2", 0) is None
    data = json.loads((tmp_path / "tokens.json").read_text())
    assert data["servers"][ADDRESS]["g1"] == {
        "rules": "enin",
        "seats": {"0": {"name": "Ada", "token": "tok-ada"}, "1": {"name": "Bo", "token": "tok-bo"}},
        "spectator": "tok-spec",
    }
    assert store.forget(ADDRESS, "g1") and not store.forget(ADDRESS, "g1")
    assert store.seat_token(ADDRESS, "g1", 0) is None
    assert store.seat_token("elsewhere:1", "g1", 0) == "tok-cy"


def test_no_file_is_an_empty_store_and_a_broken_one_is_an_error(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "tokens.json")
    assert store.seat_token(ADDRESS, "g1", 0) is None
    (tmp_path / "tokens.json").write_text("{oops")
    with pytest.raises(TokenStoreError, match="not JSON"):
        store.load()
    with pytest.raises(TokenStoreError):
        store.save_game(ADDRESS, "g1", [], "")


def test_concurrent_saves_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"

    def save(worker: int) -> None:
        store = TokenStore(path)
        for n in range(5):
            store.save_game(ADDRESS, f"g{worker}-{n}", [(0, "A", f"t{worker}-{n}")], "")

    threads = [threading.Thread(target=save, args=(w,)) for w in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(TokenStore(path).load()["servers"][ADDRESS]) == 30


def test_default_path_follows_arbiter_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("ARBITER_HOME", str(tmp_path / "h"))
    assert default_store_path() == tmp_path / "h" / "tokens.json"
    assert TokenStore().path == tmp_path / "h" / "tokens.json"
    monkeypatch.delenv("ARBITER_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    assert arbiter_home() == tmp_path / "user" / ".arbiter"


# --- lookup order ------------------------------------------------------------


def test_resolve_order_token_env_store_admin(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    store = stored(tmp_path / "tokens.json")
    admin_file = tmp_path / "admin.token"
    admin_file.write_text("admin-from-file\n")

    def resolve(seat: int = 0, spectator: bool = False, explicit: str | None = None,
                admin: str | None = None, game: str = "g1") -> str | None:
        return resolve_token(ADDRESS, game, seat, spectator, explicit=explicit, store=store,
                             admin=admin, admin_file=admin_file)

    monkeypatch.setenv("ARBITER_TOKEN", "from-env")
    monkeypatch.setenv("ARBITER_ADMIN_TOKEN", "admin-from-env")
    assert resolve(explicit="from-flag") == "from-flag"
    assert resolve() == "from-env"
    monkeypatch.delenv("ARBITER_TOKEN")
    assert resolve() == "tok-ada"
    assert resolve(seat=1) == "tok-bo"
    assert resolve(spectator=True) == "tok-spec"
    assert resolve(seat=7) == "admin-from-env"  # nothing stored for that seat
    assert resolve(game="g2", admin="admin-from-flag") == "admin-from-flag"
    assert resolve(game="g2") == "admin-from-env"
    monkeypatch.delenv("ARBITER_ADMIN_TOKEN")
    assert resolve(game="g2") == "admin-from-file"
    admin_file.unlink()
    assert resolve(game="g2") is None


def test_spectator_lookup_falls_back_to_a_seat_token(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "tokens.json")
    store.save_game(ADDRESS, "g1", [(0, "Ada", "tok-ada")], spectator="")
    assert resolve_token(ADDRESS, "g1", spectator=True, store=store) == "tok-ada"


def test_a_broken_store_does_not_stop_the_admin_token(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "tokens.json"
    path.write_text("[]")
    monkeypatch.setenv("ARBITER_ADMIN_TOKEN", "adm")
    assert resolve_token(ADDRESS, "g1", store=TokenStore(path)) == "adm"


def test_admin_file_is_read_only_for_a_local_server(tmp_path: Path) -> None:
    admin_file = tmp_path / "admin.token"
    admin_file.write_text("secret\n")
    assert admin_token(None, "localhost:50051", admin_file) == "secret"
    assert admin_token(None, "127.0.0.1:9", admin_file) == "secret"
    assert admin_token(None, "game.example.com:443", admin_file) is None
    assert admin_token("flag", "game.example.com:443", admin_file) == "flag"


def test_the_admin_token_of_the_server_s_data_folder_is_found_outside_the_checkout(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``$ARBITER_DATA_DIR`` (what the server was told) is read from any folder;
    when nothing is found, the hint names every place looked in, exactly."""
    served = tmp_path / "srv" / "data"
    places = admin_token_places("localhost:50051")
    assert str(Path("data/admin.token").absolute()) + " (missing)" in places
    monkeypatch.setenv("ARBITER_DATA_DIR", str(served))
    assert admin_token(None, "localhost:50051") is None
    assert f"{served / 'admin.token'} (missing)" in admin_token_places("localhost:50051")
    served.mkdir(parents=True)
    (served / "admin.token").write_text("served-admin\n")
    assert admin_token(None, "localhost:50051") == "served-admin"
    assert admin_token(None, "game.example.com:443") is None
    assert "only read for a server on this machine" in admin_token_places("game.example.com:1")


def test_admin_file_default_is_data_admin_token_in_the_cwd(tmp_path: Path) -> None:
    assert admin_token(None, "localhost:50051") is None
    Path("data").mkdir()
    Path("data/admin.token").write_text("local-admin\n")
    assert admin_token(None, "localhost:50051") == "local-admin"


@pytest.mark.parametrize(
    ("address", "local"),
    [
        ("localhost:50051", True), ("127.0.0.1:1", True), ("[::1]:50051", True),
        ("ipv4:127.0.0.1:50051", True), ("dns:///localhost:50051", True), ("unix:/tmp/s", True),
        ("example.com:50051", False), ("10.0.0.5:50051", False), ("[2001:db8::1]:1", False),
        ("127.255.0.9:1", True), ("::1", True), ("[::ffff:127.0.0.1]:1", True),
        ("ipv4:127.0.0.1:1,127.0.0.2:2", True),
        # names that only look local, and targets that reach elsewhere (issue 8, item 3)
        ("127.attacker.example:50051", False), ("127.0.0.1.attacker.example:1", False),
        ("localhost.attacker.example:1", False), ("0.0.0.0:50051", False),
        ("127.1:50051", False), ("ipv4:127.0.0.1:1,10.0.0.5:2", False),
        ("dns://203.0.113.9/localhost:50051", False), (":50051", False),
    ],
)
def test_is_local_address(address: str, local: bool) -> None:
    assert is_local_address(address) is local


def test_localhost_is_local_only_if_it_resolves_to_loopback_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def resolving_to(*ips: str) -> Callable[..., list[tuple[Any, ...]]]:
        return lambda host, port, *args, **kwargs: [(0, 0, 0, "", (ip, 0)) for ip in ips]

    monkeypatch.setattr(socket, "getaddrinfo", resolving_to("127.0.0.1", "::1"))
    assert is_local_address("localhost:50051")
    monkeypatch.setattr(socket, "getaddrinfo", resolving_to("127.0.0.1", "198.51.100.7"))
    assert not is_local_address("localhost:50051")
    monkeypatch.setattr(socket, "getaddrinfo", resolving_to("127.0.0.1"))
    assert not is_local_address("127.attacker.example:50051")  # never resolved, never local


def test_admin_file_is_not_sent_to_a_name_that_looks_local(tmp_path: Path) -> None:
    admin_file = tmp_path / "admin.token"
    admin_file.write_text("secret\n")
    assert admin_token(None, "127.attacker.example:50051", admin_file) is None
    assert admin_token(None, "[::1]:50051", admin_file) == "secret"
