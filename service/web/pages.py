"""(pages: being written)"""
from aiohttp import web


def install(app: web.Application) -> None:
    """Add the pages' routes."""
