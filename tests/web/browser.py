"""Headless Chromium for the web side's tests: Playwright's Python package driving
Debian's ``chromium`` (never a browser Playwright downloads).

``chromium_path()`` finds the browser ($ARBITER_CHROMIUM, ``chromium`` on the
PATH, /usr/bin/chromium); with none, the tests that need it skip with a reason
saying how to install it (``make browser``; ``.ci/run`` installs it in CI).
Each test gets its own browser context. ``Shots`` writes each page's
screenshots to ``test-artifacts/screenshots/<test>-<page>-<width>.png`` at a
phone's width (390x844) and a desktop's (1280x900), checks that the page does
not scroll sideways at the phone's width, and, when $ARBITER_SCREENSHOTS names
a folder (``docs/screenshots``, the pictures of docs/web.md), writes those pictures
(lobby, game, replay, seat) there at the desktop width.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
#: The pictures of docs/web.md ("The pages"): page name -> file name under $ARBITER_SCREENSHOTS.
README_PAGES = {"lobby": "lobby.png", "game": "game.png", "replay": "replay.png",
                "seat": "seat.png"}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
#: Chromium's flags on this kind of machine: no sandbox as root, no GPU, and no
#: connection of its own to anyone's servers (a closed network refuses them).
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: How long a page may take to show what a test waits for (generous, bounded).
WAIT_MS = 15_000


def chromium_path() -> str | None:
    """The Chromium executable to drive, or None when this machine has none."""
    for candidate in (os.environ.get("ARBITER_CHROMIUM", ""), shutil.which("chromium") or "",
                      shutil.which("chromium-browser") or "", "/usr/bin/chromium"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless Chromium for the module (each test opens its own context)."""
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium on this machine: install Debian's chromium package "
                    "(`make browser` as root, or `apt-get install chromium`)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright's Python package is not installed (`make install`)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, headless=True, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def context(chromium: Any) -> Iterator[Any]:
    """A fresh browser context (its own cookies) at the desktop's width."""
    ctx = chromium.new_context(viewport=DESKTOP, accept_downloads=True)
    ctx.set_default_timeout(WAIT_MS)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Shots:
    return Shots(request.node.name)


def horizontal_overflow(page: Any) -> tuple[int, int]:
    """(scrollWidth, innerWidth) of the page's document."""
    width, inner = page.evaluate(
        "[document.scrollingElement.scrollWidth, window.innerWidth]")
    return int(width), int(inner)


#: The outermost elements reaching past the window's right edge, as CSS-ish paths.
WIDE = """() => {
  const out = [], w = window.innerWidth;
  const path = e => { const p = [];
    for (; e && e !== document.body; e = e.parentElement)
      p.unshift(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                + (e.classList.length ? '.' + [...e.classList].join('.') : ''));
    return p.join(' > '); };
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.right > w + 1 && !(e.parentElement && out.some(o => o.el.contains(e))))
      out.push({el: e, right: Math.round(r.right)});
  }
  return out.slice(0, 5).map(o => `${path(o.el)} (to ${o.right}px)`);
}"""


def too_wide(page: Any) -> str:
    """Why a page scrolls sideways: its widest elements ("" when it does not)."""
    width, inner = horizontal_overflow(page)
    if width <= inner + 1:
        return ""
    return (f"{width}px of content in a {inner}px window; past the edge: "
            + "; ".join(page.evaluate(WIDE)))


