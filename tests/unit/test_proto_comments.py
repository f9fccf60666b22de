"""The public protos speak to integrators (issue 23): comments in product
words, with no internal notes or source paths, and the google.rpc protos a
refusal's details need shipped beside them, as Google publishes them. The same
comments describe the JSON gateway's OpenAPI document, read from the descriptors'
source info in the client's package (no .proto file is installed there)."""

from __future__ import annotations

import re
from pathlib import Path

from arbiter.v1 import game_pb2
from google.rpc import status_pb2

from service.web import openapi

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


def leading_comment(path: Path, line_start: str) -> str:
    """The ``//`` lines right above the first line of ``path`` that starts with ``line_start``,
    as one sentence: what protoc records as that element's leading comment."""
    lines = [line.strip() for line in path.read_text().splitlines()]
    at = next(n for n, line in enumerate(lines) if line.startswith(line_start))
    above: list[str] = []
    while at > 0 and lines[at - 1].startswith("//"):
        at -= 1
        above.insert(0, lines[at][2:].strip())
    return " ".join(text for text in above if text)


def test_the_openapi_descriptions_are_the_protos_comments() -> None:
    """An rpc, a field, and a message nested in another file's message, each with its comment."""
    assert not list(Path(game_pb2.__file__).parent.glob("*.proto"))
    comments = openapi.proto_comments()
    v1 = ROOT / "protos" / "arbiter" / "v1"
    expected = {
        "arbiter.v1.GameService.Act": leading_comment(v1 / "game.proto", "rpc Act("),
        "arbiter.v1.ActRequest.expected_version":
            leading_comment(v1 / "game.proto", "uint64 expected_version ="),
        "arbiter.v1.EninCommand.Travel": leading_comment(v1 / "enin.proto", "message Travel {"),
    }
    assert all(expected.values()), expected
    assert {name: comments.get(name) for name in expected} == expected


def test_every_schema_of_the_openapi_document_is_described() -> None:
    """buf lint's COMMENTS rule documents every message and field, so every schema made from
    one (not the hand-written Error) and every property says what it is."""
    schemas = openapi.document()["components"]["schemas"]
    bare = [name for name, schema in schemas.items() if not schema.get("description")]
    bare += [f"{name}.{field}" for name, schema in schemas.items() if name != "Error"
             for field, value in schema["properties"].items()
             if not (value.get("description") or value.get("anyOf", [{}])[0].get("description"))]
    assert len(schemas) > 50 and not bare, bare
