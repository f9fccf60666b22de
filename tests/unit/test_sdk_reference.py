"""The client library's reference (docs/sdk/) is what its docstrings say now.

``tools/sdkdoc.py`` writes a page per public class of ``arbiter.client`` from
the code's docstrings; the committed pages must be that tool's output for the
code as it stands, so a method added, renamed or re-documented without
``make sdk-docs`` fails here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def sdkdoc() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sdkdoc", ROOT / "tools" / "sdkdoc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("sdkdoc", module)
    spec.loader.exec_module(module)
    return module


def test_committed_reference_matches_the_docstrings() -> None:
    tool = sdkdoc()
    differ = tool.stale(ROOT / "docs" / "sdk", tool.pages())
    assert not differ, f"docs/sdk/ is out of date ({', '.join(differ)}): run make sdk-docs"


def test_every_client_method_has_its_section_and_a_docstring() -> None:
    """A page per client class, and every public method of each listed with its
    own words (an undocumented method would read "(undocumented)")."""
    from arbiter.client import ArbiterClient, AsyncArbiterClient

    pages = sdkdoc().pages()
    for cls in (ArbiterClient, AsyncArbiterClient):
        page = pages[f"{cls.__name__}.md"]
        for name in ("create_game", "act", "state", "legal", "history", "subscribe",
                     "audit", "replay", "add_tokens"):
            assert f"{name}(" in page, f"{cls.__name__}.{name} is missing from its page"
        assert "(undocumented)" not in page


def test_stale_names_a_changed_a_missing_and_a_leftover_page(tmp_path: Path) -> None:
    tool = sdkdoc()
    wanted = {"a.md": "A\n", "b.md": "B\n"}
    tool.write(tmp_path, wanted)
    assert tool.stale(tmp_path, wanted) == []
    (tmp_path / "a.md").write_text("edited by hand\n")
    (tmp_path / "old.md").write_text("a class that is gone\n")
    (tmp_path / "b.md").unlink()
    assert tool.stale(tmp_path, wanted) == ["a.md", "b.md", "old.md"]
