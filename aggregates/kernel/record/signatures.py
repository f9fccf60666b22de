"""Checking a record against what its server signed (the record format's half of
the signatures): the statement a server signs over a game's head, a key's id,
reading a public key, and the checks ``aggregates.records.verify_lines`` runs.

A record's hash chain proves it is self-consistent; the server's signature
over its head (``service.signing`` signs with these same names) proves it is
the record *that server* kept. A key is named by its own bytes (its id), so a
record signed by any other key is refused. The seed commitment handed out at
creation pins the game itself: a record whose creation event commits to
another seed is refused, whoever signed it. Which keys a verifier trusts (given
on the command line, or pinned) is the client's part: ``clients.signatures``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from aggregates.kernel.record.verify import Verdict

ALGORITHM = "ed25519"
STATEMENT_MARKER = "arbiter_head"


class KeyProblem(ValueError):
    """A public key that cannot be read (not base64, not 32 bytes)."""


def key_id(raw: bytes) -> str:
    """A key's id, as the server names it: ``ed25519:`` + 16 hex of its SHA-256."""
    return f"{ALGORITHM}:{hashlib.sha256(raw).hexdigest()[:16]}"


def parse_key(text: str) -> bytes:
    """A raw Ed25519 public key from its base64 text, or a file holding it."""
    text = text.strip()
    if text and os.path.isfile(text):
        text = Path(text).read_text(encoding="utf-8").strip()
    text = text.split()[-1] if text else ""  # "ed25519:… BASE64" as `arbiter keys` prints
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise KeyProblem(f"{text[:40]!r} is not a base64 public key") from None
    if len(raw) != 32:
        raise KeyProblem(f"an Ed25519 public key is 32 bytes, not {len(raw)}")
    return raw


def check_signature(
    header: Mapping[str, Any], verdict: Verdict, keys: Mapping[str, bytes],
    served: Mapping[str, bytes] | None = None,
) -> None:
    """The record's signature: made by a trusted key, over this record's head.

    ``keys``: the verifier's own (``--key``, pinned). ``served``: the keys the
    server being asked serves (an online verify), used when the verifier has
    none of its own, and said to be so. With no key at all the signature is
    "not checked", which the verdict says. A statement that names another
    head, game or commitment fails whatever the key."""
    report = verdict.report
    signature = header.get("signature")
    head = str(header.get("head", ""))
    if not isinstance(signature, Mapping) or not signature.get("signature"):
        if keys:
            report.fail("chain", "the record carries no server signature, so it cannot be "
                        "shown to be what the server recorded (a key was given to check it)",
                        int(header.get("version") or 1))
        else:
            verdict.unsigned = ("the record carries no server signature (exported by an "
                                "older release?)")
        return
    statement_text = str(signature.get("statement", ""))
    try:
        stated = json.loads(statement_text)
    except ValueError:
        stated = None
    if not isinstance(stated, dict) or stated.get(STATEMENT_MARKER) != 1:
        report.fail("chain", "the record's signature signs no head statement", 1)
        return
    version = int(header.get("version") or 1)
    for field, value in (("game_id", header.get("game_id")), ("head", head),
                         ("version", header.get("version")),
                         ("seed_commitment", header.get("seed_commitment")),
                         ("rules", header.get("rules")),
                         ("rules_version", header.get("rules_version"))):
        if value is not None and stated.get(field) != value:
            report.fail("chain", f"the signature is over another {field.replace('_', ' ')} "
                        f"({str(stated.get(field))[:16]}...) than this record's "
                        f"({str(value)[:16]}...)", version)
            return
    kid = str(signature.get("key_id", ""))
    source = "trusted"
    raw = keys.get(kid)
    if raw is None and not keys and served:
        raw, source = served.get(kid), "served by the server asked (not pinned)"
    if raw is None:
        if keys:
            report.fail("chain", f"the record is signed by key {kid}, which you do not "
                        f"trust (trusted: {', '.join(sorted(keys))})", version)
        else:
            verdict.unsigned = (f"signed by key {kid}, but no key is trusted; give the "
                                "server's with --key, or pin it with `arbiter keys --pin`")
        return
    try:
        Ed25519PublicKey.from_public_bytes(raw).verify(
            base64.b64decode(str(signature.get("signature", ""))),
            statement_text.encode("utf-8"))
    except (InvalidSignature, binascii.Error, ValueError):
        report.fail("chain", f"the signature does not verify with key {kid}: the head "
                    "statement is not what that key signed", version)
        return
    state = "the game ended" if stated.get("over") else "the game running when read"
    verdict.checked.append(
        f"the server's signature over the head at version {stated.get('version')} "
        f"({state}), by key {kid} ({source})")


def check_commitment(verdict: Verdict, commitment: str, recorded: str) -> None:
    """The seed commitment handed out at creation against the one recorded."""
    wanted = commitment.strip().lower()
    if recorded != wanted:
        verdict.report.fail(
            "dice", f"the record's seed commitment {recorded[:16]}... is not the one given "
            f"at creation ({wanted[:16]}...): it is another game's record", 1)
    else:
        verdict.checked.append(f"the seed commitment is the one given at creation: {wanted}")
