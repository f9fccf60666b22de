"""Conveniences of the ``arbiter`` command line (issue 12): ``--version``, the hint
when no server answers, ``act`` with a command name or a ``legal`` number,
``rules GAME`` with each command's arguments, and the event lines of ``tail``
and ``history`` (the game's own words, or ``--json``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

import grpc
from arbiter.v1 import game_pb2
from arbiter.wire import WireError, enum_wire_name, parse_json_command
from google.protobuf.descriptor import FieldDescriptor

CommandLike = game_pb2.Command | dict[str, Any]
NAME = re.compile(r"[a-z][a-z0-9_]*")


def version_text() -> str:
    """``arbiter --version``: the installed package's version. ``importlib.metadata``
    is imported here, not at start-up (it costs every command ~10 ms, and only
    ``--version`` reads it)."""
    from importlib import metadata

    try:
        version = metadata.version("arbiter")
    except metadata.PackageNotFoundError:
        version = "unknown (not installed)"
    return f"arbiter {version}"


def unreachable(code: grpc.StatusCode | None, reason: str) -> bool:
    """A call that found no server (not a server answering UNAVAILABLE/SHUTTING_DOWN)."""
    return code == grpc.StatusCode.UNAVAILABLE and reason in ("", "UNAVAILABLE")


def unreachable_sentence(address: str) -> str:
    return (f"no server at {address} — is `make run` running? "
            "(else pass --address HOST:PORT or set $ARBITER_ADDRESS)")


# --- act: a name, a number, or JSON ------------------------------------------------


def _name_of(action: game_pb2.LegalAction) -> str:
    try:
        return str(json.loads(action.json).get("name", ""))
    except (ValueError, AttributeError):
        return ""


def resolve_command(text: str, legal: Callable[[], Any]) -> CommandLike:
    """The command ``arbiter act`` means by ``text``.

    JSON (``{"name": ..., "args": ...}``) as it is; a number: that entry of
    ``arbiter legal`` (counted from 1); a bare command name: the one legal
    command of that name (or, if none is listed, the name with no arguments,
    for the server to judge). ``legal`` fetches the seat's legal actions.
    """
    text = text.strip()
    if text.startswith("{"):
        return parse_json_command(text)
    if text.isdigit():
        actions = list(legal().actions)
        index = int(text)
        if not 1 <= index <= len(actions):
            span = f"1 to {len(actions)}" if actions else "none now"
            raise WireError(f"no legal entry {index} (`arbiter legal` lists {span})")
        return actions[index - 1].command
    if NAME.fullmatch(text):
        actions = list(legal().actions)
        numbered = [(i, a) for i, a in enumerate(actions, 1) if _name_of(a) == text]
        if len(numbered) == 1:
            return numbered[0][1].command
        if len(numbered) > 1:
            shown = ", ".join(str(i) for i, _ in numbered[:12])
            more = ", ..." if len(numbered) > 12 else ""
            raise WireError(
                f"{text} has {len(numbered)} legal forms now: give its number in "
                f"`arbiter legal` ({shown}{more}) or the JSON"
            )
        return {"name": text, "args": {}}
    raise WireError(
        "a command is a command name (roll_start), the number of an `arbiter legal` "
        'entry (3), or JSON (\'{"name": "travel", "args": {"to": 2}}\')'
    )


# --- rules GAME: each command with its arguments ------------------------------------


_SCALARS = {
    FieldDescriptor.TYPE_BOOL: "true|false",
    FieldDescriptor.TYPE_STRING: "text",
    FieldDescriptor.TYPE_BYTES: "bytes",
    FieldDescriptor.TYPE_DOUBLE: "number",
    FieldDescriptor.TYPE_FLOAT: "number",
}
_SIGNED = {FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_SINT32,
           FieldDescriptor.TYPE_SINT64, FieldDescriptor.TYPE_SFIXED32,
           FieldDescriptor.TYPE_SFIXED64}


def _is_repeated(field: Any) -> bool:
    repeated = getattr(field, "is_repeated", None)
    if repeated is not None:
        return bool(repeated)
    return bool(field.label == FieldDescriptor.LABEL_REPEATED)


def _type_text(field: Any, depth: int = 0) -> str:
    if field.type == FieldDescriptor.TYPE_ENUM:
        names = [enum_wire_name(field.enum_type, v.name) for v in field.enum_type.values
                 if not v.name.endswith("UNSPECIFIED")]
        kind = "|".join(names) if len(names) <= 12 else f"{field.enum_type.name} name"
    elif field.type == FieldDescriptor.TYPE_MESSAGE:
        kind = (_message_text(field.message_type, depth + 1) if depth < 2
                else field.message_type.name)
    elif field.type in _SCALARS:
        kind = _SCALARS[field.type]
    elif field.type in _SIGNED:
        kind = "integer"
    else:
        kind = "whole number"
    return f"[{kind}, ...]" if _is_repeated(field) else kind


def _message_text(message: Any, depth: int = 0) -> str:
    fields = ", ".join(f"{f.name}: {_type_text(f, depth)}" for f in message.fields)
    return "{" + fields + "}"


def command_arguments(rules: str, name: str) -> str | None:
    """``name``'s arguments in words, from the wire contract; None if this client
    does not know the command (a newer server)."""
    games: Any = game_pb2.Command.DESCRIPTOR.fields_by_name
    if rules not in games:
        return None
    moves: Any = games[rules].message_type.fields_by_name
    if name not in moves or moves[name].message_type is None:
        return None
    fields: Any = moves[name].message_type.fields
    if not fields:
        return "(no arguments)"
    return ", ".join(f"{f.name}: {_type_text(f)}" for f in fields)


def render_rules_detail(info: game_pb2.RulesInfo, summary_line: str) -> str:
    """``arbiter rules GAME``: the game's line, then each command with its arguments
    and the JSON form ``arbiter act`` takes."""
    lines = [summary_line, "", "commands (arbiter act GAME_ID NAME | NUMBER | JSON):"]
    width = max((len(c) for c in info.commands), default=0)
    for name in info.commands:
        arguments = command_arguments(info.id, name)
        lines.append(f"  {name:<{width}}  {arguments or '(arguments: see `arbiter legal`)'}")
    if info.reasons:
        lines += ["", f"its reason codes: {', '.join(info.reasons)}"]
    return "\n".join(lines)


def find_rules(rules: Sequence[game_pb2.RulesInfo], rules_id: str) -> game_pb2.RulesInfo:
    for info in rules:
        if info.id == rules_id:
            return info
    names = ", ".join(i.id for i in rules) or "none"
    raise WireError(f"the server plays no {rules_id!r} (it plays: {names})")


# --- tail and history: the game's words, or JSON lines -------------------------------


def event_line(event: game_pb2.Event) -> str:
    """One feed/history line for a person: position, short game id, version, type, and
    the event told in its game's words (``Event.text``; the payload if it has none)."""
    from arbiter.render import event_text, short_id

    position = str(event.position) if event.position else "-"
    redacted = " (redacted)" if event.redacted else ""
    text = " / ".join(part.strip() for part in event_text(event).splitlines() if part.strip())
    return f"{position:>6}  {short_id(event.game_id)}  v{event.version:<4} " \
           f"{event.type:<22} {text}{redacted}"


def event_json(event: game_pb2.Event) -> str:
    """One event as one line of JSON for machines: every field, typed, the payload
    and meta decoded (``message_to_dict``), the game's ``text`` included."""
    from arbiter.client import message_to_dict

    return json.dumps(message_to_dict(event), sort_keys=True, separators=(",", ":"))
