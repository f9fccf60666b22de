"""The HTTP side of ``arbiter-server --web-address``: pages and the JSON gateway.

An aiohttp application on its own thread and event loop, inside the server
process. It reaches the game service only through gRPC, over the server's
private Unix socket (``service.web.backend``), so every page and gateway call
is an ordinary ``GameService`` call with the caller's credential, charged to
the HTTP client's address.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from service.limits import caller_of
from service.listen import split_address
from service.web import gateway, openapi
from service.web.backend import Backend

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
             extra: Callable[[web.Application], None] | None = None) -> web.Application:
    """The application: the gateway, its OpenAPI document, and the pages."""
    shares = RequestShares(requests_per_peer)
    app = web.Application(client_max_size=max_body, middlewares=[guard, shares.middleware])
    app[gateway.BACKEND] = backend
    app.add_routes(gateway.routes())
    app.add_routes([web.get("/openapi.json", openapi_document),
                    web.get("/.well-known/openapi.json", openapi_document)])
    from service.web import pages, seat, session

    app.add_routes(session.routes())
    pages.install(app)  # the lobby, a game's page, its replay, its record, /static
    seat.install(app)  # a seat's page and its moves
    if extra is not None:
        extra(app)
    return app


class WebServer:
    """The HTTP side's thread: its loop, its site, its channel to the service."""

    def __init__(self, address: str, grpc_target: str, max_body: int,
                 requests_per_peer: int = 64) -> None:
        parsed = split_address(address)
        if parsed is None:
            raise WebError(f"the web address must be HOST:PORT, not {address!r}")
        self.host, self.port = parsed[0] or "0.0.0.0", parsed[1]
        self.backend = Backend(grpc_target, max_body)
        self.max_body = max_body
        self.requests_per_peer = requests_per_peer
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
                                              self.requests_per_peer), access_log=None,
                                     handle_signals=False, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port, reuse_address=True)
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
