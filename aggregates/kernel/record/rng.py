"""The counter-based random number generator and its public seed commitment.

Every random outcome of a game is ``draw(seed, counter, sides)``: a pure
function of the secret seed and the draw number. Because the SHA-256 of the
seed is published when the game is created and the seed itself when it ends,
anyone can re-derive every die and shuffle and check that the server did not
choose them.

The commitment alone proves the dice were not changed after the fact, not
that the server did not pick a seed that favours someone. So the seats may
contribute entropy of their own (``dice_seed``): the dice are then drawn from
SHA-256 over the server's seed and every contribution recorded so far, and a
contribution sent after the commitment was published is one the server could
not know when it chose its seed. With no contribution the dice seed is the
server's seed itself, so every game recorded before contributions existed
re-derives exactly as it did.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

SEED_BYTES = 32
_DOMAIN = b"arbiter/rng/v1"
_ENTROPY_DOMAIN = b"arbiter/entropy/v1"
#: A contribution is 1 to this many bytes (hex-encoded on the record).
MAX_ENTROPY_BYTES = 64


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


def check_entropy(entropy_hex: str) -> str:
    """A contribution as recorded: lower-case hex of 1..MAX_ENTROPY_BYTES bytes.

    Refused (``ValueError``) otherwise, so the record only ever holds what
    ``dice_seed`` can hash back the same way on any machine.
    """
    if not isinstance(entropy_hex, str):
        raise ValueError("entropy is hex text")
    try:
        raw = bytes.fromhex(entropy_hex)
    except ValueError:
        raise ValueError("entropy is hex text") from None
    if not 0 < len(raw) <= MAX_ENTROPY_BYTES:
        raise ValueError(f"entropy is 1 to {MAX_ENTROPY_BYTES} bytes")
    return raw.hex()


def dice_seed(seed_hex: str, contributions: Sequence[str] = ()) -> str:
    """The seed the dice are drawn from: the server's seed mixed with every
    contribution recorded so far, in the order recorded.

    No contribution: the server's seed unchanged (the derivation of every game
    recorded before contributions). Otherwise SHA-256 over a domain tag, the
    server's seed and each contribution prefixed with its length (so no two
    lists of contributions hash alike). Recorded order, not sorted: the record
    fixes the order, and a contribution's place says which dice it affects.
    """
    if not contributions:
        return seed_hex
    mix = hashlib.sha256(_ENTROPY_DOMAIN + bytes.fromhex(seed_hex))
    for entropy_hex in contributions:
        raw = bytes.fromhex(entropy_hex)
        mix.update(len(raw).to_bytes(2, "big") + raw)
    return mix.hexdigest()
