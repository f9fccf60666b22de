"""Store configuration from URLs: credentials and TLS travel in the URL (issue 4);
secrets long enough and written whole (issue 8)."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from service.auth import Credentials
from service.config import MIN_SECRET_BYTES, ConfigError, Settings
from service.errors import ServiceError


def test_sqlite_is_the_default(tmp_path: Path) -> None:
    env = Settings(data_dir=tmp_path).store_env()
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite"
    assert env["SQLITE_DBNAME"] == str(tmp_path / "arbiter.sqlite")


def test_postgres_url_gives_credentials_and_tls(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("PGSSLMODE", "PGSSLROOTCERT"):
        # setenv first so the variable is put back as it was (removed if it was
        # unset) after the test: left set, it sends this worker's later
        # PostgreSQL connections to TLS with a CA file that does not exist
        monkeypatch.setenv(var, "")
        monkeypatch.delenv(var)
    url = "postgresql://arb%40ter:s3cr%2Ft@db.example:6543/games?sslmode=verify-full&sslrootcert=/ca.pem"
    env = Settings(database_url=url).store_env()
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
    assert (env["POSTGRES_USER"], env["POSTGRES_PASSWORD"]) == ("arb@ter", "s3cr/t")
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"], env["POSTGRES_DBNAME"]) == (
        "db.example", "6543", "games")
    assert os.environ["PGSSLMODE"] == "verify-full"
    assert os.environ["PGSSLROOTCERT"] == "/ca.pem"


def test_unknown_database_urls_are_refused() -> None:
    with pytest.raises(ValueError):
        Settings(database_url="mysql://x").store_env()
    with pytest.raises(ValueError):
        Settings(database_url="postgresql://h/db?frobnicate=1").store_env()


# --- secrets (issue 8, item 1) ------------------------------------------------


class FullDisk:
    """What ``os.fdopen`` gives on a full disk: a file whose writes fail."""

    def __init__(self, fd: int, *args: object, **kwargs: object) -> None:
        self.fd = fd

    def __enter__(self) -> FullDisk:
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        return self.fd


@pytest.fixture
def no_secret_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ARBITER_SECRET", "ARBITER_ADMIN_TOKEN", "ARBITER_CREATOR_TOKEN",
                 "ARBITER_CREATOR_TOKEN_FILE"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.usefixtures("no_secret_env")
def test_secret_files_are_made_whole_and_private(tmp_path: Path) -> None:
    Credentials.configure(tmp_path)
    for name in ("secret", "admin.token"):
        path = tmp_path / name
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert len(path.read_text().strip()) >= MIN_SECRET_BYTES
    assert sorted(p.name for p in tmp_path.iterdir()) == ["admin.token", "secret"]
    first = (tmp_path / "secret").read_text()
    Credentials.configure(tmp_path)
    assert (tmp_path / "secret").read_text() == first  # kept, not replaced


@pytest.mark.usefixtures("no_secret_env")
def test_a_full_disk_leaves_no_empty_secret_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(os, "fdopen", FullDisk)
        with pytest.raises(ConfigError, match="secret: No space left on device"):
            Credentials.configure(tmp_path)
    assert list(tmp_path.iterdir()) == []  # no 0-byte secret, no temporary file
    Credentials.configure(tmp_path)  # the disk is freed: a whole secret is made
    assert len((tmp_path / "secret").read_text().strip()) >= MIN_SECRET_BYTES


@pytest.mark.usefixtures("no_secret_env")
@pytest.mark.parametrize("name", ["secret", "admin.token"])
@pytest.mark.parametrize("content", ["", "\n", "cut-short"])
def test_an_empty_or_short_secret_file_is_refused(
    tmp_path: Path, name: str, content: str
) -> None:
    (tmp_path / name).write_text(content)
    with pytest.raises(ConfigError, match=f"{name} holds [0-9]+ bytes"):
        Credentials.configure(tmp_path)


@pytest.mark.usefixtures("no_secret_env")
def test_a_short_arbiter_secret_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARBITER_SECRET", "x" * (MIN_SECRET_BYTES - 1))
    with pytest.raises(ConfigError, match="ARBITER_SECRET is 31 bytes long"):
        Credentials.configure(tmp_path)
    monkeypatch.setenv("ARBITER_SECRET", "x" * MIN_SECRET_BYTES)
    Credentials.configure(tmp_path)
    assert not (tmp_path / "secret").exists()


@pytest.mark.usefixtures("no_secret_env")
def test_the_creator_token_comes_from_the_environment_or_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not Credentials.configure(tmp_path).creator_required
    token = "c" * MIN_SECRET_BYTES
    monkeypatch.setenv("ARBITER_CREATOR_TOKEN", token)
    credentials = Credentials.configure(tmp_path)
    assert credentials.creator_required
    assert credentials.creator(token, "ipv4:1.2.3.4:5") == "creator"
    monkeypatch.delenv("ARBITER_CREATOR_TOKEN")
    path = tmp_path / "creator.token"
    monkeypatch.setenv("ARBITER_CREATOR_TOKEN_FILE", str(path))
    with pytest.raises(ConfigError, match="cannot read ARBITER_CREATOR_TOKEN_FILE"):
        Credentials.configure(tmp_path)
    path.write_text("short\n")
    with pytest.raises(ConfigError, match="5 bytes long"):
        Credentials.configure(tmp_path)
    path.write_text(token + "\n")
    assert Credentials.configure(tmp_path).creator(token, "") == "creator"
    monkeypatch.setenv("ARBITER_CREATOR_TOKEN", "short")
    with pytest.raises(ConfigError, match="ARBITER_CREATOR_TOKEN is 5 bytes long"):
        Credentials.configure(tmp_path)


def test_a_request_id_belongs_to_its_caller() -> None:
    credentials = Credentials(b"s" * 32, "admin-token")
    callers = {
        credentials.creator("admin-token", "ipv4:10.0.0.1:1"),
        credentials.creator("key-one", "ipv4:10.0.0.1:1"),
        credentials.creator("key-two", "ipv4:10.0.0.1:1"),
        credentials.creator("", "ipv4:10.0.0.1:1"),
        credentials.creator("", "ipv6:[::1]:1"),
    }
    assert len(callers) == 5 and "admin" in callers
    # the anonymous caller is its address, whatever port it calls from
    assert credentials.creator("", "ipv4:10.0.0.1:1") == credentials.creator("", "ipv4:10.0.0.1:9")
    ids = {credentials.game_id("enin", caller, "round3-table7") for caller in callers}
    assert len(ids) == 5
    other_secret = Credentials(b"t" * 32, "admin-token")
    assert other_secret.game_id("enin", "admin", "r") != credentials.game_id("enin", "admin", "r")
    with pytest.raises(ServiceError) as info:
        Credentials(b"s" * 32, "", creator_token="c" * 32).creator("", "ipv4:10.0.0.1:1")
    assert (info.value.status, info.value.reason) == ("UNAUTHENTICATED", "CREATOR_REQUIRED")
