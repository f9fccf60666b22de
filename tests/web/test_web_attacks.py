"""The web side attacked as a stranger would: each test is one finding of a review,
failing before its fix (see the commit that adds it)."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import time
from collections.abc import Iterator
from urllib.parse import quote, urlsplit

import pytest
from arbiter.v1 import game_pb2

from tests.integration.conftest import ServerProcess
from tests.web.conftest import web_side
from tests.web.test_pages import Browser, make_game

pytestmark = [pytest.mark.integration]


#: The small server's waits, short so that the tests of them wait little (the
#: defaults are 15 s and 10 s).
IDLE_SECONDS = 3.0
HEARTBEAT_SECONDS = 1.0


@pytest.fixture(scope="module")
def small_server(tmp_path_factory: pytest.TempPathFactory,
                 redis_url: str) -> Iterator[ServerProcess]:
    """A server whose web side lets one address hold 4 requests (8 connections)
    and closes a connection idle for ``IDLE_SECONDS``, its gRPC side 3 streams,
    its feeds' heartbeat every ``HEARTBEAT_SECONDS``."""
    with web_side(tmp_path_factory, redis_url, "web-small", ARBITER_WEB_REQUESTS_PER_PEER="4",
                  ARBITER_MAX_STREAMS_PER_PEER="3", ARBITER_WEB_IDLE_SECONDS=str(IDLE_SECONDS),
                  ARBITER_FEED_HEARTBEAT_SECONDS=str(HEARTBEAT_SECONDS)) as server:
        yield server


def peek(server: ServerProcess, method: str, path: str, body: bytes | None = None,
         headers: dict[str, str] | None = None, cookie: str = "") -> tuple[int, bytes]:
    """A request's status and its body's first line (a feed is left open, then
    closed); header values go as UTF-8, as a browser or curl sends them."""
    url = urlsplit(server.web_url)
    conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=10)
    try:
        conn.putrequest(method, path)
        sent = dict(headers or {})
        if cookie:
            sent["Cookie"] = cookie
        if body is not None:
            sent["Content-Length"] = str(len(body))
        for key, value in sent.items():
            conn.putheader(key, value.encode())
        conn.endheaders(body)
        resp = conn.getresponse()
        return resp.status, resp.readline()
    finally:
        conn.close()


def cookie_of(browser: Browser) -> str:
    return "; ".join(f"{c.name}={c.value}" for c in browser.jar)


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
    assert same.status == 200 and sorted(c.name for c in own.jar) == ["arbiter_games",
                                                                       "arbiter_token"]
    assert own.open_session(created.game_id, attacker, 1).status == 200  # no browser headers


