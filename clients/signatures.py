"""The keys a verifier trusts: given on the command line (``arbiter verify FILE
--key BASE64``, as the server's operator publishes it or ``arbiter keys``
prints it), or pinned earlier (``arbiter keys --pin``, kept in
``$ARBITER_HOME/keys.json``). Checking a record with them is the record
format's part (``aggregates.kernel.record.signatures``).
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from aggregates.kernel.record.signatures import KeyProblem, key_id, parse_key
from clients.tokens import DIR_MODE, FILE_MODE, arbiter_home


def keys_path() -> Path:
    """``$ARBITER_HOME/keys.json``: the keys this verifier pinned."""
    return arbiter_home() / "keys.json"


def pinned_keys(path: Path | None = None) -> dict[str, dict[str, str]]:
    """{key id: {"public_key", "server"}} of the pinned keys (none: {})."""
    path = path or keys_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise KeyProblem(f"cannot read the pinned keys {path}: {exc}") from None
    keys = data.get("keys", {}) if isinstance(data, dict) else {}
    return {str(k): dict(v) for k, v in keys.items() if isinstance(v, dict)}


def pin(keys: Iterable[Mapping[str, str]], server: str, path: Path | None = None) -> list[str]:
    """Pin ``keys`` (``key_id``, ``public_key``) as ``server``'s; the ids newly
    pinned. A pinned id already held is kept as it is (its bytes name it)."""
    path = path or keys_path()
    held = pinned_keys(path)
    added = []
    for key in keys:
        raw = parse_key(key["public_key"])
        kid = key_id(raw)
        if kid != key["key_id"]:
            raise KeyProblem(f"the server names key {key['key_id']} but its bytes are {kid}")
        if kid not in held:
            held[kid] = {"public_key": base64.b64encode(raw).decode("ascii"), "server": server}
            added.append(kid)
    path.parent.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    temp = path.with_suffix(".tmp")
    temp.write_text(json.dumps({"keys": held}, indent=2, sort_keys=True) + "\n",
                    encoding="utf-8")
    os.chmod(temp, FILE_MODE)
    os.replace(temp, path)
    return added


def trusted(given: Iterable[str], use_pinned: bool = True) -> dict[str, bytes]:
    """{key id: raw key} the verifier trusts: the ``--key`` ones, and the pinned."""
    keys = {key_id(raw): raw for raw in (parse_key(text) for text in given)}
    if use_pinned:
        for kid, entry in pinned_keys().items():
            raw = parse_key(entry.get("public_key", ""))
            if key_id(raw) == kid:
                keys.setdefault(kid, raw)
    return keys
