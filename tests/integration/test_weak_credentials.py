"""Credentials from the environment are held to what their files are held to
(DESIGN principle 4: "the full record is for the owner of the admin
credential"), over real server processes.

Before: ``ARBITER_ADMIN_TOKEN=admin`` started a server and worked as the
admin (the length check was skipped for it), and ``ARBITER_SECRET`` of 40
spaces started one whose seat tokens anyone could forge (the file form strips
the spaces and refuses the same). Now each is refused at start, with a
sentence, before anything is started.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from service.config import MIN_SECRET_BYTES
from tests.integration.test_credentials import start_refused

pytestmark = pytest.mark.integration

STRONG = "Zq3-" + "v8LmT2xRk9WpHa7NcY4sBd6FgJ1eUo5i"


@pytest.mark.parametrize(("name", "value", "sentence"), [
    ("ARBITER_ADMIN_TOKEN", "admin", "ARBITER_ADMIN_TOKEN is 5 bytes long; it must be at least"),
    ("ARBITER_ADMIN_TOKEN", " " * 40,
     "ARBITER_ADMIN_TOKEN is 40 bytes long (0 without the spaces around it)"),
    ("ARBITER_SECRET", " " * 40, "ARBITER_SECRET is 40 bytes long (0 without the spaces"),
    ("ARBITER_SECRET", " " * 30 + "x" * 10, "(10 without the spaces around it)"),
])
def test_a_weak_credential_in_the_environment_is_refused(
    tmp_path: Path, redis_url: str, name: str, value: str, sentence: str
) -> None:
    env = {"ARBITER_SECRET": STRONG, "ARBITER_ADMIN_TOKEN": STRONG + "-admin", name: value}
    result = start_refused(tmp_path / "data", redis_url, **env)
    assert result.returncode != 0
    assert sentence in result.stderr, result.stderr
    assert f"it must be at least {MIN_SECRET_BYTES}" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "data" / "redis").exists()  # refused before starting anything
