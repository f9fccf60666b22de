"""What is written from a game's declarations, and never by hand: its whole
``schemas.json`` (the ``events``, ``outcome`` and ``view`` parts) and the event
table of its docs page (``docs/games/<game>.md``).

A game whose events are declared classes (``kernel.facts``: ``EVENTS``)
declares every fact once, there: each event's payload schema is its class's
typed fields, its description the class's docstring; the creation event's
``setup`` is the game's ``SETUP`` (a ``TypedDict``), its options its
``OPTIONS_SCHEMA``; the ``Ended`` event's ``outcome`` and the file's
``outcome`` part are the game's ``OUTCOME`` (a ``TypedDict``). ``make
schemas`` (``python -m aggregates.kernel.record.schemagen``) rewrites them; a unit
test (tests/unit/kernel/test_schemagen.py) fails while the committed files
differ from what this module makes.

A seat's view is declared once too, in the game's ``views.py``: its ``View``
(a ``TypedDict``, its nested objects ``TypedDict`` s in turn) is the type its
``view`` function returns, so mypy holds the dicts it builds to it, and the
``view`` part is written from it: each ``TypedDict`` a closed object (its
docstring's first paragraph its description, a ``NotRequired`` key one a
reader may not get), a mapping keyed by a ``Literal`` names its keys, and
what a type cannot say (a bound, a key's enumeration read from the game's
data, a note) is said by ``Annotated[..., Keywords(...)]``. An object type
met more than once is written once, under ``$defs``.

A payload schema lists no required keys: an event whose reader may not see
it is served in its public form, which may leave every fact out (or carry a
count in its place: the facts an event class names in its ``PUBLIC_COUNTS``,
pairs of the hidden fact and its count's key).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from aggregates.kernel import declared
from aggregates.kernel.game import Game
from aggregates.kernel.keywords import Keywords

ROOT = Path(__file__).resolve().parents[3]
#: The kernel's events a game's file describes, written here from the game's
#: declarations (``SETUP``, ``OPTIONS_SCHEMA``, ``OUTCOME``).
CREATED, ENDED = "Created", "Ended"
#: Where a docs page's generated event table starts and ends.
TABLE_START = "<!-- event table: written by make schemas from events.py -->"
TABLE_END = "<!-- end of the event table -->"
ENTROPY = ("the seats' entropy contributions sent with the creation request (hex); "
           "absent in games recorded before them")
UPCAST_NULL = "null in an event recorded before the rules recorded it"


def generated_games() -> list[type[Game]]:
    """Every served game whose events are declared classes."""
    from aggregates.catalog import GAMES

    return [cls for _, cls in sorted(GAMES.items())
            if cls.EVENTS and cls.__module__.startswith("aggregates.")]


def package_dir(game_cls: type[Game]) -> Path:
    return ROOT / Path(*game_cls.__module__.split(".")[:-1])


# ------------------------------------------------------------------ schemas.json


def field_schema(field: declared.Field) -> dict[str, Any]:
    """A fact's schema; one an upcast may leave null says so."""
    schema = field.schema()
    if field.upcast_null:
        schema = {**schema, "description": UPCAST_NULL}
    return schema


def event_schema(ev: declared.Declared, public_counts: Iterable[tuple[str, str]] = ()
                 ) -> dict[str, Any]:
    """One of the game's own events: a closed object of its typed facts (and
    the counts its public form carries instead of hidden ones)."""
    properties = {f.name: field_schema(f) for f in ev.fields}
    for fact, count in public_counts:
        properties[count] = {"type": "integer", "minimum": 0,
                             "description": f"the public form's, instead of the {fact}"}
    schema: dict[str, Any] = {"type": "object", "additionalProperties": False,
                              "properties": dict(sorted(properties.items()))}
    if ev.doc:
        schema["description"] = ev.doc
    return schema


