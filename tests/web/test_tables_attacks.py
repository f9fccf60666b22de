"""The tables' pages attacked as a stranger would (docs/web.md, "Tables"):
names written as markup, and cookies a browser was never given.

What these tests pin: a player's name is shown as the text it is, never as
markup, on the list of tables and on a table's page; a table's page with a
seat cookie no server wrote (a seat number no table has, digits that are
not ASCII, thousands of them) is the page a visitor without a seat sees, not
a server error.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.integration.conftest import ServerProcess

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("tables_attacks")]

MARKUP = '<b id="x">Ada</b>'


def get(url: str, cookie: str = "") -> tuple[int, str]:
    headers = {"Cookie": cookie} if cookie else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                    timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def open_table(base: str, seats: list[dict[str, str]]) -> dict[str, object]:
    request = urllib.request.Request(
        f"{base}/v1/lobby/OpenTable",
        json.dumps({"rules": "ethnos", "seats": seats}).encode(),
        {"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())  # type: ignore[no-any-return]


def test_a_name_written_as_markup_is_shown_as_text(web_server: ServerProcess) -> None:
    """Attack: a player named ``<b id="x">Ada</b>`` at a waiting table. The
    list of tables and the table's page show the name escaped (``&lt;b``),
    no element of that id in either page."""
    base = web_server.web_url
    opened = open_table(base, [{"kind": "player", "name": MARKUP}, {"kind": "open"}])
    table_id = opened["table"]["table_id"]  # type: ignore[index]
    for url in (f"{base}/tables", f"{base}/tables/{table_id}"):
        status, body = get(url)
        assert status == 200, url
        assert MARKUP not in body and "&lt;b id=" in body, url


@pytest.mark.parametrize("seat", ["\u00b2", "9" * 5000, "7"],
                         ids=["superscript", "nines", "no-such-seat"])
def test_a_seat_cookie_no_server_wrote_shows_the_visitors_page(
        web_server: ServerProcess, seat: str) -> None:
    """Attack: a seat cookie of the table's path whose seat is a superscript
    two (a digit to ``str.isdigit``, not to ``int``), five thousand nines (past
    the digits ``int`` reads), a seat the table does not have. The table's
    page answers 200 with the join form, as to a visitor; not a server error."""
    base = web_server.web_url
    opened = open_table(base, [{"kind": "player", "name": "Ada"}, {"kind": "open"}])
    table_id = opened["table"]["table_id"]  # type: ignore[index]
    cookie = f"arbiter_table_seat={seat}:forged".encode().decode("latin-1")
    status, body = get(f"{base}/tables/{table_id}", cookie)
    assert status == 200, body[:300]
    assert "/join" in body
