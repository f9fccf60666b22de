"""The gateway's OpenAPI 3.1 document, made from the service's own descriptors.

Paths, request and response schemas come from ``GameService``'s descriptors
(``/v1/<Method>``) and ``LobbyService``'s (``/v1/lobby/<Method>``),
and descriptions from the comments of the protos themselves (the descriptors'
source info that ``make proto`` and the client's wheel build write), so the
document can never drift from the wire contract it describes.
"""

from __future__ import annotations

import functools
from typing import Any

from arbiter.v1 import game_pb2, lobby_pb2
from google.protobuf.descriptor import FieldDescriptor

from service.reflection import commented_descriptors
from service.web.backend import METHODS, Method
from service.web.gateway import HTTP_STATUS

#: Where a comment is, in ``SourceCodeInfo.Location.path``: the field numbers of
#: ``FileDescriptorProto.message_type`` and ``.service``, ``DescriptorProto.field`` and
#: ``.nested_type``, ``ServiceDescriptorProto.method`` (google/protobuf/descriptor.proto).
FILE_MESSAGE, FILE_SERVICE, MESSAGE_FIELD, MESSAGE_NESTED, SERVICE_METHOD = 4, 6, 2, 3, 2
SERVICE = game_pb2.DESCRIPTOR.services_by_name["GameService"]
LOBBY = lobby_pb2.DESCRIPTOR.services_by_name["LobbyService"]
#: The lobby's methods, as the gateway serves them at ``/v1/lobby/<Method>``.
LOBBY_METHODS: dict[str, Method] = {
    m.name: Method(m.name, getattr(lobby_pb2, m.input_type.name),
                   getattr(lobby_pb2, m.output_type.name), bool(m.server_streaming))
    for m in LOBBY.methods
}
INTEGER_64 = {FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64,
              FieldDescriptor.TYPE_SINT64, FieldDescriptor.TYPE_FIXED64,
              FieldDescriptor.TYPE_SFIXED64}
INTEGER_32 = {FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_UINT32,
              FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_FIXED32,
              FieldDescriptor.TYPE_SFIXED32}


@functools.cache
def proto_comments() -> dict[str, str]:
    """The leading comment of every message, field, service and rpc of the protos, by full
    name (``arbiter.v1.ActRequest``, ``arbiter.v1.ActRequest.expected_version``,
    ``arbiter.v1.GameService.Act``), from the descriptors' source info: the comments as
    protoc read them, wherever the package is installed, with no .proto file to parse."""
    comments: dict[str, str] = {}

    def note(name: str, path: tuple[int, ...]) -> None:
        if text := " ".join(line.strip() for line in leading.get(path, "").splitlines()
                            if line.strip()):
            comments[name] = text

    def messages(scope: str, found: Any, path: tuple[int, ...]) -> None:
        for n, message in enumerate(found):
            name, where = f"{scope}.{message.name}", (*path, n)
            note(name, where)
            for m, field in enumerate(message.field):
                note(f"{name}.{field.name}", (*where, MESSAGE_FIELD, m))
            messages(name, message.nested_type, (*where, MESSAGE_NESTED))

    for file in commented_descriptors().file:
        leading = {tuple(at.path): at.leading_comments for at in file.source_code_info.location
                   if at.leading_comments}
        messages(file.package, file.message_type, (FILE_MESSAGE,))
        for n, service in enumerate(file.service):
            name = f"{file.package}.{service.name}"
            note(name, (FILE_SERVICE, n))
            for m, method in enumerate(service.method):
                note(f"{name}.{method.name}", (FILE_SERVICE, n, SERVICE_METHOD, m))
    return comments


def field_schema(field: Any) -> dict[str, Any]:
    """One field's JSON Schema under proto3's JSON mapping."""
    kind = field.type
    schema: dict[str, Any]
    if kind == FieldDescriptor.TYPE_MESSAGE:
        name = field.message_type.full_name
        if name == "google.protobuf.Timestamp":
            schema = {"type": "string", "format": "date-time"}
        else:
            schema = {"$ref": f"#/components/schemas/{field.message_type.name}"}
    elif kind == FieldDescriptor.TYPE_ENUM:
        schema = {"type": "string", "enum": [v.name for v in field.enum_type.values]}
    elif kind == FieldDescriptor.TYPE_BOOL:
        schema = {"type": "boolean"}
    elif kind == FieldDescriptor.TYPE_STRING:
        schema = {"type": "string"}
    elif kind == FieldDescriptor.TYPE_BYTES:
        schema = {"type": "string", "contentEncoding": "base64"}
    elif kind in INTEGER_64:
        # proto3 JSON: written as a decimal string; read as a string or a number.
        schema = {"type": ["integer", "string"], "format": "int64",
                  "pattern": "^-?[0-9]+$"}
    elif kind in INTEGER_32:
        schema = {"type": "integer", "format": "int32"}
    else:
        schema = {"type": "number"}
    if field.is_repeated:
        schema = {"type": "array", "items": schema}
    return schema


