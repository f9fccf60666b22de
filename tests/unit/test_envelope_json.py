"""The JSON of every reply's state, event payload and feed message
(``service.envelope.dumps``, written by orjson): compact, keys sorted, and the
same JSON the standard library writes for every value a game's view, screen,
choices or event holds (DESIGN principle 10: one vocabulary, any client)."""

from __future__ import annotations

import dataclasses
import datetime
import json
import uuid
from typing import Any

import pytest

from service.envelope import dumps

#: The standard library's writing of the same options: the reference.
REFERENCE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=str)


@dataclasses.dataclass
class Piece:
    name: str


VALUES: list[Any] = [
    {"b": 1, "a": [1, 2.5, None, True, False], "c": {"z": "", "y": [{}]}},
    {"title": "Ettin \u2014 Age I", "name": "Caf\u00e9", "emoji": "\U0001f3b2"},
    {10: "ten", 2: "two", 1: "one"},
    {"id": uuid.UUID(int=5)},
    {"when": datetime.datetime(2026, 12, 4, 2, 45, 32, tzinfo=datetime.UTC)},
    {"piece": Piece("Crypt")},
    {"huge": 2**70, "negative": -(2**70)},
    [0.1, 1e16, -0.0, 123456789.125],
    ("a", "tuple"),
    "",
]


@pytest.mark.parametrize("value", VALUES)
def test_the_same_json_as_the_standard_library_writes(value: Any) -> None:
    written = dumps(value)
    assert json.loads(written) == json.loads(REFERENCE.encode(value))


def test_keys_are_sorted_at_every_level() -> None:
    written = dumps({"b": {"d": 1, "c": 2}, "a": 0})
    assert written == '{"a":0,"b":{"c":2,"d":1}}'


def test_values_json_has_no_type_for_are_written_as_their_text() -> None:
    when = datetime.datetime(2026, 1, 1)
    assert json.loads(dumps({"when": when, "piece": Piece("Crypt"), "set": {1}})) == {
        "when": str(when), "piece": "Piece(name='Crypt')", "set": "{1}"}
