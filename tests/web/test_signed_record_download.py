"""The web side's record download carries the server's signature over its head,
as ``arbiter export`` does (DESIGN principle 3: "randomness is provable", and
a record provable as the server's), over a real server process.

Before: the signature did not exist; with it added to GetState only when
asked for a running game, a download of a running game's record would have
carried none.
"""

from __future__ import annotations

import base64
import random

import pytest
from arbiter.v1 import game_pb2

from aggregates.records import read_record, verify_lines
from tests.integration.conftest import ServerProcess
from tests.web.test_pages import Browser, make_game, play

pytestmark = [pytest.mark.integration]


def test_a_running_games_download_is_signed_and_verifies(web_server: ServerProcess) -> None:
    created = make_game(web_server, "ethnos", ["Ana", "Ben"])
    play(web_server, created, "ethnos", random.Random(4), 5)
    browser = Browser(web_server.web_url)
    browser.open_session(created.game_id, created.spectator_token)
    header, lines = read_record(browser.get(f"/games/{created.game_id}/record")
                                .body.splitlines())
    assert header["signature"]["key_id"].startswith("ed25519:")
    keys = web_server.stub("").ListRules(game_pb2.ListRulesRequest()).signing_keys
    trusted = {k.key_id: base64.b64decode(k.public_key) for k in keys}
    verdict = verify_lines(header, lines, trusted)
    assert verdict.ok, verdict.report.problems
    assert any("the server's signature over the head" in c for c in verdict.checked)