def created_schema(game_cls: type[Game]) -> dict[str, Any]:
    """The creation event: the kernel's facts, the game's options and setup."""
    ev = declared.events(game_cls)[CREATED]
    properties = {f.name: f.schema() for f in ev.fields}
    properties["options"] = game_cls.OPTIONS_SCHEMA
    properties["setup"] = declared.json_schema(game_cls.SETUP)
    properties["entropy"] = {**properties["entropy"], "description": ENTROPY}
    # The public form leaves the seed out until the game is over.
    required = sorted(f.name for f in ev.fields if f.required and f.name != "seed")
    return {"type": "object", "additionalProperties": False,
            "properties": dict(sorted(properties.items())), "required": required}


def ended_schema(game_cls: type[Game]) -> dict[str, Any]:
    """The end: the game's outcome, and the seed revealed."""
    ev = declared.events(game_cls)[ENDED]
    properties = {f.name: f.schema() for f in ev.fields}
    properties["outcome"] = declared.json_schema(game_cls.OUTCOME)
    return {"type": "object", "additionalProperties": False,
            "properties": dict(sorted(properties.items()))}


def events_part(game_cls: type[Game]) -> dict[str, Any]:
    """The ``events`` part of the game's ``schemas.json``, every entry written here."""
    out = {name: event_schema(ev, getattr(getattr(game_cls, name), "PUBLIC_COUNTS", ()))
           for name, ev in declared.own_events(game_cls).items()}
    out[CREATED] = created_schema(game_cls)
    out[ENDED] = ended_schema(game_cls)
    return dict(sorted(out.items()))


def outcome_part(game_cls: type[Game]) -> dict[str, Any]:
    """The ``outcome`` part: the finished game's breakdown (the Ended event's outcome)."""
    return {**declared.json_schema(game_cls.OUTCOME),
            "description": f"How a game of {game_cls.TITLE} ended, as its Ended event "
                           "records it: outcome_json's breakdown."}


def schemas_file(game_cls: type[Game]) -> dict[str, Any]:
    """The game's ``schemas.json``, every part written from its declarations."""
    return {"rules": game_cls.RULES_ID, "rules_version": game_cls.RULES_VERSION,
            "description": f"JSON Schemas (draft 2020-12) of {game_cls.TITLE}'s wire JSON; "
                           "see aggregates/kernel/record/schemas.py",
            "view": view_part(game_cls), "events": events_part(game_cls),
            "outcome": outcome_part(game_cls)}


# ------------------------------------------------------------------- the view


def view_declaration(game_cls: type[Game]) -> Any:
    """The game's ``View``: the ``TypedDict`` its ``views.view`` returns."""
    package = game_cls.__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.views").View


def view_part(game_cls: type[Game]) -> dict[str, Any]:
    """The ``view`` part of the game's ``schemas.json``, from its ``View``."""
    return ViewSchema(view_declaration(game_cls)).schema()


