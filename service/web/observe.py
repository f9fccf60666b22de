"""The web side's request metrics: an aiohttp middleware, outermost.

Beside the web side (not in ``service.metrics``), so a server without web pages
never imports aiohttp: it cost every server process half a second to start.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from aiohttp import web

from service.metrics import CLIENT_CLOSED, WEB_LATENCY, WEB_REQUESTS


def route_of(request: web.Request) -> str:
    """The route pattern a request matched (``/games/{game_id}``), never its
    path (the label's values stay few); ``unmatched`` for a path with none."""
    resource = request.match_info.route.resource
    return resource.canonical if resource is not None else "unmatched"


@web.middleware
async def web_observer(request: web.Request, handler: Any) -> web.StreamResponse:
    """Count and time every web request, outermost (the refusals of the other
    middlewares are counted too)."""
    started = time.perf_counter()
    status = 500
    try:
        response = await handler(request)
        status = response.status
        return response
    except web.HTTPException as exc:
        status = exc.status
        raise
    except (asyncio.CancelledError, ConnectionResetError):
        status = CLIENT_CLOSED
        raise
    finally:
        route = route_of(request)
        WEB_REQUESTS.labels(route, request.method, str(status)).inc()
        WEB_LATENCY.labels(route).observe(time.perf_counter() - started)
