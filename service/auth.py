"""Seats and credentials: who may act for a seat, who may read what.

``CreateGame`` issues one secret token per seat and one spectator token. The
store keeps only their SHA-256 hashes (in a ``GameAccess`` aggregate saved in
the same transaction as the game); a presented token is hashed and compared
in constant time against every hash of the game, so neither the stored data
nor the timing of a refusal tells an attacker a token. Tokens are derived with
HMAC from the server secret, so a retried ``CreateGame`` (same request id)
returns the same tokens without the server ever storing them.

The operator's admin token comes from configuration and may do everything.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import os
import secrets
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from eventsourcing.domain import Aggregate, event

from service.errors import ServiceError

ACCESS_NAMESPACE = uuid.UUID("6f1d9a52-7c1e-4b9b-9a55-3f0e2d8c4a10")
METADATA_KEY = "authorization"
SCHEME = "bearer "
MAX_TOKEN = 256


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class GameAccess(Aggregate):
    """The hashes of one game's seat and spectator tokens."""

    @staticmethod
    def create_id(game_id: uuid.UUID) -> uuid.UUID:
        return uuid.uuid5(ACCESS_NAMESPACE, str(game_id))

    @event("Issued")
    def __init__(self, game_id: uuid.UUID, seat_hashes: list[str], spectator_hash: str) -> None:
        self.game_id = game_id
        self.seat_hashes = list(seat_hashes)
        self.spectator_hash = spectator_hash


@dataclasses.dataclass(frozen=True)
class Principal:
    """Who is calling, as far as one game is concerned."""

    admin: bool = False
    seat: int | None = None
    spectator: bool = False


ADMIN = Principal(admin=True)
NOBODY = Principal()


class Credentials:
    """Issues and checks tokens. One instance per server process."""

    def __init__(self, secret: bytes, admin_token: str) -> None:
        self._secret = secret
        self._admin_hash = digest(admin_token) if admin_token else ""

    @classmethod
    def configure(cls, data_dir: Path) -> Credentials:
        """From ARBITER_SECRET / ARBITER_ADMIN_TOKEN, else files made in the data dir.

        Several servers on one store must share ARBITER_SECRET (for retried
        CreateGame calls) and ARBITER_ADMIN_TOKEN.
        """
        secret = os.environ.get("ARBITER_SECRET", "") or _file_secret(data_dir / "secret")
        admin = os.environ.get("ARBITER_ADMIN_TOKEN", "") or _file_secret(
            data_dir / "admin.token"
        )
        return cls(secret.encode("utf-8"), admin)

    # ---------------------------------------------------------------- issue

    def _derive(self, purpose: str) -> str:
        mac = hmac.new(self._secret, purpose.encode("utf-8"), hashlib.sha256).digest()
        return "arb_" + base64.urlsafe_b64encode(mac).decode("ascii").rstrip("=")

    def seat_token(self, game_id: uuid.UUID, seat: int) -> str:
        return self._derive(f"seat:{game_id}:{seat}")

    def spectator_token(self, game_id: uuid.UUID) -> str:
        return self._derive(f"spectator:{game_id}")

    def issue(self, game_id: uuid.UUID, seats: int) -> GameAccess:
        return GameAccess(
            game_id=game_id,
            seat_hashes=[digest(self.seat_token(game_id, n)) for n in range(seats)],
            spectator_hash=digest(self.spectator_token(game_id)),
        )

    # ---------------------------------------------------------------- check

    def is_admin(self, token: str) -> bool:
        return bool(self._admin_hash) and hmac.compare_digest(digest(token), self._admin_hash)

    def identify(self, token: str, access: GameAccess | None) -> Principal:
        """The principal a token makes its bearer, comparing every hash of the game."""
        presented = digest(token)
        principal = ADMIN if self.is_admin(token) else NOBODY
        if access is None:
            return principal
        for seat, stored in enumerate(access.seat_hashes):
            if hmac.compare_digest(presented, stored) and not principal.admin:
                principal = Principal(seat=seat)
        if hmac.compare_digest(presented, access.spectator_hash) and not principal.admin:
            principal = Principal(spectator=True)
        return principal


def token_from(metadata: Sequence[Any] | None) -> str:
    """The bearer token in gRPC metadata, or "" when none was sent."""
    for key, value in metadata or ():
        if key == METADATA_KEY and isinstance(value, str):
            if len(value) > MAX_TOKEN + len(SCHEME):
                raise ServiceError("UNAUTHENTICATED", "BAD_TOKEN", "the token is too long")
            if value[: len(SCHEME)].lower() == SCHEME:
                return value[len(SCHEME):].strip()
            return value.strip()
    return ""


def require(principal: Principal, token: str) -> None:
    """Any credential of the game (or admin): or refuse as unauthenticated."""
    if principal == NOBODY:
        if not token:
            raise ServiceError(
                "UNAUTHENTICATED", "NO_TOKEN", "send 'authorization: Bearer <token>' metadata"
            )
        raise ServiceError("UNAUTHENTICATED", "BAD_TOKEN", "the token is not valid for this game")


def require_seat(principal: Principal, token: str, seat: int) -> None:
    """Acting or reading privately for ``seat`` needs that seat's token (or admin)."""
    require(principal, token)
    if principal.admin or principal.seat == seat:
        return
    if principal.spectator:
        raise ServiceError("PERMISSION_DENIED", "SPECTATOR_ONLY", "a spectator token only watches")
    raise ServiceError(
        "PERMISSION_DENIED", "WRONG_SEAT", f"this token is for seat {principal.seat}, not {seat}"
    )


def require_admin(principal: Principal, token: str) -> None:
    if not principal.admin:
        if not token:
            raise ServiceError("UNAUTHENTICATED", "NO_TOKEN", "this call needs the admin token")
        raise ServiceError("PERMISSION_DENIED", "ADMIN_ONLY", "this call needs the admin token")


def _file_secret(path: Path) -> str:
    """A secret kept in a 0600 file, made on first use."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    value = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(value + "\n")
    return value
