"""The published JSON Schemas hold for real games of every game (issue 12).

Every game's ``schemas.json`` (``aggregates/<game>/schemas.json``) describes its
view, its outcome and each event type's payload for one rules version; the
kernel (``aggregates.kernel.schemas``) adds the screen vocabulary and the event
envelope. Here random bots play games of every game, at several player counts
and with seeds the schemas were not made from, and everything those games put
on the wire is validated: every reader's view and screen along the way, each
event's payload in its private and its public form, the outcome, the options.

The per-game files are drafted from many random games by this module
(``python -m tests.unit.test_schemas --write``, which infers types, required
keys and closed objects, and takes from the events' declarations what the
games did not show) and then read and kept by hand like any data file;
tests/unit/test_declarations.py holds each entry to its event's declaration.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from aggregates.catalog import GAMES
from aggregates.kernel import Game, event_type, payload_of, recorded_audience
from aggregates.kernel.outcome import outcome_json
from aggregates.kernel.schemas import DRAFT, EVENT, FIELDS, SCREEN, game_file, schemas_of
from tests.soak import SOAK, games

ROOT = Path(__file__).resolve().parents[2]
SERVED = {rules: cls for rules, cls in GAMES.items() if cls.__module__.startswith("aggregates.")}
#: Player counts played per game (its whole range when small).
COUNTS = {"enin": [1], "ethnos": [2, 3, 4, 5, 6], "ettin": [2, 3, 4, 5, 6],
          "titans": [2, 3, 4], "nine_empires": [2, 3, 4]}
MAX_COMMANDS = 20000
VIEW_EVERY = 5
#: Screens are drawn less often: Ettin's are slow to draw at large tables.
SCREEN_EVERY = 60


def playout(cls: type[Game], players: int, seed: int) -> Iterator[tuple[str, Any]]:
    """One random game's wire JSON, as ``(what, value)``: ``view``, ``screen``,
    ``outcome``, ``options`` and ``payload:<EventType>`` (private and public forms)."""
    rng = random.Random(seed)
    game = cls.start([f"p{i}" for i in range(players)], seed=f"{seed:064x}")
    readers: list[int | None] = [None, *range(players)]

    def views(screens: bool = True) -> Iterator[tuple[str, Any]]:
        for reader in readers:
            yield "view", game.view(reader)
            if screens:
                yield "screen", game.present(reader).to_json()

    def events() -> Iterator[tuple[str, Any]]:
        for ev in game.collect_events():
            kind, payload = event_type(ev), payload_of(ev)
            _, public = recorded_audience(cls, kind, payload, ev.meta)
            yield f"payload:{kind}", payload
            yield f"payload:{kind}", public

    yield "options", {}
    yield from events()
    yield from views()
    for step in range(MAX_COMMANDS):
        if game.ended:
            break
        seat = rng.choice(game.waiting_on())
        game.act(seat, rng.choice(game.legal_actions(seat)))
        yield from events()
        if step % VIEW_EVERY == 0:
            yield from views(screens=step % SCREEN_EVERY == 0)
    assert game.ended, f"{cls.RULES_ID} did not end in {MAX_COMMANDS} commands"
    yield from views()
    yield "outcome", outcome_json(game)


def validators(cls: type[Game]) -> dict[str, Draft202012Validator]:
    served = schemas_of(cls)
    out = {name: Draft202012Validator(served[name]) for name in FIELDS if name != "payload_json"}
    for kind, schema in served["payload_json"].items():
        out[f"payload:{kind}"] = Draft202012Validator(schema)
    return out


WHAT_FIELD = {"view": "view_json", "screen": "screen_json", "outcome": "outcome_json",
              "options": "options_json"}


@pytest.mark.parametrize("rules", sorted(SERVED))
def test_every_game_has_schemas_for_its_rules_version(rules: str) -> None:
    cls = SERVED[rules]
    own = game_file(cls)
    assert own is not None, f"aggregates/{rules}/schemas.json is missing"
    assert own["rules"] == rules and own["rules_version"] == cls.RULES_VERSION, (
        "a new rules version needs its schemas reviewed: update schemas.json")
    served = schemas_of(cls)
    for name in FIELDS:
        schemas = served[name].values() if name == "payload_json" else [served[name]]
        for schema in schemas:
            Draft202012Validator.check_schema(schema)
            assert schema["$schema"] == DRAFT and schema["$id"].startswith(
                f"urn:arbiter:{rules}:{cls.RULES_VERSION}:")
    assert served["payload_json"], "every event type's payload is described"


@pytest.mark.heavy(20)
@pytest.mark.parametrize("rules", sorted(SERVED))
def test_random_games_match_the_published_schemas(rules: str) -> None:
    cls = SERVED[rules]
    checks = validators(cls)
    seen: set[str] = set()
    validated: set[tuple[str, str]] = set()
    # Both ends of the range and every other count between in CI; every count
    # twice under make soak (a payload's shape does not change with the seats).
    for players in COUNTS[rules] if SOAK else COUNTS[rules][::2]:
        for n in range(games(1, 2)):
            for what, value in playout(cls, players, 900_000 + 100 * players + n):
                name = WHAT_FIELD.get(what, what)
                assert name in checks, f"{rules}: no schema for {what} (a new event type?)"
                # A value met before (a view or screen unchanged since the last
                # move) passed or failed already: validation is most of the time.
                text = json.dumps(value, sort_keys=True)
                if (name, text) in validated:
                    continue
                validated.add((name, text))
                errors = sorted(checks[name].iter_errors(value), key=str)
                assert not errors, (f"{rules} {players}p: {what} breaks its schema at "
                                    f"{list(errors[0].absolute_path)}: {errors[0].message}")
                seen.add(what)
    assert {"view", "screen", "outcome", "options"} <= seen


def test_kernel_schemas_are_valid_and_match_the_vocabulary() -> None:
    from aggregates.kernel.present import ITEM_KINDS, Card, Cards, Note, Track, screen, section

    Draft202012Validator.check_schema(SCREEN)
    Draft202012Validator.check_schema(EVENT)
    assert set(SCREEN["$defs"]) >= set(ITEM_KINDS)
    drawn = screen(section("You", Track("HP", 7, 12), Note("hello"),
                           Cards("Hand", (Card(1, "Elf", tag="red"),), numbered=True))).to_json()
    Draft202012Validator(SCREEN).validate(drawn)
    with pytest.raises(Exception):  # noqa: B017 - any validation error
        Draft202012Validator(SCREEN).validate({"sections": [{"title": "x", "items": [
            {"kind": "dial"}]}]})


def unrecorded_fields(cls: type[Game]) -> list[tuple[str, str]]:
    """``(event type, key)`` of every fact an upcast sets to null in older records."""
    from aggregates.kernel import declared

    return [(kind, field.name) for kind, ev in declared.events(cls).items()
            for field in ev.fields if field.upcast_null]


@pytest.mark.parametrize("rules", sorted(SERVED))
def test_upcast_events_match_too(rules: str) -> None:
    """An old game's events read upcast, with the facts they never recorded as null."""
    cls = SERVED[rules]
    served = schemas_of(cls)["payload_json"]
    for kind, key in unrecorded_fields(cls):
        assert Draft202012Validator(served[kind]["properties"][key]).is_valid(None), (kind, key)


