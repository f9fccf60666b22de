"""Test scaffolding shared by the client unit tests and ``tests/integration/test_cli.py``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CREDENTIAL_ENV = (
    "ARBITER_ADDRESS", "ARBITER_TOKEN", "ARBITER_ADMIN_TOKEN", "ARBITER_TLS_CA", "ARBITER_HOME",
    "ARBITER_CREATOR_TOKEN",
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