def message_schema(message: Any) -> dict[str, Any]:
    comments = proto_comments()
    properties: dict[str, Any] = {}
    for field in message.fields:
        schema = field_schema(field)
        text = comments.get(field.full_name)
        if text:
            schema = {**schema, "description": text}
        properties[field.name] = schema
    out: dict[str, Any] = {"type": "object", "properties": properties,
                           "additionalProperties": False}
    if text := comments.get(message.full_name):
        out["description"] = text
    return out


def schemas() -> dict[str, Any]:
    """Every message the methods reach, by name."""
    found: dict[str, Any] = {}

    def visit(message: Any) -> None:
        if message.name in found or message.full_name.startswith("google.protobuf."):
            return
        found[message.name] = message
        for field in message.fields:
            if field.type == FieldDescriptor.TYPE_MESSAGE:
                visit(field.message_type)

    for method in (*METHODS.values(), *LOBBY_METHODS.values()):
        visit(method.request.DESCRIPTOR)
        visit(method.response.DESCRIPTOR)
    out = {name: message_schema(d) for name, d in sorted(found.items())}
    # /v1/Act also takes the command in the rules' own JSON form (service.web.gateway).
    act = out["ActRequest"]["properties"]
    act["command_json"] = {
        "type": "string", "description": "The command in the rules' own JSON form, "
        '{"name": ..., "args": {...}}, as LegalAction.json and the CLI write it; '
        "instead of command (which may also be given in that form)."}
    act["command"] = {"anyOf": [act["command"], {
        "type": "object", "required": ["name"],
        "properties": {"name": {"type": "string"}, "args": {"type": "object"}}}]}
    out["Error"] = {
        "type": "object", "required": ["error"],
        "description": "A refusal: the gRPC code's name, the stable reason code (as the "
                       "arbiter-reason trailer), a sentence, and the game's version.",
        "properties": {"error": {"type": "object", "properties": {
            "code": {"type": "string", "enum": sorted(HTTP_STATUS)},
            "reason": {"type": "string"},
            "message": {"type": "string"},
            "version": {"type": "integer"},
        }, "required": ["code", "reason", "message", "version"]}},
    }
    return out


def operation(name: str, methods: dict[str, Method] = METHODS,
              service: Any = SERVICE) -> dict[str, Any]:
    method = methods[name]
    response = {"$ref": f"#/components/schemas/{method.response.DESCRIPTOR.name}"}
    if method.streaming:
        content = {
            "application/x-ndjson": {"schema": response},
            "text/event-stream": {"schema": {"type": "string"}},
        }
        summary = ("A stream: one JSON message per line, or Server-Sent Events with "
                   "Accept: text/event-stream. A refusal mid-stream is the last item.")
    else:
        content = {"application/json": {"schema": response}}
        summary = ""
    error = {"content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Error"}}}}
    return {
        "operationId": name,
        "summary": name,
        "description": " ".join(t for t in (
            proto_comments().get(service.methods_by_name[name].full_name, ""), summary) if t),
        "security": [{}, {"bearer": []}],
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/{method.request.DESCRIPTOR.name}"}}}},
        "responses": {
            "200": {"description": "The response message.", "content": content},
            "400": {"description": "Invalid argument or failed precondition.", **error},
            "401": {"description": "No or wrong credential.", **error},
            "403": {"description": "Not this credential's to do.", **error},
            "404": {"description": "No such game.", **error},
            "409": {"description": "A stale version or a contended write.", **error},
            "413": {"description": "The body is larger than the server accepts.", **error},
            "429": {"description": "Over this caller's share.", **error},
            "default": {"description": "Another refusal.", **error},
        },
    }


@functools.cache
def document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Arbiter JSON gateway",
            "version": "v1",
            "description": "Every GameService call (/v1/<Method>) and LobbyService call "
                           "(/v1/lobby/<Method>) as JSON over HTTP: the same credentials, "
                           "reason codes and limits as gRPC (docs/web.md, 'The JSON gateway').",
        },
        "paths": {
            **{f"/v1/{name}": {"post": operation(name)} for name in METHODS},
            **{f"/v1/lobby/{name}": {"post": operation(name, LOBBY_METHODS, LOBBY)}
               for name in LOBBY_METHODS},
        },
        "components": {
            "schemas": schemas(),
            "securitySchemes": {"bearer": {
                "type": "http", "scheme": "bearer",
                "description": "A seat, spectator, creator or admin token; on the "
                               "lobby's calls, a table's seat or host secret."}},
        },
    }
