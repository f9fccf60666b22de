"""The web side's tests: a real server process serving pages and the JSON gateway."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.conftest import ServerProcess


@contextlib.contextmanager
def web_side(tmp_path_factory: pytest.TempPathFactory, redis_url: str, name: str = "web",
             **settings: str) -> Iterator[ServerProcess]:
    """A server with its web side on a port of its own choosing (``web_url``), its
    other settings (``ARBITER_...``) given, stopped at the end."""
    with ServerProcess(tmp_path_factory.mktemp(name) / "data", redis_url,
                       {"ARBITER_WEB_ADDRESS": "127.0.0.1:0", **settings}) as server:
        assert server.web_url, "the server did not say where its web side is"
        yield server


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[ServerProcess]:
    """One server with its web side, for a module's tests."""
    with web_side(tmp_path_factory, redis_url) as server:
        yield server


def data_dir(server: ServerProcess) -> Path:
    return server.data_dir
