"""Recording: every event stamped with its dice, its command, its audience and
its hash-chain digest, and the kernel's bookkeeping followed from that stamp.

This is the integrity half of the kernel as the aggregate sees it: what makes
a stored game re-verifiable end to end (``aggregates.kernel.record.audit``) and
exactly-once (the seat's client command ids). Rules modules use one name of it,
``emit``; the rest is the kernel's.
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from eventsourcing.domain import Aggregate, CanMutateAggregate, DomainEvent, decorated_funcs

from aggregates.kernel.record import chain
from aggregates.kernel.seating import Audience

#: Event attributes owned by the library or the kernel, not the game's payload.
KERNEL_FIELDS = frozenset(
    {"originator_id", "originator_version", "timestamp", "originator_topic", "meta"}
)
#: The client command ids a game keeps (``command_ids``), newest; older ones
#: leave, oldest first, so a long game's state stays small. The server keeps
#: every id in an index in the store (``service.application``). A snapshot
#: keeps none of them, only where they are recorded (``window_left_to_events``).
COMMAND_WINDOW = 256

#: The creation event's dice, set while ``Game.start`` creates the aggregate.
creation_meta: contextvars.ContextVar[dict[str, Any]] = contextvars.ContextVar(
    "creation_meta"
)


#: ``KERNEL_FIELDS`` as a tuple, for ``payload_of``.
_KERNEL_FIELD_NAMES = tuple(sorted(KERNEL_FIELDS))


def payload_of(domain_event: Any) -> dict[str, Any]:
    """The game's own attributes of a stored event (the kernel's removed), in
    their order: a copy with the few kernel names dropped, not a filter of
    every attribute (the audit takes it of every re-executed event)."""
    payload = dict(vars(domain_event))
    for name in _KERNEL_FIELD_NAMES:
        payload.pop(name, None)
    return payload


def event_type(domain_event: Any) -> str:
    return type(domain_event).__name__


def command_key(seat: int, command_id: str) -> str:
    return f"{seat}:{command_id}"


class WindowIncomplete(LookupError):
    """A command id was looked up on a game whose older ids are still in its
    stored events only (``Recording.command_gap``): a miss would prove
    nothing, so there is no answer until the window is filled."""


def remember_command(ids: dict[str, int], key: str, version: int) -> None:
    """Add a command id to a window, its oldest leaving when it is over
    ``COMMAND_WINDOW`` (a game loaded with more loses them all at once): the
    one rule of the window, for replays and refills alike."""
    ids[key] = version
    while len(ids) > COMMAND_WINDOW:
        del ids[next(iter(ids))]


def newest_ids(newest_first: Iterable[tuple[int, Mapping[str, Any] | None]],
               count: int) -> list[tuple[str, int]]:
    """The newest ``count`` client command ids that stored events carry, given
    the events' (version, meta) newest first (read only as far as needed),
    each with the version of the first event of its command (the one that
    records it), oldest first."""
    found: list[tuple[str, int]] = []
    if count <= 0:
        return found
    for version, meta in newest_first:
        command = (meta or {}).get("cmd")
        if command is not None and "id" in command:
            found.append((command_key(command["seat"], command["id"]), version))
            if len(found) == count:
                break
    found.reverse()
    return found


def filled_window(ids: Mapping[str, int], gap: Sequence[int],
                  older: Sequence[tuple[str, int]]) -> dict[str, int]:
    """The whole window of a game holding ``ids`` after its ``gap``, given
    ``older``, the gap's ids (``newest_ids``): those, then ``ids``, the
    window's rule applied to the whole. Exactly the window a replay of every
    event makes: the snapshot's window was the newest ids up to its version,
    and ``ids`` are the ones applied since."""
    count = gap[1]
    window: dict[str, int] = {}
    for key, version in list(older)[max(0, len(older) - count):]:
        remember_command(window, key, version)
    for key, version in ids.items():
        remember_command(window, key, version)
    return window


def window_left_to_events(state: Mapping[str, Any], version: int) -> dict[str, Any]:
    """A game's state as a snapshot at ``version`` keeps it: without its
    client command ids, which would be most of it (about 42 bytes each, up to
    ``COMMAND_WINDOW``), but with where they are recorded: ``command_gap``,
    ``[last, count]``, the window being the newest ``count`` ids that the
    game's events up to version ``last`` carry (here ``version`` itself). A
    game loaded from it fills its window from those events, newest first,
    when it first needs it (``ArbiterApp.act``), so a snapshot's size no
    longer depends on how many commands the game has had, and taking one
    reads nothing: a game loaded from such a snapshot and snapshotted again
    counts the ids it has applied since into its gap.

    A window over ``COMMAND_WINDOW`` (a game loaded from a snapshot of a release
    that kept every id) is kept as it is: its next command must still see the
    ids it pushes out, to index them."""
    ids = state.get("command_ids")
    if not isinstance(ids, dict) or len(ids) > COMMAND_WINDOW:
        return dict(state)
    gap = state.get("command_gap")
    if gap is None and not ids:
        return dict(state)
    held = min(gap[1], COMMAND_WINDOW - len(ids)) if gap is not None else 0
    return {**state, "command_ids": {}, "command_gap": [version, held + len(ids)]}


class Recording:
    """The aggregate's recording half: ``emit`` for rules modules, the stamp on
    every event, and the chain and command ids followed on every replay."""

    # Set by the game's creation event and by every decide step.
    id: Any
    version: int
    modified_on: Any
    seed: str
    head: str
    rng_counter: int
    commands_applied: int
    command_ids: dict[str, int]
    #: ``[last, count]`` on a game loaded from a snapshot that left its window
    #: to the events (``window_left_to_events``) until the window is filled
    #: (``fill_command_window``) or newer ids alone fill it: the window's older
    #: ids are the newest ``count`` that events up to ``last`` carry. The
    #: class's None otherwise, so no other game's state holds it.
    command_gap: list[int] | None = None
    last_acted: dict[str, int]
    _draws: list[list[int]]
    _command: dict[str, Any] | None
    _audience: tuple[Audience | None, dict[str, Any] | None] | None
    #: The library's (``BaseAggregate``), read and set here on the unchained path.
    _id: Any
    _version: int
    _modified_on: Any
    #: True only on a game the audit re-executes (``kernel.audit.check_replay``):
    #: its events are compared with the recorded ones less their digests, which
    #: the chain check recomputes from the record itself, so none is made.
    unchained: bool = False
    #: Shown every event an unchained game makes, with the game and the
    #: event's payload (its game attributes in order; None: not at hand), as
    #: soon as it is applied (the audit compares it with its record there,
    #: and the stored snapshots with the game: ``kernel.record.audit.check_replay``);
    #: None on every other game. Given the game rather than holding it, so
    #: the game and its watcher make no cycle for the collector to find.
    on_applied: Callable[[Any, Any, dict[str, Any] | None], None] | None = None

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
        self._stamp(event_class, payload)

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None:
        """Stamp each event with its dice, its command and its chain digest."""
        self._stamp(event_class, kwargs)

    def _stamp(self, event_class: Any, kwargs: dict[str, Any]) -> None:
        """``trigger_event`` of a payload given as a dictionary of its own
        (``emit``'s keywords, which nothing reads after: not packed again)."""
        meta: dict[str, Any] = {
            "draws": self._draws,
            "rng": self.rng_counter + len(self._draws),
        }
        if self._command is not None:
            meta["cmd"] = self._command
            self._command = None
        self._draws = []
        unchained = self.unchained
        # An unchained event's time is nobody's (the record's is the chain's,
        # the audit's state comparisons put it back): the last event's, no
        # clock read.
        timestamp = self._modified_on if unchained else event_class.create_timestamp()
        payload = (kwargs if KERNEL_FIELDS.isdisjoint(kwargs)
                   else {k: v for k, v in kwargs.items() if k not in KERNEL_FIELDS})
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
        if unchained:
            meta["digest"] = ""
            self._apply_unchained(event_class, timestamp, meta, kwargs)
            return
        meta["digest"] = chain.digest(
            self.head, str(self.id), self.version + 1, event_class.__name__,
            timestamp.isoformat(), payload, meta, chain.salt(self.seed, self.version + 1),
        )
        super().trigger_event(  # type: ignore[misc]
            event_class, timestamp=timestamp, meta=meta, **kwargs)

    def _apply_unchained(self, event_class: Any, timestamp: Any, meta: dict[str, Any],
                         kwargs: dict[str, Any]) -> None:
        """The library's ``trigger_event`` for a game whose events are compared
        or thrown away (``unchained``), without its per-event costs: the event
        is made as the library's mapper makes a stored one (its attributes set
        at once, in its fields' order, not one by one through the frozen
        dataclass's ``__init__``), then applied as the library does. The same
        event and the same state; a class this cannot make so is left to the
        library (``lean_fields``).

        A game watched event by event (``on_applied``: the audit's) keeps
        none of its events: each is shown to the watcher with its payload as
        soon as it is applied, and dropped, so nothing collects them after
        every command. Any other unchained game keeps them, as the library does."""
        fields = lean_fields(event_class)
        on_applied = self.on_applied
        if fields is None:
            super().trigger_event(  # type: ignore[misc]
                event_class, timestamp=timestamp, meta=meta, **kwargs)
            if on_applied is not None:
                on_applied(self, self._pending_events.pop(), None)  # type: ignore[attr-defined]
            return
        version = self._version + 1
        given = {"originator_id": self._id, "originator_version": version,
                 "timestamp": timestamp, "meta": meta, **kwargs}
        names, defaults = fields
        # The event's game attributes in their order: the rules' own keywords
        # when every field is given in order and none is the kernel's.
        payload: dict[str, Any] | None = kwargs
        if tuple(given) != names:  # not every field given, in its order
            payload = None
            if len(given) != len(names) or not given.keys() <= defaults.keys():
                given = _with_defaults(event_class, given, names, defaults)
            given = {name: given[name] for name in names}
        elif not KERNEL_FIELDS.isdisjoint(kwargs):
            payload = None
        new_event = object.__new__(event_class)
        object.__setattr__(new_event, "__dict__", given)
        # The library's ``mutate`` less its checks of the event's id and
        # version, which hold by construction here.
        new_event.apply(self)
        self._version = version
        self._modified_on = timestamp
        if on_applied is None:
            self._pending_events.append(new_event)  # type: ignore[attr-defined]
        else:
            on_applied(self, new_event, payload)

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
                remember_command(self.command_ids, command_key(command["seat"], command["id"]),
                                 version)
                if self.command_gap is not None and len(self.command_ids) >= COMMAND_WINDOW:
                    del self.command_gap  # every id it stood for has left the window

    def command_version(self, seat: int, command_id: str) -> int | None:
        """The first version recorded for a seat's command id, if it was applied
        among the last ``COMMAND_WINDOW`` ids (``command_window_full``).
        ``WindowIncomplete`` when it is not among the ids held and older ones
        are still to be filled in from the events (``command_gap``)."""
        found = self.command_ids.get(command_key(seat, command_id))
        if found is None and self.command_gap is not None:
            raise WindowIncomplete(f"game {self.id}: its window is to be filled first")
        return found

    def command_window_full(self) -> bool:
        """Whether ids may have left the window: a miss then proves nothing,
        and the id must be looked up where every id is kept."""
        held = len(self.command_ids) + (self.command_gap[1] if self.command_gap else 0)
        return held >= COMMAND_WINDOW

    def fill_command_window(self, older: Sequence[tuple[str, int]]) -> None:
        """Fill in the window's older ids (``command_gap``) from ``older``, the
        ids its events carry (``newest_ids``): the game then holds the window a
        replay of every event makes."""
        gap = self.command_gap
        if gap is not None:
            self.command_ids = filled_window(self.command_ids, gap, older)
            del self.command_gap

    def kernel_audience(self, event_type: str, payload: Mapping[str, Any],
                        meta: Mapping[str, Any]) -> tuple[Audience, dict[str, Any]]:
        """A stored event's audience and public form: as recorded in its meta
        when the event was triggered, else (a game recorded before Kernel 2)
        as the class-level rules say."""
        return recorded_audience(type(self), event_type, payload, meta)


#: A field's default on an event class (``lean_fields``): none, a value, or a factory.
_NO_DEFAULT: Any = object()


@functools.cache
def lean_fields(event_class: type) -> tuple[tuple[str, ...], dict[str, Any]] | None:
    """(an event class's fields in order, each field's default or factory)
    when ``Recording._apply_unchained`` can make and apply its events as the
    library would (every field set by ``__init__``, no check after it but the
    library's own originator id check, which a game's id always passes; the
    library's own ``mutate``); None otherwise."""
    if not dataclasses.is_dataclass(event_class) \
            or getattr(event_class, "mutate", None) is not CanMutateAggregate.mutate:
        return None
    post_init = getattr(event_class, "__post_init__", None)
    if post_init is not None and post_init is not DomainEvent.__post_init__:
        return None
    names: list[str] = []
    defaults: dict[str, Any] = {}
    for field in dataclasses.fields(event_class):
        if not field.init:
            return None
        names.append(field.name)
        if field.default is not dataclasses.MISSING:
            defaults[field.name] = field.default
        elif field.default_factory is not dataclasses.MISSING:
            defaults[field.name] = _Factory(field.default_factory)
        else:
            defaults[field.name] = _NO_DEFAULT
    return tuple(names), defaults


@dataclasses.dataclass(frozen=True)
class _Factory:
    """A field's default factory, told apart from a default value."""

    make: Any


def _with_defaults(event_class: type, given: dict[str, Any], names: tuple[str, ...],
                   defaults: dict[str, Any]) -> dict[str, Any]:
    """``given`` with the defaults of the fields it leaves out; ``TypeError``
    for a field unknown or missing, as the dataclass's ``__init__`` raises."""
    unknown = [k for k in given if k not in defaults]
    if unknown:
        raise TypeError(f"Can't construct event {event_class}: unexpected {unknown[0]!r}")
    out = dict(given)
    for name in names:
        if name not in out:
            default = defaults[name]
            if default is _NO_DEFAULT:
                raise TypeError(f"Can't construct event {event_class}: {name!r} is missing")
            out[name] = default.make() if isinstance(default, _Factory) else default
    return out


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
    """The event class an ``@event`` method (or a declared event class)
    named ``event_name`` triggers.

    The library re-declares inherited event classes on each subclass, but only
    the class declared with the decorated method applies it, so the lookup
    walks to that one (``decorated_funcs``: eventsourcing 9.5's registry).
    """
    found = getattr(game_cls, event_name, None)
    if not isinstance(found, type) or not issubclass(found, Aggregate.Event):
        raise TypeError(f"{game_cls.__name__} has no event {event_name!r}")
    declared = set(getattr(game_cls, "EVENTS", ()))
    for klass in found.__mro__:
        # A declared event class (``kernel.facts``) is triggered as the class
        # the library redeclared it as on the game that lists it.
        if klass in decorated_funcs or (klass.__bases__ and klass.__bases__[0] in declared):
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
