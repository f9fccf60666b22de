"""Seats and credentials: who may act for a seat, who may read what.

``CreateGame`` issues one secret token per seat and one spectator token. The
store keeps only their SHA-256 hashes (in a ``GameAccess`` aggregate saved in
the same transaction as the game); a presented token is hashed and compared
in constant time against every hash of the game, so neither the stored data
nor the timing of a refusal tells an attacker a token. Tokens are derived with
HMAC from the server secret, so a retried ``CreateGame`` (same request id)
returns the same tokens without the server ever storing them.

A request id belongs to its caller (``Credentials.creator``): the game id it
makes is an HMAC of (rules, caller, request id) under the secret, so it is
neither computable by others nor reachable by another caller reusing the id.

The operator's admin token comes from configuration and may do everything;
an optional creator token, when configured, is needed to create games.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import hashlib
import hmac
import json
import os
import secrets
import tempfile
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from eventsourcing.domain import Aggregate, event

from service.config import MIN_SECRET_BYTES, ConfigError
from service.envelope import SPECTATOR, Reader
from service.errors import ServiceError
from service.memo import kept
from service.signing import Signer

ACCESS_NAMESPACE = uuid.UUID("6f1d9a52-7c1e-4b9b-9a55-3f0e2d8c4a10")
METADATA_KEY = "authorization"
SCHEME = "bearer "
MAX_TOKEN = 256
#: Metadata naming the HTTP client a web-side call is made for (``service.web``);
#: believed only on the server's own socket (``peer_of``).
FORWARDED_KEY = "arbiter-forwarded-for"
#: What a forwarded address may look like: a gRPC peer string, no longer than this.
MAX_FORWARDED = 80
#: Metadata proving a forwarded address comes from this process's own web side: a
#: secret made at start and never written anywhere. The server may also serve its
#: clients on a Unix socket (``--address unix:...``), whose callers must not name
#: whom they call for.
FORWARDED_PROOF_KEY = "arbiter-forwarded-proof"
FORWARDED_PROOF = secrets.token_urlsafe(32)


#: Tokens whose digest is kept (``digest``): beyond it, the memo starts over.
DIGESTS_KEPT = 4096
_digests: dict[str, str] = {}


def digest(token: str) -> str:
    """A token's SHA-256, hex: worked out once per token while it is in use
    (a call hashed its token for the admin's check and again for the game's).

    Keeping presented tokens in this process's memory discloses nothing its
    memory does not hold already: the server secret every seat and spectator
    token is derived from. A pure function of the string, so nothing kept can
    be wrong, only dropped."""
    return kept(_digests, token, _sha256, DIGESTS_KEPT)


def _sha256(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class GameAccess(Aggregate):
    """The hashes of one game's seat and spectator tokens."""

    @staticmethod
    def create_id(game_id: uuid.UUID) -> uuid.UUID:
        return uuid.uuid5(ACCESS_NAMESPACE, str(game_id))

    @event("Issued")
    def __init__(self, game_id: uuid.UUID, seat_hashes: list[str], spectator_hash: str,
                 revocable: bool = False) -> None:
        self.game_id = game_id
        self.seat_hashes = list(seat_hashes)
        self.spectator_hash = spectator_hash
        #: Whether a seat's token may be revoked (a lobby table's game, whose
        #: seats change holders): only such records are read again per call.
        self.revocable = revocable
        #: Revoked seat tokens' hashes, each with its seat: refused with a reason.
        self.revoked: dict[str, int] = {}

    def revoke(self, seat: int) -> bool:
        """The holder of ``seat`` left it (a lobby table's player, a bot plays
        on): their token no longer acts or reads for it. Once per holder;
        False when there was nothing to revoke."""
        if not (self.revocable and 0 <= seat < len(self.seat_hashes) and self.seat_hashes[seat]):
            return False
        self._seat_revoked(seat=seat)
        return True

    @event("SeatRevoked")
    def _seat_revoked(self, seat: int) -> None:
        self.revoked[self.seat_hashes[seat]] = seat
        self.seat_hashes[seat] = ""


