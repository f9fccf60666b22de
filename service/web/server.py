"""The HTTP side of ``arbiter-server --web-address``: pages and the JSON gateway.

An aiohttp application on its own thread and event loop, inside the server
process. It reaches the game service only through gRPC, over the server's
private Unix socket (``service.web.backend``), so every page and gateway call
is an ordinary ``GameService`` call with the caller's credential, charged to
the HTTP client's address.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from service.limits import CallerShares, caller_of
from service.listen import split_address
from service.web import gateway, openapi
from service.web.backend import Backend
from service.web.observe import web_observer

log = logging.getLogger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
#: Every response: no referrer leaves a page (a seat link must not travel), no
#: framing, no sniffing, scripts and styles only from this server.
SECURITY_HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' data:; "
                                "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
}


@dataclasses.dataclass(frozen=True)
class Waits:
    """How long the web side waits on a client before it closes the connection
    (``ARBITER_WEB_IDLE_SECONDS``, ``ARBITER_WEB_BODY_SECONDS``)."""

    #: For a request's headers, or between requests (aiohttp's own default is an hour).
    idle: float = 15.0
    #: For a request's body once its headers came (a body dripped a byte at a
    #: time would otherwise hold its connection for ever).
    body: float = 10.0


#: Where the application keeps its ``Waits``.
WAITS = web.AppKey("waits", Waits)
#: The client faults the HTTP server logs: a request it cannot parse (a header
#: line past 8 KB, not HTTP), and a client gone before its body arrived.
CLIENT_FAULTS: tuple[type[BaseException], ...] = (
    HttpProcessingError, ConnectionError, asyncio.IncompleteReadError)


class ClientFaults(logging.Filter):
    """The HTTP server's log of requests that failed by their client's doing: one
    warning line, without a traceback, at most every ``every`` seconds, counting
    the ones it stands for. Before, each was an error-level traceback (1.2 KB),
    so a stranger could write the server's log as fast as it could connect.
    Errors of the server's own still pass as they are."""

    def __init__(self, every: float = 10.0) -> None:
        super().__init__()
        self.every = every
        self.count = 0
        self.since = 0.0
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        fault = record.exc_info[1] if record.exc_info else None
        if not isinstance(fault, CLIENT_FAULTS):
            return True
        now = time.monotonic()
        with self._lock:
            self.count += 1
            if self.since and now - self.since < self.every:
                return False
            count, self.count, self.since = self.count, 0, now
        who = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
        record.msg = ("%d request(s) the web side could not read since the last such line "
                      "(malformed, too long or abandoned by their client); the latest from "
                      "%s: %s")
        record.args = (count, who, f"{type(fault).__name__}: {str(fault).splitlines()[0][:120]}")
        record.exc_info, record.exc_text = None, None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


#: The HTTP server's own log (aiohttp's), its client faults summed up.
HTTP_LOG = logging.getLogger("service.web.http")
HTTP_LOG.addFilter(ClientFaults())


