"""JSON Schemas of the JSON a game puts on the wire, per game and rules version.

Clients in any language read ``view_json``, ``screen_json``, ``outcome_json``,
``options_json`` and each event's ``payload_json`` without Arbiter's Python
code; these schemas (JSON Schema draft 2020-12) say what they hold, and
``ListRules`` serves them (``RulesInfo.schemas_json``). What every game shares
is written here from its one declaration (``schemagen.WireSchema``): the screen
vocabulary of ``kernel.present`` (``ScreenJson``), the outcome's shared shape
(``outcome.OutcomeJson``) and the envelope of an event on the Redis feed
(``FeedEvent``). What is particular to a game lives beside it, in
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
from typing import Annotated, Any, Literal, TypedDict

from aggregates.kernel import declared, present
from aggregates.kernel.keywords import Keywords
from aggregates.kernel.outcome import OutcomeJson
from aggregates.kernel.record.schemagen import WireSchema

DRAFT = "https://json-schema.org/draft/2020-12/schema"
#: The JSON fields a schemas document describes, by their proto field name.
FIELDS = ("view_json", "screen_json", "outcome_json", "options_json", "payload_json")

#: A count or an index from 0 (a seat, a position).
Index = Annotated[int, Keywords(minimum=0)]


class FeedEvent(TypedDict):
    """One event as published on the Redis feed, an element of a message's array
    (public forms only); the payload's schema is the game's payload_json entry for
    its type.

    A Redis feed message is a JSON array of a move's events, each of this shape
    (``service.envelope.to_public_json``): the public form of an event.
    """

    game_id: str
    version: Annotated[int, Keywords(minimum=1)]
    position: Index
    type: str
    time: Annotated[str, Keywords(format="date-time")]
    audience: Literal["everyone"] | list[Index]
    payload: dict[str, Any]
    redacted: bool
    digest: str
    prev_digest: str
    rules: str


#: The shapes the screen's schema writes once, under ``$defs``, by these names.
SCREEN_DEFS: dict[Any, str] = {
    present.SectionJson: "section", present.ItemJson: "item", present.TrackJson: "track",
    present.CardsJson: "cards", present.CardJson: "card", present.TableJson: "table",
    present.BoardJson: "board", present.SpaceJson: "space", present.NoteJson: "note"}

#: ``GameState.screen_json``: ``kernel.present.Screen.to_json``, declared by
#: ``present.ScreenJson``.
SCREEN: dict[str, Any] = WireSchema(present.ScreenJson, "screen", SCREEN_DEFS).schema()
#: One event of a Redis feed message, declared by ``FeedEvent``; its ``payload``
#: is described per game and event type.
EVENT: dict[str, Any] = WireSchema(FeedEvent, "event").schema()
#: ``GameState.outcome_json`` once the game is over, declared by
#: ``outcome.OutcomeJson`` (the game's ``breakdown`` schema goes in
#: ``properties.breakdown``); ``{}`` before.
OUTCOME: dict[str, Any] = WireSchema(OutcomeJson, "outcome").schema()

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
