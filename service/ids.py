"""What a request names, read strictly: game ids, positions, ids of the caller's
choosing and creation options.

A leaf of ``service/``: it imports nothing of the service, so the application,
the audit, time travel and the servicer all read a request's ids the same way
without importing each other. Every refusal is ``INVALID_ARGUMENT`` with a
reason code (``service.errors.bad_request``).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from service.errors import bad_request

MAX_OPTIONS_JSON = 4096
MAX_JSON_DEPTH = 8
MAX_ID = 64
MAX_POSITION = 2**63 - 2
#: The catalogue of games: a log in the store beside the games, never a game.
GAMES_LOG_ID = uuid.uuid5(uuid.NAMESPACE_URL, "arbiter:games")


def parse_game_id(game_id: str) -> uuid.UUID:
    if not isinstance(game_id, str) or len(game_id) > MAX_ID:
        raise bad_request("BAD_GAME_ID", "a game id is a UUID")
    try:
        return uuid.UUID(game_id)
    except ValueError:
        raise bad_request("BAD_GAME_ID", f"{game_id[:40]!r} is not a game id (a UUID)") from None


def check_position(after: int) -> None:
    """A version or global position to read after: the store's integers are
    signed 64-bit and a read after one asks for the next, so at most 2^63 - 2
    (SQLite would fail on more, PostgreSQL refuse it)."""
    if not 0 <= after <= MAX_POSITION:
        raise bad_request(
            "BAD_ARGUMENT", f"a version or position to read after is at most {MAX_POSITION}"
        )


def check_id(name: str, value: str) -> None:
    if len(value) > MAX_ID or not value.isprintable():
        raise bad_request("BAD_ARGUMENT", f"{name} must be at most {MAX_ID} printable characters")


def parse_options(text: str) -> dict[str, Any]:
    if not text:
        return {}
    if len(text) > MAX_OPTIONS_JSON:
        raise bad_request("BAD_OPTIONS", f"options_json is over {MAX_OPTIONS_JSON} bytes")
    if _bracket_depth(text) > MAX_JSON_DEPTH:
        # Checked before parsing: the JSON decoder recurses once per level and
        # fails with a RecursionError (an UNKNOWN status) past ~1000 of them.
        raise bad_request("BAD_OPTIONS", f"options_json nests deeper than {MAX_JSON_DEPTH}")
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise bad_request("BAD_OPTIONS", f"options_json is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise bad_request("BAD_OPTIONS", "options_json must be a JSON object")
    if json_depth(value) > MAX_JSON_DEPTH:
        raise bad_request("BAD_OPTIONS", f"options_json nests deeper than {MAX_JSON_DEPTH}")
    return value


def _bracket_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` outside strings: an upper bound of the JSON depth."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def json_depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((json_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((json_depth(v) for v in value), default=0)
    return 0


#: Shards a store may have: the id keeps 16 bits for the number.
MAX_SHARDS = 1 << 16


def shard_of(game_id: uuid.UUID) -> int:
    """The shard a game lives in, from its id alone (0: a game of an unsharded store)."""
    if game_id.version != 8:
        return 0
    return int.from_bytes(game_id.bytes[:2], "big")


def on_shard(game_id: uuid.UUID, shard: int) -> uuid.UUID:
    """``game_id`` made the id of a game of ``shard``: its first 16 bits the
    shard's number, version 8 (RFC 9562's for ids of one's own layout); the
    other bits (random, or keyed for a request id) kept."""
    if not 0 <= shard < MAX_SHARDS:
        raise ValueError(f"a shard number is below {MAX_SHARDS}, not {shard}")
    raw = bytearray(shard.to_bytes(2, "big") + game_id.bytes[2:])
    raw[6] = (raw[6] & 0x0F) | 0x80  # version 8
    raw[8] = (raw[8] & 0x3F) | 0x80  # the RFC's variant
    return uuid.UUID(bytes=bytes(raw))
