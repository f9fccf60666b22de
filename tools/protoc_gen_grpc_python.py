"""A protoc plugin for ``buf generate``: the gRPC Python stubs from grpc_tools.

buf runs protoc's own generators (python, pyi) through a protoc, but the gRPC
stubs come from a plugin that grpc_tools builds into its protoc and does not
ship apart. This plugin reads buf's ``CodeGeneratorRequest``, runs
``grpc_tools.protoc --grpc_python_out`` on the same descriptors, and answers
with the files it wrote, so ``buf generate`` makes what ``make proto`` makes.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from google.protobuf import descriptor_pb2
from google.protobuf.compiler import plugin_pb2
from grpc_tools import protoc


def main() -> int:
    request = plugin_pb2.CodeGeneratorRequest.FromString(sys.stdin.buffer.read())
    response = plugin_pb2.CodeGeneratorResponse(
        supported_features=plugin_pb2.CodeGeneratorResponse.FEATURE_PROTO3_OPTIONAL
    )
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        descriptors = root / "descriptors.binpb"
        descriptors.write_bytes(
            descriptor_pb2.FileDescriptorSet(file=request.proto_file).SerializeToString()
        )
        out = root / "out"
        out.mkdir()
        code = protoc.main([
            "grpc_tools.protoc", f"--descriptor_set_in={descriptors}",
            f"--grpc_python_out={out}", *request.file_to_generate,
        ])
        if code != 0:
            response.error = f"grpc_tools.protoc exited with {code}"
        for path in sorted(out.rglob("*.py")):
            response.file.add(name=str(path.relative_to(out)), content=path.read_text())
    sys.stdout.buffer.write(response.SerializeToString())
    return 0


if __name__ == "__main__":
    sys.exit(main())
