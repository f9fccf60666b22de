"""Issue 13 (command ids kept in a bounded window) meets issue 8, item 11 (the
audit compares every stored snapshot with its events): a snapshot written by
an older release kept every command id the game had seen, while the events
now make only the newest ``COMMAND_WINDOW`` of them. That difference is the
release's, not damage: the audit compares the newest window and must not
report such a snapshot as differing from its events."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.domain import Snapshot

from aggregates.kernel.record import recording as kernel_recording
from service import auditing
from service.application import ArbiterApp
from service.config import Settings

pytestmark = pytest.mark.integration


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ArbiterApp]:
    monkeypatch.setattr(kernel_recording, "COMMAND_WINDOW", 4)
    application = ArbiterApp(Settings(data_dir=tmp_path).store_env())
    yield application
    application.close()


def test_an_older_release_s_snapshot_with_every_command_id_is_not_damage(
    app: ArbiterApp,
) -> None:
    game_id = str(app.create_game("enin", ["solo"]).id)
    applied: list[tuple[str, int]] = []
    for n in range(12):
        game: Any = app.game(game_id)
        if game.ended:
            break
        action = game.legal_actions(0)[0]
        result = app.act(game_id, 0, action.to_json(), command_id=f"id-{n}")
        applied.append((kernel_recording.command_key(0, f"id-{n}"),
                        result.events[0].originator_version))
    version = result.game.version
    assert len(applied) > kernel_recording.COMMAND_WINDOW

    past: Any = app.repository.get(game.id, version=version)
    assert len(past.command_ids) == kernel_recording.COMMAND_WINDOW
    # As the older release took it: unsealed, every command id in the order applied.
    old = Snapshot.take(past)
    old.state["command_ids"] = dict(applied)
    assert app.snapshots is not None
    app.snapshots.put([old])

    report = auditing.Audits(app).audit(game_id).report
    stored = auditing.Audits(app).audit(game_id)
    assert version not in stored.bad_snapshots, report.problems
    assert report.ok, report.problems

    # A real difference in that snapshot is still damage.
    earlier: Any = app.repository.get(game.id, version=version - 1)
    damaged = Snapshot.take(earlier)
    newest = list(earlier.command_ids)[-1]
    damaged.state["command_ids"] = {**earlier.command_ids, newest: 1}  # points elsewhere
    app.snapshots.put([damaged])
    stored = auditing.Audits(app).audit(game_id)
    report = stored.report
    assert stored.bad_snapshots == [version - 1], report.problems
