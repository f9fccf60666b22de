"""A seat's page on its seat's ``Play`` stream: the page's WebSocket (``/play``).

A browser cannot speak gRPC, so the web side holds the seat's ``Play`` stream
for its page: the page sends its moves on the socket and the server pushes
each move's result, every event the seat may see (in order, resumable by
version) and, at each new turn, the board, the question and the choices. These
tests drive a real server's socket as the page's script does (the cookie of
the seat's link, this site's ``Origin``).
"""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from typing import Any

import aiohttp
import pytest
from arbiter.render import event_text
from arbiter.v1 import game_pb2

from tests.integration.conftest import ServerProcess
from tests.web.tables import bot_step
from tests.web.test_seat import Browser, SeatPage, create, state_of

pytestmark = [pytest.mark.integration, pytest.mark.heavy(20)]

JSON = dict[str, Any]


class Socket:
    """A seat page's socket, as its script holds it."""

    def __init__(self, server: ServerProcess, game_id: str, seat: int, token: str,
                 origin: str | None = None) -> None:
        self.browser = Browser(server)
        opened = self.browser.open_seat(game_id, seat, token)
        assert opened.status == 200, opened.text
        self.url = f"ws://{self.browser.host}:{self.browser.port}/games/{game_id}/seat/{seat}/play"
        self.origin = origin or self.browser.origin
        self.http: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.frames: list[str] = []  # every message the server sent, as sent

    async def open(self, after: int, drawn: int = 0) -> Socket:
        cookie = "; ".join(f"{k}={v}" for k, v in self.browser.cookies.items())
        self.http = aiohttp.ClientSession()
        self.ws = await self.http.ws_connect(
            self.url, headers={"Cookie": cookie, "Origin": self.origin})
        await self.ws.send_json({"after": after, "drawn": drawn})
        return self

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.http is not None:
            await self.http.close()

    async def push(self) -> JSON:
        """The next message; a closed socket fails the test."""
        assert self.ws is not None
        frame = await self.ws.receive(timeout=20)
        assert frame.type == aiohttp.WSMsgType.TEXT, f"the socket closed: {frame}"
        self.frames.append(frame.data)
        data: JSON = json.loads(frame.data)
        return data

    async def until(self, done: Any) -> list[JSON]:
        """Messages until one satisfies ``done`` (that one included)."""
        seen = []
        while True:
            seen.append(await self.push())
            if done(seen[-1]):
                return seen

    async def move(self, move: JSON) -> JSON:
        """Send a move; its result (the pushes until it)."""
        assert self.ws is not None
        move = {**move, "command_id": move.get("command_id") or uuid.uuid4().hex}
        await self.ws.send_json(move)
        pushes = await self.until(lambda m: any(
            r["command_id"] == move["command_id"] for r in m.get("results", [])))
        result: JSON = next(r for r in pushes[-1]["results"]
                            if r["command_id"] == move["command_id"])
        return result


def listed_move(pieces: JSON) -> JSON:
    """The first listed action the pushed choices offer, as the page sends it."""
    page = SeatPage(pieces["play"])
    assert page.actions, "the pushed choices list no action"
    return {"command_json": page.actions[0]["data-json"],
            "decision_id": page.actions[0]["data-decision-id"]}


def log_of(pushes: list[JSON]) -> list[tuple[int, str]]:
    return [(e["version"], e["text"]) for p in pushes for e in p.get("log", [])]


def run(work: Any) -> Any:
    return asyncio.run(work)


