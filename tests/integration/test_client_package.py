"""The client library installs and runs alone, as ``arbiter-client`` (``clients/sdk``) with
the wire contract's generated code, ``arbiter-protos`` (``protos/python``), that the server
depends on too.

An integrator gets the ``arbiter`` namespace package only (``arbiter.v1`` from
arbiter-protos; ``arbiter.wire``, ``arbiter.client``... from arbiter-client), with gRPC
and protobuf as their only dependencies: no top-level ``service``, ``clients`` or
``aggregates`` module and none of the server's dependencies. The static and
in-process checks say that the library's code imports nothing else; the heavy
test builds both wheels as a fresh checkout has them (no generated code: the
build generates it from ``protos/``), installs them into a new venv and plays a
game of Enin there against a real server.
"""

from __future__ import annotations

import ast
import importlib.metadata
import os
import shutil
import subprocess
import sys
import textwrap
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

from tests.integration.conftest import ROOT, ServerProcess

pytestmark = pytest.mark.integration

SDK = ROOT / "clients" / "sdk"
PACKAGE = SDK / "arbiter"
CLIENT_PROJECT = SDK / "pyproject.toml"
#: The generated code's distribution, and its package ``arbiter.v1``.
PROTOS_PROJECT = ROOT / "protos" / "python"
GENERATED = PROTOS_PROJECT / "arbiter" / "v1"
#: The top-level modules the client library may import besides the standard library.
ALLOWED = {"arbiter", "grpc", "google"}
#: What an integrator's environment must not get from the client.
SERVER_ONLY = ("service", "clients", "aggregates", "eventsourcing", "redis", "psycopg",
               "prometheus_client")
#: Not even installed there: the above, and the build's own code generator (which
#: ``grpc`` imports when it finds it, so it is not in ``SERVER_ONLY``).
NOT_INSTALLED = (*SERVER_ONLY, "grpc_tools")


def imported_top_levels(path: Path) -> set[str]:
    """Every top-level module ``path`` imports, at any depth (lazy imports too)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_the_client_code_imports_only_the_stdlib_grpc_and_protobuf() -> None:
    sources = sorted(PACKAGE.rglob("*.py"))
    assert PACKAGE / "client.py" in sources and PACKAGE / "wire.py" in sources
    outside = {
        str(path.relative_to(ROOT)): sorted(
            name for name in imported_top_levels(path)
            if name not in ALLOWED and name not in sys.stdlib_module_names and name != "__future__"
        )
        for path in sources
    }
    assert not {path: names for path, names in outside.items() if names}


def test_importing_the_client_loads_no_server_module(tmp_path: Path) -> None:
    """The dynamic import graph, in the repository's venv (where all of it is installable),
    from a folder outside the repository: ``make install``'s editable installs find the
    namespace's two halves, the client's modules and ``make proto``'s generated code."""
    probe = textwrap.dedent(f"""
        import sys
        import arbiter.client, arbiter.wire, arbiter.v1.game_pb2_grpc
        loaded = sorted({{name.split(".")[0] for name in sys.modules}} & set({SERVER_ONLY!r}))
        assert not loaded, loaded
        print(arbiter.v1.game_pb2_grpc.__file__)
    """)
    result = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert Path(result.stdout.strip()).parent == GENERATED


def test_the_generated_code_is_a_distribution_the_server_and_the_client_share() -> None:
    """``arbiter.v1`` ships in ``arbiter-protos`` alone; the server and the client depend on
    it (the server never imports the generated code from the client's package), and the
    server ships no ``arbiter`` module of its own: one copy of each module to choose."""
    server = tomllib.loads((ROOT / "pyproject.toml").read_text())
    client = tomllib.loads(CLIENT_PROJECT.read_text())
    protos = tomllib.loads((PROTOS_PROJECT / "pyproject.toml").read_text())
    shipped = server["tool"]["setuptools"]["packages"]
    assert not [name for name in shipped if name.split(".")[0] == "arbiter"], shipped
    assert "package-dir" not in server["tool"]["setuptools"]
    for project in (client, protos):
        pin = f"{project['project']['name']}=={project['project']['version']}"
        assert pin in server["project"]["dependencies"], pin
    pin = f"{protos['project']['name']}=={protos['project']['version']}"
    assert pin in client["project"]["dependencies"]
    assert protos["tool"]["setuptools"]["packages"] == ["arbiter.v1"]
    assert client["tool"]["setuptools"]["packages"] == ["arbiter"]
    assert sorted(set(importlib.metadata.packages_distributions()["arbiter"])) == [
        "arbiter-client", "arbiter-protos"]
    # A namespace package: neither half has an __init__.py at its top.
    assert not (PACKAGE / "__init__.py").exists()
    assert not (GENERATED.parent / "__init__.py").exists()
    # The package's code has one home each; no generated code left in the client's.
    assert not (PACKAGE / "v1").exists() or not list((PACKAGE / "v1").glob("*.py"))
    assert not [path for path in (ROOT / "protos").rglob("*.py")
                if "_pb2" not in path.name and path.parent != GENERATED
                and path != PROTOS_PROJECT / "setup.py" and "build" not in path.parts]
    assert not (ROOT / "clients" / "client.py").exists()


