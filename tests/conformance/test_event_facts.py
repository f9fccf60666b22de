"""Every event is a fact of the game, never a patch of the engine's state
(the design's principle 2; issue 17, item 3).

Checked on every event of every game the suite plays: no payload carries a
generic patch (a ``what`` naming the part of the state changed, ``changes``
or ``patch`` holding its new values, at any depth), no event type is a
generic one (``Updated``, ``Changed``, ``Patched``), and every payload is
plain JSON (it goes on the wire and into the hash chain as it is).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from aggregates.kernel import Game, event_type, payload_of
from tests.conformance import tables as t

TABLES = t.tables()
#: Keys of a generic patch: what changed, and its new values.
PATCH_KEYS = frozenset({"what", "changes", "patch", "diff", "updates"})
#: Event types that say only that something changed.
GENERIC_TYPES = frozenset({"Updated", "Changed", "Patched", "StateChanged", "Modified"})


def keys(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every (path, key) of the objects in a JSON value."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield path, key
            yield from keys(inner, f"{path}.{key}")
    elif isinstance(value, list):
        for inner in value:
            yield from keys(inner, f"{path}[]")


@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_no_recorded_event_is_a_generic_patch(table: tuple[type[Game], int]) -> None:
    patches: Counter[str] = Counter()
    for record in t.games_of(table):
        for ev in record.events:
            kind = event_type(ev)
            if kind in GENERIC_TYPES:
                patches[f"event type {kind}"] += 1
            for path, key in keys(payload_of(ev)):
                if key in PATCH_KEYS:
                    patches[f"{kind}{path}.{key}"] += 1
    assert not patches, f"{table[0].RULES_ID} records patches, not facts: {dict(patches)}"


@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_every_recorded_payload_is_plain_json(table: tuple[type[Game], int]) -> None:
    for record in t.games_of(table, "legal"):
        for ev in record.events:
            payload = payload_of(ev)
            assert json.loads(json.dumps(payload)) == payload, (record.name, event_type(ev))
