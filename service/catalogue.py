"""``ListGames`` of one rules id by an index, not a scan of the catalogue.

The catalogue of games is one log (``GameLogged`` entries, versions 1, 2, ...
committed in order). Filtering it by rules read every entry up to the page's
end, so ``ListGames(rules=X)`` for rules with few games read the whole
catalogue on every call. This index keeps, per rules id, the catalogue
versions of its games, in memory; each call first reads only the entries
added since the last call (by any server process on the store), then finds
its page by bisection and reads just the page's entries. Its cursor is the
catalogue version, as without a filter.
"""

from __future__ import annotations

import bisect
import threading
from typing import Any

from aggregates import spelling
from aggregates.catalog import GAMES
from service.errors import ServiceError

BATCH = 1000


def served_rules(name: str) -> str:
    """The served rules id a request's spelling names (``nine-empires``,
    ``Nine_Empires``: ``nine_empires``; ``aggregates.spelling``), or the name
    as given when it names none (refused later, by whoever reads it)."""
    return (spelling.rules_id(name, GAMES) or name) if name else name


def unknown_rules(name: str) -> ServiceError:
    """``UNKNOWN_RULES`` for a name that spells no served game, with the ids
    it was likely meant as (call it once the name is checked to be short)."""
    return ServiceError("NOT_FOUND", "UNKNOWN_RULES",
                        spelling.unknown_rules_sentence(name, GAMES))


class RulesIndex:
    """Catalogue versions per rules id, caught up on each use."""

    def __init__(self, games_log: Any) -> None:
        self._log = games_log
        self._lock = threading.Lock()
        self._upto = 0
        self._by_rules: dict[str, list[int]] = {}

    def page(self, rules: str, after: int, limit: int, before: int | None = None) -> list[Any]:
        """The catalogue entries of ``rules`` after catalogue version ``after``, oldest
        first; with ``before``, those before it, newest first (``0``: from the newest)."""
        with self._lock:
            self._catch_up()
            versions = self._by_rules.get(rules, [])
            if before is None:
                start = bisect.bisect_right(versions, after)
                wanted = versions[start:start + limit]
            else:
                end = bisect.bisect_left(versions, before) if before else len(versions)
                wanted = versions[max(0, end - limit):end][::-1]
        return [next(iter(self._log.get(gt=v - 1, lte=v))) for v in wanted]

    def _catch_up(self) -> None:
        while True:
            batch = list(self._log.get(gt=self._upto or None, limit=BATCH))
            if not batch:
                return
            for entry in batch:
                self._by_rules.setdefault(entry.rules, []).append(entry.originator_version)
                self._upto = entry.originator_version