def test_a_seats_socket_pushes_its_turn_and_takes_its_moves(web_server: ServerProcess) -> None:
    """Ethnos, "Turn overview": the seat asked to act gets, on its page's
    socket, the whole log, its board and its choices at the newest version; a
    move sent there is recorded once and answered by its result, with the turn
    that follows pushed in the same message."""
    created = create(web_server, "ethnos", ["Ann", "Bo", "Cy"])
    game_id = created.game_id
    seat = state_of(web_server, game_id).pending[0].seat
    token = created.seat_tokens[seat].token
    mine = web_server.stub(token)

    async def scenario() -> None:
        socket = await Socket(web_server, game_id, seat, token).open(after=0)
        try:
            first = await socket.until(lambda m: "pieces" in m)
            seen = mine.GetState(game_pb2.GetStateRequest(game_id=game_id, seat=seat))
            pieces = first[-1]["pieces"]
            assert pieces["version"] == seen.version and not pieces["over"]
            history = list(mine.History(game_pb2.HistoryRequest(game_id=game_id, seat=seat)))
            assert log_of(first) == [(e.version, event_text(e)) for e in history]
            legal = mine.LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=seat))
            page = SeatPage(pieces["play"])
            assert [a["data-json"] for a in page.actions] and \
                {a["data-decision-id"] for a in page.actions} == {legal.decisions[0].id}
            assert SeatPage(pieces["board"]).screen_json is not None
            move = listed_move(pieces)
            assert socket.ws is not None
            await socket.ws.send_json({**move, "command_id": "page-move-1"})
            pushes = await socket.until(lambda m: "results" in m)
            result = pushes[-1]["results"][0]
            assert result["accepted"] and not result["replayed"]
            assert result["command_id"] == "page-move-1" and result["version"] > seen.version
            # The seat's next turn follows, drawn at the move's version or later.
            def drawn(m: JSON) -> bool:
                return bool(m.get("pieces", {}).get("version", 0) >= result["version"])

            turn = [] if drawn(pushes[-1]) else await socket.until(drawn)
            assert log_of(pushes + turn)[-1][0] >= result["version"]
            # The same command id again: the original result, nothing recorded twice.
            again = await socket.move({**move, "command_id": "page-move-1"})
            assert again["accepted"] and again["replayed"] and again["version"] == result["version"]
            assert state_of(web_server, game_id).version == result["version"]
        finally:
            await socket.close()

    run(scenario())


def test_a_refused_move_says_why_and_the_socket_keeps_working(
        web_server: ServerProcess) -> None:
    """A move the page cannot make (a choice no longer offered, an answer
    that does not fit its form) or the service refuses (a stale version) is
    answered on the socket with its reason code; the socket stays open, the
    seat is asked again, and its next move is recorded."""
    created = create(web_server, "ethnos", ["Ann", "Bo", "Cy"])
    game_id = created.game_id
    seat = state_of(web_server, game_id).pending[0].seat
    token = created.seat_tokens[seat].token

    async def scenario() -> None:
        socket = await Socket(web_server, game_id, seat, token).open(after=0)
        try:
            pieces = (await socket.until(lambda m: "pieces" in m))[-1]["pieces"]
            form = SeatPage(pieces["play"]).forms[0]  # the band: pick cards
            stale = await socket.move({"decision_id": form["data-decision-id"],
                                       "choice": "0000000000000000", "answer": {}})
            assert not stale["accepted"] and stale["error"]["reason"] == "STALE_DECISION"
            empty = await socket.move({"decision_id": form["data-decision-id"],
                                       "choice": form["data-choice"], "answer": {}})
            assert not empty["accepted"] and empty["error"]["reason"] == "BAD_ANSWER"
            move = listed_move(pieces)
            late = await socket.move({"command_json": move["command_json"],
                                      "expected_version": pieces["version"] + 5})
            assert not late["accepted"] and late["error"]["reason"] == "VERSION_MISMATCH", late
            assert late["version"] == pieces["version"]
            done = await socket.move(move)
            assert done["accepted"] and done["version"] > pieces["version"]
        finally:
            await socket.close()

    run(scenario())


def test_a_choice_answered_before_the_first_push_is_judged_as_act_judges_it(
        web_server: ServerProcess) -> None:
    """Ethnos, "Play a Band of Allies": a person answers the band form of the
    page as it was drawn at its load, the instant its socket opens, before the
    stream's first push has reached the web side. The answer is judged against
    the seat's moves as the service lists them then (as ``/act`` judges it) and
    recorded; it was refused as STALE_DECISION, the socket not yet knowing
    the turn the page showed."""
    # No Skeletons in the game: a lone Skeleton in the first hand leads no band
    # ("a Skeleton cannot be the Leader of a band"), so the page would offer no
    # band form (a tenth of random deals: the test failed so, now and then).
    created = web_server.stub().CreateGame(game_pb2.CreateGameRequest(
        rules="ethnos", seats=["Ann", "Bo", "Cy"],
        options_json=json.dumps({"tribes": ["dwarves", "elves", "giants", "merfolk",
                                            "trolls"]})))
    game_id = created.game_id
    seat = state_of(web_server, game_id).pending[0].seat
    token = created.seat_tokens[seat].token

    async def scenario() -> None:
        socket = Socket(web_server, game_id, seat, token)
        page = SeatPage(socket.browser.get(f"/games/{game_id}/seat/{seat}").text)
        band = next(f for f in page.forms if f["data-kind"] == "pick_cards")
        card = band["checkboxes"][0]["value"]  # a band of one card: that card leads
        await socket.open(after=page.board_version, drawn=page.board_version)
        try:
            done = await socket.move({"decision_id": band["data-decision-id"],
                                      "choice": band["data-choice"],
                                      "answer": {"card": [card], "mark": [card]}})
            assert done["accepted"], done
            assert done["version"] > page.board_version
        finally:
            await socket.close()

    run(scenario())


