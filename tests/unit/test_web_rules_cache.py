"""The web side's kept ``ListRules`` (``service.web.pages.rules_by_id``) on a
machine that has just booted.

The monotonic clock counts from boot. The cache once asked "is the last fetch
older than ``RULES_TTL``?" with a missing fetch read as time 0, so in a
server's first ``RULES_TTL`` seconds after the machine's boot the rules were
never fetched and every game page failed with a 500 (a ``KeyError``): seen on a
fresh CI machine, where the suite starts a minute after boot.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from arbiter.v1 import game_pb2

from service.web import pages


class Request:
    """What ``rules_by_id`` reads of an aiohttp request: its application's state."""

    def __init__(self) -> None:
        self.app: dict[Any, Any] = {pages.RULES: {}}


def test_rules_are_fetched_in_a_machines_first_minutes(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    async def call(request: Any, method: str, message: Any, token: str = "") -> Any:
        asked.append(method)
        return game_pb2.ListRulesResponse(rules=[game_pb2.RulesInfo(id="enin", title="Enin")])

    monkeypatch.setattr(pages, "call", call)
    monkeypatch.setattr(pages.time, "monotonic", lambda: 12.0)  # 12 s after boot
    request = Request()
    rules = asyncio.run(pages.rules_by_id(request))  # type: ignore[arg-type]
    assert rules["enin"].title == "Enin" and asked == ["ListRules"]
    asyncio.run(pages.rules_by_id(request))  # type: ignore[arg-type]
    assert asked == ["ListRules"], "kept for RULES_TTL, not fetched again"
    monkeypatch.setattr(pages.time, "monotonic", lambda: 12.0 + pages.RULES_TTL + 1)
    asyncio.run(pages.rules_by_id(request))  # type: ignore[arg-type]
    assert asked == ["ListRules", "ListRules"], "fetched again once RULES_TTL has passed"
