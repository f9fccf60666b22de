"""A real Arbiter server process for integration tests: real store, real Redis."""

from __future__ import annotations

import atexit
import os
import re
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from arbiter.v1 import game_pb2_grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.config import default_redis_prefix
from tests.conftest import TEST_PROCESS_ONLY_ENV
from tests.integration.forkserver import ForkedProcess, ForkServer

ROOT = Path(__file__).resolve().parents[2]
#: What the server prints once it serves; the port is the one it really bound.
SERVING = re.compile(rb"arbiter: serving on \S+ \(port (\d+)\)")
#: Every test's players are one address (127.0.0.1), where real players are many:
#: the harness gives that address a platform's share (as ``bench/procs.py`` does),
#: and a test of the shares themselves sets the ones it checks (``test_shares``,
#: ``test_work_shares``, ``test_lobby_limits``: the defaults, given explicitly).
HARNESS_SHARES = {"ARBITER_CALLS_PER_SECOND": "1000000",
                  "ARBITER_WAITING_TABLES_PER_CALLER": "100000"}
#: The same line's web side, when ARBITER_WEB_ADDRESS is set.
WEB = re.compile(rb"web pages at (http://[^/\s]+)/")


def server_env() -> dict[str, str]:
    """The environment every server process starts from: this process's, less
    what only this process may have, output unbuffered (the log is read live)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    for name in TEST_PROCESS_ONLY_ENV:
        env.pop(name, None)
    return env


#: This test process's fork server (``forkserver``): servers start from a
#: process that has already imported them, unless ARBITER_TEST_FORK=0.
FORKS = ForkServer(ROOT)


class ServerProcess:
    """One `python -m service.main` process, restartable on the same data dir:
    forked from this test process's fork server (``forkserver``: the imports
    done once) wherever that cannot differ from a fresh start, else started afresh.

    The first start binds port 0 and learns the port the server got, so two
    servers started at once (parallel workers) can never pick the same port;
    a restart binds that same port again."""

    def __init__(self, data_dir: Path, redis_url: str, extra_env: dict[str, str] | None = None):
        self.data_dir = data_dir
        self.redis_url = redis_url
        self.port = 0
        self.address = "127.0.0.1:0"
        self.admin_token = "admin-" + secrets.token_urlsafe(32)
        self.extra_env = {"ARBITER_ADMIN_TOKEN": self.admin_token,
                          **HARNESS_SHARES, **(extra_env or {})}
        self.process: subprocess.Popen[bytes] | ForkedProcess | None = None
        self.tls_root: bytes | None = None
        self.log_path = data_dir / "server.log"
        #: The web side's base URL (no trailing slash), when it serves one.
        self.web_url = ""

    def start(self) -> None:
        if self not in SERVERS:
            SERVERS.append(self)
        env = dict(server_env(), REDIS_URL=self.redis_url, **self.extra_env)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:  # there before the server writes to it
            offset = log.tell()
        args = ["--address", self.address, "--data-dir", str(self.data_dir)]
        self.process = FORKS.spawn(args, env, self.log_path, server_env())
        if self.process is None:
            with open(self.log_path, "ab") as log:  # the process has its own copy
                self.process = subprocess.Popen(
                    [sys.executable, "-m", "service.main", *args],
                    cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                )
        try:
            # A restart too waits for the line: asked for health before the
            # server listens, gRPC's channel backs off for a second before it
            # tries again (a restart took 1.3 s, a first start 0.25 s).
            self.learn_port(offset)
            self.wait_serving()
        except BaseException:
            # A start that failed (no port said, never healthy) left its process
            # running after the run, as no fixture's teardown follows a failed set-up.
            self.process.kill()
            self.process.wait()
            raise

    def learn_port(self, offset: int, timeout: float = 60.0) -> None:
        """Read the port the server bound from its log (written from ``offset`` on):
        the one it was asked for, on a restart.

        Only a failed start waits the whole ``timeout``: a fresh process (not
        forked) on a 2-core machine loaded ten times over took 27-29 s to serve."""
        deadline = time.monotonic() + timeout
        # A server asked for a web side logs its address apart from the gRPC
        # port's, and not always first: both are waited for, or a test reads an
        # empty web_url (seen once in a fresh clone's suite).
        wants_web = bool(self.extra_env.get("ARBITER_WEB_ADDRESS"))
        while time.monotonic() < deadline:
            assert self.process is not None
            with open(self.log_path, "rb") as log:
                log.seek(offset)
                logged = log.read()
            found, web = SERVING.search(logged), WEB.search(logged)
            if found and (web or not wants_web):
                if not self.port:  # a restart keeps its address
                    self.port = int(found.group(1))
                    self.address = f"127.0.0.1:{self.port}"
                if web:
                    self.web_url = web.group(1).decode()
                    # A restart serves the web side on the same port.
                    self.extra_env["ARBITER_WEB_ADDRESS"] = self.web_url.rsplit("//", 1)[1]
                return
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            time.sleep(0.01)
        raise RuntimeError("server did not say which port it serves on")

    def wait_serving(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        with self.channel() as channel:
            health = health_pb2_grpc.HealthStub(channel)
            while time.monotonic() < deadline:
                assert self.process is not None
                if self.process.poll() is not None:
                    raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
                try:
                    reply = health.Check(health_pb2.HealthCheckRequest(), timeout=1)
                    if reply.status == health_pb2.HealthCheckResponse.SERVING:
                        return
                except grpc.RpcError:
                    time.sleep(0.1)
        raise RuntimeError("server did not become healthy")

    def stop(self, sig: int = signal.SIGTERM) -> int:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        return self.process.wait()

    def stop_soon(self) -> None:
        """Tell the server to stop (SIGTERM) and go on; it is waited for at the end
        of the run (``wait_for_stops``). For a fixture's teardown, which checks
        nothing of the stop: a server holding feeds drains them for seconds (a
        web feed whose reader left ends at its next heartbeat), while the next
        tests could run. The tests of the stop itself call ``stop``."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        with STOPPING_LOCK:
            if not STOPPING:
                # After the fork server's own exit handler is registered, so run
                # before it (last in, first out): its children's ends are read from it.
                atexit.register(wait_for_stops)
            STOPPING.append(self)

    def restart(self) -> None:
        self.stop()
        self.start()

    def __enter__(self) -> ServerProcess:
        """Started for a ``with`` block (a fixture's), told to stop at its end
        (``stop_soon``)."""
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop_soon()

    @property
    def redis_prefix(self) -> str:
        """The prefix of the Redis channels this server publishes on (as it derives it)."""
        env = {**os.environ, **self.extra_env}
        return env.get("ARBITER_REDIS_PREFIX") or default_redis_prefix(
            env.get("ARBITER_DATABASE_URL") or env.get("DATABASE_URL", ""),
            env.get("ARBITER_POSTGRES_SCHEMA", "public"), self.data_dir)

    def channel(self) -> grpc.Channel:
        """A channel to the server: TLS (trusting ``tls_root``) when the server has it."""
        if self.tls_root is not None:
            credentials = grpc.ssl_channel_credentials(root_certificates=self.tls_root)
            return grpc.secure_channel(self.address, credentials)
        return grpc.insecure_channel(self.address)

    def stub(self, token: str | None = None) -> game_pb2_grpc.GameServiceStub:
        """A stub sending ``token`` (default: the admin token; "" sends none)."""
        channel = self.channel()
        token = self.admin_token if token is None else token
        if token:
            channel = grpc.intercept_channel(channel, BearerToken(token))
        return game_pb2_grpc.GameServiceStub(channel)