def test_a_reconnected_page_resumes_after_its_last_version(web_server: ServerProcess) -> None:
    """A page that lost its socket opens another with the last version its
    log holds: the events after it come, each once, none missing (the seat's
    own History), then the seat's turn at the newest version."""
    created = create(web_server, "ethnos", ["Ann", "Bo", "Cy"])
    game_id, stub, rng = created.game_id, web_server.stub(), random.Random(7)
    token = created.seat_tokens[0].token
    mine = web_server.stub(token)

    async def scenario() -> None:
        socket = await Socket(web_server, game_id, 0, token).open(after=0)
        first = await socket.until(lambda m: "pieces" in m)
        last = log_of(first)[-1][0]
        await socket.close()
        for _ in range(12):  # the others (and seat 0) move while the page is away
            await asyncio.to_thread(bot_step, stub, game_id, "ethnos", rng)
        again = await Socket(web_server, game_id, 0, token).open(after=last)
        try:
            now = state_of(web_server, game_id).version
            pushes = await again.until(lambda m: m.get("pieces", {}).get("version") == now)
            history = list(mine.History(game_pb2.HistoryRequest(
                game_id=game_id, seat=0, after_version=last)))
            assert log_of(pushes) == [(e.version, event_text(e)) for e in history]
            assert [v for v, _ in log_of(pushes)] == list(range(last + 1, now + 1))
        finally:
            await again.close()
        # A page drawn at the newest version is not sent those pieces again
        # (they would redraw a form being filled in); the next version's come.
        drawn = await Socket(web_server, game_id, 0, token).open(after=now, drawn=now)
        try:
            await asyncio.to_thread(bot_step, stub, game_id, "ethnos", rng)
            newer = state_of(web_server, game_id).version
            pushes = await drawn.until(lambda m: "pieces" in m)
            assert pushes[-1]["pieces"]["version"] == newer > now
            assert [v for v, _ in log_of(pushes)] == list(range(now + 1, newer + 1))
        finally:
            await drawn.close()

    run(scenario())


def test_a_seats_socket_never_carries_another_seats_private_forms(
        web_server: ServerProcess) -> None:
    """Ethnos, "Setup" and "Recruiting an ally": a card drawn blind is its
    drawer's alone. While the others play, seat 0's socket carries each event
    in seat 0's form (its own History, line for line), never the form another
    seat sees of its own private event, and its board is seat 0's screen."""
    created = create(web_server, "ethnos", ["Ann", "Bo", "Cy"])
    game_id, stub, rng = created.game_id, web_server.stub(), random.Random(11)
    token = created.seat_tokens[0].token
    mine = web_server.stub(token)
    for _ in range(15):  # a backlog the socket catches up on
        bot_step(stub, game_id, "ethnos", rng)

    async def scenario() -> Socket:
        socket = await Socket(web_server, game_id, 0, token).open(after=0)
        try:
            await socket.until(lambda m: "pieces" in m)
            for _ in range(25):  # live: pushed as the others move
                await asyncio.to_thread(bot_step, stub, game_id, "ethnos", rng)
            now = state_of(web_server, game_id).version
            await socket.until(lambda m: m.get("pieces", {}).get("version") == now)
        finally:
            await socket.close()
        return socket

    socket = run(scenario())
    pushes = [json.loads(f) for f in socket.frames]
    own = {e.version: event_text(e) for e in mine.History(
        game_pb2.HistoryRequest(game_id=game_id, seat=0))}
    assert log_of(pushes) == sorted(own.items())
    private = []  # what another seat sees of its own events, where seat 0 sees less
    for other in (1, 2):
        theirs = web_server.stub(created.seat_tokens[other].token).History(
            game_pb2.HistoryRequest(game_id=game_id, seat=other))
        private += [event_text(e) for e in theirs
                    if event_text(e) != own[e.version] and event_text(e) not in own.values()]
    assert private, "no private event in this game: the test checks nothing"
    carried = "\n".join(json.dumps(p) for p in pushes)
    assert not [text for text in private if json.dumps(text)[1:-1] in carried]
    board = SeatPage(pushes[-1]["pieces"]["board"] if "pieces" in pushes[-1] else next(
        p["pieces"]["board"] for p in reversed(pushes) if "pieces" in p))
    seen = mine.GetState(game_pb2.GetStateRequest(game_id=game_id, seat=0))
    assert board.screen_json is not None and \
        json.loads(board.screen_json) == json.loads(seen.screen_json)


