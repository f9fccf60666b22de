"""The web side attacked as a stranger would: each test is one finding of a review,
failing before its fix (see the commit that adds it)."""

from __future__ import annotations

import json

import pytest

from tests.integration.conftest import ServerProcess
from tests.web.test_pages import Browser, make_game

pytestmark = [pytest.mark.integration]


def test_another_site_cannot_set_a_games_cookie_login_csrf(web_server: ServerProcess) -> None:
    """A cross-site form (``enctype=text/plain`` makes a JSON body) or fetch to
    ``/games/<id>/session`` must not plant the attacker's credential in the
    victim's browser (login CSRF / session fixation), nor drop the victim's."""
    created = make_game(web_server, "ethnos", ["alice", "bob", "carol"])
    attacker = created.seat_tokens[1].token
    body = json.dumps({"token": attacker, "seat": 1, "pad": "="}).encode()
    for headers in ({"Origin": "https://evil.example", "Content-Type": "text/plain"},
                    {"Origin": "null", "Content-Type": "text/plain"},
                    {"Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain"},
                    {"Sec-Fetch-Site": "same-site", "Origin": "https://a.example"}):
        victim = Browser(web_server.web_url)
        reply = victim.request("POST", f"/games/{created.game_id}/session", body, headers)
        assert reply.status == 403, (headers, reply.status, reply.body)
        assert json.loads(reply.body)["error"]["reason"] == "CROSS_SITE"
        assert "Set-Cookie" not in reply.headers and not list(victim.jar)
        dropped = victim.request("DELETE", f"/games/{created.game_id}/session", None, headers)
        assert dropped.status == 403 and "Set-Cookie" not in dropped.headers
    own = Browser(web_server.web_url)
    same = own.request("POST", f"/games/{created.game_id}/session", body,
                       {"Origin": web_server.web_url, "Sec-Fetch-Site": "same-origin",
                        "Content-Type": "application/json"})
    assert same.status == 200 and [c.name for c in own.jar] == ["arbiter_token"]
    assert own.open_session(created.game_id, attacker, 1).status == 200  # no browser headers
