"""Between typed protobuf commands and the rules' plain ``{name, args}`` form.

One generic mapping serves every game: the ``Command`` oneof names the game,
the game's oneof names the move, the move's fields are its arguments, and
enum values travel as lowercase names without the enum's prefix
(``ENIN_MARKET_ITEM_POTION_OF_HEALING`` <-> ``"potion_of_healing"``; the
prefixed name is accepted too). The service and the client library both use it.
"""

from __future__ import annotations

import json
from typing import Any

from google.protobuf import json_format
from google.protobuf.descriptor import EnumDescriptor, FieldDescriptor

from arbiter.v1 import game_pb2


class WireError(ValueError):
    """A command message that cannot be read (no game, no move, bad shape)."""


def command_to_json(command: game_pb2.Command) -> tuple[str, dict[str, Any]]:
    """A typed ``Command`` as ``(rules_id, {"name": ..., "args": {...}})``."""
    game_field = command.WhichOneof("game")
    if game_field is None:
        raise WireError("the command names no game")
    game_message = getattr(command, game_field)
    move_field = game_message.WhichOneof("command")
    if move_field is None:
        raise WireError(f"the {game_field} command names no move")
    move = getattr(game_message, move_field)
    args = json_format.MessageToDict(
        move,
        preserving_proto_field_name=True,
        always_print_fields_with_no_presence=True,
        use_integers_for_enums=False,
    )
    for field in move.DESCRIPTOR.fields:
        if field.type == FieldDescriptor.TYPE_ENUM and field.name in args:
            args[field.name] = _enum_to_wire(field.enum_type, args[field.name])
    return game_field, {"name": move_field, "args": args}


def json_to_command(rules: str, action: dict[str, Any]) -> game_pb2.Command:
    """``{"name": ..., "args": {...}}`` of game ``rules`` as a typed ``Command``."""
    if not isinstance(action, dict) or not isinstance(action.get("name"), str):
        raise WireError('a command is {"name": ..., "args": {...}}')
    command = game_pb2.Command()
    if rules not in command.DESCRIPTOR.fields_by_name:
        raise WireError(f"no commands for game {rules!r}")
    game_message = getattr(command, rules)
    name = action["name"]
    if name not in game_message.DESCRIPTOR.fields_by_name:
        raise WireError(f"{rules} has no command {name!r}")
    move_type = game_message.DESCRIPTOR.fields_by_name[name].message_type
    args = dict(action.get("args") or {})
    for field in move_type.fields:
        if field.type == FieldDescriptor.TYPE_ENUM and isinstance(args.get(field.name), str):
            args[field.name] = enum_proto_name(field.enum_type, args[field.name])
    try:
        json_format.ParseDict({rules: {name: args}}, command)
    except json_format.ParseError as exc:
        raise WireError(str(exc)) from exc
    return command


def parse_json_command(text: str) -> dict[str, Any]:
    """Read a command given as JSON text by a person or a script."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise WireError(f"not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise WireError('a command is {"name": ..., "args": {...}}')
    return value


def enum_prefix(enum_type: EnumDescriptor) -> str:
    """The prefix every value of ``enum_type`` carries (buf's ENUM_VALUE_PREFIX,
    e.g. ``ENIN_MARKET_ITEM_``): its zero value's name less ``UNSPECIFIED``."""
    for value in enum_type.values:
        if value.number == 0 and value.name.endswith("_UNSPECIFIED"):
            return value.name[: -len("UNSPECIFIED")]
    return ""


def enum_wire_name(enum_type: EnumDescriptor, name: str) -> str:
    """A value's name in the rules' JSON form: lowercase, without the enum's
    prefix, so the rules never see the wire's naming convention."""
    prefix = enum_prefix(enum_type)
    if prefix and name.startswith(prefix):
        name = name[len(prefix):]
    return name.lower()


def enum_proto_name(enum_type: EnumDescriptor, name: str) -> str:
    """The protobuf value name of a rules' name (``"map_of_enin"``), also
    accepting the full prefixed name a protobuf JSON user would send."""
    upper = name.upper()
    prefix = enum_prefix(enum_type)
    if prefix and not upper.startswith(prefix):
        upper = prefix + upper
    return upper


def _enum_to_wire(enum_type: EnumDescriptor, value: Any) -> Any:
    return enum_wire_name(enum_type, value) if isinstance(value, str) else value