def test_the_socket_opens_for_this_sites_page_and_its_own_seat(
        web_server: ServerProcess) -> None:
    """The socket is authenticated once, by the seat's cookie (never a token in
    its address): without one it is refused NO_SESSION, from another site's
    page CROSS_ORIGIN, and a cookie of another seat is refused by the service."""
    created = create(web_server, "ethnos", ["Ann", "Bo", "Cy"])
    game_id = created.game_id
    socket = Socket(web_server, game_id, 0, created.seat_tokens[0].token)

    async def handshake(headers: dict[str, str], seat: int = 0) -> int:
        async with aiohttp.ClientSession() as http:
            try:
                ws = await http.ws_connect(socket.url.replace("/seat/0/", f"/seat/{seat}/"),
                                           headers=headers)
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status
            await ws.send_json({"after": 0})
            frame = await ws.receive(timeout=20)
            data = json.loads(frame.data)
            await ws.close()
            return int(data["error"]["code"] == "PERMISSION_DENIED") * 403

    cookie = "; ".join(f"{k}={v}" for k, v in socket.browser.cookies.items())
    assert run(handshake({"Origin": socket.origin})) == 401
    assert run(handshake({"Origin": "http://elsewhere.example", "Cookie": cookie})) == 403
    # Seat 0's cookie on seat 1's socket: the service refuses the stream's join.
    assert run(handshake({"Origin": socket.origin, "Cookie": cookie}, seat=1)) == 403


def test_a_callers_seat_sockets_count_as_its_streams(
        tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> None:
    """Each open seat socket holds one ``Play`` stream charged to the browser's
    address, as any stream is: beyond ``ARBITER_MAX_STREAMS_PER_PEER`` the next
    socket is refused RESOURCE_EXHAUSTED (said on it, then closed), and once
    one closes another opens."""
    server = ServerProcess(tmp_path_factory.mktemp("web-streams") / "data", redis_url,
                           {"ARBITER_WEB_ADDRESS": "127.0.0.1:0",
                            "ARBITER_MAX_STREAMS_PER_PEER": "2"})
    server.start()
    try:
        created = create(server, "ethnos", ["Ann", "Bo", "Cy"])
        game_id, token = created.game_id, created.seat_tokens[0].token

        async def scenario() -> None:
            held = [await Socket(server, game_id, 0, token).open(after=0) for _ in range(2)]
            for socket in held:
                await socket.until(lambda m: "pieces" in m)
            extra = await Socket(server, game_id, 0, token).open(after=0)
            refusal = (await extra.until(lambda m: "error" in m))[-1]["error"]
            # The service's reason, or, when its refusal overtook the join's
            # write (gRPC's client then loses the status), a retryable one.
            assert refusal["code"] == "RESOURCE_EXHAUSTED" or \
                (refusal["code"], refusal["reason"]) == ("UNAVAILABLE", "STREAM_REFUSED"), refusal
            assert extra.ws is not None and \
                (await extra.ws.receive(timeout=20)).type == aiohttp.WSMsgType.CLOSE
            await extra.close()
            await held.pop().close()
            # The closed socket's stream ends on the server's threads as the
            # next one opens: the first tries may still find the share full.
            for _attempt in range(50):
                again = await Socket(server, game_id, 0, token).open(after=0)
                first = await again.until(lambda m: "pieces" in m or "error" in m)
                if "pieces" in first[-1]:
                    break
                await again.close()
            else:
                raise AssertionError("the closed socket's stream was never given back")
            for socket in (*held, again):
                await socket.close()

        run(scenario())
    finally:
        server.stop_soon()
