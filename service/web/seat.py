"""(the seat's page: being written)"""
from aiohttp import web


def install(app: web.Application) -> None:
    """Add the seat page's routes."""
