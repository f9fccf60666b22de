"""The repository as shipped (issue 12, bug 6): packaging, ignores, no machine paths."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


#: Each distribution's folder, and the top-level packages it ships from there: the server's,
#: the client library's (``arbiter-client``, a folder of ``clients/`` but its own project),
#: and the wire contract's generated code (``arbiter-protos``, beside the .proto files).
#: ``arbiter`` is a namespace package the last two share.
DISTRIBUTIONS = {ROOT: ("aggregates", "service", "clients"),
                 ROOT / "clients" / "sdk": ("arbiter",),
                 ROOT / "protos" / "python": ("arbiter",)}


def _configured_packages(project: Path) -> set[str]:
    config = tomllib.loads((project / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "package-dir" not in config, "each package lives at its name under its project"
    return set(config["packages"])


@pytest.mark.parametrize("project", DISTRIBUTIONS, ids=lambda p: str(p.relative_to(ROOT)) or ".")
def test_every_shipped_folder_is_a_configured_package(project: Path) -> None:
    """A folder left out is missing from a wheel, or warns at every install (data folders)."""
    packages = _configured_packages(project)
    others = [other for other in DISTRIBUTIONS if other != project and project in other.parents]
    missing = []
    for name in DISTRIBUTIONS[project]:
        for folder in [project / name, *(project / name).rglob("*")]:
            if not folder.is_dir() or folder.name == "__pycache__":
                continue
            if any(folder == other or other in folder.parents for other in others):
                continue  # another distribution's, checked with it
            # Any folder holding files: setuptools warns of a data folder (the
            # web side's templates and static files too) not named a package.
            if not any(f.is_file() and f.suffix != ".pyc" for f in folder.iterdir()):
                continue
            dotted = ".".join(folder.relative_to(project).parts)
            if dotted not in packages:
                missing.append(dotted)
    where = (project / "pyproject.toml").relative_to(ROOT)
    assert not missing, f"add to [tool.setuptools] packages of {where}: {missing}"


def _tracked() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.split()


def test_no_tracked_file_is_also_ignored() -> None:
    _tracked()
    out = subprocess.run(["git", "ls-files", "-ci", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_no_machine_paths_and_no_missing_design_document() -> None:
    """Docs and comments cite rulebooks and rulings by name, never a path on one machine."""
    needles = ["/" + "work/", "shared/" + "rule", "DESIGN" + ".md"]
    offenders = []
    for name in _tracked():
        path = ROOT / name
        if path.suffix not in (".md", ".py", ".proto", ".json", ".toml") or not path.is_file():
            continue
        text = path.read_text(errors="replace")
        offenders += [f"{name}: {n}" for n in needles if n in text]
    assert not offenders, offenders
