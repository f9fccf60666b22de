"""What a game declares once: its events' payloads and its commands' arguments.

An event's payload is declared by its class's typed fields (``kernel.facts``:
one immutable class per fact, the way every game is to be written) or, in the
games not yet written that way, by its ``@event`` method's signature; the
kernel's own events by the kernel's, the same in every game. A command's
arguments are declared by its frozen dataclass's fields (``kernel.commands``).
Everything else that names those fields — the JSON schemas served by
``ListRules`` (``kernel.schemagen`` writes a game's), the typed protobuf
messages, the event-facts fold, the ``describe`` sentences — is derived from or
checked against what this module reads, so the facts are written by hand once
and every copy is held to them. A payload that needs a nested shape stated (a
``TypedDict``, a ``Literal``) says it in the hint.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from eventsourcing.domain import decorated_funcs

from aggregates.kernel.game import KERNEL_FIELDS, Game

#: The package whose declarations are the kernel's (shared by every game).
KERNEL_PACKAGE = "aggregates.kernel"
#: The creation event, declared by the kernel's ``Game.__init__``.
CREATED = "Created"


@dataclasses.dataclass(frozen=True)
class Field:
    """One declared payload field or command argument."""

    name: str
    hint: Any
    #: Whether every value carries it (no default in the declaration).
    required: bool
    #: Whether an upcast sets it to null in events recorded before the rules
    #: recorded it (``kernel.upcast``): on the wire it may then be null too.
    upcast_null: bool = False

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the field's values on the wire."""
        found = json_schema(self.hint)
        if self.upcast_null and "null" not in admitted(found):
            return {"anyOf": [found, {"type": "null"}]}
        return found


@dataclasses.dataclass(frozen=True)
class Declared:
    """One event type (or command) and its fields, in declaration order."""

    name: str
    fields: tuple[Field, ...]
    #: Declared by the kernel, not by the game's own package.
    kernel: bool
    #: The first paragraph of the declaring method's (or class's) docstring.
    doc: str = ""

    def field_names(self) -> list[str]:
        return [f.name for f in self.fields]

    def by_name(self) -> dict[str, Field]:
        return {f.name: f for f in self.fields}


@functools.cache
def events(game_cls: type[Game]) -> dict[str, Declared]:
    """Every event type ``game_cls`` can record, by name, with its payload fields:
    the game's own (``@event`` methods, or declared classes: ``kernel.facts``)
    and the kernel's (``Created``, ``Ended``,
    ``EntropyAdded``, ``DefaultApplied``)."""
    found: dict[str, Declared] = {CREATED: _declared(CREATED, Game.__init__, set())}
    for name in sorted(dir(game_cls)):
        attr = getattr(game_cls, name, None)
        if name == "Event" or not (isinstance(attr, type) and issubclass(attr, Game.Event)):
            continue
        func = _decorated(attr)
        if func is not None:
            found[name] = _declared(name, func, _upcast_nulls(attr))
        elif (fact := _fact_class(game_cls, attr)) is not None:
            found[name] = _declared_class(name, fact, _upcast_nulls(attr))
    return dict(sorted(found.items()))


def own_events(game_cls: type[Game]) -> dict[str, Declared]:
    """The events the game's own package declares (not the kernel's)."""
    return {name: ev for name, ev in events(game_cls).items() if not ev.kernel}


@functools.cache
def commands(game_cls: type[Game]) -> dict[str, Declared]:
    """Every command of ``game_cls`` by wire name, with its arguments in order."""
    out: dict[str, Declared] = {}
    for name, cls in game_cls.COMMANDS.by_name.items():
        hints = typing.get_type_hints(cls)
        fields = tuple(
            Field(f.name, hints[f.name], f.default is dataclasses.MISSING
                  and f.default_factory is dataclasses.MISSING)
            for f in dataclasses.fields(cls))
        out[name] = Declared(name, fields, cls.__module__.startswith(KERNEL_PACKAGE),
                             _first_paragraph(cls.__doc__))
    return out