@dataclasses.dataclass(frozen=True)
class Principal:
    """Who is calling, as far as one game is concerned."""

    admin: bool = False
    seat: int | None = None
    spectator: bool = False
    #: The seat whose revoked token was presented (its holder left it).
    revoked: int | None = None


ADMIN = Principal(admin=True)
NOBODY = Principal()
SPECTATOR_PRINCIPAL = Principal(spectator=True)
#: Each seat's principal, made once (a frozen dataclass is slow to make, and
#: a call identifies its caller on every read).
_SEATS: dict[int, Principal] = {}


def seat_principal(seat: int) -> Principal:
    found = _SEATS.get(seat)
    if found is None:
        found = _SEATS.setdefault(seat, Principal(seat=seat))
    return found


class Caller(NamedTuple):
    """Who made a call, for one game (or as the admin): identified once per
    call (``GameServicer.caller``) and handed down to every check it needs."""

    principal: Principal
    token: str


ANONYMOUS = Caller(NOBODY, "")


class Credentials:
    """Issues and checks tokens. One instance per server process."""

    def __init__(
        self, secret: bytes, admin_token: str, creator_token: str = "",
        signer: Signer | None = None,
    ) -> None:
        self._secret = secret
        #: Signs games' heads with a key made from the secret (``service.signing``).
        self.signer = signer or Signer(secret)
        self._admin_hash = digest(admin_token) if admin_token else ""
        self._creator_hash = digest(creator_token) if creator_token else ""

    @classmethod
    def configure(cls, data_dir: Path) -> Credentials:
        """From ARBITER_SECRET / ARBITER_ADMIN_TOKEN, else files made in the data dir.

        Several servers on one store must share ARBITER_SECRET (for retried
        CreateGame calls) and ARBITER_ADMIN_TOKEN. A secret under
        ``MIN_SECRET_BYTES`` (an empty or cut-short file, a short variable) is
        refused with ``ConfigError``: every seat token would be forgeable.
        """
        secret = os.environ.get("ARBITER_SECRET", "")
        if secret:
            _check_length("ARBITER_SECRET", secret)
        else:
            secret = _file_secret(data_dir / "secret")
        # The admin token does everything: held to what a secret is held to,
        # from the environment as from its file.
        admin = os.environ.get("ARBITER_ADMIN_TOKEN", "")
        if admin:
            _check_length("ARBITER_ADMIN_TOKEN", admin)
        else:
            admin = _file_secret(data_dir / "admin.token")
        return cls(secret.encode("utf-8"), admin, _creator_token(),
                   Signer.configure(secret.encode("utf-8")))

    # ---------------------------------------------------------------- issue

    def _derive(self, purpose: str) -> str:
        mac = hmac.new(self._secret, purpose.encode("utf-8"), hashlib.sha256).digest()
        return "arb_" + base64.urlsafe_b64encode(mac).decode("ascii").rstrip("=")

    def seat_token(self, game_id: uuid.UUID, seat: int) -> str:
        return self._derive(f"seat:{game_id}:{seat}")

    def spectator_token(self, game_id: uuid.UUID) -> str:
        return self._derive(f"spectator:{game_id}")

    def issue(self, game_id: uuid.UUID, seats: int, tokens: Sequence[str] = ()) -> GameAccess:
        """The game's access record: each seat's token hashed (``tokens``, when
        given, are the seats' own: a lobby table's holders', ``service.lobby``)."""
        return GameAccess(
            game_id=game_id,
            seat_hashes=[digest(t) for t in tokens] if tokens
            else [digest(self.seat_token(game_id, n)) for n in range(seats)],
            spectator_hash=digest(self.spectator_token(game_id)),
            revocable=bool(tokens),
        )

    def game_id(self, rules: str, caller: str, request_id: str) -> uuid.UUID:
        """The id of the game ``caller``'s ``request_id`` creates: keyed with the
        secret, so nobody can compute it (or match ``ListGames`` ids) offline,
        and scoped to the caller, so another caller's same request id is
        another game."""
        message = json.dumps(["game", rules, caller, request_id]).encode("utf-8")
        mac = hmac.new(self._secret, message, hashlib.sha256).digest()
        return uuid.UUID(bytes=mac[:16], version=4)

    # ---------------------------------------------------------------- check

    @property
    def creator_required(self) -> bool:
        return bool(self._creator_hash)

    def creator(self, token: str, peer: str) -> str:
        """Who is creating a game, as the scope of its request id; or refuse.

        The admin token is "admin" and the creator token "creator". When no
        creator credential is required, any other bearer token the caller
        sends is its own key (its hash under the secret), and a caller with
        no token is its network address (the peer's IP, without the port).
        """
        if self.is_admin(token):
            return "admin"
        if self._creator_hash and hmac.compare_digest(digest(token), self._creator_hash):
            return "creator"
        if self._creator_hash:
            raise ServiceError(
                "UNAUTHENTICATED", "CREATOR_REQUIRED",
                "this server creates games only for its creator token (or the admin token)"
                + ("; that token is neither" if token else ""),
            )
        if token:
            key = hmac.new(self._secret, b"caller:" + token.encode("utf-8"), hashlib.sha256)
            return "key:" + key.hexdigest()
        return "peer:" + peer_host(peer)

    def is_admin(self, token: str) -> bool:
        return self._is_admin_digest(digest(token))

    def _is_admin_digest(self, presented: str) -> bool:
        return bool(self._admin_hash) and hmac.compare_digest(presented, self._admin_hash)

    def identify(self, token: str, access: GameAccess | None) -> Principal:
        """The principal a token makes its bearer, comparing every hash of the
        game (the token hashed once, for the admin's hash and the game's)."""
        presented = digest(token)
        principal = ADMIN if self._is_admin_digest(presented) else NOBODY
        if access is None:
            return principal
        for seat, stored in enumerate(access.seat_hashes):
            if hmac.compare_digest(presented, stored) and not principal.admin:
                principal = seat_principal(seat)
        if hmac.compare_digest(presented, access.spectator_hash) and not principal.admin:
            principal = SPECTATOR_PRINCIPAL
        left = getattr(access, "revoked", {}).get(presented)
        if left is not None and principal == NOBODY:
            principal = Principal(revoked=left)
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