def recorded(data_dir: Path) -> Iterator[tuple[type[Game], str, Any]]:
    """The wire JSON of every game in a copy of the pre-Kernel-2 store
    (``tests/fixtures/store_v1``), as ``(game class, what, value)``: each event read
    back upcast, in its private and its public form, every reader's view, the outcome."""
    import shutil

    from service.application import ArbiterApp
    from service.auth import Credentials
    from service.config import Settings
    from service.envelope import dumps

    shutil.copytree(ROOT / "tests" / "fixtures" / "store_v1", data_dir)
    env = {**Settings(data_dir=data_dir).store_env(), "IS_SNAPSHOTTING_ENABLED": "n"}
    app = ArbiterApp(env, snapshot_interval=0, credentials=Credentials.configure(data_dir))
    try:
        for entry in app.list_games(limit=100):
            game = app.game(str(entry.game_id))
            cls = type(game)
            for ev in app.game_events(str(entry.game_id)):
                kind, payload = event_type(ev), payload_of(ev)
                _, public = recorded_audience(cls, kind, payload, ev.meta)
                for form in (payload, public):
                    yield cls, f"payload:{kind}", json.loads(dumps(form))
            for reader in (None, *range(len(game.seats))):
                yield cls, "view", json.loads(dumps(game.view(reader)))
            yield cls, "outcome", outcome_json(game)
    finally:
        app.close()


