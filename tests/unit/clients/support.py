"""Test scaffolding shared by the client unit tests and ``tests/integration/test_cli.py``."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from concurrent import futures
from pathlib import Path
from typing import Any, TypeAlias

import grpc
import pytest
from arbiter.client import ArbiterClient, ArbiterError, AsyncArbiterClient
from arbiter.v1 import game_pb2_grpc


@contextlib.contextmanager
def serving(servicer: Any, workers: int = 4) -> Iterator[str]:
    """A gRPC server of ``servicer`` (a ``GameService``, fake or real) on a free
    local port for as long as the block runs; its address."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=workers))
    game_pb2_grpc.add_GameServiceServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(None)


CREDENTIAL_ENV = (
    "ARBITER_ADDRESS", "ARBITER_TOKEN", "ARBITER_ADMIN_TOKEN", "ARBITER_TLS_CA", "ARBITER_HOME",
    "ARBITER_CREATOR_TOKEN", "ARBITER_DATA_DIR",
)


def isolate_credentials(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No credential from the developer's shell, a private ARBITER_HOME (returned),
    and a working directory without ``./data/admin.token``."""
    for name in CREDENTIAL_ENV:
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "arbiter-home"
    monkeypatch.setenv("ARBITER_HOME", str(home))
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    return home


def self_signed_cert(folder: Path) -> tuple[Path, Path]:
    """``(key.pem, cert.pem)`` for localhost and 127.0.0.1 (skips without openssl)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed")
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, capture_output=True,
    )
    return key, cert


# --- one scenario, run on either client ------------------------------------------

#: A client method's name and the arguments it is called with.
ClientCall: TypeAlias = tuple[str, tuple[Any, ...], dict[str, Any]]
#: Runs calls on a fresh client of one flavour (client options as keywords).
Perform: TypeAlias = Callable[..., list[Any]]


def client_call(name: str, *args: Any, **kwargs: Any) -> ClientCall:
    """``name(*args, **kwargs)``, to be called on whichever client ``Perform`` makes."""
    return name, args, kwargs


def perform_blocking(address: str, calls: Sequence[ClientCall], **options: Any) -> list[Any]:
    """Each call's outcome on one ``ArbiterClient``: its result (a stream's as a
    list), or the ``ArbiterError`` it raised."""
    with ArbiterClient(address, **options) as client:
        return [_blocking_outcome(getattr(client, name), args, kwargs)
                for name, args, kwargs in calls]


def _blocking_outcome(method: Callable[..., Any], args: tuple[Any, ...],
                      kwargs: dict[str, Any]) -> Any:
    try:
        result = method(*args, **kwargs)
        return list(result) if isinstance(result, Iterator) else result
    except ArbiterError as error:
        return error


def perform_asyncio(address: str, calls: Sequence[ClientCall], **options: Any) -> list[Any]:
    """``perform_blocking`` on one ``AsyncArbiterClient``, in a fresh event loop."""

    async def run() -> list[Any]:
        async with AsyncArbiterClient(address, **options) as client:
            return [await _async_outcome(getattr(client, name), args, kwargs)
                    for name, args, kwargs in calls]

    return asyncio.run(run())


async def _async_outcome(method: Callable[..., Any], args: tuple[Any, ...],
                         kwargs: dict[str, Any]) -> Any:
    try:
        result = method(*args, **kwargs)
        if isinstance(result, AsyncIterator):
            return [item async for item in result]
        return await result
    except ArbiterError as error:
        return error


#: Both clients, by name: a test taking ``perform`` checks a rule of each.
FLAVOURS: dict[str, Perform] = {"blocking": perform_blocking, "asyncio": perform_asyncio}
