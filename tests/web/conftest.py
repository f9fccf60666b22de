"""The web side's tests: a real server process serving pages and the JSON gateway."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.conftest import ServerProcess


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[ServerProcess]:
    """One server with its web side on a port of its own choosing (``web_url``)."""
    server = ServerProcess(tmp_path_factory.mktemp("web") / "data", redis_url,
                           {"ARBITER_WEB_ADDRESS": "127.0.0.1:0"})
    server.start()
    assert server.web_url, "the server did not say where its web side is"
    try:
        yield server
    finally:
        server.stop_soon()


def data_dir(server: ServerProcess) -> Path:
    return server.data_dir