#: Every server this process started, in order (``start``): the ones a failed
#: test used show the tail of their logs in its report (``failure_logs``).
SERVERS: list[ServerProcess] = []
#: How many of a server's last log lines a failed test's report shows.
LOG_TAIL_LINES = 60


def log_sizes() -> dict[int, int]:
    """Each started server's log size now, by the server's id: where a test's
    part of a log begins (taken as the test starts)."""
    sizes = {}
    for server in SERVERS:
        try:
            sizes[id(server)] = server.log_path.stat().st_size
        except OSError:
            sizes[id(server)] = 0
    return sizes


def servers_in(value: object) -> list[ServerProcess]:
    """The servers a fixture's value is or holds (a server, or a tuple, list or
    dict with one: ``two_callers`` yields ``(server, port)``)."""
    if isinstance(value, ServerProcess):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (tuple, list)):
        return [server for item in value for server in servers_in(item)]
    return [server for server in vars(value).values() if isinstance(server, ServerProcess)] \
        if hasattr(value, "__dict__") and not isinstance(value, type) else []


def failure_logs(fixtures: dict[str, object], before: dict[int, int]) -> list[tuple[str, str]]:
    """The report sections of a failed test: for each server it used (one of its
    fixtures' values) or started (a server not started before the test began,
    ``before``: ``log_sizes`` then), the last ``LOG_TAIL_LINES`` lines its log
    got during the test, or of the whole log where it got none. A server's
    INTERNAL error is logged by the server only, where no one read it."""
    used = [server for value in fixtures.values() for server in servers_in(value)]
    used += [server for server in SERVERS if id(server) not in before]
    sections, seen = [], set()
    for server in used:
        if id(server) in seen:
            continue
        seen.add(id(server))
        try:
            with open(server.log_path, "rb") as log:
                logged = log.read()
        except OSError as exc:
            sections.append((f"server log {server.log_path}", f"(unreadable: {exc})"))
            continue
        during = logged[before.get(id(server), 0):]
        lines = (during or logged).decode(errors="replace").splitlines()[-LOG_TAIL_LINES:]
        what = "during the test" if during else "before the test (none during it)"
        sections.append((f"server log {server.log_path}, its last {len(lines)} lines {what}",
                         "\n".join(lines)))
    return sections


#: Servers told to stop by a teardown and not yet waited for (``stop_soon``).
STOPPING: list[ServerProcess] = []
STOPPING_LOCK = threading.Lock()


def wait_for_stops() -> None:
    """Wait for every server told to stop; kill one still running after 20 s."""
    deadline = time.monotonic() + 20
    for server in STOPPING:
        assert server.process is not None
        try:
            server.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()


class BearerToken(
    grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor  # type: ignore[misc]
):
    """Adds ``authorization: Bearer <token>`` to every call."""

    def __init__(self, token: str) -> None:
        self.token = token

    def _with_token(self, details: Any) -> Any:
        metadata = list(details.metadata or []) + [("authorization", f"Bearer {self.token}")]
        return details._replace(metadata=metadata)

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        return continuation(self._with_token(details), request)

    def intercept_unary_stream(self, continuation: Any, details: Any, request: Any) -> Any:
        return continuation(self._with_token(details), request)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    """The server's own application, in this process, on the server's store
    settings (SQLite, the aggregate cache on). A module may define its own."""
    from service.application import ArbiterApp
    from service.config import Settings

    application = ArbiterApp(Settings(data_dir=tmp_path).store_env())
    yield application
    application.close()


@pytest.fixture
def arbiter_server(tmp_path: Path, redis_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path / "data", redis_url) as server:
        yield server


@pytest.fixture(scope="module")
def shared_server(
    tmp_path_factory: pytest.TempPathFactory, redis_url: str
) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("arbiter") / "data", redis_url) as server:
        yield server