def public_read(game_over: bool, token: str) -> bool:
    """Whether a read needs no credential: a finished game's, by a caller who
    sent none. Its record is public by design (DESIGN principle 4: the full
    record is for everyone once the game has ended; the seed is revealed),
    so a third party verifies it with no token (issue 8, item 13). A token
    that is sent is still checked; an unfinished game still needs one. The
    anonymous reader is still a caller of ``service.limits`` (by address)."""
    return game_over and not token


def reader_for(caller: Caller, ended: bool, seat: int, spectator: bool) -> Reader:
    """Who ``caller`` reads a game as (already checked to have ``seat``):
    spectators need any credential of the game, a seat its own; a finished
    game's record is public (DESIGN principle 4): read with no token at all,
    as anyone may (``public_read``)."""
    principal, token = caller
    if public_read(ended, token):
        return SPECTATOR if spectator else Reader(seat)
    if spectator:
        require(principal, token)
        return SPECTATOR
    require_seat(principal, token, seat)
    return Reader(seat)


def require(principal: Principal, token: str) -> None:
    """Any credential of the game (or admin): or refuse as unauthenticated;
    a token whose seat was left, as no longer its holder's."""
    if principal.revoked is not None:
        raise ServiceError(
            "PERMISSION_DENIED", "SEAT_REVOKED",
            f"this token's holder left seat {principal.revoked}: a bot plays it now",
        )
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


