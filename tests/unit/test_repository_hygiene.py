"""The repository as shipped (issue 12, bug 6): packaging, ignores, no machine paths."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _configured_packages() -> tuple[set[str], dict[str, str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return set(config["packages"]), dict(config.get("package-dir", {}))


def test_every_shipped_folder_is_a_configured_package() -> None:
    """A folder left out is missing from a wheel, or warns at every install (data folders)."""
    packages, package_dir = _configured_packages()
    roots = {"aggregates": "aggregates", "service": "service", "clients": "clients",
             **{name: path for name, path in package_dir.items()}}
    missing = []
    for name, path in roots.items():
        for folder in [ROOT / path, *(ROOT / path).rglob("*")]:
            if not folder.is_dir() or folder.name == "__pycache__":
                continue
            # Any folder holding files: setuptools warns of a data folder (the
            # web side's templates and static files too) not named a package.
            if not any(f.is_file() and f.suffix != ".pyc" for f in folder.iterdir()):
                continue
            relative = folder.relative_to(ROOT / path).parts
            dotted = ".".join((name, *relative))
            if dotted not in packages:
                missing.append(dotted)
    assert not missing, f"add to [tool.setuptools] packages: {missing}"


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