def test_odd_numbers_and_tokens_are_refusals_not_server_errors(web_server: ServerProcess) -> None:
    """``?version=``, ``?after=``, ``Last-Event-ID``, a seat number and a bearer
    token that ``str.isdigit`` or gRPC metadata cannot take (a superscript digit,
    5000 digits, more than 64 bits, a non-ASCII token): a reason code, never 500."""
    created = make_game(web_server, "ethnos", ["alice", "bob", "carol"])
    game = created.game_id
    browser = Browser(web_server.web_url)
    assert browser.open_session(game, created.spectator_token).status == 200
    seat = Browser(web_server.web_url)
    assert seat.open_session(game, created.seat_tokens[0].token, 0).status == 200
    odd = ["%C2%B2", "9" * 5000, "9" * 25]
    for value in odd:
        for path in (f"/games/{game}/board?version={value}", f"/games/{game}/log?after={value}",
                     f"/games/{game}/replay?version={value}"):
            reply = browser.get(path)
            assert reply.status == 400 and "BAD_ARGUMENT" in reply.body, (path, reply.status)
        for path in (f"/games/{game}/seat/0/panel?after={value}",):
            reply = seat.get(path)
            assert reply.status == 200, (path, reply.status)
    for path in (f"/games/{game}/seat/%C2%B2", f"/games/{game}/seat/%C2%B2/panel"):
        reply = seat.get(path)
        assert reply.status == 404, (path, reply.status)
    sse = {"Accept": "text/event-stream"}
    for value in ("\u00b2", "9" * 25):  # a feed ignores a Last-Event-ID it cannot read
        for path, who in ((f"/games/{game}/live", browser),
                          (f"/games/{game}/seat/0/live", seat)):
            status, line = peek(web_server, "GET", path, headers={**sse, "Last-Event-ID": value},
                                cookie=cookie_of(who))
            assert status == 200, (path, value, status, line)
            status, line = peek(web_server, "GET", path + "?after=" + quote(value), headers=sse,
                                cookie=cookie_of(who))
            assert status in (200, 400), (path, value, status, line)
        status, line = peek(
            web_server, "POST", "/v1/Subscribe",
            json.dumps({"game_id": game, "spectator": True}).encode(),
            {**sse, "Last-Event-ID": value, "Authorization": "Bearer " + created.spectator_token})
        assert status == 200, (value, status, line)
    status, line = peek(web_server, "POST", "/v1/GetState", json.dumps({"game_id": game}).encode(),
                        {"Authorization": "Bearer arb_\u00e9t\u00e9"})
    assert status == 401 and b"BAD_TOKEN" in line, (status, line)


def test_one_address_cannot_hold_connections_that_never_finish_their_headers(
        small_server: ServerProcess) -> None:
    """Slowloris: connections that send a request's headers a little at a time are
    no request yet, so the per-address request share never counted them, and
    aiohttp keeps a connection waiting for headers for an hour: one address could
    hold every file descriptor of the server's process (its store, its gRPC port).
    Now an address holds at most twice its requests in connections (beyond, a new
    one is closed at once), and a connection that has not sent its headers within
    ``ARBITER_WEB_IDLE_SECONDS`` is closed; others are served meanwhile."""
    url = urlsplit(small_server.web_url)
    port = url.port or 80
    held = []
    for _ in range(8):
        conn = socket.create_connection(("127.0.0.1", port), timeout=5)
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        held.append(conn)
    time.sleep(0.5)
    extra = socket.create_connection(("127.0.0.1", port), timeout=5)
    extra.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    with contextlib.suppress(ConnectionResetError):
        assert extra.recv(100) == b"", "a ninth connection from one address was kept"
    other = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                       source_address=("127.0.0.2", 0))
    other.request("GET", "/static/live.js")
    assert other.getresponse().status == 200  # another address is served meanwhile
    other.close()
    started = time.monotonic()
    for conn in held:  # the server closes each within its header timeout
        conn.settimeout(max(1.0, IDLE_SECONDS + 5 - (time.monotonic() - started)))
        with contextlib.suppress(ConnectionResetError):
            while conn.recv(4096):  # (a 4xx answer, then the end)
                pass
    assert time.monotonic() - started < IDLE_SECONDS + 5
    for conn in held:
        conn.close()
    time.sleep(0.5)
    again = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    again.request("GET", "/static/live.js")
    assert again.getresponse().status == 200
    again.close()


