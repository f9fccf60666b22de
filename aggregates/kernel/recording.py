"""Recording: every event stamped with its dice, its command, its audience and
its hash-chain digest, and the kernel's bookkeeping followed from that stamp.

This is the integrity half of the kernel as the aggregate sees it: what makes
a stored game re-verifiable end to end (``aggregates.kernel.audit``) and
exactly-once (the seat's client command ids). Rules modules use one name of it,
``emit``; the rest is the kernel's.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Mapping
from typing import Any

from eventsourcing.domain import Aggregate, decorated_funcs

from aggregates.kernel import chain
from aggregates.kernel.seating import Audience

#: Event attributes owned by the library or the kernel, not the game's payload.
KERNEL_FIELDS = frozenset(
    {"originator_id", "originator_version", "timestamp", "originator_topic", "meta"}
)
#: The client command ids a game keeps (``command_ids``), newest; older ones
#: leave, oldest first, so a long game's state and snapshots stay small. The
#: server keeps every id in an index in the store (``service.application``).
COMMAND_WINDOW = 256

#: The creation event's dice, set while ``Game.start`` creates the aggregate.
creation_meta: contextvars.ContextVar[dict[str, Any]] = contextvars.ContextVar(
    "creation_meta"
)


def payload_of(domain_event: Any) -> dict[str, Any]:
    """The game's own attributes of a stored event (the kernel's removed)."""
    return {k: v for k, v in vars(domain_event).items() if k not in KERNEL_FIELDS}


def event_type(domain_event: Any) -> str:
    return type(domain_event).__name__


def command_key(seat: int, command_id: str) -> str:
    return f"{seat}:{command_id}"


class Recording:
    """The aggregate's recording half: ``emit`` for rules modules, the stamp on
    every event, and the chain and command ids followed on every replay."""

    # Set by the game's creation event and by every decide step.
    id: Any
    version: int
    seed: str
    head: str
    rng_counter: int
    commands_applied: int
    command_ids: dict[str, int]
    last_acted: dict[str, int]
    _draws: list[list[int]]
    _command: dict[str, Any] | None
    _audience: tuple[Audience | None, dict[str, Any] | None] | None
    #: True only on a game the audit re-executes (``kernel.audit.check_replay``):
    #: its events are compared with the recorded ones less their digests, which
    #: the chain check recomputes from the record itself, so none is made.
    unchained: bool = False

    def audience_of(self, event_type: str, payload: Mapping[str, Any]) -> Audience:
        raise NotImplementedError  # the Game's

    def emit(self, event_name: str, *, audience: Audience | None = None,
             public: Mapping[str, Any] | None = None, **payload: Any) -> None:
        """Decide: record the game's event ``event_name`` with this payload.

        Rules modules call this rather than the aggregate's private event
        methods, so they never import the aggregate class. ``audience`` (and
        the ``public`` form others get) may be given here, decided with the
        state at hand; otherwise ``audience_of``/``public_form`` decide.
        """
        event_class = event_class_of(type(self), event_name)  # type: ignore[arg-type]
        self._audience = (audience, None if public is None else dict(public))
        self.trigger_event(event_class, **payload)

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None:
        """Stamp each event with its dice, its command and its chain digest."""
        meta: dict[str, Any] = {
            "draws": self._draws,
            "rng": self.rng_counter + len(self._draws),
        }
        if self._command is not None:
            meta["cmd"] = self._command
            self._command = None
        self._draws = []
        timestamp = event_class.create_timestamp()
        payload = {k: v for k, v in kwargs.items() if k not in KERNEL_FIELDS}
        chosen, self._audience = getattr(self, "_audience", None), None
        audience, public = chosen if chosen is not None else (None, None)
        if audience is None:
            audience = self.audience_of(event_class.__name__, payload)
        meta["aud"] = audience.to_meta()
        if not audience.everyone:
            meta["pub"] = (public if public is not None
                           else type(self).public_form(  # type: ignore[attr-defined]
                               event_class.__name__, payload))
        meta["prev"] = self.head
        meta["digest"] = "" if self.unchained else chain.digest(
            self.head, str(self.id), self.version + 1, event_class.__name__,
            timestamp.isoformat(), payload, meta, chain.salt(self.seed, self.version + 1),
        )
        super().trigger_event(  # type: ignore[misc]
            event_class, timestamp=timestamp, meta=meta, **kwargs)

    def _follow_chain(self, meta: Mapping[str, Any], version: int) -> None:
        """Evolve the kernel's bookkeeping from an event's meta record.

        ``command_ids`` maps a seat's client command id (``"seat:id"``, so one
        seat can never replay or block another's) to the version of the first
        event it caused; its events run up to the next event that carries a
        command. That is all exactly-once needs to return the original result.
        It holds the newest ``COMMAND_WINDOW`` ids only (in the order applied,
        so a replay keeps the same ones).
        """
        self.head = meta["digest"]
        self.rng_counter = meta["rng"]
        command = meta.get("cmd")
        if command is not None:
            self.commands_applied += 1
            if not hasattr(self, "last_acted"):
                self.last_acted = {}  # a game recorded before Kernel 2
            self.last_acted[str(command["seat"])] = version
            if "id" in command:
                self.command_ids[command_key(command["seat"], command["id"])] = version
                while len(self.command_ids) > COMMAND_WINDOW:  # a game loaded unbounded
                    del self.command_ids[next(iter(self.command_ids))]

    def command_version(self, seat: int, command_id: str) -> int | None:
        """The first version recorded for a seat's command id, if it was applied
        among the last ``COMMAND_WINDOW`` ids (``command_window_full``)."""
        return self.command_ids.get(command_key(seat, command_id))

    def command_window_full(self) -> bool:
        """Whether ids may have left ``command_ids``: a miss then proves nothing,
        and the id must be looked up where every id is kept."""
        return len(self.command_ids) >= COMMAND_WINDOW

    def kernel_audience(self, event_type: str, payload: Mapping[str, Any],
                        meta: Mapping[str, Any]) -> tuple[Audience, dict[str, Any]]:
        """A stored event's audience and public form: as recorded in its meta
        when the event was triggered, else (a game recorded before Kernel 2)
        as the class-level rules say."""
        return recorded_audience(type(self), event_type, payload, meta)


def genesis_meta(event_name: str, game_id: Any, timestamp: Any,
                 payload: Mapping[str, Any], seed: str) -> dict[str, Any]:
    """The creation event's stamp: its dice and the chain's first digest."""
    meta = dict(creation_meta.get({"draws": [], "rng": 0}))
    meta["prev"] = chain.GENESIS
    meta["digest"] = chain.digest(
        chain.GENESIS, str(game_id), 1, event_name, timestamp.isoformat(),
        {k: v for k, v in payload.items() if k not in KERNEL_FIELDS}, meta,
        chain.salt(seed, 1),
    )
    return meta


@functools.cache
def event_class_of(game_cls: type[Aggregate], event_name: str) -> type[Aggregate.Event]:
    """The event class an ``@event`` method named ``event_name`` triggers.

    The library re-declares inherited event classes on each subclass, but only
    the class declared with the decorated method applies it, so the lookup
    walks to that one (``decorated_funcs``: eventsourcing 9.5's registry).
    """
    found = getattr(game_cls, event_name, None)
    if not isinstance(found, type) or not issubclass(found, Aggregate.Event):
        raise TypeError(f"{game_cls.__name__} has no event {event_name!r}")
    for klass in found.__mro__:
        if klass in decorated_funcs:
            return klass
    raise TypeError(f"{game_cls.__name__}.{event_name} is not an @event method's event")


def recorded_audience(
    game_cls: Any, event_type: str, payload: Mapping[str, Any], meta: Mapping[str, Any]
) -> tuple[Audience, dict[str, Any]]:
    """An event's audience and public form, read from its meta when recorded
    there (Kernel 2), else upcast from the game's class-level rules."""
    if "aud" in meta and event_type != "Created":
        audience = Audience.from_meta(meta["aud"])
        return audience, dict(meta.get("pub") or {})
    audience = game_cls.audience(event_type, payload)
    return audience, (game_cls.public_form(event_type, payload) if not audience.everyone else {})
