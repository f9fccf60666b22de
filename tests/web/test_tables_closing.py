"""The tables' pages and the JSON gateway when the lobby's bounds say no
(docs/playing.md, "The lobby"): a caller past its waiting tables, and a
table no one came to.

What these tests pin: opening one table too many through the gateway is
HTTP 429 with ``TOO_MANY_WAITING_TABLES``; a table idle past the server's
idle time (a fraction of a second here, awaited by polling) closes: its
page says so and offers no seat, it leaves the list of tables, a join is
HTTP 400 with ``TABLE_CLOSED``, and its place is the caller's again.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.conftest import ServerProcess
from tests.integration.helpers import until
from tests.web.conftest import post_json, web_side

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("tables_closing")]

IDLE = 1.0


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory,
               redis_url: str) -> Iterator[ServerProcess]:
    """A web side whose callers keep one table waiting, closed when idle for ``IDLE``."""
    with web_side(tmp_path_factory, redis_url, "closing", ARBITER_WAITING_TABLES_PER_CALLER="1",
                  ARBITER_TABLE_IDLE_SECONDS=str(IDLE)) as server:
        yield server


def call(base: str, method: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """``POST /v1/lobby/<method>``: (HTTP status, JSON answer)."""
    return post_json(f"{base}/v1/lobby/{method}", body)


def page(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read().decode()  # type: ignore[no-any-return]


def test_one_table_too_many_is_429_and_a_closed_tables_page_offers_no_seat(
        web_server: ServerProcess) -> None:
    base = web_server.web_url
    two_open = {"rules": "ethnos", "seats": [{"kind": "player", "name": "Ada"},
                                             {"kind": "open"}]}
    status, opened = call(base, "OpenTable", two_open)
    assert status == 200, opened
    table_id = opened["table"]["table_id"]
    status, refused = call(base, "OpenTable", two_open)
    if status != 200:  # the first may have closed already on a slow machine
        assert (status, refused["error"]["reason"]) == (429, "TOO_MANY_WAITING_TABLES")

    def closed() -> bool:
        return call(base, "GetTable", {"table_id": table_id})[1]["table"]["status"] == "closed"

    assert until(closed, timeout=30, step=IDLE / 4), "the idle table never closed"
    shown = page(f"{base}/tables/{table_id}")
    assert "This table closed" in shown and f"/tables/{table_id}/join" not in shown
    assert table_id not in page(f"{base}/tables")
    status, join = call(base, "JoinTable", {"table_id": table_id, "name": "Bob"})
    assert (status, join["error"]["reason"]) == (400, "TABLE_CLOSED")
    assert until(lambda: call(base, "OpenTable", two_open)[0] == 200,
                 timeout=30, step=IDLE / 4), "the caller's place never came back"
