"""The public protos speak to integrators (issue 23): comments in product
words, with no internal notes or source paths, and the google.rpc protos a
refusal's details need shipped beside them, as Google publishes them."""

from __future__ import annotations

import re
from pathlib import Path

from google.rpc import status_pb2

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = sorted((ROOT / "protos" / "arbiter" / "v1").glob("*.proto"))
#: "[entropy, issue 9 item 6]", "issue 12", a path into the source tree.
INTERNAL = re.compile(r"\bissue \d+|\bitem \d+|"
                      r"\b(?:aggregates|service|clients|tests)/[\w/]+(?:\.\w+)?")


def comments(path: Path) -> list[tuple[int, str]]:
    return [(n, line.split("//", 1)[1]) for n, line in
            enumerate(path.read_text().splitlines(), 1) if "//" in line]


def test_public_proto_comments_carry_no_internal_notes() -> None:
    found = [f"{path.name}:{n}:{text.strip()}" for path in PUBLIC
             for n, text in comments(path) if INTERNAL.search(text)]
    assert PUBLIC and not found, "\n".join(found)


def test_the_google_rpc_protos_are_shipped_as_published() -> None:
    """The same files the Python packages (googleapis-common-protos) are built
    from, so Node's proto-loader, protoc and buf read what Python reads."""
    installed = Path(status_pb2.__file__).parent
    for name in ("status.proto", "error_details.proto"):
        shipped = ROOT / "protos" / "third_party" / "google" / "rpc" / name
        assert shipped.read_text() == (installed / name).read_text(), name
