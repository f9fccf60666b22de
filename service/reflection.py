"""Server reflection in both versions tools speak: ``grpc.reflection.v1`` and ``v1alpha``.

``grpcio-reflection`` ships only ``v1alpha``; tools that speak only ``v1``
(newer grpcurl, Postman, grpcui, ...) would get ``UNIMPLEMENTED``. The two
protocols are the same messages under another package name, so the same
servicer answers both: ``v1`` requests are read with the ``v1alpha`` message
types (identical on the wire), and the ``v1`` file is added to the descriptor
pool so that reflection can describe itself in either version.
"""

from __future__ import annotations

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


def enable_server_reflection(service_names: tuple[str, ...], server: Any) -> None:
    """Serve reflection v1 and v1alpha for ``service_names`` (and for themselves)."""
    _add_v1_descriptor()
    names = (*service_names, V1_SERVICE_NAME, V1ALPHA_SERVICE_NAME)
    servicer = reflection.ReflectionServicer(names)
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
