"""The pages' templates (``service/web/templates``), autoescaped, as responses."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web

from service.web.screen import screen_html

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
#: The log lines a game's page and a seat's page show: the latest, as a
#: table's log scrolls (a page read the whole history, and a long game's page
#: grew with it); the whole log is the replay's.
LOG_TAIL = 200


@functools.cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True, undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True,
    )
    env.globals["screen_html"] = screen_html
    return env


def page(name: str, status: int = 200, **context: Any) -> web.Response:
    """A rendered page, never cached (a game's page changes with every move)."""
    text = environment().get_template(name).render(**context)
    return web.Response(text=text, status=status, content_type="text/html",
                        headers={"Cache-Control": "no-store"})
