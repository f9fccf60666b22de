"""The web side's tests: a real server process serving pages and the JSON gateway."""

from __future__ import annotations

import contextlib
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


def post_json(url: str, body: dict[str, Any], token: str = "") -> tuple[int, dict[str, Any]]:
    """``POST`` of a JSON body to the gateway (``token`` as ``Authorization:
    Bearer``): (HTTP status, JSON answer), a refusal's included."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def data_dir(server: ServerProcess) -> Path:
    return server.data_dir
