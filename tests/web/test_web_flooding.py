"""The web side's log and connections under requests that never complete
(DESIGN principle 11, "every reader's share": no caller takes the server's
disk or its connections), over a real server process.

Before: 400 requests hanging up mid-body or sending a 9 KB header line left
400 error-level tracebacks (484 KB) in the log in 2.6 s, and a body dripped a
byte every few seconds after complete headers kept its connection open for
as long as it dripped. Now such requests are summed up in one warning line
every 10 s, and a body has ``ARBITER_WEB_BODY_SECONDS`` (10 s by default) to arrive.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from tests.integration.conftest import ServerProcess
from tests.web.conftest import web_side

pytestmark = [pytest.mark.integration]

#: The body's wait of the server below: short, so that a test of it waits little.
BODY_SECONDS = 2.0


@pytest.fixture(scope="module")
def brisk_server(tmp_path_factory: pytest.TempPathFactory,
                 redis_url: str) -> Iterator[ServerProcess]:
    """A web side that gives a request's body ``BODY_SECONDS`` to arrive."""
    with web_side(tmp_path_factory, redis_url, "web-brisk",
                  ARBITER_WEB_BODY_SECONDS=str(BODY_SECONDS)) as server:
        yield server

HANG_UP = (b"POST /v1/CreateGame HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
           b"Content-Length: 100\r\n\r\n{\"rules\"")
LONG_LINE = b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"


def web_address(server: ServerProcess) -> tuple[str, int]:
    url = urlsplit(server.web_url)
    return url.hostname or "127.0.0.1", url.port or 80


def test_requests_that_never_complete_do_not_flood_the_log(web_server: ServerProcess) -> None:
    start = web_server.log_path.stat().st_size
    for n in range(200):
        with socket.create_connection(web_address(web_server)) as sock:
            sock.sendall(HANG_UP if n % 2 else LONG_LINE)
            time.sleep(0.005)
    time.sleep(1.0)
    log = web_server.log_path.read_bytes()[start:]
    assert b"Traceback" not in log, log[:2000]
    assert len(log) < 2000, f"200 bad requests wrote {len(log)} bytes of log"
    assert b"could not read" in log  # said once, counted


def test_a_dripped_body_has_its_seconds_then_408(brisk_server: ServerProcess) -> None:
    """A body dripped a byte at a time (never idle, never done) is refused 408 once
    its wait is over, and not before."""
    with socket.create_connection(web_address(brisk_server)) as sock:
        sock.sendall(b"POST /v1/CreateGame HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n")
        sock.settimeout(0.2)
        started, answer = time.monotonic(), b""
        while time.monotonic() - started < 5 * BODY_SECONDS and not answer:
            try:
                sock.sendall(b" ")  # a byte now and then: never idle, never done
                answer = sock.recv(200)
            except TimeoutError:
                continue
            except OSError:
                break
        waited = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408"), (waited, answer)
    assert BODY_SECONDS - 0.5 < waited < BODY_SECONDS + 3.0
