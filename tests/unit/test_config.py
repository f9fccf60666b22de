"""Store configuration from URLs: credentials and TLS travel in the URL (issue 4)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from service.config import Settings


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
