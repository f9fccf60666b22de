"""The server's signature over a game's head: proof of what it recorded.

The hash chain makes a record self-consistent; it does not say *whose* record
it is. Anyone can play another game, relabel it and recompute its chain. So
the server signs, for a game at a version, the statement "game G, rules R
vR, at version V, has head digest H, seed commitment C, over or not", with an
Ed25519 key; a verifier who trusts the server's public key (``arbiter keys``
prints it, ``ListRules`` serves it) checks a record against what the server
said it recorded (``clients.signatures``).

The keys are derived from the server secret (HKDF-SHA256), so they are made
with it and every server sharing the secret signs with the same key without
another file to share. Rotation: ``ARBITER_SIGNING_KEY_EPOCH`` (default 1)
picks the key that signs; every earlier epoch's key is still served, marked
retired, so records signed before a rotation still verify. A key id names a
key by its own bytes (``ed25519:`` + 16 hex digits of its SHA-256).

Ed25519 signatures are deterministic: the same statement signed twice is the
same bytes, so a game's head signed when it ends and signed again on a later
read are one signature.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import threading
from collections import OrderedDict
from typing import Any

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from aggregates.kernel.record.signatures import ALGORITHM, STATEMENT_MARKER, key_id
from service.config import ConfigError

EPOCH_VARIABLE = "ARBITER_SIGNING_KEY_EPOCH"
MAX_EPOCH = 1000
#: Signatures kept for heads read again (``Signer.sign``).
SIGNATURES_KEPT = 4096


def statement(
    game_id: str, rules: str, rules_version: str, version: int, head: str,
    seed_commitment: str, over: bool,
) -> bytes:
    """The exact bytes signed for a game's head (sorted keys, no spaces)."""
    fields: dict[str, Any] = {
        STATEMENT_MARKER: 1, "game_id": game_id, "rules": rules,
        "rules_version": rules_version, "version": version, "head": head,
        "seed_commitment": seed_commitment, "over": over,
    }
    return json.dumps(fields, sort_keys=True, separators=(",", ":")).encode("utf-8")


@dataclasses.dataclass(frozen=True)
class Signature:
    key_id: str
    statement: str
    signature: str
    algorithm: str = ALGORITHM


@dataclasses.dataclass(frozen=True)
class PublicKey:
    key_id: str
    public_key: str  # raw 32 bytes, base64
    current: bool
    algorithm: str = ALGORITHM


class Signer:
    """Signs heads with the current epoch's key; lists every epoch's public key."""

    def __init__(self, secret: bytes, epoch: int = 1) -> None:
        if not 1 <= epoch <= MAX_EPOCH:
            raise ConfigError(f"{EPOCH_VARIABLE} must be 1 to {MAX_EPOCH}, not {epoch}")
        self.epoch = epoch
        self._keys = [_derive(secret, n) for n in range(1, epoch + 1)]
        self._key = self._keys[-1]
        self.key_id = key_id(_raw_public(self._key))
        self._lock = threading.Lock()
        self._signed: OrderedDict[bytes, Signature] = OrderedDict()

    @classmethod
    def configure(cls, secret: bytes) -> Signer:
        """The signer for the server's secret and ``ARBITER_SIGNING_KEY_EPOCH``."""
        text = os.environ.get(EPOCH_VARIABLE, "").strip() or "1"
        if not text.isdigit():
            raise ConfigError(f"{EPOCH_VARIABLE} must be a whole number, not {text!r}")
        return cls(secret, int(text))

    def sign(self, message: bytes) -> Signature:
        """The signature over ``message``. Ed25519 is deterministic, so the
        signatures of the last heads read are kept: a game read again at the
        same version costs no second signing (a few hundred microseconds)."""
        with self._lock:
            kept = self._signed.get(message)
            if kept is not None:
                self._signed.move_to_end(message)
                return kept
        signed = Signature(self.key_id, message.decode("utf-8"), _b64(self._key.sign(message)))
        with self._lock:
            self._signed[message] = signed
            while len(self._signed) > SIGNATURES_KEPT:
                self._signed.popitem(last=False)
        return signed

    def public_keys(self) -> list[PublicKey]:
        """The current key first, then the retired ones, newest first."""
        return [
            PublicKey(key_id(_raw_public(key)), _b64(_raw_public(key)), key is self._key)
            for key in reversed(self._keys)
        ]


def _derive(secret: bytes, epoch: int) -> Ed25519PrivateKey:
    """The ``epoch``'s key: 32 bytes of HKDF-SHA256 over the secret."""
    seed = HKDF(
        algorithm=hashes.SHA256(), length=32, salt=b"arbiter head signing",
        info=f"ed25519 epoch {epoch}".encode(),
    ).derive(secret)
    return Ed25519PrivateKey.from_private_bytes(seed)


def _raw_public(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
