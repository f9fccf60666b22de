"""JSON Schemas of the JSON a game puts on the wire, per game and rules version.

Clients in any language read ``view_json``, ``screen_json``, ``outcome_json``,
``options_json`` and each event's ``payload_json`` without Arbiter's Python
code; these schemas (JSON Schema draft 2020-12) say what they hold, and
``ListRules`` serves them (``RulesInfo.schemas_json``). What every game shares
lives here: the screen vocabulary of ``kernel.present`` and the envelope of an
event on the Redis feed. What is particular to a game lives beside it, in
``aggregates/<game>/schemas.json``: its view, its outcome and each event
type's payload, for the rules version the file names (a test plays random
games of every game and validates everything they produce against them).

Each game's file is written by ``make schemas`` from its declarations
(``kernel.record.schemagen``): the event classes of its ``events.py``, the
``View`` of its ``views.py``, its outcome; a test fails while the committed file
differs from what they generate. An event the file does not describe (the
kernel's own events: ``EntropyAdded``, ``DefaultApplied``, the hidden choices')
is served with the schema derived from its declaration (``kernel.declared``).
"""

from __future__ import annotations

import copy
import functools
import json
import sys
from importlib import resources
from typing import Any

from aggregates.kernel import declared
from aggregates.kernel.outcome import SCHEMA as OUTCOME
from aggregates.kernel.present import COLOURS

DRAFT = "https://json-schema.org/draft/2020-12/schema"
#: The JSON fields a schemas document describes, by their proto field name.
FIELDS = ("view_json", "screen_json", "outcome_json", "options_json", "payload_json")

_SEAT_VALUES: dict[str, Any] = {"type": "array"}
_ID: dict[str, Any] = {"type": ["integer", "string"]}
_TEXT: dict[str, Any] = {"type": "string"}

#: ``GameState.screen_json``: ``kernel.present.Screen.to_json``.
SCREEN: dict[str, Any] = {
    "title": "screen",
    "description": "What one reader sees of a game, in the kernel's presentation "
                   "vocabulary (aggregates/kernel/present.py): titled sections of items.",
    "type": "object",
    "properties": {"sections": {"type": "array", "items": {"$ref": "#/$defs/section"}}},
    "required": ["sections"],
    "additionalProperties": False,
    "$defs": {
        "section": {
            "type": "object",
            "properties": {"title": _TEXT,
                           "items": {"type": "array", "items": {"$ref": "#/$defs/item"}}},
            "required": ["title", "items"],
            "additionalProperties": False,
        },
        "item": {"oneOf": [{"$ref": f"#/$defs/{kind}"}
                           for kind in ("track", "cards", "table", "board", "note")]},
        "track": {
            "description": "A named value (HP 7/12), or one value per seat (per_seat).",
            "type": "object",
            "properties": {"kind": {"const": "track"}, "label": _TEXT, "value": {},
                           "maximum": {"type": "integer"}, "per_seat": _SEAT_VALUES},
            "required": ["kind", "label"],
            "additionalProperties": False,
        },
        "cards": {
            "description": "A zone of cards: the faces the reader may see, or only a count.",
            "type": "object",
            "properties": {"kind": {"const": "cards"}, "label": _TEXT,
                           "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}},
                           "count": {"type": "integer", "minimum": 0}, "zone": _TEXT,
                           "numbered": {"type": "boolean"}},
            "required": ["kind", "label", "count"],
            "additionalProperties": False,
        },
        "card": {
            "description": "One card face; every field but id and name is optional.",
            "type": "object",
            "properties": {
                "id": _ID, "name": _TEXT, "detail": _TEXT, "tag": _TEXT,
                "colour": {"enum": list(COLOURS),
                           "description": "The card's colour or faction, to paint it."},
                "colour_label": {"type": "string", "description":
                                 "The colour in words (a faction's name), always shown "
                                 "beside it; the colour's name when absent."},
                "stats": {"type": "array", "description": "The card's numbers, in order.",
                          "items": {"type": "object",
                                    "properties": {"label": _TEXT,
                                                   "value": {"type": ["integer", "string"]}},
                                    "required": ["label", "value"],
                                    "additionalProperties": False}},
                "text": {"type": "string", "description": "The card's rules text."},
            },
            "required": ["id", "name"],
            "additionalProperties": False,
        },
        "table": {
            "type": "object",
            "properties": {"kind": {"const": "table"}, "label": _TEXT,
                           "columns": {"type": "array", "items": _TEXT},
                           "rows": {"type": "array", "items": {"type": "array"}}},
            "required": ["kind", "label", "columns", "rows"],
            "additionalProperties": False,
        },
        "board": {
            "type": "object",
            "properties": {"kind": {"const": "board"}, "label": _TEXT,
                           "spaces": {"type": "array", "items": {"$ref": "#/$defs/space"}}},
            "required": ["kind", "label", "spaces"],
            "additionalProperties": False,
        },
        "space": {
            "type": "object",
            "properties": {"id": _ID, "name": _TEXT,
                           "links": {"type": "array", "items": _ID},
                           "occupants": {"type": "array", "items": _TEXT},
                           "marked": {"type": "boolean"},
                           "x": {"type": "number", "minimum": 0, "maximum": 100},
                           "y": {"type": "number", "minimum": 0, "maximum": 100},
                           "owner": _TEXT,
                           "marks": {"type": "array", "items": _TEXT},
                           "colour": {"enum": list(COLOURS),
                                      "description": "The controller's colour."},
                           "summary": {"type": "string", "description":
                                       "What a map writes on the space (\"2I 1C\")."}},
            "required": ["id", "name"],
            "additionalProperties": False,
        },
        "note": {
            "type": "object",
            "properties": {"kind": {"const": "note"}, "text": _TEXT},
            "required": ["kind", "text"],
            "additionalProperties": False,
        },
    },
}

