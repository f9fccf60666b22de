"""Build hook of ``arbiter-protos`` (protos/python/pyproject.toml): generate ``arbiter.v1``.

The generated protobuf/gRPC modules are not in git (``make proto`` writes them
for the repository's own venv), so building this wheel generates them itself,
with the ``grpcio-tools`` pinned as a build requirement: a fresh checkout
builds, and the wheel's code is always generated from the .proto files in the
same tree, by the same generator version the server uses.

The .proto files stay where the wire contract lives, ``protos/arbiter/v1/``
(buf's module is ``protos/``, and the other languages' generators read them
there), found relative to this file: so the wheel is built from a checkout
(``pip install ./protos/python``, ``pip wheel ./protos/python``), not from an
sdist, which could not carry a folder outside its own.

Everything generated is written into the build directory, never into the
source tree. An editable install (``pip install -e protos/python``, as
``make install`` does) generates nothing: it imports the package in place,
where ``make proto`` has written the same files.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: The repository's ``protos/`` folder, the root that the .proto files import from.
PROTOS = Path(__file__).resolve().parents[1]


class BuildPyWithProtos(build_py):
    """``build_py``, then ``protoc`` on ``protos/arbiter/v1/*.proto`` into ``build_lib``."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            generate(Path(self.build_lib))


def generate(out: Path) -> None:
    """``--python_out``, ``--pyi_out`` and ``--grpc_python_out`` of every proto into ``out``,
    and the descriptors with their comments (``arbiter/v1/descriptors.binpb``, which the
    server's reflection and its gateway's OpenAPI document read): the same flags as the
    Makefile's ``proto`` target, so the same files."""
    from grpc_tools import protoc  # a build requirement, not a runtime one

    well_known = resources.files("grpc_tools") / "_proto"  # google/protobuf/*.proto
    protos = sorted(str(path) for path in (PROTOS / "arbiter" / "v1").glob("*.proto"))
    if not protos:
        raise SystemExit(f"no .proto files under {PROTOS / 'arbiter' / 'v1'}: arbiter-protos "
                         "is built from a checkout of the repository (pip install ./protos/python)")
    package = out / "arbiter" / "v1"
    package.mkdir(parents=True, exist_ok=True)
    status = protoc.main([
        "grpc_tools.protoc", f"-I{PROTOS}", f"-I{well_known}",
        f"--python_out={out}", f"--pyi_out={out}", f"--grpc_python_out={out}",
        "--include_source_info", f"--descriptor_set_out={package / 'descriptors.binpb'}",
        *protos,
    ])
    if status != 0:
        raise SystemExit(f"protoc failed ({status}) on {protos}")


setup(cmdclass={"build_py": BuildPyWithProtos})