class Shots:
    """One test's screenshots (artifacts; the pictures of docs/web.md when asked)."""

    def __init__(self, test_name: str) -> None:
        self.test = re.sub(r"[^A-Za-z0-9_.-]+", "_", test_name)
        self.readme = os.environ.get("ARBITER_SCREENSHOTS", "")

    def take(self, page: Any, name: str, readme: str = "") -> None:
        """Screenshots of ``page`` at both widths, named ``name``; the phone's
        width must not scroll sideways. ``readme``: also write that picture of docs/web.md."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        before = page.viewport_size or DESKTOP
        try:
            page.set_viewport_size(PHONE)
            settle(page)
            page.screenshot(path=str(ARTIFACTS / f"{self.test}-{name}-phone.png"))
            wide = too_wide(page)
            assert not wide, f"the {name} page scrolls sideways at a phone's width: {wide}"
            page.set_viewport_size(DESKTOP)
            settle(page)
            page.screenshot(path=str(ARTIFACTS / f"{self.test}-{name}-desktop.png"))
            if self.readme and readme in README_PAGES:
                folder = Path(self.readme)
                if not folder.is_absolute():
                    folder = ROOT / folder
                folder.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(folder / README_PAGES[readme]))
        finally:
            page.set_viewport_size(before)


def settle(page: Any) -> None:
    """Let a resized page lay itself out again (two animation frames)."""
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def poll(page: Any, probe: Callable[[], Any], timeout: float = WAIT_MS / 1000,
         what: str = "the page") -> Any:
    """``probe()`` until it returns something true, across page loads (a probe
    that meets a navigating page is tried again); fails after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while True:
        try:
            last = probe()
            if last:
                return last
        except Exception as exc:  # noqa: BLE001 - a page mid-navigation
            last = exc
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what} (last: {last!r})")
        try:
            page.wait_for_timeout(50)
        except Exception:  # noqa: BLE001 - closed under us
            time.sleep(0.05)


def wait_js(page: Any, predicate: str, arg: Any = None, timeout: float = WAIT_MS / 1000,
            what: str = "the page") -> Any:
    """The first true value of the JavaScript function ``predicate(arg)``, evaluated
    in the page at each animation frame (Playwright's ``wait_for_function``): the
    page's own change wakes the wait, where ``poll`` asks from here every 50 ms
    (an average 25 ms late, each time: a seat's page playing a 250-move game
    waited 6 s of it). A page that navigates meanwhile is asked again; fails
    after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"timed out waiting for {what}")
        try:
            return page.wait_for_function(predicate, arg=arg, polling="raf",
                                          timeout=left * 1000).json_value()
        except Exception as exc:  # noqa: BLE001 - Playwright's timeout, or a navigation
            if "Timeout" in type(exc).__name__ or time.monotonic() >= deadline:
                raise AssertionError(f"timed out waiting for {what}") from exc
            page.wait_for_timeout(10)  # a page mid-navigation: ask the new one


#: The start of an HTTP/1.1 request (the browser's side of a ``Cable``).
REQUEST_LINE = re.compile(rb"[A-Z]+ /\S* HTTP/1\.[01]\r\n")


def number_in(text: str) -> int | None:
    """The first whole number in a text ("Version 12" -> 12), or None."""
    found = re.search(r"\d+", text or "")
    return int(found.group()) if found else None


class Cable:
    """A TCP relay between the browser and the web side that the test can cut:
    every open connection drops at once (as when a phone loses its network), and
    new ones are refused until it is joined again. The server is never touched.

    ``requests``: when each request it carried began (monotonic seconds) and its
    head (request line and headers): what the page asked for, read here where
    Playwright's request events would send every one of a live page's hundreds
    of requests to the test's process."""

    def __init__(self, target: str) -> None:
        host, _, port = target.rpartition(":")
        self.target = (host.strip("[]") or "127.0.0.1", int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.open: set[socket.socket] = set()
        self.up = True
        self.closed = False
        self.accepted = 0
        self.requests: list[tuple[float, str]] = []
        threading.Thread(target=self._accept, daemon=True, name="cable").start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.accepted += 1
                self.open |= {client, upstream}
            for a, b, asks in ((client, upstream, True), (upstream, client, False)):
                threading.Thread(target=self._pump, args=(a, b, asks), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, asks: bool) -> None:
        try:
            while data := source.recv(65536):
                if asks and REQUEST_LINE.match(data):  # a request begins (one at a time)
                    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1")
                    self.requests.append((time.monotonic(), head))
                sink.sendall(data)
        except OSError:
            pass
        finally:
            self._drop(source, sink)

    def _drop(self, *socks: socket.socket) -> None:
        for sock in socks:
            with self.lock:
                self.open.discard(sock)
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def cut(self) -> None:
        """Drop every connection; refuse new ones until ``join``."""
        self.up = False
        with self.lock:
            socks = list(self.open)
        self._drop(*socks)

    def join(self) -> None:
        self.up = True

    def close(self) -> None:
        self.closed = True
        self.cut()
        self.listener.close()