class ViewSchema:
    """A declared view type as a JSON Schema, its shared object types in ``$defs``."""

    def __init__(self, view: Any) -> None:
        self.view = view
        self.seen: dict[type, int] = {}
        self.count(view)
        self.defs: dict[str, Any] = {}

    def schema(self) -> dict[str, Any]:
        top = self.typed_dict(self.view)
        return {**top, "$defs": dict(sorted(self.defs.items()))} if self.defs else top

    def count(self, hint: Any) -> None:
        """How often each object type is met (once inside a type met twice)."""
        if is_typed_dict(hint):
            self.seen[hint] = self.seen.get(hint, 0) + 1
            if self.seen[hint] > 1:
                return
            for inner in hints(hint).values():
                self.count(inner)
            return
        for arg in typing.get_args(hint):
            if not isinstance(arg, Keywords):
                self.count(arg)

    def of(self, hint: Any) -> dict[str, Any]:  # noqa: PLR0911 - one return per kind of hint
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is typing.Annotated:
            out = self.of(args[0])
            for extra in args[1:]:
                if isinstance(extra, Keywords):
                    out = {**out, **extra.keywords}
            return out
        if origin in (typing.NotRequired, typing.Required):
            return self.of(args[0])
        if is_typed_dict(hint):
            if self.seen.get(hint, 0) == 1:  # met once: written in place
                return self.typed_dict(hint)
            if hint.__name__ not in self.defs:
                self.defs[hint.__name__] = {}  # a type inside itself refers to itself
                self.defs[hint.__name__] = self.typed_dict(hint)
            return {"$ref": f"#/$defs/{hint.__name__}"}
        if origin in (typing.Union, types.UnionType):
            return {"anyOf": [self.of(arg) for arg in args]}
        if origin in (list, tuple, Sequence, set, frozenset) and args:
            return {"type": "array", "items": self.of(args[0])}
        if origin in (dict, Mapping) and args:
            keys, value = self.of(args[0]), self.of(args[1])
            names = {} if keys == {"type": "string"} else {"propertyNames": keys}
            return {"type": "object", **names, **({"additionalProperties": value} if value else {})}
        return declared.json_schema(hint)

    def typed_dict(self, hint: Any) -> dict[str, Any]:
        """A closed object: its keys' types, which every value carries, its docstring."""
        keys = hints(hint)
        out: dict[str, Any] = {
            "type": "object", "additionalProperties": False,
            "properties": {key: self.of(value) for key, value in keys.items()},
            "required": [key for key, value in keys.items() if required(hint, key, value)]}
        doc = declared._first_paragraph(hint.__doc__)
        return {**out, "description": doc} if doc else out


class WireSchema(ViewSchema):
    """One of the kernel's wire shapes (every game's screen, outcome and feed
    event) as the JSON Schema served for it, written from its declaration: a
    ``title``, the shapes ``defs`` names written once under ``$defs`` (by those
    names), a union of JSON scalars as a list of ``type`` s, a union of objects
    as ``oneOf`` (each is one of them), a one-value ``Literal`` as a ``const``,
    and an array of anything without ``items``."""

    def __init__(self, declared: Any, title: str, defs: Mapping[Any, str] | None = None
                 ) -> None:
        super().__init__(declared)
        self.title = title
        self.names = dict(defs or {})

    def schema(self) -> dict[str, Any]:
        return {"title": self.title, **super().schema()}

    def of(self, hint: Any) -> dict[str, Any]:
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        name = self.names.get(hint) if is_typed_dict(hint) or origin is not None else None
        if name is not None:
            if name not in self.defs:
                self.defs[name] = {}  # a shape inside itself refers to itself
                self.defs[name] = (self.typed_dict(hint) if is_typed_dict(hint)
                                   else self.union(args))
            return {"$ref": f"#/$defs/{name}"}
        if origin in (typing.Union, types.UnionType):
            return self.union(args)
        if origin is typing.Literal and len(args) == 1:
            return {"const": args[0]}
        if origin is list and args:
            items = self.of(args[0])
            return {"type": "array", **({"items": items} if items else {})}
        return super().of(hint)

    def union(self, args: Sequence[Any]) -> dict[str, Any]:
        if all(arg in declared._SCALARS for arg in args):
            return {"type": [declared._SCALARS[arg] for arg in args]}
        if all(is_typed_dict(arg) for arg in args):
            return {"oneOf": [self.of(arg) for arg in args]}
        return {"anyOf": [self.of(arg) for arg in args]}


def hints(typed_dict: Any) -> dict[str, Any]:
    """A ``TypedDict``'s keys and their declared types, ``Annotated`` extras kept."""
    return typing.get_type_hints(typed_dict, include_extras=True)


def is_typed_dict(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, dict) and hasattr(hint, "__total__")


