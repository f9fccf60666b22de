"""Credentials hardening (issue 8, items 1-2), over real server processes: no
start with a short secret; request ids private to their caller and game ids
unguessable; an operator may require a creator credential."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.redis_server import free_port
from tests.integration.conftest import ROOT

pytestmark = pytest.mark.integration


def start_refused(data_dir: Path, redis_url: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run a server that must refuse to start; it is killed if it serves instead."""
    data_dir.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "service.main", "--address", f"127.0.0.1:{free_port()}",
         "--data-dir", str(data_dir)],
        cwd=ROOT, env=dict(os.environ, REDIS_URL=redis_url, **env),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"the server started: {err[-500:]}")
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


@pytest.mark.parametrize("secret", ["", "\n", "0123456789"])
def test_a_server_refuses_to_start_with_a_short_secret_file(
    tmp_path: Path, redis_url: str, secret: str
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "secret").write_text(secret)  # what a full disk or a crash leaves behind
    result = start_refused(data, redis_url, ARBITER_ADMIN_TOKEN="a" * 40)
    assert result.returncode != 0
    assert f"{data / 'secret'} holds" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (data / "redis").exists()  # refused before starting anything


def test_a_server_refuses_to_start_with_a_short_arbiter_secret(
    tmp_path: Path, redis_url: str
) -> None:
    result = start_refused(tmp_path / "data", redis_url, ARBITER_SECRET="short-secret")
    assert result.returncode != 0
    assert "ARBITER_SECRET is 12 bytes long; it must be at least 32" in result.stderr
    assert "Traceback" not in result.stderr