def test_the_distributions_declare_grpc_and_protobuf_only() -> None:
    client = tomllib.loads(CLIENT_PROJECT.read_text())
    protos = tomllib.loads((PROTOS_PROJECT / "pyproject.toml").read_text())
    server = tomllib.loads((ROOT / "pyproject.toml").read_text())

    def names(project: dict) -> set[str]:
        return {line.split("=")[0].split(">")[0].split("<")[0].strip()
                for line in project["project"]["dependencies"]}

    assert names(client) == {"arbiter-protos", "grpcio", "grpcio-status", "protobuf"}
    assert names(protos) == {"grpcio", "protobuf"}
    assert client["project"]["version"] == server["project"]["version"]
    assert protos["project"]["version"] == server["project"]["version"]
    # The same generator as the server's own `make proto`.
    tools = [r for r in server["project"]["dependencies"] if r.startswith("grpcio-tools")]
    assert tools and tools[0] in protos["build-system"]["requires"]



def test_the_bot_page_says_how_to_install_the_client_alone() -> None:
    section = (ROOT / "docs" / "bots.md").read_text().split("\n## Write a bot\n", 1)[1]
    section = section.split("\n## ", 1)[0]
    assert "pip install ./protos/python ./clients/sdk" in section and CLIENT_PROJECT.exists()
    # The example runs as written where only the client is installed.
    assert "from arbiter.client import ArbiterClient" in section
    assert "from clients" not in section

BOT = '''
"""A random bot on the client library alone: plays one seat of Enin to the end."""
import asyncio
import importlib.util
import random
import sys
from importlib import resources

from arbiter.client import ArbiterClient, ArbiterError, AsyncArbiterClient  # noqa: F401
from google.protobuf import descriptor_pb2

present = [name for name in NOT_INSTALLED if importlib.util.find_spec(name) is not None]
assert not present, f"importable in the client's venv: {present}"
# The descriptors with their comments, which the server's reflection and gateway read.
described = descriptor_pb2.FileDescriptorSet.FromString(
    (resources.files("arbiter.v1") / "descriptors.binpb").read_bytes())
print("described", *sorted(f.name for f in described.file if f.source_code_info.location))

rng = random.Random(5)
with ArbiterClient(sys.argv[1]) as client:
    game = client.create_game("enin", ["Ada"])
    first = client.legal(game.game_id, 0)
    try:  # a stale version: refused by the server, read from its rich status
        client.act(game.game_id, 0, first.actions[0].command, expected_version=first.version + 7)
    except ArbiterError as error:
        assert error.version == first.version, (error.version, first.version)
        print("refused", error.reason, error.version)
    else:
        raise SystemExit("a wrong move was accepted")
    moves = 0
    while not (state := client.state(game.game_id)).over and moves < 3000:
        legal = client.legal(game.game_id, 0)
        client.act(game.game_id, 0, rng.choice(legal.actions).command,
                   expected_version=legal.version)
        moves += 1
    audit = client.audit(game.game_id)
    print("over" if state.over else "unfinished", moves, "version", state.version,
          "audit", audit.chain_ok and audit.dice_ok and audit.replay_ok)


async def spectate(address: str, game_id: str, token: str) -> int:
    async with AsyncArbiterClient(address) as aclient:
        return (await aclient.state(game_id, spectator=True, token=token)).version


print("async version", asyncio.run(spectate(sys.argv[1], game.game_id, game.spectator_token)))
loaded = sorted({name.split(".")[0] for name in sys.modules} & set(SERVER_ONLY))
print("loaded", loaded)
'''