def test_deeply_nested_json_is_a_refusal_not_a_server_error(web_server: ServerProcess) -> None:
    """JSON nested a few thousand deep (well under the body limit) made Python's
    ``json`` raise ``RecursionError``, which no handler caught: a 500 and a
    traceback. Now each is a 400 with its reason code, and nothing is recorded."""
    created = make_game(web_server, "ethnos", ["alice", "bob", "carol"])
    game = created.game_id
    deep = "[" * 20000 + "]" * 20000
    deep_object = '{"a":' * 3000 + "1" + "}" * 3000
    seat = Browser(web_server.web_url)
    assert seat.open_session(game, created.seat_tokens[0].token, 0).status == 200
    bearer = {"Authorization": "Bearer " + created.seat_tokens[0].token}
    json_type = {"Content-Type": "application/json"}
    cases = [
        ("/v1/GetState", deep, bearer, "BAD_MESSAGE"),
        ("/v1/Act", '{"game_id": "' + game + '", "command": {"ethnos": ' + deep_object + "}}",
         bearer, "BAD_MESSAGE"),
        (f"/games/{game}/session", deep, json_type, "BAD_TOKEN"),
        (f"/games/{game}/seat/0/act", deep, json_type, "BAD_MESSAGE"),
        (f"/games/{game}/seat/0/act", json.dumps({"command_json": deep}), json_type,
         "BAD_COMMAND"),
        (f"/games/{game}/seat/0/act", '{"choice": 0, "answer": {"card": ' + deep_object + "}}",
         json_type, None),
    ]
    auth = [("authorization", "Bearer " + created.seat_tokens[0].token)]
    before = web_server.stub().GetState(game_pb2.GetStateRequest(game_id=game, seat=0),
                                        metadata=auth).version
    for path, body, headers, reason in cases:
        reply = seat.request("POST", path, body.encode(), headers)
        assert reply.status in (400, 409), (path, reply.status, reply.body[:200])
        error = json.loads(reply.body)["error"]
        assert reason is None or error["reason"] == reason, (path, error)
    assert web_server.stub().GetState(game_pb2.GetStateRequest(game_id=game, seat=0),
                                      metadata=auth).version == before


class FakeContext:
    def __init__(self, peer: str, metadata: list[tuple[str, str]]) -> None:
        self._peer, self._metadata = peer, metadata

    def peer(self) -> str:
        return self._peer

    def invocation_metadata(self) -> list[tuple[str, str]]:
        return self._metadata


def test_a_caller_on_a_served_unix_socket_cannot_claim_another_address() -> None:
    """A server serving its clients on a Unix socket (``--address unix:...``) took
    ``arbiter-forwarded-for`` from any of them, as if from its own web side: a
    local caller naming a new address each call escaped every per-caller limit
    (30 of 30 calls at 2 a second). Now only calls carrying this process's own
    proof, which its web side alone holds, name the caller they are made for."""
    from service import auth
    from service.web.backend import Backend

    forged = FakeContext("unix:", [("arbiter-forwarded-for", "ipv4:10.0.0.1:0")])
    assert auth.peer_of(forged) == "unix:"
    wrong = FakeContext("unix:", [("arbiter-forwarded-for", "ipv4:10.0.0.1:0"),
                                  ("arbiter-forwarded-proof", "guess")])
    assert auth.peer_of(wrong) == "unix:"
    web_side = FakeContext("unix:", Backend.metadata("tok", "ipv4:10.0.0.1:0"))
    assert auth.peer_of(web_side) == "ipv4:10.0.0.1:0"
    tcp = FakeContext("ipv4:127.0.0.1:5555", Backend.metadata("", "ipv4:10.0.0.1:0"))
    assert auth.peer_of(tcp) == "ipv4:127.0.0.1:5555"


