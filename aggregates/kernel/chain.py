"""The hash chain over a game's events.

Each event's digest is SHA-256 over a canonical JSON of the previous digest,
the game id, the version, the event type, its time, its payload and the kernel
metadata (dice drawn, the command that caused it). Changing, dropping or
reordering any stored event breaks every digest after it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, tuples as lists, ASCII only."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest(
    prev: str,
    game_id: str,
    version: int,
    event_type: str,
    timestamp: str,
    payload: dict[str, Any],
    meta: dict[str, Any],
) -> str:
    """The digest of one event, chained onto ``prev``."""
    body = canonical(
        {
            "prev": prev,
            "game": game_id,
            "version": version,
            "type": event_type,
            "time": timestamp,
            "payload": payload,
            "meta": {k: v for k, v in meta.items() if k not in ("digest", "prev")},
        }
    )
    return hashlib.sha256(body.encode("ascii")).hexdigest()
