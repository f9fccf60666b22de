"""The hash chain over a game's events.

Each event's digest is SHA-256 over a canonical JSON of the previous digest,
the game id, the version, the event type, its time, its payload, the kernel
metadata (dice drawn, the command that caused it) and a salt. Changing,
dropping or reordering any stored event breaks every digest after it.

Every reader gets every digest, but not every payload: a card drawn in secret
is one of a few dozen values, so an unsalted digest would give it away to
anyone who hashes the candidates. The salt is derived from the game's secret
seed (``salt(seed, version)``), so nobody can run that search before the seed
is revealed at the end, and anyone can recompute every digest after it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Mapping
from json import encoder as json_encoder
from typing import Any

import orjson

GENESIS = "0" * 64


#: Made once: ``json.dumps`` with options builds an encoder per call, which
#: cost as much as the encoding itself (an audit encodes six values an event).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)
#: The C encoder ``_CANONICAL.encode`` itself builds on every call, built once:
#: the same function with the same settings, so the same text; without the
#: circular-reference check (a payload is a tree: a cycle would recurse until
#: ``RecursionError`` instead of raising ``ValueError``). None where the C
#: accelerator is missing (then ``_CANONICAL`` encodes).
_MAKE_ENCODER: Any = getattr(json_encoder, "c_make_encoder", None)
_C_CANONICAL: Callable[[Any, int], Any] | None = (
    None if _MAKE_ENCODER is None else _MAKE_ENCODER(
        None, _CANONICAL.default, json_encoder.encode_basestring_ascii, None,
        _CANONICAL.key_separator, _CANONICAL.item_separator, True, False, True)
)


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, tuples as lists, ASCII only."""
    if _C_CANONICAL is None:
        return _CANONICAL.encode(value)
    return "".join(_C_CANONICAL(value, 0))


def salt(seed_hex: str, version: int) -> str:
    """The secret salt of one event's digest, derived from the game's seed
    (one event's: ``hmac.digest``'s one-shot call; ``salter`` for many)."""
    return hmac.digest(bytes.fromhex(seed_hex), _salt_message(version), "sha256").hex()


def _salt_message(version: int) -> bytes:
    """What a version's salt is the HMAC of."""
    return f"arbiter/chain/v1/{version}".encode("ascii")


def salter(seed_hex: str) -> Callable[[int], str]:
    """``salt`` for one seed, keyed once: the audit salts every event of a
    game with the same seed. Each salt is a copy of one HMAC-SHA256 already
    keyed (its inner and outer states), given the version's message: the
    same HMAC as ``hmac.digest``'s one-shot call, at about 0.4x its cost
    (the one-shot call looks the digest up and keys it again each time)."""
    keyed = hmac.new(bytes.fromhex(seed_hex), digestmod=hashlib.sha256)

    def salt_of(version: int) -> str:
        mac = keyed.copy()
        mac.update(_salt_message(version))
        return mac.hexdigest()

    return salt_of


def digest(
    prev: str,
    game_id: str,
    version: int,
    event_type: str,
    timestamp: str,
    payload: Mapping[str, Any],
    meta: Mapping[str, Any],
    salted: str,
    float_free: bool = False,
) -> str:
    """The digest of one event, chained onto ``prev``.

    ``float_free``: the caller knows that the payload and the meta hold
    nothing but dictionaries with text keys, lists, text, integers, booleans
    and None (a record decoded from JSON in which the decoder met no number
    with a fraction or an exponent, nor NaN or Infinity): the canonical text
    is then written by ``orjson`` with sorted keys, half the cost, wherever
    that is exactly the standard encoder's (``_plain_canonical``)."""
    linked = dict(meta)  # less its own links (a copy, not a filter of every key)
    linked.pop("digest", None)
    linked.pop("prev", None)
    body = {
        "prev": prev,
        "game": game_id,
        "version": version,
        "type": event_type,
        "time": timestamp,
        "payload": payload,
        "meta": linked,
        "salt": salted,
    }
    if float_free:
        text = _plain_canonical(body)
        if text is not None:
            return hashlib.sha256(text).hexdigest()
    return hashlib.sha256(canonical(body).encode("ascii")).hexdigest()


def _plain_canonical(value: Any) -> bytes | None:
    """``canonical(value).encode("ascii")`` by ``orjson`` for a value that holds
    no float (the caller's word: orjson writes ``1e-05`` as ``0.00001`` and
    NaN as ``null``), when that is exactly the same text; None when it may
    not be. With sorted keys and no spaces the two encoders write the same
    text for text keys, lists, integers, booleans, None and every string
    of printable ASCII without a quote or a backslash; anything else shows
    in orjson's text as a byte beyond ASCII (it writes UTF-8 where the
    standard encoder escapes), a backslash (an escape, which the two may
    spell apart) or DEL (which the standard encoder escapes and orjson does
    not), or makes orjson refuse (an integer beyond 64 bits, a type it does
    not write, nesting over its limit)."""
    try:
        text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError
        return None
    if not text.isascii() or b"\\" in text or b"\x7f" in text:
        return None
    return text