@pytest.mark.heavy(7)
def test_games_recorded_by_an_older_release_match_too(tmp_path: Path) -> None:
    checked: set[str] = set()
    for cls, what, value in recorded(tmp_path / "data"):
        checks = validators(cls)
        errors = list(checks[WHAT_FIELD.get(what, what)].iter_errors(value))
        assert not errors, (cls.RULES_ID, what, errors[0].message)
        checked.add(cls.RULES_ID)
    assert checked


def test_a_game_without_a_file_gets_open_schemas_and_its_declared_payloads() -> None:
    """Its view is "an object"; each event it declares (here only the kernel's)
    is served the schema its ``@event`` signature derives (``kernel.declared``)."""
    from aggregates.kernel import declared

    class Unlisted(Game):
        RULES_ID = "unlisted"
        RULES_VERSION = "0"

    served = schemas_of(Unlisted)
    assert served["view_json"]["type"] == "object"
    assert set(served["payload_json"]) == set(declared.events(Unlisted)) == {
        "Created", "Ended", "EntropyAdded", "DefaultApplied"}
    assert served["payload_json"]["EntropyAdded"]["properties"] == {
        "seat": {"type": "integer"}, "entropy": {"type": "string"}}


def test_the_template_games_events_match_the_schemas_derived_from_their_declarations() -> None:
    """The template game has no schemas file: every payload it records, private
    and public (its hidden bids, ``ChoiceMade``'s public form), is checked
    against the schema derived from its declaration."""
    from tests.template_game import Template

    checks = validators(Template)
    seen = set()
    for seats in (2, 4):
        for what, value in playout(Template, seats, 31 + seats):
            if what.startswith("payload:"):
                errors = list(checks[what].iter_errors(value))
                assert not errors, (what, value, errors[0].message)
                seen.add(what)
    assert {"payload:ChoiceMade", "payload:ChoicesRevealed", "payload:Ended"} <= seen


# --- drafting the per-game files (python -m tests.unit.test_schemas --write) ---------

MAP_KEYS = 64


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


class Shape:
    """The types seen at one place of many JSON values, merged."""

    def __init__(self) -> None:
        self.kinds: set[str] = set()
        self.items: Shape | None = None
        self.props: dict[str, Shape] = {}
        self.counts: dict[str, int] = {}
        self.objects = 0

    def add(self, value: Any) -> Shape:
        kind = _kind(value)
        self.kinds.add(kind)
        if kind == "array":
            for item in value:
                self.items = (self.items or Shape()).add(item)
        elif kind == "object":
            self.objects += 1
            for key, item in value.items():
                self.props.setdefault(key, Shape()).add(item)
                self.counts[key] = self.counts.get(key, 0) + 1
        return self

    def _map_like(self) -> bool:
        """Keys that are data (seat numbers, zone names like ``camp:2``), not field names:
        any key with a digit or a colon, or very many keys."""
        if any(ch.isdigit() or ch == ":" for key in self.props for ch in key):
            return True
        return len(self.props) > MAP_KEYS

    def schema(self) -> dict[str, Any]:
        kinds = set(self.kinds)
        if {"integer", "number"} <= kinds:
            kinds.discard("integer")
        parts: list[dict[str, Any]] = []
        scalars = sorted(k for k in kinds if k not in ("array", "object"))
        if scalars:
            parts.append({"type": scalars[0] if len(scalars) == 1 else scalars})
        if "array" in kinds:
            part: dict[str, Any] = {"type": "array"}
            if self.items is not None:
                part["items"] = self.items.schema()
            parts.append(part)
        if "object" in kinds:
            part = {"type": "object"}
            if not self.props:
                pass  # only ever seen empty: nothing to say of its keys
            elif self._map_like():
                merged = Shape()
                for shape in self.props.values():
                    merged.merge(shape)
                part["additionalProperties"] = merged.schema()
            else:
                part["properties"] = {k: s.schema() for k, s in sorted(self.props.items())}
                required = sorted(k for k, n in self.counts.items() if n == self.objects)
                if required:
                    part["required"] = required
                part["additionalProperties"] = False
            parts.append(part)
        if not parts:
            return {}
        return parts[0] if len(parts) == 1 else {"anyOf": parts}

    def merge(self, other: Shape) -> None:
        self.kinds |= other.kinds
        if other.items is not None:
            if self.items is None:
                self.items = Shape()
            self.items.merge(other.items)
        for key, shape in other.props.items():
            self.props.setdefault(key, Shape()).merge(shape)
            self.counts[key] = self.counts.get(key, 0) + other.counts.get(key, 0)
        self.objects += other.objects