#: One event of a Redis feed message (a message is a JSON array of a move's events,
#: ``service.envelope.to_public_json`` each): the public form of an event; its
#: ``payload`` is described per game and event type.
EVENT: dict[str, Any] = {
    "title": "event",
    "description": "One event as published on the Redis feed, an element of a message's "
                   "array (public forms only); the payload's schema is the game's "
                   "payload_json entry for its type.",
    "type": "object",
    "properties": {
        "game_id": _TEXT,
        "version": {"type": "integer", "minimum": 1},
        "position": {"type": "integer", "minimum": 0},
        "type": _TEXT,
        "time": {"type": "string", "format": "date-time"},
        "audience": {"anyOf": [{"const": "everyone"},
                               {"type": "array", "items": {"type": "integer", "minimum": 0}}]},
        "payload": {"type": "object"},
        "redacted": {"type": "boolean"},
        "digest": _TEXT,
        "prev_digest": _TEXT,
        "rules": _TEXT,
    },
    "required": ["game_id", "version", "position", "type", "time", "audience", "payload",
                 "redacted", "digest", "prev_digest", "rules"],
    "additionalProperties": False,
}

#: What a game without a schemas file (a template, a game being written) gets.
ANY_OBJECT: dict[str, Any] = {"type": "object"}


def game_file(game_cls: type) -> dict[str, Any] | None:
    """The game's own ``schemas.json`` (beside its package), or None if it has none."""
    package = game_cls.__module__.rpartition(".")[0] or game_cls.__module__
    if package not in sys.modules:
        return None
    try:
        text = resources.files(package).joinpath("schemas.json").read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        return None
    value = json.loads(text)
    return value if isinstance(value, dict) else None


def schemas_of(game_cls: Any) -> dict[str, Any]:
    """Every JSON field's schema for ``game_cls`` at its current rules version.

    ``{"rules", "rules_version", "view_json", "screen_json", "outcome_json",
    "options_json", "payload_json": {event type: schema}, "event"}``; each schema
    has its own ``$id`` (``urn:arbiter:<rules>:<version>:<field>``) so it can be
    used alone. A game's file made for another rules version is not served as
    this one's: its fields fall back to "an object", and its events to the
    schemas derived from their declarations (as does every event the file
    leaves out).
    """
    rules, version = game_cls.RULES_ID, game_cls.RULES_VERSION
    own = game_file(game_cls) or {}
    if own.get("rules_version") != version:
        own = {}

    def schema(field: str, body: dict[str, Any]) -> dict[str, Any]:
        out = {"$schema": DRAFT, "$id": f"urn:arbiter:{rules}:{version}:{field}"}
        out.update(copy.deepcopy(body))
        return out

    outcome = copy.deepcopy(OUTCOME)
    outcome["properties"]["breakdown"] = {
        **OUTCOME["properties"]["breakdown"], **own.get("outcome", ANY_OBJECT)}
    return {
        "rules": rules,
        "rules_version": version,
        "view_json": schema("view_json", own.get("view", ANY_OBJECT)),
        "screen_json": schema("screen_json", SCREEN),
        # Empty until the game is over.
        "outcome_json": schema("outcome_json", {"anyOf": [
            {"type": "object", "maxProperties": 0}, outcome]}),
        "options_json": schema("options_json", game_cls.OPTIONS_SCHEMA),
        "payload_json": {kind: schema(f"payload_json:{kind}", body)
                         for kind, body in sorted(event_schemas(game_cls, own).items())},
        "event": schema("event", EVENT),
    }


def event_schemas(game_cls: Any, own: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each event type's payload schema: the game file's entry where it has one,
    else the one derived from the event's declaration."""
    described = own.get("events", {})
    derived = {kind: declared.payload_schema(ev)
               for kind, ev in declared.events(game_cls).items() if kind not in described}
    return {**derived, **described}


def payload_schema(schemas: dict[str, Any], event_type: str) -> dict[str, Any]:
    """The schema of one event type's payload (an object, for a type not listed)."""
    found = schemas.get("payload_json", {}).get(event_type)
    return found if isinstance(found, dict) else {"$schema": DRAFT, **ANY_OBJECT}


@functools.cache
def schemas_text(game_cls: Any) -> str:
    """``schemas_of`` as compact JSON, made once per game class (``ListRules``)."""
    return json.dumps(schemas_of(game_cls), sort_keys=True, separators=(",", ":"))
