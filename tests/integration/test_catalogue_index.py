"""Issue 8, item 4: ``ListGames`` of one rules id reads an index, not the catalogue.

Before: every ``ListGames(rules=X)`` read the catalogue entry by entry up to
its page's end, so rules with few games (or none) read every game's entry on
every call. After: unknown rules are refused at once, and a page of known
rules reads only the entries added since the last call and its own entries.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from service.application import ArbiterApp
from service.errors import ServiceError

pytestmark = pytest.mark.integration


class CountingLog:
    """The catalogue log, counting the entries read from it."""

    def __init__(self, log: Any) -> None:
        self.log = log
        self.read = 0

    def get(self, *args: Any, **kwargs: Any) -> Any:
        for entry in self.log.get(*args, **kwargs):
            self.read += 1
            yield entry

    def __getattr__(self, name: str) -> Any:
        return getattr(self.log, name)


def test_list_games_by_rules_reads_no_catalogue_scan(tmp_path: Path) -> None:
    app = ArbiterApp({
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(tmp_path / "catalogue.sqlite"),
        "CREATE_TABLE": "y",
    }, snapshot_interval=0)
    for _ in range(300):
        app.create_game("enin", ["solo"])
    ethnos = app.create_game("ethnos", ["a", "b"])
    counting = CountingLog(app.games_log)
    app.games_log = counting  # type: ignore[assignment]
    if hasattr(app, "rules_index"):
        app.rules_index._log = counting
    with pytest.raises(ServiceError) as refused:
        app.list_games("nope", 0, 50)
    assert refused.value.reason == "UNKNOWN_RULES"
    assert counting.read == 0
    first = app.list_games("ethnos", 0, 50)  # the index is built once
    assert [e.game_id for e in first] == [ethnos.id]
    counting.read = 0
    for _ in range(5):
        assert [e.game_id for e in app.list_games("ethnos", 0, 50)] == [ethnos.id]
        assert app.list_games("ethnos", first[0].originator_version, 50) == []
    assert counting.read <= 5, f"read {counting.read} catalogue entries for one game"
    # A game created meanwhile is found, its entry read once more.
    later = app.create_game("ethnos", ["a", "b"])
    page = app.list_games("ethnos", first[0].originator_version, 50)
    assert [e.game_id for e in page] == [later.id]
    enin = app.list_games("enin", 0, 500)
    assert len(enin) == 300 and enin == sorted(enin, key=lambda e: e.originator_version)
    app.close()
