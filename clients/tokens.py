"""Where the ``arbiter`` CLI keeps the tokens of the games it created, and finds tokens.

The store is one JSON file, ``$ARBITER_HOME/tokens.json`` (default
``~/.arbiter/tokens.json``), readable by its owner only (file 0600, folder
0700), keyed by server address and then game id::

    {"version": 1,
     "servers": {"localhost:50051": {"GAME_ID": {
         "rules": "enin",
         "seats": {"0": {"name": "Ada", "token": "..."}},
         "spectator": "..."}}}}

Writes go to a private temporary file that replaces the old one, under an
advisory lock, so two commands saving at once lose nothing and a reader
never sees half a file.

``resolve_token`` is the CLI's lookup order for a command about one game:
``--token``, ``$ARBITER_TOKEN``, the stored token for (address, game, seat)
(the spectator token for a spectator), then the admin token.
``admin_token`` finds that: ``--admin-token``, ``$ARBITER_ADMIN_TOKEN``, else,
when the server is at a loopback address (``is_local_address``), the file the
local server writes in its data folder: ``$ARBITER_DATA_DIR/admin.token`` (the
folder the server was told, as ``make run`` and ``arbiter-server`` read it),
then ``./data/admin.token`` (``make run``'s default, from the checkout).
``admin_token_places`` says where it looked, for the hint a refusal prints.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import socket
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

try:  # advisory locking; absent on Windows, where writes are still atomic
    import fcntl
except ImportError:  # pragma: no cover - not on the machines we test
    fcntl = None  # type: ignore[assignment]

FORMAT_VERSION = 1
FILE_MODE = 0o600
DIR_MODE = 0o700
LOCAL_ADMIN_TOKEN = Path("data") / "admin.token"
#: Names that count as local only when every address they resolve to is loopback.
LOOPBACK_NAMES = {"localhost", "ip6-localhost", "ip6-loopback"}


class TokenStoreError(Exception):
    """The token file exists but cannot be read or written."""


def arbiter_home() -> Path:
    """The CLI's own folder: ``$ARBITER_HOME``, else ``~/.arbiter``."""
    configured = os.environ.get("ARBITER_HOME")
    return Path(configured).expanduser() if configured else Path.home() / ".arbiter"


def default_store_path() -> Path:
    """``$ARBITER_HOME/tokens.json``."""
    return arbiter_home() / "tokens.json"