def _decorated(event_class: type) -> Callable[..., Any] | None:
    """The ``@event`` method that declares ``event_class`` (eventsourcing 9.5
    keeps them in ``decorated_funcs``, keyed by the class it made for it; a
    subclass re-declares the class, so the lookup walks the MRO)."""
    for klass in event_class.__mro__:
        if klass in decorated_funcs:
            return decorated_funcs[klass]
    return None


def _fact_class(game_cls: type[Game], event_class: type) -> type | None:
    """The declared class (``kernel.facts``) ``event_class`` was made from, if
    the game lists one of that name in its ``EVENTS``."""
    for fact in getattr(game_cls, "EVENTS", ()):
        if fact.__name__ == event_class.__name__ and issubclass(event_class, fact):
            return fact
    return None


def fact_fields(fact: type) -> list[tuple[str, Any, bool]]:
    """A declared event class's own fields, in declaration order: (name, type,
    required). The kernel's (``KERNEL_FIELDS``) and the library's are not facts."""
    hints = typing.get_type_hints(fact)
    return [(f.name, hints.get(f.name, Any),
             f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
            for f in dataclasses.fields(fact) if f.name not in KERNEL_FIELDS]


def _declared_class(name: str, fact: type, nulls: set[str]) -> Declared:
    fields = tuple(Field(field, hint, required, field in nulls)
                   for field, hint, required in fact_fields(fact))
    return Declared(name, fields, fact.__module__.startswith(KERNEL_PACKAGE),
                    _first_paragraph(fact.__doc__))


def _upcast_nulls(event_class: type) -> set[str]:
    steps = getattr(event_class, "upcast_steps", ())
    return {key for step in steps for key in step.unrecorded}


def _declared(name: str, func: Callable[..., Any], nulls: set[str]) -> Declared:
    hints = typing.get_type_hints(func)
    fields = []
    for param in list(inspect.signature(func).parameters.values())[1:]:
        if param.name in KERNEL_FIELDS or param.kind in (param.VAR_POSITIONAL,
                                                         param.VAR_KEYWORD):
            continue
        fields.append(Field(param.name, hints.get(param.name, Any),
                            param.default is inspect.Parameter.empty, param.name in nulls))
    kernel = func.__module__.startswith(KERNEL_PACKAGE)
    return Declared(name, tuple(fields), kernel, _first_paragraph(func.__doc__))


def _first_paragraph(doc: str | None) -> str:
    return " ".join(inspect.cleandoc(doc or "").split("\n\n", 1)[0].split())


# ------------------------------------------------------------ types as JSON Schema

_SCALARS: dict[Any, str] = {bool: "boolean", int: "integer", float: "number", str: "string",
                            type(None): "null", None: "null"}
#: Every JSON type (what an ``Any`` admits).
JSON_TYPES = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})


def json_schema(hint: Any) -> dict[str, Any]:  # noqa: PLR0911 - one return per kind of hint
    """The JSON Schema of the values a declared type admits once on the wire
    (JSON's view: a tuple is an array, a mapping an object with string keys)."""
    if hint is Any or hint is object:
        return {}
    if hint in _SCALARS:
        return {"type": _SCALARS[hint]}
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [json_schema(arg) for arg in args]}
    if origin is typing.Literal:
        return {"enum": list(args)}
    if _is_typed_dict(hint):
        inner = typing.get_type_hints(hint)
        return {"type": "object",
                "properties": {key: json_schema(value) for key, value in inner.items()},
                "required": sorted(hint.__required_keys__), "additionalProperties": False}
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:  # noqa: PLR2004
        return {"type": "array", "items": json_schema(args[0])}
    if origin is tuple and args:
        return {"type": "array", "prefixItems": [json_schema(arg) for arg in args],
                "minItems": len(args), "maxItems": len(args)}
    if origin in (list, tuple, Sequence, set, frozenset) or hint in (list, tuple):
        return {"type": "array", **({"items": json_schema(args[0])} if args else {})}
    if origin in (dict, Mapping) or hint is dict:
        value = json_schema(args[1]) if len(args) == 2 else {}  # noqa: PLR2004
        return {"type": "object", **({"additionalProperties": value} if value else {})}
    raise TypeError(f"no JSON form for the declared type {hint!r}")


