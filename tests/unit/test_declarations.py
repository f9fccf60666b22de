"""Each event and each command is declared once; every copy is held to it (issue 17, item 4).

An event's payload is declared by its ``@event`` method's signature, a
command's arguments by its dataclass in the game's ``commands.py``
(``aggregates.kernel.declared`` reads both). Here, for every registered game
(the served ones, the released ones and the template game), the other places
that name those facts are checked against the declarations:

- the game's ``schemas.json``: one entry per event, its keys the declared
  fields (plus keys only a public form carries, said so), each field admitting
  exactly the JSON types its declared type admits;
- the game's ``describe``: a sentence for each of its events, and no sentence
  for an event type that is not declared;
- the game's protobuf messages: its oneof lists its commands in order, each
  message is the command's class, with its fields by name, type and
  repeated-ness, and a default the wire can carry.

(The fold model of the event-facts test is checked in that test.)
A new game gets all of this by being registered.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import pkgutil
import random
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arbiter.v1 import game_pb2
from arbiter.wire import enum_prefix, enum_wire_name
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from jsonschema import Draft202012Validator

from aggregates import catalog
from aggregates.kernel import Game, declared, event_type, payload_of, recorded_audience
from aggregates.kernel.record.schemas import game_file, schemas_of
from tests.soak import SOAK

TEMPLATE = "tests.template_game:Template"
#: Every game a server can be started with: served and the template; the released
#: versions too under ``make soak`` (their events are their served versions', and
#: their own records are re-verified by the rules-versions tests in CI).
REGISTERED: dict[str, type[Game]] = {
    f"{cls.RULES_ID}-{cls.RULES_VERSION}": cls
    for cls in (*catalog.SERVED, *(catalog.released_classes() if SOAK else ()),
                *catalog.extra_games(TEMPLATE))
}


def games() -> list[Any]:
    """The registered games as parameters, named by rules id and version."""
    return [pytest.param(cls, id=key) for key, cls in REGISTERED.items()]


#: One step in this many applies a pending decision's default (as a clock would).
DEFAULT_EVERY = 7


def recorded_events(cls: type[Game], seats: int, seed: int) -> Iterator[tuple[str, Any, bool]]:
    """Each event of one random game, in its private form (True) and its public
    form (False; the private one for an event everyone reads). A seat
    contributes entropy first, and now and then a decision's default is applied
    as if its clock ran out, so the kernel's events are recorded too."""
    rng = random.Random(seed)
    game = cls.start([f"p{i}" for i in range(seats)], seed=f"{seed:064x}")
    game.contribute(rng.randrange(seats), f"{seed:032x}")
    for step in range(20_000):
        for ev in game.collect_events():
            ev = typing.cast(Any, ev)
            kind, payload = event_type(ev), payload_of(ev)
            yield kind, payload, True
            yield kind, recorded_audience(cls, kind, payload, ev.meta)[1] or payload, False
        if game.ended:
            return
        defaults = [d.seat for d in game.pending_decisions() if d.default]
        if defaults and step % DEFAULT_EVERY == 0:
            game.act_default(rng.choice(defaults))
        else:
            seat = rng.choice(game.waiting_on())
            game.act(seat, rng.choice(game.legal_actions(seat)))
    raise AssertionError(f"{cls.RULES_ID} did not end")


# ------------------------------------------------------------------ declarations


@pytest.mark.parametrize("cls", games())
def test_the_kernel_lists_every_event_and_command_a_game_declares(cls: type[Game]) -> None:
    events = declared.events(cls)
    kernel = {name for name, ev in events.items() if ev.kernel}
    assert kernel >= {"Created", "Ended", "DefaultApplied", "EntropyAdded"}
    assert set(events["Created"].field_names()) >= {
        "rules", "rules_version", "seats", "options", "seed", "commitment", "setup"}
    assert "meta" not in events["Created"].field_names(), "the kernel's record, not a fact"
    assert declared.own_events(cls), "a game records events of its own"
    for ev in events.values():
        for field in ev.fields:
            Draft202012Validator.check_schema(field.schema())
    assert list(declared.commands(cls)) == cls.COMMANDS.names()


