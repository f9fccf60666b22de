"""Build hook of ``arbiter-client`` (protos/pyproject.toml): generate ``arbiter.v1``.

The generated protobuf/gRPC modules are not in git (``make proto`` writes them
for the repository's own venv), so building the client's wheel generates them
itself, with the ``grpcio-tools`` pinned as a build requirement: a fresh
checkout builds, and the wheel's code is always generated from the .proto
files in the same tree, by the same generator version the server uses.
They are written into the build directory, never into the source tree.
An editable install of this distribution is not supported (nothing would be
generated): the repository's ``make install`` is the editable setup.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildPyWithProtos(build_py):
    """``build_py``, then ``protoc`` on ``arbiter/v1/*.proto`` into ``build_lib``."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            generate(Path(self.build_lib))


def generate(out: Path) -> None:
    """``--python_out``, ``--pyi_out`` and ``--grpc_python_out`` of every proto into ``out``
    (the same flags as the Makefile's ``proto`` target, so the same files)."""
    from grpc_tools import protoc  # a build requirement, not a runtime one

    well_known = resources.files("grpc_tools") / "_proto"  # google/protobuf/*.proto
    protos = sorted(str(path) for path in (HERE / "arbiter" / "v1").glob("*.proto"))
    if not protos:
        raise SystemExit(f"no .proto files under {HERE / 'arbiter' / 'v1'}")
    out.mkdir(parents=True, exist_ok=True)
    status = protoc.main([
        "grpc_tools.protoc", f"-I{HERE}", f"-I{well_known}",
        f"--python_out={out}", f"--pyi_out={out}", f"--grpc_python_out={out}", *protos,
    ])
    if status != 0:
        raise SystemExit(f"protoc failed ({status}) on {protos}")


setup(cmdclass={"build_py": BuildPyWithProtos})