def _is_typed_dict(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, dict) and hasattr(hint, "__required_keys__")


def admitted(schema: Mapping[str, Any]) -> frozenset[str]:
    """The JSON types a schema lets through at its top level (``{}``: all of them;
    an integer is also a number). Only what the served schemas use is read:
    ``type``, ``anyOf``/``oneOf``, ``const``, ``enum``."""
    if "anyOf" in schema or "oneOf" in schema:
        parts = schema.get("anyOf", schema.get("oneOf"))
        return frozenset().union(*(admitted(part) for part in parts))
    if "const" in schema:
        return _types_of([schema["const"]])
    if "enum" in schema:
        return _types_of(schema["enum"])
    kind = schema.get("type")
    if kind is None:
        return JSON_TYPES
    kinds = frozenset([kind] if isinstance(kind, str) else kind)
    return kinds | {"integer"} if "number" in kinds else kinds


def _types_of(values: Sequence[Any]) -> frozenset[str]:
    out = set()
    for value in values:
        if value is None:
            out.add("null")
        elif isinstance(value, bool):
            out.add("boolean")
        elif isinstance(value, int):
            out.add("integer")
        else:
            out.add({float: "number", str: "string", list: "array", dict: "object"}
                    .get(type(value), "object"))
    return frozenset(out)


def branch(schema: Mapping[str, Any], kind: str) -> Mapping[str, Any] | None:
    """The part of ``schema`` that holds values of JSON type ``kind`` (its
    ``anyOf`` branch), or None when it admits none or says nothing more."""
    if "anyOf" in schema or "oneOf" in schema:
        for part in schema.get("anyOf", schema.get("oneOf")):
            if kind in admitted(part):
                return branch(part, kind)
        return None
    return schema if kind in admitted(schema) else None


def mismatches(declared: Mapping[str, Any], served: Mapping[str, Any],
               where: str) -> list[str]:
    """Where the ``served`` schema disagrees with the ``declared`` one: a JSON
    type one admits and the other does not, at the top or in an array's items or
    an object's declared properties, or items or properties declared and not
    stated, each named by its path. The served schema
    may say more (descriptions, bounds, the keys of an object declared only as
    ``dict``, the type of a value declared as ``Any``): those are refinements,
    not disagreements."""
    want, have = admitted(declared), admitted(served)
    if want == JSON_TYPES:
        return []  # declared as anything (``Any``): whatever the schema says refines it
    if want != have:
        return [f"{where}: declared {sorted(want)}, the schema admits {sorted(have)}"]
    out: list[str] = []
    if "array" in want:
        inner_want = (branch(declared, "array") or {}).get("items")
        inner_have = (branch(served, "array") or {}).get("items")
        if inner_want is not None and inner_have is None:
            out.append(f"{where}[]: declared {sorted(admitted(inner_want))}, "
                       "the schema does not say")
        elif inner_want is not None and inner_have is not None:
            out += mismatches(inner_want, inner_have, f"{where}[]")
    if "object" in want:
        props_want = (branch(declared, "object") or {}).get("properties")
        props_have = (branch(served, "object") or {}).get("properties")
        if props_want is not None and props_have is None:
            out.append(f"{where}: declared keys {sorted(props_want)}, the schema does not say")
        elif props_want is not None and props_have is not None:
            if set(props_want) != set(props_have):
                out.append(f"{where}: declared keys {sorted(props_want)}, the schema "
                           f"has {sorted(props_have)}")
            for key in sorted(set(props_want) & set(props_have)):
                out += mismatches(props_want[key], props_have[key], f"{where}.{key}")
    return out


def payload_schema(ev: Declared) -> dict[str, Any]:
    """A payload schema derived from the declaration alone: every declared field
    typed, none required and other keys allowed, because a public form may leave
    a field out or carry a count in its place (``Game.public_form``)."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {f.name: f.schema() for f in ev.fields},
    }
    if ev.doc:
        schema["description"] = ev.doc
    return schema

