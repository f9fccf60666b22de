"""The shape of a game's events: each fact one immutable class, applied by one
pure function (the eventsourcing library's "aggregate7" style: the decider's
events and a dispatching apply).

A game declares its events in ``events.py``: one class per fact of the
rulebook, a subclass of ``Game.Event`` whose typed fields are the payload (the
library makes it a frozen dataclass). Its ``apply.py`` registers one function
per class on an ``applier()``: the function changes the game's state from the
event's facts and does nothing else (no dice, no checks, no events), so a
replay of the record rebuilds exactly the state the rules left. The game
lists both on its class (``EVENTS``, ``APPLY``); the kernel checks there that
every event has its apply.

Why classes and not ``@event`` methods: a class is a thing of its own, named
in the rulebook's words, that the schemas, the docs' event tables and the
readers are generated from (``kernel.schemagen``) and that upcasts and
topics refer to, and its apply is one function beside the others, not a
method body in the aggregate.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

#: A game's apply: ``apply(event, game)``, dispatched by the event's class.
Apply = Callable[[Any, Any], None]


def applier() -> Any:
    """A new dispatching apply, to register one function per event class on.

    Its default, for any event no function is registered for, does nothing:
    the kernel's own events (creation, end, defaults, entropy) change the
    game by their own ``@event`` bodies. A game event class left without a
    function is refused when the game class is made (``missing``).
    """

    @functools.singledispatch
    def apply(event: Any, game: Any) -> None:
        """The kernel's events are applied by the kernel."""

    return apply


def missing(apply: Any, events: Iterable[type]) -> list[str]:
    """The event classes ``apply`` has no function registered for, by name."""
    registry = getattr(apply, "registry", {})
    return [cls.__name__ for cls in events if cls not in registry]