def clean_checkout_in(target: Path) -> tuple[Path, Path]:
    """``clients/sdk`` and ``protos/`` as git has them, in their places in a checkout: without
    the code ``make proto`` generates or build leftovers, so that the build must generate
    ``arbiter.v1`` itself from the protos it finds beside it (and writes nothing into the
    repository). Returns the copies of ``protos/python`` and ``clients/sdk``."""
    leftovers = shutil.ignore_patterns(
        "*_pb2.py", "*_pb2.pyi", "*_pb2_grpc.py", "descriptors.binpb", "__pycache__", "build",
        "*.egg-info", "baseline.binpb")
    for folder in ("clients/sdk", "protos"):
        shutil.copytree(ROOT / folder, target / folder, ignore=leftovers)
    return target / "protos" / "python", target / "clients" / "sdk"


@pytest.mark.heavy(15)
def test_the_client_wheel_plays_a_game_in_a_venv_of_its_own(
    arbiter_server: ServerProcess, tmp_path: Path
) -> None:
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    protos, sdk = clean_checkout_in(tmp_path / "checkout")
    wheels = {}
    for source, name in ((protos, "arbiter_protos"), (sdk, "arbiter_client")):
        before = sorted(str(path.relative_to(source)) for path in source.rglob("*"))
        # Offline-friendly: the builds use this venv's setuptools and grpcio-tools.
        built = subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-q",
                                "-w", str(tmp_path / "dist"), str(source)],
                               capture_output=True, text=True, timeout=120)
        assert built.returncode == 0, built.stderr[-3000:]
        (wheels[name],) = (tmp_path / "dist").glob(f"{name}-*.whl")
        # The generated code went into the build directory only, none into the source tree.
        after = sorted(str(path.relative_to(source)) for path in source.rglob("*")
                       if path.relative_to(source).parts[0] not in ("build", f"{name}.egg-info"))
        assert after == before
    # The build hook and `make proto` generate the same files (the repository's, here).
    with zipfile.ZipFile(wheels["arbiter_protos"]) as built_wheel:
        generated = {name.removeprefix("arbiter/v1/"): built_wheel.read(name)
                     for name in built_wheel.namelist()
                     if name.startswith("arbiter/v1/")
                     and name not in ("arbiter/v1/__init__.py", "arbiter/v1/py.typed")}
    assert len(generated) == 3 * len(list((ROOT / "protos/arbiter/v1").glob("*.proto"))) + 1
    assert generated == {name: (GENERATED / name).read_bytes() for name in generated}
    # The client's wheel carries no generated code, and no top-level __init__.py (a namespace).
    with zipfile.ZipFile(wheels["arbiter_client"]) as built_wheel:
        names = built_wheel.namelist()
    assert not [name for name in names if name.startswith("arbiter/v1/")], names
    assert "arbiter/__init__.py" not in names and "arbiter/client.py" in names

    # A venv without pip of its own (faster); this venv's pip installs into it.
    # Its dependencies come from the registry, as an integrator's would.
    env_dir = tmp_path / "integrator"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    installed = subprocess.run([*pip, "--python", str(python), "install", "-q",
                                *map(str, wheels.values())],
                               capture_output=True, text=True, timeout=180)
    assert installed.returncode == 0, installed.stderr[-3000:]

    script = tmp_path / "bot.py"
    script.write_text(f"SERVER_ONLY = {SERVER_ONLY!r}\nNOT_INSTALLED = {NOT_INSTALLED!r}\n{BOT}")
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("ARBITER_", "PYTHON", "VIRTUAL_ENV"))}
    result = subprocess.run([str(python), "-I", str(script), arbiter_server.address],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    proto_files = sorted(str(path.relative_to(ROOT / "protos"))
                         for path in (ROOT / "protos/arbiter/v1").glob("*.proto"))
    assert lines[0].split() == ["described", *proto_files], lines
    assert lines[1].startswith("refused VERSION_MISMATCH "), lines
    outcome, moves, _, version, _, audited = lines[2].split()
    assert (outcome, audited) == ("over", "True") and int(moves) > 0, lines
    assert lines[3] == f"async version {version}", lines  # the spectator's view, via grpc.aio
    assert lines[4] == "loaded []"
