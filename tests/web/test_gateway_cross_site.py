"""The JSON gateway answers this site and clients that are not browsers, never a
page of another site (DESIGN principle 11, "every reader's share": a visitor's
address is theirs to spend), over a real server process.

Before: ``POST /v1/CreateGame`` with ``Content-Type: text/plain`` (what a
cross-site form sends, with no preflight) and a foreign ``Origin`` returned
200 and created a game from the visitor's address, while the pages' own posts
refused the same request as ``CROSS_SITE``.
"""

from __future__ import annotations

import json

import pytest
from arbiter.v1 import game_pb2

from tests.integration.conftest import ServerProcess
from tests.web.test_pages import Browser

pytestmark = [pytest.mark.integration]

BODY = json.dumps({"rules": "enin", "seats": ["me"]}).encode()
CROSS_SITE = (
    {"Origin": "https://evil.example", "Content-Type": "text/plain"},
    {"Origin": "null", "Content-Type": "text/plain"},
    {"Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain"},
    {"Sec-Fetch-Site": "same-site", "Origin": "https://a.example",
     "Content-Type": "application/json"},
)


def games(server: ServerProcess) -> int:
    return len(server.stub().ListGames(game_pb2.ListGamesRequest(limit=500)).games)


def test_another_site_cannot_create_games_through_the_gateway(
    web_server: ServerProcess
) -> None:
    before = games(web_server)
    for headers in CROSS_SITE:
        reply = Browser(web_server.web_url).request("POST", "/v1/CreateGame", BODY, headers)
        assert reply.status == 403, (headers, reply.status, reply.body)
        assert json.loads(reply.body)["error"]["reason"] == "CROSS_SITE"
    assert games(web_server) == before, "no game was created"
    # This site's own pages, and clients that are not browsers (curl), still can.
    own = Browser(web_server.web_url).request(
        "POST", "/v1/CreateGame", BODY,
        {"Origin": web_server.web_url, "Sec-Fetch-Site": "same-origin",
         "Content-Type": "application/json"})
    assert own.status == 200, own.body
    curl = Browser(web_server.web_url).request(
        "POST", "/v1/CreateGame", BODY, {"Content-Type": "application/x-www-form-urlencoded"})
    assert curl.status == 200 and json.loads(curl.body)["game_id"], curl.body
    assert games(web_server) == before + 2
