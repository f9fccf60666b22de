"""A method's calls, counted: for the tests that say how often the server
reads or writes (a listing that reads no table, a retried request saved once)."""

from __future__ import annotations

from typing import Any

import pytest


def calls_to(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[tuple[Any, ...]]:
    """The positional arguments of every call to ``owner.name`` from now on (the
    method still runs as it did), in a list that grows as they come."""
    calls: list[tuple[Any, ...]] = []
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls
