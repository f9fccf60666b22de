"""Issue 23 item 5, the web as a player expects: the lobby newest first with
"running", "finished" and "my games"; play against bots from the new-game form;
a friendly page for a missing or wrong credential, and a seat link that swaps
its token for a cookie before any page is refused; the replay as any seat, every
card shown once the game is over.

One server for the module (``web_server``); each test makes its own few games.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from arbiter.v1 import game_pb2

from service.web.screen import screen_html
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import until
from tests.web.test_pages import Browser, Node, finish, make_game, play

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("web-lobby")]


def rows(page: Node) -> list[Node]:
    return page.by_id("games").find_all("tr", "game")


def ids(page: Node) -> list[str]:
    return [r.attrs["data-game-id"] for r in rows(page)]


# --- the lobby ---------------------------------------------------------------------------


def test_lobby_lists_newest_first_with_running_finished_and_my_games(
        web_server: ServerProcess) -> None:
    older = [make_game(web_server, "enin", ["solo"]) for _ in range(30)]
    done = make_game(web_server, "enin", ["solo"])
    finish(web_server, done, "enin", 7)
    newest = make_game(web_server, "ethnos", ["Ana", "Ben"])
    browser = Browser(web_server.web_url)
    # Newest first: the game just made heads the first page, before 30 older ones.
    first = browser.get("/").dom
    assert ids(first)[:2] == [newest.game_id, done.game_id]
    assert "newest first" in first.by_id("games").find_all("caption")[0].text()
    assert older[-1].game_id in ids(first) and older[0].game_id not in ids(first)
    older_page = browser.get(first.by_id("next-page").attrs["href"]).dom
    assert older[0].game_id in ids(older_page) or older_page.has_id("next-page")
    # Running and finished.
    running = browser.get("/?show=running").dom
    assert ids(running)[0] == newest.game_id and done.game_id not in ids(running)
    assert all(r.attrs["data-over"] == "false" for r in rows(running))
    finished = browser.get("/?show=finished").dom
    assert ids(finished)[0] == done.game_id
    assert all(r.attrs["data-over"] == "true" for r in rows(finished))
    assert browser.get("/?show=finished&rules=ethnos").dom.by_id("games").text().count(
        "No games") == 1
    # My games: the ones whose links this browser opened (a seat, the spectator's).
    assert ids(browser.get("/?show=mine").dom) == []
    assert "open one of its links" in browser.get("/?show=mine").dom.by_id("games").text()
    assert browser.open_session(newest.game_id, newest.seat_tokens[1].token, 1).status == 200
    assert browser.open_session(older[3].game_id, older[3].spectator_token).status == 200
    mine = browser.get("/?show=mine").dom
    assert ids(mine) == [newest.game_id, older[3].game_id]
    link = rows(mine)[0].find_all("a", "my-link")[0]
    assert link.attrs["href"] == f"/games/{newest.game_id}/seat/1" and "Ben" in link.text()
    assert rows(mine)[1].find_all("a", "my-link")[0].attrs["href"] == \
        f"/games/{older[3].game_id}"
    # Marked in the other views too; another browser holds none of them.
    assert rows(browser.get("/").dom)[0].attrs.get("data-mine") == "true"
    assert ids(Browser(web_server.web_url).get("/?show=mine").dom) == []
    # Forgetting a game's link takes it off "my games".
    forgot = browser.request("DELETE", f"/games/{older[3].game_id}/session")
    assert forgot.status == 200
    assert ids(browser.get("/?show=mine").dom) == [newest.game_id]
    assert browser.get("/?show=nonsense").status == 400



# --- play against bots -------------------------------------------------------------------


def test_play_against_bots_from_the_new_game_form(web_server: ServerProcess) -> None:
    """The creator takes the first seat; a bot plays the second through the game
    service, as any player, whenever the game waits on it."""
    browser = Browser(web_server.web_url)
    lobby = browser.get("/").dom
    assert lobby.by_id("new-game").find_all("input", name="bots")
    made = browser.post_form("/games", {"rules": "ethnos", "seats": "Me, Bot", "bots": "1"},
                             Origin=web_server.web_url)
    assert made.status == 201, made.body
    links = made.dom.find_all("a", "seat-link")
    assert [a.attrs["data-seat"] for a in links] == ["0"]  # no link to a bot's seat
    assert "Bot" in made.dom.by_id("bots").text()
    game_id = links[0].attrs["href"].split("/")[2]
    token = links[0].attrs["href"].partition("#")[2]
    me = web_server.stub(token)
    rnd = random.Random(1)
    bot_turns = 0  # the times the game waited on the bot alone, then went on
    deadline = time.monotonic() + 20
    while bot_turns < 2 and time.monotonic() < deadline:
        state = me.GetState(game_pb2.GetStateRequest(game_id=game_id, seat=0))
        if state.over:
            break
        if 0 in [d.seat for d in state.pending]:
            legal = me.LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=0))
            move = rnd.choice(list(legal.actions))
            me.Act(game_pb2.ActRequest(game_id=game_id, seat=0, command=move.command,
                                       expected_version=legal.version))
            continue
        while time.monotonic() < deadline and me.GetState(game_pb2.GetStateRequest(
                game_id=game_id, seat=0)).version == state.version:
            time.sleep(0.05)
        bot_turns += 1
    assert bot_turns == 2, "the bot did not play its turns"


def test_bots_stop_with_the_server(tmp_path: Any, redis_url: str) -> None:
    """The web side's bots are tasks on its loop: a server told to stop (SIGTERM)
    while its bots wait on their players stops at once and cleanly, no task left
    pending or cut off with an error, and its games are left as they were."""
    server = ServerProcess(tmp_path / "data", redis_url, {"ARBITER_WEB_ADDRESS": "127.0.0.1:0"})
    server.start()
    try:
        browser = Browser(server.web_url)
        games = []
        for rules, seats in (("ethnos", "Me, Bot, Bot"), ("ettin", "Me, Bot")):
            made = browser.post_form("/games", {"rules": rules, "seats": seats,
                                                "bots": str(seats.count("Bot"))},
                                     Origin=server.web_url)
            assert made.status == 201, made.body
            games.append(made.dom.find_all("a", "seat-link")[0].attrs["href"].split("/")[2])
        admin = server.stub()

        def waiting_on_me(game_id: str) -> bool:
            state = admin.GetState(game_pb2.GetStateRequest(game_id=game_id, spectator=True))
            return 0 in [d.seat for d in state.pending]

        # The bots under way: each game has come round to "Me", its bots polling.
        assert until(lambda: all(waiting_on_me(g) for g in games), timeout=30)
        started = time.monotonic()
        assert server.stop() == 0
        took = time.monotonic() - started
    finally:
        server.stop()
    log = server.log_path.read_text(errors="replace")
    assert took < 10, f"the server took {took:.1f} s to stop with its bots"
    assert "the bots of 2 game(s) stopped with the web side" in log, log[-3000:]
    for bad in ("Traceback", "Task was destroyed but it is pending", "a bot of game"):
        assert bad not in log, f"{bad!r} in the server's log:\n{log[-3000:]}"


# --- a link and its credential -------------------------------------------------------------


def test_seat_and_spectator_links_trade_their_token_before_any_page_is_refused(
        web_server: ServerProcess) -> None:
    browser = Browser(web_server.web_url)
    made = browser.post_form("/games", {"rules": "ethnos", "seats": "Ana, Ben"},
                             Origin=web_server.web_url)
    assert made.status == 201
    links = [a.attrs["href"] for a in made.dom.find_all("a", "seat-link")]
    links.append(made.dom.find_all("a", "spectator-link")[0].attrs["href"])
    game_id = links[0].split("/")[2]
    for n, href in enumerate(links):
        seat = n if n < 2 else None
        path, _, token = href.partition("#")
        assert path == f"/games/{game_id}/join" + ("" if seat is None else f"/{seat}")
        player = Browser(web_server.web_url)
        first = player.get(path)  # what the browser loads first: no 401, no game read
        assert first.status == 200, first.body
        body = first.dom.find_all("body")[0]
        target = f"/games/{game_id}" + ("" if seat is None else f"/seat/{seat}")
        assert body.attrs["data-next"] == target and body.attrs["data-game-id"] == game_id
        assert body.attrs.get("data-seat") == (None if seat is None else str(seat))
        assert "/static/fragment.js" in [s.attrs.get("src") for s in first.dom.find_all("script")]
        # What its script then does: the token for the cookie, then the page itself.
        assert player.open_session(game_id, token, seat).status == 200
        assert player.get(target).status == 200
    assert browser.get(f"/games/{game_id}/join/x").status == 404
    assert browser.get("/games/nope/join/0").status == 404


def test_a_missing_or_wrong_credential_gets_a_players_page_with_what_to_do(
        web_server: ServerProcess) -> None:
    created = make_game(web_server, "ethnos", ["Ana", "Ben"])
    game_id = created.game_id
    stranger = Browser(web_server.web_url)
    for path in (f"/games/{game_id}", f"/games/{game_id}/replay"):
        reply = stranger.get(path)
        assert reply.status == 401
        page = reply.dom
        assert page.find_all("h1")[0].text() == "This game is still running"
        assert page.by_id("error").attrs["data-reason"] == "NO_TOKEN"
        assert "Bearer" not in reply.body and "metadata" not in reply.body
        steps = page.by_id("next-steps").text()
        assert "Open the link you were given" in steps and "Once the game is over" in steps
        assert "/?show=finished" in [a.attrs.get("href") for a in page.find_all("a")]
    wrong = stranger.get(f"/games/{game_id}", Cookie="arbiter_token=not-this-games-token")
    assert wrong.status == 401 and wrong.dom.by_id("error").attrs["data-reason"] == "BAD_TOKEN"
    assert wrong.dom.find_all("h1")[0].text() == "This link does not open this game"
    # A refusal that is not about a credential keeps the service's own sentence.
    bad = stranger.get(f"/games/{game_id}/board?version=x")
    assert bad.status == 400 and "whole number" in bad.dom.by_id("error").text()


# --- the replay as any seat -----------------------------------------------------------------


def options(page: Node) -> dict[str, bool]:
    """The replay's seat selector: each view's value, and whether it can be chosen."""
    select = page.by_id("seat-select")
    return {o.attrs["value"]: "disabled" not in o.attrs for o in select.find_all("option")}


@pytest.fixture(scope="module")
def finished_ethnos(web_server: ServerProcess) -> game_pb2.CreateGameResponse:
    created = make_game(web_server, "ethnos", ["Ana", "Ben"])
    finish(web_server, created, "ethnos", 4)
    return created


def test_a_finished_games_replay_shows_any_seat_and_every_seats_cards(
        web_server: ServerProcess, finished_ethnos: game_pb2.CreateGameResponse) -> None:
    game_id = finished_ethnos.game_id
    public = web_server.stub("")
    stranger = Browser(web_server.web_url)  # no link at all: the record is public
    page = stranger.get(f"/games/{game_id}/replay").dom
    assert options(page) == {"": True, "all": True, "0": True, "1": True}
    latest = public.GetState(game_pb2.GetStateRequest(game_id=game_id, spectator=True))
    middle = latest.version // 2
    for seat in (0, 1):
        as_seat = stranger.get(f"/games/{game_id}/replay?seat={seat}&version={middle}")
        assert as_seat.status == 200
        seen = json.loads(as_seat.dom.by_id("screen-json").text())
        assert seen == json.loads(public.GetState(game_pb2.GetStateRequest(
            game_id=game_id, seat=seat, version=middle)).screen_json)
        assert as_seat.dom.find_all("body")[0].attrs["data-seat"] == str(seat)
        assert as_seat.dom.by_id("seat-view-version").attrs["value"] == str(middle)
    # Every seat at once: each seat's screen, its hand included, side by side.
    for path in (f"/games/{game_id}/replay?seat=all&version={middle}",
                 f"/games/{game_id}/board?seat=all&version={middle}"):
        reply = stranger.get(path)
        assert reply.status == 200, reply.body
        board = reply.dom.by_id("board")
        assert board.attrs["data-seat"] == "all" and board.attrs["data-version"] == str(middle)
        sections = board.find_all("section", "seat-board")
        assert [s.attrs["data-seat"] for s in sections] == ["0", "1"]
        for n, section in enumerate(sections):
            screen = json.loads(public.GetState(game_pb2.GetStateRequest(
                game_id=game_id, seat=n, version=middle)).screen_json)
            assert str(screen_html(screen, ["Ana", "Ben"])) in reply.body
            assert section.find_all("h3")[0].text() == ["Ana", "Ben"][n]
    spectator = json.loads(public.GetState(game_pb2.GetStateRequest(
        game_id=game_id, spectator=True, version=middle)).screen_json)
    assert str(screen_html(spectator, ["Ana", "Ben"])) not in \
        stranger.get(f"/games/{game_id}/board?seat=all&version={middle}").body


def test_a_running_games_replay_offers_the_seat_whose_link_this_browser_holds(
        web_server: ServerProcess) -> None:
    created = make_game(web_server, "ethnos", ["Ana", "Ben"])
    game_id = created.game_id
    play(web_server, created, "ethnos", random.Random(2), 6)
    player = Browser(web_server.web_url)
    assert player.open_session(game_id, created.seat_tokens[1].token, 1).status == 200
    page = player.get(f"/games/{game_id}/replay").dom
    assert options(page) == {"": True, "0": False, "1": True}
    own = player.get(f"/games/{game_id}/replay?seat=1&version=3")
    assert own.status == 200
    assert json.loads(own.dom.by_id("screen-json").text()) == json.loads(
        web_server.stub(created.seat_tokens[1].token).GetState(game_pb2.GetStateRequest(
            game_id=game_id, seat=1, version=3)).screen_json)
    assert player.get(f"/games/{game_id}/replay?seat=0").status == 403
    everyone = player.get(f"/games/{game_id}/replay?seat=all")
    assert everyone.status == 403 and \
        everyone.dom.by_id("error").attrs["data-reason"] == "GAME_RUNNING"