@web.middleware
async def bodies(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A request's body, read whole within ``Waits.body`` seconds before its handler
    runs (the handler's own read then returns it at once): a body that takes
    longer is refused 408 and its connection closed; a client gone mid-body has
    its connection closed, a fault of its own, not an error of the server's."""
    if request.body_exists:
        try:
            await asyncio.wait_for(request.read(), request.app[WAITS].body)
        except TimeoutError:
            response = gateway.refused(
                "DEADLINE_EXCEEDED", "SLOW_BODY",
                f"the request body took longer than {request.app[WAITS].body:g} s")
            response.set_status(408)
            response.force_close()
            return response
        except CLIENT_FAULTS:
            response = gateway.refused("INVALID_ARGUMENT", "BAD_REQUEST",
                                       "the request body ended before its length")
            response.force_close()
            return response
    return await handler(request)


class WebError(Exception):
    """The web side cannot start (its address is taken or not this machine's)."""


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Security headers on every response; a gateway path's HTTP errors as the
    gateway's JSON refusals (an oversized body, a wrong method), never HTML."""
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        if not request.path.startswith("/v1/") or exc.status < 400:
            for key, value in SECURITY_HEADERS.items():  # an error page is a page too
                exc.headers.setdefault(key, value)
            raise
        response = gateway.refused(*http_refusal(exc))
        response.set_status(exc.status)
    for key, value in SECURITY_HEADERS.items():
        response.headers.setdefault(key, value)
    return response


class RequestShares:
    """At most so many requests in progress per caller (IPv4 address or IPv6 /64,
    as the gRPC side counts them): a live page's feed is one, held open, so an
    address cannot hold every connection of the web side. Calls to the service
    are charged again, per call and per stream, by the gRPC side's shares."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held: dict[str, int] = {}

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        key = caller_of(gateway.peer(request))
        held = self.held.get(key, 0)
        if held >= self.limit:
            return gateway.refused(
                "RESOURCE_EXHAUSTED", "TOO_MANY_REQUESTS",
                f"your address has {self.limit} requests in progress here; close one")
        self.held[key] = held + 1
        try:
            return await handler(request)
        finally:
            left = self.held.get(key, 1) - 1
            if left > 0:
                self.held[key] = left
            else:
                self.held.pop(key, None)


class Connections:
    """At most so many open connections per caller (twice its requests in progress:
    room for idle keep-alive connections). A connection still sending its request's
    headers holds no request, so ``RequestShares`` never sees it; without this, one
    address could hold every file descriptor of the server's process (slowloris)."""

    def __init__(self, factory: Callable[[], asyncio.BaseProtocol], limit: int) -> None:
        self.factory = factory
        self.limit = limit
        self.held: dict[str, int] = {}

    def __call__(self) -> asyncio.Protocol:
        return _Counted(self)


class _Counted(asyncio.Protocol):
    """One connection's protocol, counted against its caller's share of connections;
    everything else is the aiohttp handler's."""

    def __init__(self, shares: Connections) -> None:
        self.shares = shares
        self.key: str | None = None
        self.inner: Any = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peername = transport.get_extra_info("peername")
        host = str(peername[0]) if isinstance(peername, tuple) and peername else ""
        key = caller_of(f"ipv6:[{host}]:0" if ":" in host else f"ipv4:{host or '0.0.0.0'}:0")
        held = self.shares.held.get(key, 0)
        if held >= self.shares.limit:
            transport.close()  # this caller holds its share: no handler, no file kept
            return
        self.shares.held[key] = held + 1
        self.key = key
        self.inner = self.shares.factory()
        self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.key is None:
            return
        left = self.shares.held.get(self.key, 1) - 1
        if left > 0:
            self.shares.held[self.key] = left
        else:
            self.shares.held.pop(self.key, None)
        self.key = None
        self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None  # type: ignore[no-any-return]

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


class CountedSite(web.TCPSite):
    """A TCP site whose connections are counted per caller (``Connections``)."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, limit: int) -> None:
        super().__init__(runner, host, port, reuse_address=True)
        self.limit = limit

    async def start(self) -> None:
        await web.BaseSite.start(self)
        server = self._runner.server
        assert server is not None
        self._server = await asyncio.get_running_loop().create_server(
            Connections(server, self.limit), self._host, self._port,
            backlog=self._backlog, reuse_address=True)


def http_refusal(exc: web.HTTPException) -> tuple[str, str, str]:
    if exc.status == 413:
        return ("RESOURCE_EXHAUSTED", "TOO_LARGE",
                "the request body is larger than this server accepts")
    if exc.status == 405:
        return "UNIMPLEMENTED", "BAD_METHOD", "use POST with a JSON body"
    return "INVALID_ARGUMENT", "BAD_REQUEST", exc.reason or "bad request"


async def openapi_document(request: web.Request) -> web.Response:
    return web.json_response(openapi.document())


def make_app(backend: Backend, max_body: int, requests_per_peer: int = 64,
             extra: Callable[[web.Application], None] | None = None,
             secure_cookies: bool = False, waits: Waits = Waits(),
             caller_shares: CallerShares | None = None) -> web.Application:
    """The application: the gateway, its OpenAPI document, and the pages."""
    shares = RequestShares(requests_per_peer)
    app = web.Application(client_max_size=max_body,
                          middlewares=[web_observer, guard, shares.middleware, bodies])
    app[gateway.BACKEND] = backend
    app[WAITS] = waits
    app.add_routes(gateway.routes())
    app.add_routes([web.get("/openapi.json", openapi_document),
                    web.get("/.well-known/openapi.json", openapi_document)])
    from service.web import bots, pages, seat, session, tables

    app[session.SECURE_COOKIES] = secure_cookies
    app.add_routes(session.routes())
    pages.install(app)  # the lobby, a game's page, its replay, its record, /static
    seat.install(app)  # a seat's page and its moves
    tables.install(app)  # the lobby's tables: open, share, join by name, play again
    app[bots.SHARES] = caller_shares  # the web's bots think on their creators' shares
    if extra is not None:
        extra(app)
    return app


class WebServer:
    """The HTTP side's thread: its loop, its site, its channel to the service."""

    def __init__(self, address: str, grpc_target: str, max_body: int,
                 requests_per_peer: int = 64, secure_cookies: bool = False,
                 waits: Waits = Waits(), shares: CallerShares | None = None) -> None:
        parsed = split_address(address)
        if parsed is None:
            raise WebError(f"the web address must be HOST:PORT, not {address!r}")
        self.host, self.port = parsed[0] or "0.0.0.0", parsed[1]
        self.backend = Backend(grpc_target, max_body)
        self.max_body = max_body
        self.requests_per_peer = requests_per_peer
        self.secure_cookies = secure_cookies
        self.waits = waits
        self.shares = shares
        self._loop = asyncio.new_event_loop()
        self._runner: web.AppRunner | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, name="web",
                                        daemon=True)
        self._thread.start()
        try:
            self._run(self._start())
        except Exception:
            self.stop()
            raise

    @property
    def url(self) -> str:
        host = "localhost" if self.host in ("0.0.0.0", "::", "") else self.host
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"

    def _run(self, work: Awaitable[Any], timeout: float = 15.0) -> Any:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout)  # type: ignore[arg-type]

    async def _start(self) -> None:
        await self.backend.open()
        self._runner = web.AppRunner(make_app(self.backend, self.max_body,
                                              self.requests_per_peer,
                                              secure_cookies=self.secure_cookies,
                                              waits=self.waits, caller_shares=self.shares),
                                     access_log=None, logger=HTTP_LOG,
                                     handle_signals=False, shutdown_timeout=2.0,
                                     keepalive_timeout=self.waits.idle)
        await self._runner.setup()
        site = CountedSite(self._runner, self.host, self.port, 2 * self.requests_per_peer)
        try:
            await site.start()
        except OSError as exc:
            raise WebError(f"cannot serve the web side on {self.host}:{self.port}: "
                           f"{exc.strerror or exc}") from None
        server: Any = site._server  # the bound port, when 0 was asked for
        if self.port == 0 and server is not None and server.sockets:
            self.port = server.sockets[0].getsockname()[1]

    async def _stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        await self.backend.close()

    def stop(self) -> None:
        """Close every HTTP connection (live pages reconnect elsewhere), then the loop."""
        if self._loop.is_running():
            try:
                self._run(self._stop())
            except Exception:  # noqa: BLE001 - stopping goes on
                log.debug("stopping the web side failed", exc_info=True)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
