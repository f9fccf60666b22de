"""The processes a run starts: Arbiter's real entry point, the no-op server, Redis.

Each server binds port 0 and prints the port it got, so a run never races
another program (or a colleague's test run) for a port.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

ROOT = Path(__file__).resolve().parents[1]
PORT_LINE = re.compile(rb"serving on \S+ \(port (\d+)\)")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

#: The games the run's servers serve beside the built-in ones: the template
#: game, which the bot loops play (the peer plays a game of its shape).
EXTRA_GAMES = {"ARBITER_EXTRA_GAMES": "tests.template_game:Template"}

#: Arbiter's per-caller shares, lifted: the load generator is one caller (one
#: address) doing the work of hundreds of players, and a benchmark measures the
#: service, not the limiter that keeps one caller from taking it all.
UNLIMITED_SHARES = {
    "ARBITER_CALLS_PER_SECOND": "1000000",
    "ARBITER_CREATES_PER_MINUTE": "1000000",
    "ARBITER_MAX_STREAMS_PER_PEER": "200",
}


def cpu_seconds(pid: int) -> float:
    """CPU time of a process (all its threads, those that exited too), in seconds.

    Read from the process's CPU clock (``clock_gettime`` of the clock id
    ``clock_getcpuclockid`` gives for ``pid``: the kernel's nanosecond count of
    every thread of the process, the exited ones' included). Summing each live
    thread's ``/proc/<pid>/task/*/schedstat`` instead lost the time of every
    thread that exited between two readings: a ``Play`` stream's reading
    thread, one a stream, ended with its game, took about a fifteenth of a
    move's CPU with it. Where that clock cannot be read, ``/proc/<pid>/stat``
    (clock ticks of 10 ms: coarse for a short window of a light server).
    """
    try:
        return time.clock_gettime(_cpu_clock(pid))
    except OSError:
        text = Path(f"/proc/{pid}/stat").read_text()
        fields = text[text.rindex(")") + 2:].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def _cpu_clock(pid: int) -> int:
    """The clock id of a process's CPU time, as glibc's ``clock_getcpuclockid``
    makes it (the kernel's ``MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)``):
    Python has the clocks but not that function."""
    return (~pid << 3) | 2


def python_path() -> str:
    """PYTHONPATH for a child: the repository first, so ``python -m bench.*`` works anywhere."""
    return os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)


def arbiter_server_command() -> list[str]:
    """The installed ``arbiter-server`` console script beside this interpreter."""
    beside = Path(sys.executable).parent / "arbiter-server"
    found = str(beside) if beside.exists() else shutil.which("arbiter-server")
    if not found:
        raise RuntimeError("arbiter-server is not installed: run `make install`")
    return [found]


class Process:
    """A server process that prints ``serving on ADDRESS (port N)`` once it listens."""

    def __init__(self, name: str, command: list[str], log_path: Path,
                 env: dict[str, str] | None = None) -> None:
        self.name = name
        self.log_path = log_path
        log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(log_path, "wb")  # noqa: SIM115 - open for the process's life
        self.process = subprocess.Popen(
            command, stdout=self._log, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": python_path(),
                 **(env or {})},
        )
        self.port = self._wait_port()
        self.address = f"127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.process.pid

    def _wait_port(self, timeout: float = 60.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = PORT_LINE.search(self.log_path.read_bytes())
            if found:
                return int(found.group(1))
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        tail = self.log_path.read_text(errors="replace")[-2000:]
        raise RuntimeError(f"{self.name} did not start:\n{tail}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


class ArbiterServer(Process):
    """``arbiter-server`` on a free port with its own data dir and the given store."""

    def __init__(self, data_dir: Path, redis_url: str, database_url: str = "",
                 reuse_port: bool = False, beside: ArbiterServer | None = None,
                 sharing: ArbiterServer | None = None) -> None:
        """``reuse_port``: started so that others may join it on its port;
        ``beside``: a server (started so) this one joins, on its port and store,
        with its secret, admin token and channels, as the operator's guide has
        several servers run (``ARBITER_REUSE_PORT``); ``sharing``: a server
        whose store, secret, admin token and channels this one shares, on a
        port of its own."""
        fellow = beside or sharing
        self.admin_token: str = (fellow.admin_token if fellow
                                 else "admin-" + secrets.token_urlsafe(32))
        self.secret: str = fellow.secret if fellow else secrets.token_hex(32)
        #: The server's Redis channel prefix, set here so the bench's direct
        #: subscriber knows the channels (``<prefix>game:<id>``).
        self.redis_prefix: str = (fellow.redis_prefix if fellow
                                  else f"arbiter-bench:{secrets.token_hex(4)}:")
        env = {
            "REDIS_URL": redis_url,
            "ARBITER_REDIS_PREFIX": self.redis_prefix,
            "ARBITER_ADMIN_TOKEN": self.admin_token,
            "ARBITER_SECRET": self.secret,
            "ARBITER_DATABASE_URL": database_url,
            "ARBITER_REUSE_PORT": "1" if reuse_port or beside else "",
            **UNLIMITED_SHARES,
            **EXTRA_GAMES,
        }
        address = f"127.0.0.1:{beside.port}" if beside else "127.0.0.1:0"
        super().__init__(
            "arbiter-server",
            [*arbiter_server_command(), "--address", address, "--data-dir", str(data_dir)],
            data_dir.parent / f"{data_dir.name}-server.log", env,
        )
        try:
            self._wait_healthy()
        except BaseException:
            self.stop()
            raise

    def _wait_healthy(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        with grpc.insecure_channel(self.address) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            while time.monotonic() < deadline:
                try:
                    reply = health.Check(health_pb2.HealthCheckRequest(), timeout=1)
                    if reply.status == health_pb2.HealthCheckResponse.SERVING:
                        return
                except grpc.RpcError:
                    pass
                time.sleep(0.1)
        raise RuntimeError("arbiter-server did not become healthy")


class NoopServer(Process):
    """``python -m bench.noop`` on a free port."""

    def __init__(self, log_dir: Path) -> None:
        super().__init__("noop server", [sys.executable, "-m", "bench.noop"],
                         log_dir / "noop.log")
