"""Issue 8, item 4 (an audit bounded and cached): the audit cache keeps one
verdict per game and lets the least recently used game go first, so a caller
auditing more than ``AUDITS_KEPT`` games can no longer empty it all at once
(which left every other game's next audit a full replay)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import service.auditing as auditing
from service.application import ArbiterApp


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ArbiterApp:
    monkeypatch.setattr(auditing, "AUDITS_KEPT", 2)
    return ArbiterApp({
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(tmp_path / "audits.sqlite"),
        "CREATE_TABLE": "y",
    })


def test_the_audit_cache_keeps_one_verdict_per_game_least_recent_out(
    app: ArbiterApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = (str(app.create_game("enin", ["solo"], request_id=f"r{n}").id)
                            for n in range(3))
    audited: list[str] = []
    original = auditing.audit_stored

    def counting(a: Any, game_id: str, read: Any = None) -> Any:
        audited.append(game_id)
        return original(a, game_id, read)

    monkeypatch.setattr(auditing, "audit_stored", counting)
    audits = auditing.Audits(app)
    audits.audit(first)
    audits.audit(second)
    audits.audit(first)  # cached: first is now the most recent
    assert audited == [first, second]
    audits.audit(third)  # over the bound: second, the least recent, leaves
    audits.audit(first)  # still cached
    assert audited == [first, second, third]
    audits.audit(second)  # audited again
    assert audited == [first, second, third, second]
    assert len(audits) == 2