class TokenStore:
    """The tokens of games, per server address and game id, in one private JSON file."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_store_path()

    # --- reading ------------------------------------------------------------

    def load(self) -> dict[str, Any]:
        """The whole file as a dict (an empty store when there is no file)."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return _empty()
        except OSError as exc:
            raise TokenStoreError(f"cannot read {self.path}: {exc.strerror}") from None
        try:
            data = json.loads(text) if text.strip() else _empty()
        except json.JSONDecodeError as exc:
            raise TokenStoreError(f"{self.path} is not JSON: {exc}") from None
        if not isinstance(data, dict) or not isinstance(data.get("servers", {}), dict):
            raise TokenStoreError(f"{self.path} is not a token store")
        data.setdefault("version", FORMAT_VERSION)
        data.setdefault("servers", {})
        return data

    def game(self, address: str, game_id: str) -> dict[str, Any] | None:
        """The stored entry of one game, or ``None``."""
        entry = self.load()["servers"].get(address, {}).get(game_id)
        return entry if isinstance(entry, dict) else None

    def seat_token(self, address: str, game_id: str, seat: int) -> str | None:
        """The stored token of ``seat`` in that game on that server."""
        entry = self.game(address, game_id) or {}
        seat_entry = (entry.get("seats") or {}).get(str(seat))
        token = seat_entry.get("token") if isinstance(seat_entry, dict) else None
        return token if isinstance(token, str) and token else None

    def spectator_token(self, address: str, game_id: str) -> str | None:
        """The stored spectator token of that game on that server."""
        token = (self.game(address, game_id) or {}).get("spectator")
        return token if isinstance(token, str) and token else None

    # --- writing ------------------------------------------------------------

    def save_game(
        self,
        address: str,
        game_id: str,
        seats: Iterable[tuple[int, str, str]],
        spectator: str = "",
        rules: str = "",
        commitment: str = "",
    ) -> None:
        """Store a game's tokens: ``seats`` as ``(seat, name, token)``, and the
        spectator's; and its seed commitment, as handed out at creation, which
        ``arbiter verify`` then checks a record of that game against."""
        entry: dict[str, Any] = {
            "rules": rules,
            "seats": {str(seat): {"name": name, "token": token} for seat, name, token in seats},
            "spectator": spectator,
        }
        if commitment:
            entry["commitment"] = commitment
        with self._locked():
            data = self.load()
            data["servers"].setdefault(address, {})[game_id] = entry
            self._write(data)

    def save_response(self, address: str, response: Any, rules: str = "") -> None:
        """Store the tokens of a ``CreateGameResponse``."""
        self.save_game(
            address,
            response.game_id,
            [(t.seat, t.name, t.token) for t in response.seat_tokens],
            response.spectator_token,
            rules or response.state.rules,
            response.seed_commitment,
        )

    def commitment(self, game_id: str) -> str:
        """The seed commitment kept for a game at its creation ("" if none), on
        whichever server it was made (a game id names one game)."""
        for games in self.load()["servers"].values():
            entry = games.get(game_id) if isinstance(games, dict) else None
            kept = entry.get("commitment") if isinstance(entry, dict) else None
            if isinstance(kept, str) and kept:
                return kept
        return ""

    def forget(self, address: str, game_id: str) -> bool:
        """Drop a game's tokens; whether there were any."""
        with self._locked():
            data = self.load()
            games = data["servers"].get(address, {})
            if game_id not in games:
                return False
            del games[game_id]
            if not games:
                del data["servers"][address]
            self._write(data)
            return True

    def _ensure_dir(self) -> None:
        folder = self.path.parent
        if not folder.exists():
            folder.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
            os.chmod(folder, DIR_MODE)  # mkdir's mode is filtered by the umask

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        fd = self._open_lock()
        try:
            if fd is not None and fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            if fd is not None:
                os.close(fd)  # closing releases the lock

    def _open_lock(self) -> int | None:
        try:
            self._ensure_dir()
            if fcntl is None:  # pragma: no cover
                return None
            lock_path = self.path.with_name(self.path.name + ".lock")
            return os.open(lock_path, os.O_RDWR | os.O_CREAT, FILE_MODE)
        except OSError as exc:
            raise TokenStoreError(f"cannot write {self.path}: {exc.strerror}") from None

    def _write(self, data: Mapping[str, Any]) -> None:
        text = json.dumps(data, indent=2, sort_keys=True) + "\n"
        try:
            # mkstemp creates the file 0600 whatever the umask, so no token is
            # ever readable by others, not even for a moment.
            fd, temp = tempfile.mkstemp(prefix=".tokens-", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    handle.write(text)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.chmod(temp, FILE_MODE)
                os.replace(temp, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
                raise
        except OSError as exc:
            raise TokenStoreError(f"cannot write {self.path}: {exc.strerror}") from None


def _empty() -> dict[str, Any]:
    return {"version": FORMAT_VERSION, "servers": {}}


# --- lookup order -------------------------------------------------------------


def is_local_address(address: str) -> bool:
    """Whether a gRPC target (``HOST:PORT``, ``[::1]:PORT``, ``ipv4:...``, ``unix:...``)
    is on this machine's loopback, so that a local secret may be sent to it.

    Only a literal loopback address (127.0.0.0/8, ::1) or a Unix socket counts,
    and ``localhost`` when every address it resolves to is loopback. Any other
    name is not local, whatever it looks like (``127.attacker.example``) or
    resolves to now (DNS can answer differently when gRPC connects).
    """
    text = address.strip().lower()
    if text.startswith(("unix:", "unix-abstract:")):
        return True
    for prefix in ("dns:///", "ipv4:", "ipv6:"):
        if text.startswith(prefix):
            text = text[len(prefix):]
            break
    else:
        if text.startswith("dns:"):  # dns://AUTHORITY/host: another resolver decides
            return False
    targets = text.split(",")  # ipv4:/ipv6: take a comma-separated list
    return all(_is_loopback_host(_host_of(target)) for target in targets)


def _host_of(target: str) -> str:
    if target.startswith("["):
        return target[1:].split("]", 1)[0]
    if target.count(":") == 1:
        return target.split(":", 1)[0]
    return target


def _is_loopback_host(host: str) -> bool:
    try:
        return _is_loopback_ip(ipaddress.ip_address(host))
    except ValueError:
        pass
    if host.rstrip(".") not in LOOPBACK_NAMES:
        return False
    try:
        found = socket.getaddrinfo(host, None)
    except (OSError, UnicodeError):
        return False
    return bool(found) and all(
        _is_loopback_ip(ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]))
        for info in found
    )


