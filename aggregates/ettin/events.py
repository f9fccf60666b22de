"""Ettin's events, each declared once: by its ``@event`` method's signature
(``aggregates.ettin.game``). The payload schemas of ``schemas.json`` are
derived from those signatures (``payload_schemas``; a unit test keeps the file
equal to them, ``python -m aggregates.ettin.events`` rewrites it), and so is
the list of facts ``describe`` and the event-facts test read.

A fact typed ``X | None`` may be null: either the rules state that nothing is
there (no winner, no Scouting), or the event was recorded by an older release
that did not state it (``aggregates.ettin.upcasts``: ``unrecorded``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from aggregates.kernel import declared

#: The kernel's own events, whose schemas the file keeps as written.
KERNEL_EVENTS = ("Created", "Ended")
SCHEMAS = Path(__file__).with_name("schemas.json")


def event_signatures(game_class: Any) -> dict[str, dict[str, Any]]:
    """Each of the game's own event types and its facts' types, as the kernel
    reads the ``@event`` methods (``aggregates.kernel.declared``)."""
    return {name: {f.name: f.hint for f in ev.fields}
            for name, ev in declared.own_events(game_class).items()}


def payload_schemas(game_class: Any) -> dict[str, dict[str, Any]]:
    """Each event type's payload schema: exactly its declared facts (and, where
    cards move out of some reader's sight, the ``count`` its public form has
    instead of the cards)."""
    out = {}
    for name, facts in event_signatures(game_class).items():
        properties = {fact: declared.json_schema(hint) for fact, hint in sorted(facts.items())}
        if "cards" in facts:
            properties["count"] = {"type": "integer",
                                   "description": "the public form's, instead of the cards"}
        out[name] = {"type": "object", "additionalProperties": False,
                     "properties": dict(sorted(properties.items()))}
    return out


def rewrite() -> None:
    from aggregates.ettin.game import Ettin

    current = json.loads(SCHEMAS.read_text())
    events = {k: v for k, v in current["events"].items() if k in KERNEL_EVENTS}
    current["events"] = {**events, **payload_schemas(Ettin)}
    current["rules_version"] = Ettin.RULES_VERSION
    SCHEMAS.write_text(json.dumps(current, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    rewrite()
