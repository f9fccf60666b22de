"""The web's bots at a level (docs/web.md, "Play against bots"): the new-game
form and the open-table form offer each level the server hosts; a game
against a greedy bot plays to the end; a level or budget it does not host is
refused with a reason code, before a game is made.
"""

from __future__ import annotations

import contextlib
import random
import time

import grpc
import pytest
from arbiter.moves import listed_decision
from arbiter.v1 import game_pb2

from service.config import Settings
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import FeedCollector
from tests.web.conftest import web_side
from tests.web.test_pages import Browser

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("web-bot-levels")]

LEVELS = ["random", "greedy", "ismcts"]


def test_the_forms_offer_each_level(web_server: ServerProcess) -> None:
    browser = Browser(web_server.web_url)
    for path, form in (("/", "new-level"), ("/tables", "open-level")):
        options = browser.get(path).dom.by_id(form).find_all("option")
        assert [o.attrs["value"] for o in options] == LEVELS, path


def test_a_new_game_against_a_greedy_bot_plays_to_the_end(web_server: ServerProcess) -> None:
    """The creator plays Ettin's first seat at random; the web side's greedy
    bot, at a small budget, plays the second whenever the game waits on it."""
    browser = Browser(web_server.web_url)
    made = browser.post_form("/games", {"rules": "ettin", "seats": "Me, Bo", "bots": "1",
                                        "level": "greedy", "budget": "0.01"},
                             Origin=web_server.web_url)
    assert made.status == 201, made.body
    assert made.dom.by_id("bot-level").text().startswith("greedy")
    link = made.dom.find_all("a", "seat-link")[0].attrs["href"]
    game_id, token = link.split("/")[2], link.partition("#")[2]
    me = web_server.stub(token)
    # The seat's own feed: the bot's moves are awaited as its events, where a
    # read every 50 ms stood.
    feed = FeedCollector(me, game_pb2.SubscribeRequest(game_id=game_id, seat=0))
    rng = random.Random(2)
    deadline = time.monotonic() + 120
    try:
        state = me.GetState(game_pb2.GetStateRequest(game_id=game_id, seat=0))
        while not state.over and time.monotonic() < deadline:
            if 0 in [d.seat for d in state.pending]:
                legal = me.LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=0))
                if legal.actions and legal.version == state.version:
                    move = rng.choice(list(legal.actions))
                    me.Act(game_pb2.ActRequest(
                        game_id=game_id, seat=0, command=move.command,
                        decision_id=listed_decision(legal),
                        expected_version=0 if listed_decision(legal) else legal.version))
            else:  # the bot's turn: it moves on its own
                seen = state.version
                feed.wait_for(lambda f, v=seen: f.error is not None or bool(
                    f.events and f.events[-1].version > v), timeout=5)
                assert feed.error is None, feed.error
            state = me.GetState(game_pb2.GetStateRequest(game_id=game_id, seat=0))
    finally:
        feed.close()
    assert state.over, "the game against a greedy bot did not end"


@pytest.mark.parametrize(("form", "reason"), [
    ({"level": "grandmaster"}, "BAD_LEVEL"),
    ({"level": "greedy", "budget": "9"}, "BAD_BUDGET"),
    ({"level": "ismcts", "budget": "fast"}, "BAD_BUDGET"),
])
def test_a_level_the_server_does_not_host_is_refused(
        web_server: ServerProcess, form: dict[str, str], reason: str) -> None:
    browser = Browser(web_server.web_url)
    made = browser.post_form("/games", {"rules": "ettin", "seats": "Me, Bo", "bots": "1",
                                        **form}, Origin=web_server.web_url)
    assert made.status == 400 and reason in made.body, (made.status, made.body[:400])
    opened = browser.post_form("/tables", {"rules": "ettin", "players": "2", "bots": "1",
                                           "name": "Me", **form}, Origin=web_server.web_url)
    assert opened.status == 400 and reason in opened.body, (opened.status, opened.body[:400])


def test_a_web_bots_thinking_slows_to_its_creators_share_not_the_creator(
        tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> None:
    """DESIGN principle 11: the web side's bots think on one thread of the
    server's process, on the share of the player who made the game: as much as
    a decision may take (``ARBITER_BOT_BUDGET_SECONDS``) is set aside from that
    share before it is thought, so a creator at the default share (a tenth of a
    core) playing at once against an IS-MCTS bot thinking 0.2 s a decision is
    never refused its own reads, while its bot waits for the share. Charged
    after the thinking, as first built, the creator was refused ``RATE_LIMITED``
    within a few decisions; uncharged, the bot took a core from everyone's.

    The share's burst (2 s of CPU) pays for the first ten of the bot's 0.2 s
    decisions; the test plays on to 15 of the bot's moves, past the burst, where
    the bot waits for the share (a move every 1-2 s) and the old charging had
    refused the creator. (Until 20 moves, as first written, it always ran into
    its 15 s deadline.)"""
    with web_side(tmp_path_factory, redis_url, "web-bot-share",
                  ARBITER_CALLS_PER_SECOND=str(Settings.calls_per_second)) as server:
        browser = Browser(server.web_url)
        made = browser.post_form("/games", {"rules": "ettin", "seats": "Me, Bo", "bots": "1",
                                            "level": "ismcts", "budget": "0.2"},
                                 Origin=server.web_url)
        assert made.status == 201, made.body
        link = made.dom.find_all("a", "seat-link")[0].attrs["href"]
        game_id, token = link.split("/")[2], link.partition("#")[2]
        me = server.stub(token)
        rng = random.Random(3)
        bot_moves, version = 0, 0
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and bot_moves < 15:
            try:
                state = me.GetState(game_pb2.GetStateRequest(game_id=game_id, seat=0))
            except grpc.RpcError as exc:
                assert dict(exc.trailing_metadata() or ()).get("arbiter-reason") != \
                    "RATE_LIMITED", "the creator was refused for its bot's thinking"
                raise
            if state.over:
                break
            if 0 not in [d.seat for d in state.pending]:
                bot_moves += state.version > version
                version = state.version
                time.sleep(0.05)
                continue
            version = state.version
            legal = me.LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=0))
            if legal.actions and legal.version == state.version:
                decision = listed_decision(legal)
                with contextlib.suppress(grpc.RpcError):  # the game moved on: read again
                    me.Act(game_pb2.ActRequest(
                        game_id=game_id, seat=0, command=rng.choice(list(legal.actions)).command,
                        decision_id=decision, expected_version=0 if decision else legal.version))
        assert bot_moves >= 3, "the bot never moved"