def _is_loopback_ip(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


def admin_token_files(local_file: Path | None = None) -> list[Path]:
    """The files a local server's admin token is looked for in, in order
    (absolute, so a hint names them exactly): ``local_file`` when given, else
    ``$ARBITER_DATA_DIR/admin.token`` and ``./data/admin.token``."""
    if local_file is not None:
        return [local_file.absolute()]
    data_dir = os.environ.get("ARBITER_DATA_DIR")
    files = [Path(data_dir).expanduser() / "admin.token"] if data_dir else []
    files.append(LOCAL_ADMIN_TOKEN)
    return list(dict.fromkeys(f.absolute() for f in files))


def admin_token(
    explicit: str | None = None,
    address: str = "",
    local_file: Path | None = None,
) -> str | None:
    """The admin token: ``explicit`` (``--admin-token``), ``$ARBITER_ADMIN_TOKEN``,
    else the first readable of ``admin_token_files``.

    The files are only read for a server on this machine (``address`` on the
    loopback, or empty): a local secret is never sent to a remote server.
    """
    if explicit:
        return explicit
    env = os.environ.get("ARBITER_ADMIN_TOKEN")
    if env:
        return env
    if address and not is_local_address(address):
        return None
    for path in admin_token_files(local_file):
        try:
            text = path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            continue
        if text:
            return text
    return None


def admin_token_places(address: str = "", local_file: Path | None = None) -> str:
    """Where ``admin_token`` looked, as one sentence for a hint."""
    places = "--admin-token, $ARBITER_ADMIN_TOKEN"
    if address and not is_local_address(address):
        return (f"{places} (a token file is only read for a server on this machine, "
                f"not {address})")
    files = ", ".join(f"{p} ({'unreadable' if p.exists() else 'missing'})"
                      for p in admin_token_files(local_file))
    return f"{places}, {files}; set $ARBITER_DATA_DIR to the server's data folder"


def resolve_token(
    address: str,
    game_id: str,
    seat: int = 0,
    spectator: bool = False,
    *,
    explicit: str | None = None,
    store: TokenStore | None = None,
    admin: str | None = None,
    admin_file: Path | None = None,
) -> str | None:
    """The token for a command about ``game_id`` as ``seat`` (or a spectator).

    In order: ``explicit`` (``--token``), ``$ARBITER_TOKEN``, the stored
    token for (address, game, seat) or, for a spectator, the game's stored
    spectator token (else any of its stored seat tokens), then the admin
    token (see ``admin_token``; ``admin`` is ``--admin-token``).
    """
    if explicit:
        return explicit
    env = os.environ.get("ARBITER_TOKEN")
    if env:
        return env
    if game_id:
        stored = _stored_token(store or TokenStore(), address, game_id, seat, spectator)
        if stored:
            return stored
    return admin_token(admin, address, admin_file)


def _stored_token(
    store: TokenStore, address: str, game_id: str, seat: int, spectator: bool
) -> str | None:
    try:
        if not spectator:
            return store.seat_token(address, game_id, seat)
        entry = store.game(address, game_id) or {}
    except TokenStoreError:
        return None  # a broken store must not stop the other sources from working
    spectator_token = entry.get("spectator")
    if isinstance(spectator_token, str) and spectator_token:
        return spectator_token
    for seat_entry in (entry.get("seats") or {}).values():
        token = seat_entry.get("token") if isinstance(seat_entry, dict) else None
        if isinstance(token, str) and token:
            return token
    return None
