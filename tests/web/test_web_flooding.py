"""The web side's log and connections under requests that never complete
(DESIGN principle 11, "every reader's share": no caller takes the server's
disk or its connections), over a real server process.

Before: 400 requests hanging up mid-body or sending a 9 KB header line left
400 error-level tracebacks (484 KB) in the log in 2.6 s, and a body dripped a
byte every few seconds after complete headers kept its connection open for
as long as it dripped. Now such requests are summed up in one warning line
every 10 s, and a body has 10 s to arrive.
"""

from __future__ import annotations

import socket
import time
from urllib.parse import urlsplit

import pytest

from tests.integration.conftest import ServerProcess

pytestmark = [pytest.mark.integration]

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


def test_a_dripped_body_has_ten_seconds(web_server: ServerProcess) -> None:
    with socket.create_connection(web_address(web_server)) as sock:
        sock.sendall(b"POST /v1/CreateGame HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n")
        sock.settimeout(0.5)
        started, answer = time.monotonic(), b""
        while time.monotonic() - started < 25 and not answer:
            try:
                sock.sendall(b" ")  # a byte now and then: never idle, never done
                answer = sock.recv(200)
            except TimeoutError:
                time.sleep(2.0)
            except OSError:
                break
        waited = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408"), (waited, answer)
    assert 9.0 < waited < 13.0
