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


class DeclaredEvents:
    """The game's side of it (a mixin of ``Game``): its declarations, and the
    class of each event set on the game when the game class is made."""

    #: The game's own events, each one immutable class of typed facts
    #: (``aggregates.<game>.events``), and its apply (``aggregates.<game>.apply``).
    #: Each class is set on the game when it is made, so the library
    #: redeclares it there and its stored topic is ``<game module>:<Game>.<Name>``.
    EVENTS = ()  # type: tuple[type, ...]
    APPLY = None  # type: Apply | None
    #: The shapes of the recorded setup and outcome (``TypedDict``s a game
    #: with declared events states; ``kernel.schemagen`` writes their schemas).
    SETUP = dict  # type: Any
    OUTCOME = dict  # type: Any

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Set each declared event class on the game before the library reads
        the class (which redeclares it under the game, keeping its topic), and
        refuse a game whose apply lacks one."""
        declared_events = cls.__dict__.get("EVENTS", ())
        for declared_event in declared_events:
            setattr(cls, declared_event.__name__, declared_event)
        super().__init_subclass__(**kwargs)
        unapplied = missing(cls.APPLY, declared_events) if declared_events else []
        if unapplied:
            raise TypeError(f"{cls.__name__}.APPLY has no apply for {', '.join(unapplied)}")


def missing(apply: Any, events: Iterable[type]) -> list[str]:
    """The event classes ``apply`` has no function registered for, by name."""
    registry = getattr(apply, "registry", {})
    return [cls.__name__ for cls in events if cls not in registry]
