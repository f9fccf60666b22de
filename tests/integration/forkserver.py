"""A pre-imported server for the tests to fork from: each test's server starts
in a fraction of a second instead of seconds.

A server process spends most of its start importing: the games' event classes
(hundreds of dataclasses), aiohttp for the web side. The integration and web
tests start a few hundred servers per suite run, and those imports were most
of the suite's time. This process imports ``service.main`` and the web side
once, then forks a child per server asked for; the child runs
``service.main.main()`` as ``python -m service.main`` would, with the asked
environment, argument list, working directory and log file.

A fork is only as good as the state it copies, so it is used only where it
cannot differ from a fresh start:

* nothing but this one thread runs here (checked after the imports: no
  thread of Python's, none of gRPC's core, which the imports never start);
* every environment variable read while importing (recorded as the imports
  read them) has the same value in the asked environment, else the harness
  starts a fresh process (``ARBITER_EXTRA_GAMES``, the games' data files);
* the child takes the test process's umask at the time of asking (as a
  process it started would), draws a new ``random`` seed, and runs Python's
  exit steps (non-daemon threads joined, ``atexit``) as an interpreter would.

Protocol, one Unix-socket connection per server: the harness sends one JSON
line (argv, env, cwd, log); this process answers ``pid <n>`` and, when the
child has exited, ``exit <returncode>`` (Popen's: negative for a signal).
End of input on stdin (the test process gone) stops this process and its
children. Only the standard library here: the tests' own modules set
process-wide state a server must not inherit.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import json
import os
import random
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import traceback
from pathlib import Path
from typing import Any

#: What a server imports at its start (its web side's too, and what gRPC and
#: the pages import when they first serve), imported here once.
PRELOAD = ("service.main", "service.web.server", "service.web.pages", "service.web.seat",
           "service.web.session", "service.web.tables", "grpc._server", "grpc._interceptor",
           "encodings.idna")


def preload() -> set[str]:
    """Import the server's modules; the names of the environment variables they read."""
    read: set[str] = set()
    copying = [0]
    environ_type = type(os.environ)
    original_get, original_iter = environ_type.__getitem__, environ_type.__iter__

    def recording(self: Any, key: str) -> Any:
        if not copying[0]:
            read.add(key)
        return original_get(self, key)

    def iterating(self: Any) -> Any:
        # A copy of the whole environment (wsgiref's, for its requests' CGI
        # variables) reads every name and decides nothing by any of them.
        copying[0] += 1
        try:
            yield from original_iter(self)
        finally:
            copying[0] -= 1

    environ_type.__getitem__ = recording  # type: ignore[method-assign]
    environ_type.__iter__ = iterating  # type: ignore[method-assign]
    try:
        for name in PRELOAD:
            __import__(name)
        # What every server computes first (its games' schemas, ``functools.cache``d).
        from service.servicer import rules_catalogue

        rules_catalogue()
    finally:
        environ_type.__getitem__ = original_get  # type: ignore[method-assign]
        environ_type.__iter__ = original_iter  # type: ignore[method-assign]
    return read


def threads_here() -> int:
    """The threads of this process (Python's and native ones alike)."""
    return len(os.listdir("/proc/self/task"))


def run_child(request: dict[str, Any]) -> None:
    """In the forked child: become ``python -m service.main`` with the request's
    arguments, environment, directory and log; never returns."""
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.umask(request["umask"])
        log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.close(null)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["service.main", *request["args"]]
        random.seed()
        from service.main import main

        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exit_code(exc.code)
        except KeyboardInterrupt:
            finish()
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # as Python does: die of SIGINT
            os.kill(os.getpid(), signal.SIGINT)
        except BaseException:
            traceback.print_exc()
            code = 1
        finish()
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(code)


def exit_code(value: object) -> int:
    """The status ``sys.exit(value)`` gives, as the interpreter computes it."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    print(value, file=sys.stderr)
    return 1


def finish() -> None:
    """Python's own exit steps: wait for non-daemon threads, run ``atexit``, flush."""
    try:
        threading._shutdown()  # type: ignore[attr-defined]
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()


def serve(listener: socket.socket) -> None:
    """Fork a child per request; report each child's exit on its connection."""
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    os.set_blocking(wake_read, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    selector.register(sys.stdin.fileno(), selectors.EVENT_READ, "stdin")
    selector.register(wake_read, selectors.EVENT_READ, "child")
    children: dict[int, socket.socket] = {}
    while True:
        for key, _ in selector.select():
            if key.data == "stdin" and not os.read(sys.stdin.fileno(), 4096):
                for pid in children:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGTERM)
                return
            if key.data == "child":
                while os.read(wake_read, 4096) == 4096:
                    pass
                reap(children)
            if key.data == "accept":
                conn, _ = listener.accept()
                pid = start_child(conn, [listener, wake_read, wake_write, selector])
                if pid:
                    children[pid] = conn
        reap(children)


def start_child(conn: socket.socket, closing: list[Any]) -> int:
    """Read one request from ``conn`` and fork its server; 0 if the request was unreadable."""
    conn.settimeout(10)
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(65536)
        if not chunk:
            conn.close()
            return 0
        data += chunk
    request = json.loads(data)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        for thing in closing:
            if isinstance(thing, int):
                os.close(thing)
            else:
                thing.close()
        conn.close()
        run_child(request)
    conn.sendall(f"pid {pid}\n".encode())
    return pid