def draft(rules: str, games_per_count: int) -> dict[str, Any]:
    """A schemas file for ``rules`` from many random games (then reviewed by hand)."""
    import tempfile

    cls = SERVED[rules]
    shapes: dict[str, Shape] = {}
    for players in COUNTS[rules]:
        for n in range(games_per_count):
            for what, value in playout(cls, players, 100 * players + n):
                shapes.setdefault(what, Shape()).add(value)
    with tempfile.TemporaryDirectory() as scratch:  # games an older release recorded
        for game_cls, what, value in recorded(Path(scratch) / "data"):
            if game_cls is cls:
                shapes.setdefault(what, Shape()).add(value)
    title = cls.TITLE
    view = shapes["view"].schema()
    view["description"] = (f"A seat's view of a game of {title} (a spectator's leaves out "
                           "what is hidden from it): GameState.view_json.")
    outcome = shapes["outcome"].schema()
    outcome["description"] = (f"How a game of {title} ended, as its Ended event records it: "
                              "outcome_json's breakdown.")
    events = {what.split(":", 1)[1]: shape.schema() for what, shape in sorted(shapes.items())
              if what.startswith("payload:")}
    # The options a game was created with: the game's own options schema, not
    # the few the random games happened to use.
    events["Created"]["properties"]["options"] = cls.OPTIONS_SCHEMA
    # Facts an older record never held are null once upcast (``kernel.upcast``).
    for kind, key in unrecorded_fields(cls):
        found = events.get(kind, {}).get("properties", {}).get(key)
        if found is not None and not Draft202012Validator(found).is_valid(None):
            events[kind]["properties"][key] = {
                "anyOf": [found, {"type": "null"}],
                "description": "null in an event recorded before the rules recorded it"}
    draft_declared(cls, events)
    return {"rules": rules, "rules_version": cls.RULES_VERSION,
            "description": f"JSON Schemas (draft 2020-12) of {title}'s wire JSON; "
                           "see aggregates/kernel/schemas.py",
            "view": view, "outcome": outcome, "events": events}


def draft_declared(cls: type[Game], events: dict[str, Any]) -> None:
    """What the random games cannot show, from the declarations (``kernel.declared``):
    the game's own events they never recorded (a rare trap), as declared and
    closed; a null a field is declared to take that no game happened to record.
    The kernel's events left out are served from their declarations anyway."""
    from aggregates.kernel import declared

    for kind, ev in declared.own_events(cls).items():
        if kind not in events:
            events[kind] = {**declared.payload_schema(ev), "additionalProperties": False,
                            "required": [f.name for f in ev.fields if f.required]}
    for kind, ev in declared.events(cls).items():
        props = events.get(kind, {}).get("properties", {})
        for field in ev.fields:
            found = props.get(field.name)
            if (found is not None and "null" in declared.admitted(field.schema())
                    and "null" not in declared.admitted(found)):
                props[field.name] = {"anyOf": [found, {"type": "null"}]}


if __name__ == "__main__":  # pragma: no cover - a maintainer's tool
    games = int(sys.argv[sys.argv.index("--games") + 1]) if "--games" in sys.argv else 20
    for rules in sorted(SERVED):
        text = json.dumps(draft(rules, games), indent=1, sort_keys=True) + "\n"
        target = ROOT / "aggregates" / rules / "schemas.json"
        if "--write" in sys.argv:
            target.write_text(text)
        print(f"{target}: {len(text)} bytes")
