"""No two modules of ``service/`` import each other, even through others, even
inside a function: each module stands above what it imports (issue 20). And the
layers stand in one order: ``service/`` imports nothing of ``clients/`` (the
server does not depend on the command line) but its bot engine,
``clients.bots``, which plays the bots the server hosts as ``arbiter bot``
plays them and itself imports nothing else of ``clients/``; and ``aggregates/``
nothing of either (the rules and the vocabulary that the CLI and the web pages
share live below both)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ROOT / "service"


def module_of(path: Path) -> str:
    parts = path.relative_to(SERVICE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, known: set[str]) -> set[str]:
    """The ``service`` modules a file imports anywhere in it (a function's body too)."""
    found: set[str] = set()
    package = module_of(path) if path.name == "__init__.py" else module_of(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name in known}


def test_no_circle_between_service_modules() -> None:
    files = {module_of(path): path for path in SERVICE.rglob("*.py")}
    known = set(files)
    graph = {name: imports(path, known) - {name} for name, path in files.items()}
    circles: list[list[str]] = []
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            circles.append(trail[trail.index(name):] + [name])
            return
        if name in done:
            return
        for imported in sorted(graph[name]):
            visit(imported, [*trail, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])
    assert not circles, "\n".join(" -> ".join(circle) for circle in circles)


def imported_modules(path: Path) -> set[str]:
    """The modules a file imports anywhere in it (a function's body too): a
    ``from a import b`` is ``a.b`` (module or name, as written)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


#: What each layer may not import, and the parts of those it may.
ABOVE = {"service": ({"clients"}, ("clients.bots",)),
         "aggregates": ({"clients", "service"}, ()),
         "clients/bots": ({"clients"}, ("clients.bots",))}


def test_the_layers_import_downwards_only() -> None:
    wrong = []
    for layer, (banned, allowed) in ABOVE.items():
        for path in sorted((ROOT / layer).rglob("*.py")):
            bad = sorted(name for name in imported_modules(path)
                         if name.split(".")[0] in banned
                         and not any(name == a or name.startswith(a + ".") for a in allowed))
            if bad:
                wrong.append(f"{path.relative_to(ROOT)} imports {bad}")
    assert not wrong, "\n".join(wrong)