def reap(children: dict[int, socket.socket]) -> None:
    """Report every exited child on its connection."""
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        conn = children.pop(pid, None)
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.sendall(f"exit {os.waitstatus_to_exitcode(status)}\n".encode())
            conn.close()


class ForkedProcess:
    """A forked server as the harness sees it: ``subprocess.Popen``'s ``pid``,
    ``poll``, ``wait``, ``send_signal``, ``terminate``, ``kill`` and ``returncode``
    (the exit status comes from the fork server, the child's parent)."""

    def __init__(self, conn: socket.socket, pid: int, args: list[str]) -> None:
        self.conn = conn
        self.pid = pid
        self.args = args
        self.returncode: int | None = None
        self._buffer = b""

    def _read_exit(self, timeout: float | None) -> bool:
        """Whether the exit status arrived within ``timeout`` (None: wait for it)."""
        self.conn.settimeout(timeout)
        while b"\n" not in self._buffer:
            try:
                chunk = self.conn.recv(64)
            except (TimeoutError, BlockingIOError):
                return False
            if not chunk:
                raise RuntimeError(f"the fork server went away before server {self.pid} exited")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        word, value = line.decode().split()
        assert word == "exit", line
        self.returncode = int(value)
        self.conn.close()
        return True

    def poll(self) -> int | None:
        if self.returncode is None:
            self._read_exit(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None and not self._read_exit(timeout):
            raise subprocess.TimeoutExpired(self.args, timeout or 0)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def current_umask() -> int:
    """This process's umask (a test may set one for the servers it starts), read
    without setting it (``os.umask`` would, for every thread at once)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    raise RuntimeError("no Umask line in /proc/self/status")


class ForkServer:
    """The test process's side: one fork server per test process, started at
    its first use, stopped when the test process exits."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.lock = threading.Lock()
        self.process: subprocess.Popen[bytes] | None = None
        self.env: dict[str, str] = {}
        self.imported: set[str] = set()
        self.path = ""
        self.refused = os.environ.get("ARBITER_TEST_FORK", "1") == "0"

    def _start(self, env: dict[str, str]) -> None:
        folder = tempfile.mkdtemp(prefix="arbiter-forks-")
        self.path = os.path.join(folder, "socket")
        self.env = dict(env)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.integration.forkserver", self.path],
            cwd=self.root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.process.stdout is not None
        line = self.process.stdout.readline().decode()
        if not line.startswith("ready "):
            self.refused = True
            self.process.wait()
            return
        self.imported = set(json.loads(line[len("ready "):]))
        atexit.register(self.stop)

    def serving(self, base_env: dict[str, str]) -> bool:
        """Whether the fork server serves (started now with ``base_env`` if not yet)."""
        with self.lock:
            if not self.refused and self.process is None:
                self._start(base_env)
        return not self.refused

    def same_imports(self, env: dict[str, str]) -> bool:
        """Whether a fresh process would import what the fork server did: every
        variable read while importing (and the interpreter's own) the same."""
        names = self.imported | {name for name in {*env, *self.env} if name.startswith("PYTHON")}
        return all(env.get(name) == self.env.get(name) for name in names)

    def spawn(self, args: list[str], env: dict[str, str], log: Path,
              base_env: dict[str, str]) -> ForkedProcess | None:
        """``python -m service.main *args`` forked, or None where a fork could
        differ from a fresh start (the caller starts one). ``base_env``: the
        environment the fork server itself is started with."""
        if not self.serving(base_env) or not self.same_imports(env):
            return None
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        request = {"args": args, "env": env, "cwd": str(self.root), "log": str(log),
                   "umask": current_umask()}
        reply = b""
        try:
            conn.connect(self.path)
            conn.sendall(json.dumps(request).encode() + b"\n")
            while not reply.endswith(b"\n"):
                chunk = conn.recv(64)
                if not chunk:
                    raise OSError("the fork server closed the connection")
                reply += chunk
        except OSError as exc:
            conn.close()
            raise RuntimeError(f"the tests' fork server failed ({exc}); "
                               "ARBITER_TEST_FORK=0 starts every server afresh") from exc
        word, pid = reply.decode().split()
        assert word == "pid", reply
        return ForkedProcess(conn, int(pid), [sys.executable, "-m", "service.main", *args])

    def stop(self) -> None:
        """End the fork server (it stops its children still running)."""
        if self.process is not None and self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def main() -> None:
    """``python -m tests.integration.forkserver SOCKET``: prints ``ready`` and the
    variables its imports read (JSON), or ``refused <why>`` when it cannot serve."""
    path = sys.argv[1]
    read = preload()
    # Out of the collector's sight, as a server puts what its start made
    # (``settle_startup_objects``): each child's own pass then walks only its own.
    gc.collect()
    gc.freeze()
    if threads_here() != 1:
        print(f"refused: {threads_here()} threads after the imports", flush=True)
        return
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    print("ready " + json.dumps(sorted(read)), flush=True)
    serve(listener)


if __name__ == "__main__":
    main()
