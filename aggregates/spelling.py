"""Rules names as people type them.

A game's rules id is written with underscores (``nine_empires``), its page
with a hyphen (``docs/games/nine-empires.md``), and people type either, in any
case, or with a space. So every place that takes a rules name (the server's
``CreateGame`` and ``ListGames``, the command line's ``new``, ``play``,
``simulate``, ``rules`` and ``games --rules``) reads it through ``rules_id``:
case, hyphens, underscores and spaces alike. A name that still names no game
is refused as before (``UNKNOWN_RULES``), with the nearest ids the reader may
have meant (``unknown_rules_sentence``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

_SEPARATORS = re.compile(r"[\s_-]+")


def folded(name: str) -> str:
    """A rules name with case, hyphens, underscores and spaces made alike."""
    return _SEPARATORS.sub("_", name.strip().lower()).strip("_")


def rules_id(name: str, ids: Iterable[str]) -> str | None:
    """The id among ``ids`` that ``name`` spells (itself first), else None."""
    known = list(ids)
    if name in known:
        return name
    wanted = folded(name)
    return next((rules for rules in known if folded(rules) == wanted), None)


def close_to(name: str, ids: Iterable[str]) -> list[str]:
    """The ids ``name`` may have been meant as (a typo's nearest), best first."""
    by_fold = {folded(rules): rules for rules in ids}
    return [by_fold[f] for f in difflib.get_close_matches(folded(name), list(by_fold), n=3,
                                                           cutoff=0.6)]


def unknown_rules_sentence(name: str, ids: Iterable[str]) -> str:
    """``no game 'x' is served``, and which ids were likely meant, if any."""
    meant = close_to(name, ids)
    hint = f"; did you mean {' or '.join(meant)}?" if meant else ""
    return f"no game {name!r} is served{hint}"