def required(hint: Any, key: str, value: Any) -> bool:
    """Whether every value of ``hint`` carries ``key`` (``NotRequired`` read off
    the hint itself: under postponed annotations Python 3.11's
    ``__required_keys__`` does not see it)."""
    origin = typing.get_origin(value)
    if origin is typing.Annotated:
        origin = typing.get_origin(typing.get_args(value)[0])
    if origin is typing.NotRequired:
        return False
    return origin is typing.Required or key in hint.__required_keys__


def dumps(value: Any) -> str:
    """The files' one layout, so a rewrite changes only what changed."""
    return json.dumps(value, indent=1, sort_keys=True) + "\n"


# --------------------------------------------------------------- the docs' table


def hint_text(hint: Any) -> str:
    """A declared type as the docs write it (``list[int] or None``: a bar
    would split the table's cell)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(hint_text(arg) for arg in args)
    if origin is typing.Literal:
        return " or ".join(json.dumps(arg) for arg in args)
    if origin is not None and args:
        return f"{getattr(origin, '__name__', str(origin))}[{', '.join(map(hint_text, args))}]"
    if hint is type(None):
        return "None"
    return getattr(hint, "__name__", str(hint))


def since(event_class: type) -> dict[str, int]:
    """The event class version each fact was first recorded in, for facts an
    upcast adds (``kernel.upcast``: the steps' ``added``)."""
    steps = getattr(event_class, "upcast_steps", ())
    return {key: number + 1 for number, step in enumerate(steps, start=1)
            for key in step.added}


def event_table(game_cls: type[Game]) -> str:
    """The docs page's event table: each event, what it states, its facts."""
    from aggregates.kernel.record.recording import event_class_of

    rows = ["| Event | States | Facts |", "|---|---|---|"]
    order = [cls.__name__ for cls in game_cls.EVENTS]
    own = declared.own_events(game_cls)
    for name in order:
        ev = own[name]
        added = since(event_class_of(game_cls, name))
        facts = ", ".join(
            f"`{f.name}` ({hint_text(f.hint)}"
            + (f", since v{added[f.name]})" if f.name in added else ")")
            for f in ev.fields) or "none"
        rows.append(f"| {name} | {ev.doc} | {facts} |")
    return "\n".join(rows) + "\n"


def docs_page(game_cls: type[Game]) -> Path:
    return ROOT / "docs" / "games" / f"{game_cls.RULES_ID.replace('_', '-')}.md"


def with_table(text: str, table: str) -> str:
    """A docs page with its generated table put between the markers."""
    head, found, rest = text.partition(TABLE_START + "\n")
    if not found:
        raise ValueError(f"no {TABLE_START!r} line")
    _, found, tail = rest.partition(TABLE_END)
    if not found:
        raise ValueError(f"no {TABLE_END!r} after {TABLE_START!r}")
    return f"{head}{TABLE_START}\n{table}{TABLE_END}{tail}"


# ------------------------------------------------------------------------ files


def outputs(game_cls: type[Game]) -> dict[Path, str]:
    """Every file this module writes for ``game_cls``, with its generated text."""
    schemas = package_dir(game_cls) / "schemas.json"
    page = docs_page(game_cls)
    return {
        schemas: dumps(schemas_file(game_cls)),
        page: with_table(page.read_text("utf-8"), event_table(game_cls)),
    }


def stale(games: Iterable[type[Game]]) -> list[Path]:
    """The committed files that differ from what this module makes."""
    return [path for cls in games for path, text in outputs(cls).items()
            if path.read_text("utf-8") != text]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a committed file differs")
    args = parser.parse_args(argv)
    games = generated_games()
    if args.check:
        for path in stale(games):
            print(f"{path.relative_to(ROOT)} differs from its declarations: run make schemas")
        return 1 if stale(games) else 0
    for cls in games:
        for path, text in outputs(cls).items():
            if path.read_text("utf-8") != text:
                path.write_text(text, "utf-8")
                print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    # Run as the module the games import (``python -m`` makes a second copy,
    # whose ``Keywords`` the games' declarations are not instances of).
    from aggregates.kernel.record import schemagen

    sys.exit(schemagen.main())
