"""The counter-based random number generator and its public seed commitment.

Every random outcome of a game is ``draw(seed, counter, sides)``: a pure
function of the secret seed and the draw number. Because the SHA-256 of the
seed is published when the game is created and the seed itself when it ends,
anyone can re-derive every die and shuffle and check that the server did not
choose them.
"""

from __future__ import annotations

import hashlib
import secrets

SEED_BYTES = 32
_DOMAIN = b"arbiter/rng/v1"


def new_seed() -> str:
    """A fresh secret seed, hex-encoded."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed_hex: str) -> str:
    """The public commitment to a seed: SHA-256 of its bytes, hex-encoded."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def draw(seed_hex: str, counter: int, sides: int) -> int:
    """A uniform integer in 1..sides for draw number ``counter``.

    Rejection sampling over 64-bit blocks keeps the result exactly uniform;
    the attempt number is hashed in so a rejected block is never reused.
    """
    if sides < 1:
        raise ValueError("a die needs at least one side")
    seed = bytes.fromhex(seed_hex)
    limit = (1 << 64) - ((1 << 64) % sides)
    attempt = 0
    while True:
        block = hashlib.sha256(
            _DOMAIN + seed + counter.to_bytes(8, "big") + attempt.to_bytes(4, "big")
        ).digest()
        value = int.from_bytes(block[:8], "big")
        if value < limit:
            return value % sides + 1
        attempt += 1