def peer_of(context: Any) -> str:
    """The peer a call stands for: its connection's address, or, for a call the
    server's own web side made over its private Unix socket (peer ``unix:``),
    the HTTP client's address it forwarded, with this process's proof. A call on
    the TCP port, or on a Unix socket the server serves clients on, cannot claim
    another address."""
    peer = str(context.peer())
    if not peer.startswith("unix:"):
        return peer
    forwarded, proof = "", ""
    for key, value in context.invocation_metadata() or ():
        if key == FORWARDED_KEY and isinstance(value, str):
            forwarded = value
        elif key == FORWARDED_PROOF_KEY and isinstance(value, str):
            proof = value
    if forwarded.startswith(("ipv4:", "ipv6:")) and len(forwarded) <= MAX_FORWARDED \
            and hmac.compare_digest(proof.encode(), FORWARDED_PROOF.encode()):
        return forwarded
    return peer


def peer_host(peer: str) -> str:
    """A gRPC peer (``ipv4:10.0.0.5:40412``, ``ipv6:[::1]:5000``) without its port."""
    if peer.startswith(("ipv4:", "ipv6:")):
        return peer.rsplit(":", 1)[0]
    return peer


def _creator_token() -> str:
    """ARBITER_CREATOR_TOKEN, else the file ARBITER_CREATOR_TOKEN_FILE names, else "" (none)."""
    token = os.environ.get("ARBITER_CREATOR_TOKEN", "")
    name = "ARBITER_CREATOR_TOKEN"
    path = os.environ.get("ARBITER_CREATOR_TOKEN_FILE", "")
    if not token and path:
        name = path
        try:
            token = Path(path).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read ARBITER_CREATOR_TOKEN_FILE {path}: {exc}") from None
    if token:
        _check_length(name, token)
    return token


MAKE_ONE = "(make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))')"


def _check_length(name: str, value: str) -> None:
    """Refuse a configured secret or token that is short once the spaces around
    it are taken away (as its file form's are): 40 spaces are no secret."""
    size = len(value.encode("utf-8"))
    kept = len(value.strip().encode("utf-8"))
    if kept < MIN_SECRET_BYTES:
        spaces = f" ({kept} without the spaces around it)" if kept != size else ""
        raise ConfigError(
            f"{name} is {size} bytes long{spaces}; it must be at least {MIN_SECRET_BYTES} "
            + MAKE_ONE)


def _file_secret(path: Path) -> str:
    """A secret kept in a 0600 file, made on first use (whole or not at all)."""
    try:
        try:
            value = path.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            value = write_new_secret(path, secrets.token_urlsafe(32))
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "it is not text"
        raise ConfigError(f"cannot read or make {path}: {reason}") from None
    size = len(value.encode("utf-8"))
    if size < MIN_SECRET_BYTES:
        raise ConfigError(
            f"{path} holds {size} bytes, under the {MIN_SECRET_BYTES} a secret needs "
            "(cut short by a full disk or a crash?); tokens derived from it could be "
            "forged. Remove the file to have a new one made, or set "
            f"ARBITER_{path.name.replace('.', '_').upper()}"
        )
    return value


def write_new_secret(path: Path, value: str) -> str:
    """Write ``value`` to ``path`` unless it exists, never half: a 0600 temporary
    file beside it, fsync, a no-overwrite rename (a hard link), fsync the folder.
    Returns the file's secret (another process's, if it made the file first)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            os.fchmod(handle.fileno(), 0o600)
            handle.write(value + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temp, path)  # atomic, and never replaces a secret already in use
        except FileExistsError:
            return path.read_text(encoding="utf-8").strip()
        except OSError:  # a file system without hard links
            os.replace(temp, path)
        _fsync_dir(path.parent)
        return value
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