@pytest.mark.heavy(4)
@pytest.mark.parametrize("cls", games())
def test_every_recorded_payload_is_its_declaration(cls: type[Game]) -> None:
    """Random games (an entropy contribution and clock defaults included): each
    event recorded is of a declared type, its payload's keys exactly the
    declared fields, so what the checks below hold copies to is what is stored."""
    events = declared.events(cls)
    seen = set()
    for seats in sorted({cls.MIN_SEATS, cls.MAX_SEATS}):
        for kind, payload, private in recorded_events(cls, seats, 77 + seats):
            if private:
                assert kind in events, f"{kind} is recorded, not declared"
                assert sorted(payload) == sorted(events[kind].field_names()), kind
                seen.add(kind)
    assert {"Created", "EntropyAdded", "Ended"} <= seen


def test_declared_types_read_as_json_schema() -> None:
    class Monster(typing.TypedDict):
        name: str
        att: int

    assert declared.json_schema(int) == {"type": "integer"}
    assert declared.json_schema(list[int] | None) == {
        "anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]}
    assert declared.json_schema(tuple[str, ...]) == {"type": "array", "items": {"type": "string"}}
    assert declared.json_schema(dict[str, Any]) == {"type": "object"}
    assert declared.json_schema(typing.Literal["a", "b"]) == {"enum": ["a", "b"]}
    assert declared.json_schema(Monster)["properties"] == {
        "name": {"type": "string"}, "att": {"type": "integer"}}
    assert declared.json_schema(tuple[int, str]) == {
        "type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}],
        "minItems": 2, "maxItems": 2}
    assert declared.admitted({"type": "number"}) == {"number", "integer"}
    assert declared.mismatches({}, {"type": "array"}, "choice") == []  # Any, refined
    assert declared.mismatches({"type": "integer"}, {"type": ["integer", "null"]}, "x") == [
        "x: declared ['integer'], the schema admits ['integer', 'null']"]
    assert declared.mismatches(declared.json_schema(list[int]),
                               {"type": "array", "items": {"type": "string"}}, "x") == [
        "x[]: declared ['integer'], the schema admits ['string']"]
    assert declared.mismatches(declared.json_schema(list[int]), {"type": "array"}, "x") == [
        "x[]: declared ['integer'], the schema does not say"]
    assert declared.mismatches(declared.json_schema(list[int] | None),
                               {"anyOf": [{"type": "null"}, {"type": "array",
                                                             "items": {"type": "integer"}}]},
                               "x") == []


# ------------------------------------------------------------------- schemas.json

PUBLIC_FORM = "public form"


def schema_mismatches(cls: type[Game]) -> list[str]:
    """Every disagreement between the game's ``schemas.json`` and its declarations."""
    own = game_file(cls)
    if own is None:
        return []  # every event is served as derived from its declaration
    events, described = declared.events(cls), own.get("events", {})
    out = [f"{name}: declared, not in schemas.json"
           for name in sorted(set(declared.own_events(cls)) - set(described))]
    out += [f"{name}: in schemas.json, not a declared event"
            for name in sorted(set(described) - set(events))]
    for name in sorted(set(described) & set(events)):
        out += entry_mismatches(name, events[name], described[name])
    return out


def entry_mismatches(name: str, ev: declared.Declared, entry: dict[str, Any]) -> list[str]:
    """One event's schema against its declaration, field by field, type by type."""
    out = []
    if entry.get("type") != "object" or entry.get("additionalProperties") is not False:
        out.append(f"{name}: not a closed object (an undeclared key would pass)")
    props = entry.get("properties", {})
    fields = ev.by_name()
    out += [f"{name}.{key}: declared, not in the schema" for key in fields if key not in props]
    for key in sorted(set(props) - set(fields)):
        if PUBLIC_FORM not in props[key].get("description", ""):
            out.append(f"{name}.{key}: in the schema, not declared (nor said to be "
                       f"a {PUBLIC_FORM}'s key)")
    out += [f"{name}.{key}: required by the schema, not declared"
            for key in entry.get("required", []) if key not in fields]
    for key in sorted(set(props) & set(fields)):
        out += declared.mismatches(fields[key].schema(), props[key], f"{name}.{key}")
    return out


@pytest.mark.parametrize("cls", games())
def test_schemas_json_describes_each_declared_event_field_by_field(cls: type[Game]) -> None:
    assert schema_mismatches(cls) == []


@pytest.mark.parametrize("cls", games())
def test_every_declared_event_is_served_a_schema(cls: type[Game]) -> None:
    """What the file leaves out (the kernel's events) is derived from the declaration."""
    served = schemas_of(cls)["payload_json"]
    assert set(served) == set(declared.events(cls))
    described = (game_file(cls) or {}).get("events", {})
    for kind, schema in served.items():
        Draft202012Validator.check_schema(schema)
        if kind not in described:
            props = schema["properties"]
            assert list(props) == declared.events(cls)[kind].field_names()
            for field in declared.events(cls)[kind].fields:
                assert declared.mismatches(field.schema(), props[field.name], kind) == []


def test_the_check_finds_what_a_schema_gets_wrong() -> None:
    ev = declared.Declared("Rolled", (declared.Field("dice", list[int], True),
                                      declared.Field("seat", int, True)), kernel=False)
    right = {"type": "object", "additionalProperties": False, "required": ["seat"],
             "properties": {"dice": {"type": "array", "items": {"type": "integer"}},
                            "seat": {"type": "integer"},
                            "count": {"type": "integer",
                                      "description": "the public form's count of dice"}}}
    assert entry_mismatches("Rolled", ev, right) == []
    wrong = {"type": "object", "required": ["die"],
             "properties": {"dice": {"type": "array", "items": {"type": "string"}},
                            "count": {"type": "integer"}}}
    assert entry_mismatches("Rolled", ev, wrong) == [
        "Rolled: not a closed object (an undeclared key would pass)",
        "Rolled.seat: declared, not in the schema",
        "Rolled.count: in the schema, not declared (nor said to be a public form's key)",
        "Rolled.die: required by the schema, not declared",
        "Rolled.dice[]: declared ['integer'], the schema admits ['string']",
    ]


# ---------------------------------------------------------------------- describe


def package_modules(cls: type[Game]) -> Iterator[Any]:
    """The modules of the game's package (a one-module game: that module)."""
    package = sys.modules[cls.__module__.rpartition(".")[0] or cls.__module__]
    yield package
    for info in pkgutil.iter_modules(getattr(package, "__path__", [])):
        yield importlib.import_module(f"{package.__name__}.{info.name}")


def described_types(cls: type[Game]) -> set[str]:
    """The event types the game's ``describe`` dispatches on, read from the
    source of its package's modules that define a ``describe``."""
    names = set(declared.events(cls))
    found: set[str] = set()
    for module in package_modules(cls):
        if getattr(module, "__file__", None):
            found |= dispatched(Path(module.__file__).read_text("utf-8"), names)
    return found


def dispatched(source: str, names: set[str]) -> set[str]:
    """In a module that defines a ``describe``, the event types it words: the
    keys of a module-level table at least half of whose keys are event types
    (``names``), and every string an ``event_type`` is compared with (``==``,
    ``in``). A module without a ``describe`` words none."""
    tree = ast.parse(source)
    if not any(isinstance(n, ast.FunctionDef) and n.name == "describe" for n in ast.walk(tree)):
        return set()
    found: set[str] = set()
    for node in tree.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        if isinstance(value, ast.Dict):
            keys = {k.value for k in value.keys
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            if keys and len(keys & names) * 2 >= len(keys):
                found |= keys
    for compare in ast.walk(tree):
        if (isinstance(compare, ast.Compare) and isinstance(compare.left, ast.Name)
                and compare.left.id == "event_type"):
            for right in compare.comparators:
                parts = (right.elts if isinstance(right, ast.Tuple | ast.Set | ast.List)
                         else [right])
                found |= {p.value for p in parts
                          if isinstance(p, ast.Constant) and isinstance(p.value, str)}
    return found


def test_the_describe_scan_reads_tables_and_comparisons() -> None:
    source = """
WORDS = {"draft_opened": "Drafting begins", "siege": "A Siege Token is placed"}
EVENTS = {"Rolled": str, "Moved": str, "Vanished": str}
def describe(event_type, payload):
    if event_type == "Won":
        return "won"
    if event_type in ("Lost", "Drawn"):
        return "over"
    return EVENTS[event_type](payload)
"""
    names = {"Rolled", "Moved", "Won", "Lost"}
    assert dispatched(source, names) == {"Rolled", "Moved", "Vanished", "Won", "Lost", "Drawn"}
    assert dispatched(source.replace("def describe", "def tell"), names) == set()


@pytest.mark.parametrize("cls", games())
def test_describe_has_a_sentence_for_each_declared_event(cls: type[Game]) -> None:
    missing = set(declared.own_events(cls)) - described_types(cls)
    assert not missing, f"{cls.RULES_ID}'s describe has no sentence for {sorted(missing)}"


@pytest.mark.parametrize("cls", games())
def test_describe_names_no_undeclared_event(cls: type[Game]) -> None:
    stray = described_types(cls) - set(declared.events(cls))
    assert not stray, f"{cls.RULES_ID}'s describe names undeclared events {sorted(stray)}"


def generic(kind: str, text: str) -> bool:
    """The kernel's fallback for an event nobody words: its type and its fields."""
    return text == kind or text.startswith(kind + " ")


#: Random games per table size (its smallest and its largest) for the sentences:
#: at least the first, and more until the second many events are recorded
#: (short games, like Enin's, play many to reach their rarer events).
GAMES_PER_SIZE = 2
EVENTS_PER_SIZE = 4000
MAX_GAMES_PER_SIZE = 300


@pytest.mark.heavy(8)
@pytest.mark.parametrize("cls", games())
def test_describe_words_every_event_of_random_games(cls: type[Game]) -> None:
    """The sentence reads the payloads the rules record (both forms), not only
    the names: none falls back to the kernel's bare type-and-fields words."""
    seen: set[str] = set()
    for seats in sorted({cls.MIN_SEATS, cls.MAX_SEATS}):
        names = [f"p{i}" for i in range(seats)]
        count = 0
        for n in range(MAX_GAMES_PER_SIZE):
            if n >= GAMES_PER_SIZE and count >= EVENTS_PER_SIZE:
                break
            for kind, payload, _ in recorded_events(cls, seats, 4242 + 1000 * seats + n):
                text = cls.describe(kind, payload, names)
                assert isinstance(text, str) and text and not generic(kind, text), (
                    kind, payload, text)
                seen.add(kind)
                count += 1
    assert {"Created", "Ended", "EntropyAdded"} <= seen


# ------------------------------------------------------------------------ protos

#: The protobuf scalar types a declared argument type may travel as.
WIRE_TYPES: dict[Any, set[int]] = {
    int: {FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_SINT32,
          FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_UINT64,
          FieldDescriptor.TYPE_SINT64, FieldDescriptor.TYPE_INT64},
    bool: {FieldDescriptor.TYPE_BOOL},
    str: {FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_ENUM},
}
#: What the wire gives for a field left out (proto3 scalars have no presence).
ZERO = {int: 0, bool: False, str: ""}


def game_message(cls: type[Game]) -> Descriptor:
    fields = game_pb2.Command.DESCRIPTOR.oneofs_by_name["game"].fields
    found = {f.name: f for f in fields}
    assert cls.RULES_ID in found, f"Command's oneof has no {cls.RULES_ID} (its proto messages)"
    return found[cls.RULES_ID].message_type


def proto_mismatches(cls: type[Game]) -> list[str]:
    """Every disagreement between the game's proto messages and its ``commands.py``."""
    message = game_message(cls)
    oneof = message.oneofs_by_name.get("command")
    if oneof is None:
        return [f"{message.name} has no oneof named command"]
    out = [f"{message.name}.{f.name}: not in the oneof" for f in message.fields
           if f.containing_oneof is not oneof]
    moves = [f.name for f in oneof.fields]
    if moves != cls.COMMANDS.names():
        out.append(f"{message.name}'s oneof lists {moves}, commands.py {cls.COMMANDS.names()}")
    for move in oneof.fields:
        if move.name in cls.COMMANDS.by_name:
            out += move_mismatches(move, cls.COMMANDS.by_name[move.name],
                                   declared.commands(cls)[move.name])
    return out


def move_mismatches(move: FieldDescriptor, command: type, decl: declared.Declared) -> list[str]:
    where = f"{getattr(move.containing_type, 'name', '?')}.{move.name}"
    if move.message_type is None:
        return [f"{where}: not a message"]
    out = []
    if move.message_type.name != command.__name__:
        out.append(f"{where}: message {move.message_type.name}, command class {command.__name__}")
    wire = [f.name for f in move.message_type.fields]
    if wire != decl.field_names():
        out.append(f"{where}: fields {wire}, commands.py {decl.field_names()}")
    fields = {f.name: f for f in dataclasses.fields(command)}
    for arg in decl.fields:
        proto = move.message_type.fields_by_name.get(arg.name)
        if proto is not None:
            out += argument_mismatches(f"{where}.{arg.name}", arg, proto, fields[arg.name])
    return out


def argument_mismatches(where: str, arg: declared.Field, proto: FieldDescriptor,
                        field: dataclasses.Field[Any]) -> list[str]:
    hint = arg.hint
    repeated = typing.get_origin(hint) is tuple
    inner = typing.get_args(hint)[0] if repeated else hint
    out = []
    if repeated != proto.is_repeated:
        out.append(f"{where}: repeated on the wire is {proto.is_repeated}, declared {hint}")
    if proto.type not in WIRE_TYPES.get(inner, set()):
        out.append(f"{where}: declared {hint}, proto type {proto.type}")
    enum = proto.enum_type
    if proto.type == FieldDescriptor.TYPE_ENUM and (enum is None or not enum_prefix(enum)):
        out.append(f"{where}: its enum has no <PREFIX>_UNSPECIFIED zero value")
    if proto.has_presence:
        out.append(f"{where}: has presence on the wire, which the rules' JSON cannot carry")
    if field.default is not dataclasses.MISSING:
        zero = () if repeated else ZERO.get(inner)
        if field.default != zero:
            out.append(f"{where}: default {field.default!r}, but a field left out "
                       f"arrives as {zero!r}")
    return out


@pytest.mark.parametrize("cls", games())
def test_proto_messages_match_commands_py_field_by_field(cls: type[Game]) -> None:
    assert proto_mismatches(cls) == []


#: Random games played, at most, to see every value of a command's enum offered.
ENUM_GAMES = 60


def enum_arguments(cls: type[Game]) -> dict[str, tuple[Any, set[tuple[str, str]]]]:
    """Each enum the game's commands travel as, by full name: its descriptor and
    the (command, argument) pairs that use it."""
    found: dict[str, tuple[Any, set[tuple[str, str]]]] = {}
    for move in game_message(cls).fields:
        for field in getattr(move.message_type, "fields", ()):
            if field.type == FieldDescriptor.TYPE_ENUM and field.enum_type is not None:
                entry = found.setdefault(field.enum_type.full_name, (field.enum_type, set()))
                entry[1].add((move.name, field.name))
    return found


def offered_values(cls: type[Game], uses: set[tuple[str, str]], wanted: set[str]) -> set[str]:
    """The values random games' legal lists offer for the arguments ``uses``,
    played until every ``wanted`` one is seen (or ``ENUM_GAMES`` games)."""
    seen: set[str] = set()
    for seed in range(ENUM_GAMES):
        rng = random.Random(seed)
        seats = cls.MIN_SEATS if seed % 2 else min(cls.MAX_SEATS, 4)
        game = cls.start([f"p{i}" for i in range(seats)], seed=f"{seed:064x}")
        while not game.ended:
            seat = rng.choice(game.waiting_on())
            actions = game.legal_actions(seat)
            seen |= {getattr(a, arg) for a in actions for name, arg in uses if name == a.NAME}
            game.act(seat, rng.choice(actions))
        if wanted <= seen:
            break
    return seen


@pytest.mark.parametrize("cls", games())
def test_each_enum_names_exactly_the_values_the_rules_offer(cls: type[Game]) -> None:
    """A string argument that travels as an enum: the enum's values (less its
    zero) are the values the legal lists offer, no more (a wire value the rules
    would refuse) and no fewer (a legal move the typed wire could not send)."""
    for name, (enum, uses) in sorted(enum_arguments(cls).items()):
        values = {enum_wire_name(enum, v.name) for v in enum.values if v.number}
        assert offered_values(cls, uses, values) == values, name


def test_the_proto_check_finds_what_a_message_gets_wrong() -> None:
    """Ethnos's PlayBand checked against commands it does not match."""
    @dataclasses.dataclass(frozen=True)
    class PlayBand:
        leader: int
        cards: tuple[str, ...] = ("x",)

    @dataclasses.dataclass(frozen=True)
    class Band:
        cards: int
        leader: bool

    move = game_message(catalog.GAMES["ethnos"]).fields_by_name["play_band"]
    hints = typing.get_type_hints(PlayBand)
    decl = declared.Declared("play_band", tuple(
        declared.Field(f.name, hints[f.name], True) for f in dataclasses.fields(PlayBand)), False)
    assert move_mismatches(move, PlayBand, decl) == [
        "EthnosCommand.play_band: fields ['cards', 'leader'], commands.py ['leader', 'cards']",
        "EthnosCommand.play_band.cards: declared tuple[str, ...], proto type 13",
        "EthnosCommand.play_band.cards: default ('x',), but a field left out arrives as ()",
    ]
    hints = typing.get_type_hints(Band)
    decl = declared.Declared("play_band", tuple(
        declared.Field(f.name, hints[f.name], True) for f in dataclasses.fields(Band)), False)
    assert move_mismatches(move, Band, decl) == [
        "EthnosCommand.play_band: message PlayBand, command class Band",
        "EthnosCommand.play_band.cards: repeated on the wire is True, declared <class 'int'>",
        "EthnosCommand.play_band.leader: declared <class 'bool'>, proto type 13",
    ]