def test_a_closed_seat_feed_gives_its_stream_back(small_server: ServerProcess) -> None:
    """A seat page's feed (``/seat/<n>/live``, and ``/v1/Subscribe``) whose browser
    went away kept its gRPC ``Subscribe`` open until the garbage collector found
    it, minutes later: each reload of a seat page cost one of the address's
    stream slots, and after ``ARBITER_MAX_STREAMS_PER_PEER`` reloads the seat's
    page itself was refused (429 TOO_MANY_STREAMS). Now the stream ends when the
    server notices the client gone (its next write: a heartbeat at the latest)."""
    created = make_game(small_server, "ethnos", ["alice", "bob", "carol"])
    game = created.game_id
    seat = Browser(small_server.web_url)
    assert seat.open_session(game, created.seat_tokens[0].token, 0).status == 200
    url = urlsplit(small_server.web_url)
    head = (f"GET /games/{game}/seat/0/live HTTP/1.1\r\nHost: x\r\n"
            f"Accept: text/event-stream\r\nCookie: {cookie_of(seat)}\r\n\r\n").encode()

    def open_feed() -> tuple[socket.socket, bytes]:
        conn = socket.create_connection(("127.0.0.1", url.port or 80), timeout=10)
        conn.sendall(head)
        return conn, conn.recv(200).split(b"\r\n")[0]

    feeds = [open_feed() for _ in range(3)]
    assert [status for _, status in feeds] == [b"HTTP/1.1 200 OK"] * 3, feeds
    for conn, _ in feeds:
        conn.close()
    # The three slots come back as a heartbeat finds each feed gone:
    # a feed opened meanwhile is refused, and one opened after, kept, is served.
    held: list[socket.socket] = []
    deadline = time.monotonic() + 10 * HEARTBEAT_SECONDS + 5
    while len(held) < 3:
        assert time.monotonic() < deadline, f"only {len(held)} of the 3 slots came back"
        conn, status = open_feed()
        if status == b"HTTP/1.1 200 OK":
            held.append(conn)
        else:
            conn.close()
            time.sleep(0.5)
    for conn in held:
        conn.close()


def test_numbers_beyond_the_messages_fields_are_refusals(web_server: ServerProcess) -> None:
    """A seat number over 32 bits in ``/session`` and an ``expected_version`` over
    64 bits in a seat's ``/act`` reached protobuf, which raised ``ValueError``:
    500 and a traceback. Now each is a 400 with its reason; nothing is recorded."""
    created = make_game(web_server, "ethnos", ["alice", "bob", "carol"])
    game, token = created.game_id, created.seat_tokens[1].token
    browser = Browser(web_server.web_url)
    json_type = {"Content-Type": "application/json"}
    for seat in (2**32, 10**30):
        reply = browser.request("POST", f"/games/{game}/session",
                                json.dumps({"token": token, "seat": seat}).encode(), json_type)
        assert reply.status == 400 and "BAD_ARGUMENT" in reply.body, (seat, reply.body[:200])
    assert browser.open_session(game, token, 1).status == 200
    before = created.state.version
    for expected in (2**64, 10**30):
        reply = browser.request("POST", f"/games/{game}/seat/1/act", json.dumps({
            "expected_version": expected,
            "command_json": json.dumps({"name": "recruit_from_deck", "args": {}})}).encode(),
            json_type)
        assert reply.status == 400 and "BAD_MESSAGE" in reply.body, (expected, reply.body[:200])
    auth = [("authorization", "Bearer " + token)]
    assert web_server.stub().GetState(game_pb2.GetStateRequest(game_id=game, seat=1),
                                      metadata=auth).version == before


def test_error_responses_carry_the_security_headers(web_server: ServerProcess) -> None:
    """aiohttp's own error responses (an unknown route, a wrong method, a path that
    names no game, which it repeats: ``'<script>…' is not a game id``) went out
    without the headers every response should carry (no sniffing, the CSP, no
    framing, no referrer): the guard added them only to returned responses."""
    for method, path in (("GET", "/games/%3Cscript%3Ealert(1)%3C%2Fscript%3E/seat/1"),
                         ("GET", "/no/such/page"), ("PUT", "/"), ("TRACE", "/"),
                         ("GET", "/static/"), ("GET", "/static/../server.py")):
        url = urlsplit(web_server.web_url)
        conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=10)
        conn.request(method, path)
        resp = conn.getresponse()
        headers = {k.lower(): v for k, v in resp.getheaders()}
        conn.close()
        assert resp.status >= 400, (method, path, resp.status)
        assert headers.get("x-content-type-options") == "nosniff", (method, path, headers)
        assert "default-src 'self'" in headers.get("content-security-policy", ""), (path,)
        assert headers.get("x-frame-options") == "DENY" and \
            headers.get("referrer-policy") == "no-referrer", (path, headers)
