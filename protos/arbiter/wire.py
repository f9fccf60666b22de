"""Between typed protobuf commands and the rules' plain ``{name, args}`` form.

One generic mapping serves every game: the ``Command`` oneof names the game,
the game's oneof names the move, the move's fields are its arguments, and
enum values travel as lowercase names (``POTION_OF_HEALING`` <->
``"potion_of_healing"``). The service and the client library both use it.
"""

from __future__ import annotations

import json
from typing import Any

from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor

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
            args[field.name] = _enum_to_wire(args[field.name])
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
            args[field.name] = args[field.name].upper()
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


def _enum_to_wire(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value
