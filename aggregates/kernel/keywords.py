"""JSON Schema keywords a declared type carries beyond its type.

A leaf of the kernel (it imports nothing of it): the screen's and the
outcome's declarations (``kernel.present``, ``kernel.outcome``), which the
game class imports, use it as the games' views do, and the schema writer
(``kernel.record.schemagen``) reads it off their hints."""

from __future__ import annotations

from typing import Any


class Keywords:
    """JSON Schema keywords a view's declared type carries beyond its type
    (``Annotated[int, Keywords(minimum=0)]``): a bound, a note, the keys a
    mapping takes when the game's data lists them."""

    def __init__(self, **keywords: Any) -> None:
        self.keywords = keywords
