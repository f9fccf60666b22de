"""Server reflection in both versions tools speak: ``grpc.reflection.v1`` and ``v1alpha``.

``grpcio-reflection`` ships only ``v1alpha``; tools that speak only ``v1``
(newer grpcurl, Postman, grpcui, ...) would get ``UNIMPLEMENTED``. The two
protocols are the same messages under another package name, so the same
servicer answers both: ``v1`` requests are read with the ``v1alpha`` message
types (identical on the wire), and the ``v1`` file is added to the descriptor
pool so that reflection can describe itself in either version.

The generated modules' descriptors carry no comments, so a tool reading the
service by reflection (grpcurl ``describe``, grpcui, Postman) saw none of
``game.proto``'s documentation. ``make proto`` also writes the descriptors with
their source info (``arbiter/v1/descriptors.binpb``, package data of the client
distribution, whose wheel's build writes it too); every file this server
describes is answered with its comments from there.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc

V1ALPHA_SERVICE_NAME = reflection.SERVICE_NAME
V1_SERVICE_NAME = "grpc.reflection.v1.ServerReflection"
_V1_FILE = "grpc/reflection/v1/reflection.proto"


def _add_v1_descriptor() -> None:
    """Put ``grpc/reflection/v1/reflection.proto`` in the default descriptor pool."""
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName(_V1_FILE)
        return
    except KeyError:
        pass
    proto = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(proto)
    old, new = proto.package, "grpc.reflection.v1"
    proto.name, proto.package = _V1_FILE, new

    def rename(type_name: str) -> str:
        prefix = f".{old}."
        return f".{new}.{type_name[len(prefix):]}" if type_name.startswith(prefix) else type_name

    for message in proto.message_type:
        for field in message.field:
            if field.HasField("type_name"):
                field.type_name = rename(field.type_name)
    for service in proto.service:
        for method in service.method:
            method.input_type = rename(method.input_type)
            method.output_type = rename(method.output_type)
    pool.AddSerializedFile(proto.SerializeToString())


@functools.cache
def commented_descriptors() -> descriptor_pb2.FileDescriptorSet:
    """The project's proto files with their comments (source info), as ``make proto`` or
    the client's wheel build wrote them into ``arbiter.v1``'s package data; an empty set
    when they were not written (then no comments are served). Read once per process:
    reflection and the gateway's OpenAPI document both take their comments from it."""
    try:
        data = (resources.files("arbiter.v1") / "descriptors.binpb").read_bytes()
    except (FileNotFoundError, ModuleNotFoundError):
        return descriptor_pb2.FileDescriptorSet()
    return descriptor_pb2.FileDescriptorSet.FromString(data)


def source_info() -> dict[str, descriptor_pb2.SourceCodeInfo]:
    """Each of the project's proto files' comments (its source info), by file name."""
    return {f.name: f.source_code_info for f in commented_descriptors().file
            if f.HasField("source_code_info")}


class CommentedReflection(reflection.ReflectionServicer):  # type: ignore[misc]
    """The library's servicer, its file descriptors answered with their comments."""

    def __init__(self, service_names: tuple[str, ...],
                 comments: dict[str, descriptor_pb2.SourceCodeInfo]) -> None:
        super().__init__(service_names)
        self._comments = comments

    def _commented(self, response: Any) -> Any:
        if not response.HasField("file_descriptor_response"):
            return response
        files = response.file_descriptor_response.file_descriptor_proto
        for n, serialized in enumerate(files):
            proto = descriptor_pb2.FileDescriptorProto.FromString(serialized)
            if proto.name in self._comments and not proto.HasField("source_code_info"):
                proto.source_code_info.CopyFrom(self._comments[proto.name])
                files[n] = proto.SerializeToString()
        return response

    def _file_by_filename(self, request: Any, filename: str) -> Any:
        return self._commented(super()._file_by_filename(request, filename))

    def _file_containing_symbol(self, request: Any, fully_qualified_name: str) -> Any:
        return self._commented(super()._file_containing_symbol(request, fully_qualified_name))

    def _file_containing_extension(self, request: Any, containing_type: str,
                                   extension_number: int) -> Any:
        return self._commented(super()._file_containing_extension(
            request, containing_type, extension_number))


def enable_server_reflection(service_names: tuple[str, ...], server: Any) -> None:
    """Serve reflection v1 and v1alpha for ``service_names`` (and for themselves)."""
    _add_v1_descriptor()
    names = (*service_names, V1_SERVICE_NAME, V1ALPHA_SERVICE_NAME)
    servicer = CommentedReflection(names, source_info())
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    v1 = grpc.method_handlers_generic_handler(
        V1_SERVICE_NAME,
        {
            "ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
                servicer.ServerReflectionInfo,
                request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
                response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
            )
        },
    )
    server.add_generic_rpc_handlers((v1,))
