"""Upcasting: old events read in the shape the current rules record, while the
hash chain stays over the bytes as stored.

An event class that now records more (or differently) declares its version
and the steps from each older one with ``versioned``. The steps ride on the
``eventsourcing`` library's own upcasting (``class_version`` and
``upcast_vN_vN+1`` on the event class), so a game loaded from the store gets
every old event in the new shape. Each step is stateless: it sees one stored
event, never the game around it, which is what lets the library, a ``History``
reader and an offline verifier all upcast alike.

Why the stored payload rides along: an event's digest was computed over its
payload as stored, and an upcast payload would no longer match it. So the
first step copies the stored payload into the event's ``meta`` under
``STORED`` (only full readers get the meta, and it is theirs to see); the
chain check recomputes the digest over that form (``stored_form``), and the
re-execution check compares the upcast form with what the current rules
produce (``comparable``), both in ``aggregates.kernel.record.audit``.

Some facts an old event never recorded cannot be derived from it alone (the
magic items one could have chosen, say, depend on the state before it). A step
sets those to None and names them ``unrecorded``: re-execution derives them,
and the comparison leaves them out, since the stored record never vouched for
them.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from collections.abc import Callable, Mapping
from typing import Any

#: The meta key holding an upcast event's payload as stored (and what it lacked).
STORED = "stored"
#: Event attributes that are not the game's payload (``game.KERNEL_FIELDS``, and
#: the library's version marker, present in a stored state until it is upcast).
_NOT_PAYLOAD = frozenset(
    {"originator_id", "originator_version", "timestamp", "originator_topic", "meta",
     "class_version"}
)


@dataclasses.dataclass(frozen=True)
class Step:
    """One upcast, from version N to N+1 of an event class.

    ``apply`` changes a payload in place (it may read every key the stored
    event had). ``added`` names the keys version N+1 has that N had not (how a
    plain record, which carries no class version, shows which version it is);
    ``unrecorded`` names those of them the old event cannot supply (set None).
    """

    apply: Callable[[dict[str, Any]], None]
    added: tuple[str, ...]
    unrecorded: tuple[str, ...] = ()


def versioned(event_class: type, *steps: Step) -> None:
    """Declare ``event_class`` at version ``len(steps) + 1`` with its upcasts.

    Must be called on the class an ``@event`` method triggers (the game's
    ``_event_class``), which is the class whose topic is stored.
    """
    event_class.class_version = len(steps) + 1  # type: ignore[attr-defined]
    event_class.upcast_steps = tuple(steps)  # type: ignore[attr-defined]
    for number, step in enumerate(steps, start=1):
        setattr(event_class, f"upcast_v{number}_v{number + 1}",
                staticmethod(_library_step(step, number)))


def _library_step(step: Step, number: int) -> Callable[[dict[str, Any]], None]:
    """The library's ``upcast_vN_vN+1``: keep the stored payload, then upcast."""
    return _keeping(number, functools.partial(_apply, step=step))


def _keeping(version: int, change: Callable[[dict[str, Any]], None]
             ) -> Callable[[dict[str, Any]], None]:
    """An upcast that keeps the payload as stored (before the first step),
    then changes the state (a step, or the retype of a stored type)."""

    def upcast(state: dict[str, Any]) -> None:
        _keep_stored(state, version)
        change(state)

    return upcast


def _keep_stored(state: dict[str, Any], version: int) -> None:
    """Copy the payload as stored into the meta, once (before the first step)."""
    meta = dict(state.get("meta") or {})
    if STORED not in meta:
        payload = {k: copy.deepcopy(v) for k, v in state.items() if k not in _NOT_PAYLOAD}
        meta[STORED] = {"payload": payload, "class_version": version, "unrecorded": []}
        state["meta"] = meta


def _apply(state: dict[str, Any], step: Step) -> None:
    step.apply(state)
    for key in step.unrecorded:
        state[key] = None
    meta = state.get("meta") or {}
    if STORED in meta:
        known = meta[STORED]["unrecorded"]
        meta[STORED]["unrecorded"] = [*known, *(k for k in step.unrecorded if k not in known)]


def stored_version(event_class: type, payload: Mapping[str, Any]) -> int:
    """The version of a plain record's payload, from the keys it has: the
    highest version whose step's ``added`` keys are all present (1: none)."""
    steps: tuple[Step, ...] = getattr(event_class, "upcast_steps", ())
    version = 1
    for number, step in enumerate(steps, start=1):
        if all(key in payload for key in step.added):
            version = number + 1
    return version


def upcast_payload(
    event_class: type, payload: Mapping[str, Any], meta: Mapping[str, Any] | None
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A plain record's payload and meta in the current shape, derived from the
    payload as stored (which the chain vouches for), never taken on trust.

    An event read through the library (the store, ``History``) carries its
    stored form in its meta (``STORED``); a record written before this
    release (an exported file) carries the stored form as its payload. Both
    are upcast here with the same steps; the result keeps ``STORED``.
    """
    steps: tuple[Step, ...] = getattr(event_class, "upcast_steps", ())
    stored, base = stored_form(payload, meta)
    version = stored_version(event_class, stored)
    if not steps or version > len(steps):
        return stored, None if meta is None else base
    state: dict[str, Any] = {**copy.deepcopy(stored), "meta": base}
    _keep_stored(state, version)
    for step in steps[version - 1:]:
        _apply(state, step)
    new_meta = state.pop("meta")
    return state, new_meta if meta is not None else None


def stored_form(
    payload: Mapping[str, Any], meta: Mapping[str, Any] | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The payload and meta an event's digest was computed over: as stored."""
    meta = dict(meta or {})
    kept = meta.pop(STORED, None)
    if kept is None:
        return dict(payload), meta
    if "pub" in kept:  # a changed type's public form was upcast too
        meta["pub"] = kept["pub"]
    return dict(kept["payload"]), meta


def unrecorded(meta: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The payload keys an upcast event could not supply (see the module's doc)."""
    kept = (meta or {}).get(STORED)
    return tuple(kept["unrecorded"]) if kept else ()


def comparable(
    payload: Mapping[str, Any], meta: Mapping[str, Any] | None, leave_out: tuple[str, ...]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """An event's payload and meta as re-execution compares them: without the
    kept stored form and without the facts the stored event never recorded."""
    kept = {k: v for k, v in (meta or {}).items() if k != STORED}
    if leave_out and isinstance(kept.get("pub"), Mapping):
        kept["pub"] = {k: v for k, v in kept["pub"].items() if k not in leave_out}
    return {k: v for k, v in payload.items() if k not in leave_out}, kept


# ------------------------------------------------------------ changed types
#
# A game that rewrites its record may give an old event TYPE a new one (or
# several: one old type read as whichever current type each stored event's
# payload says it was). The stored event names its class by topic
# (``module:Game.OldType``), so the library must still resolve that topic: a
# read-only *legacy reader* class is put there. The rules never emit it (it is
# no ``@event`` method's event, so ``Game.emit`` refuses its name). When the
# library reads a stored event of that topic, its last upcast step turns the
# payload into the current type's and keeps the stored type, payload and
# public form in the meta under ``STORED`` (so the chain still checks over the
# bytes as stored); ``current_type`` then names the event as the rules name
# it now, for History, the feeds and ``describe``. Applying a legacy reader to
# the game applies the stored event as the release that wrote it applied it
# (``Retype.apply_stored``): the stored record is that release's whole fact,
# whereas the current event may lack what the old one never stated (its
# ``unrecorded`` facts), which no evolve may guess.


@dataclasses.dataclass(frozen=True)
class Retype:
    """How the records of one old event type read now.

    ``convert(payload, meta)`` gives the current type, its payload and the
    keys of it the stored event cannot supply (``unrecorded``, set None). It
    is called on a payload in the old type's latest shape (after ``steps``,
    that type's own same-type upcasts), and on the stored public form too
    (without the private keys: it must not need them). ``apply_stored(game,
    payload)`` evolves a game by the stored payload as the old release did.
    """

    stored_type: str
    convert: Callable[[dict[str, Any], Mapping[str, Any]],
                      tuple[str, dict[str, Any], tuple[str, ...]]]
    apply_stored: Callable[[Any, dict[str, Any]], None]
    steps: tuple[Step, ...] = ()
    #: The legacy reader's class name (never the old type's own).
    reader_name: str = ""


def retype(game_class: Any, *retypes: Retype) -> None:
    """Install a legacy reader for each old type on ``game_class`` (see above)."""
    readers = dict(getattr(game_class, "retyped", {}))
    for spec in retypes:
        reader = _legacy_reader(game_class, spec)
        setattr(game_class, spec.stored_type, reader)  # where the stored topic points
        readers[spec.stored_type] = spec
    game_class.retyped = readers


def _legacy_reader(game_class: Any, spec: Retype) -> type:
    base: Any = game_class.Event

    def apply(self: Any, aggregate: Any) -> None:
        base.apply(self, aggregate)  # the kernel's bookkeeping (chain, rng, commands)
        spec.apply_stored(aggregate, stored_payload(self.meta, spec))

    name = spec.reader_name or f"Legacy{spec.stored_type}Reader"
    reader = type(name, (base,), {
        "__doc__": f"Reads stored ``{spec.stored_type}`` events (read-only: never emitted).",
        "__qualname__": f"{game_class.__qualname__}.{name}",
        "__module__": game_class.__module__,
        "apply": apply,
        "class_version": len(spec.steps) + 2,
        "upcast_steps": spec.steps,
    })
    for number, step in enumerate(spec.steps, start=1):
        setattr(reader, f"upcast_v{number}_v{number + 1}",
                staticmethod(_library_step(step, number)))
    last = len(spec.steps) + 1
    setattr(reader, f"upcast_v{last}_v{last + 1}",
            staticmethod(_keeping(last, functools.partial(_retype, spec=spec))))
    return reader


def _retype(state: dict[str, Any], spec: Retype) -> None:
    """Turn a stored event's state (payload keys and ``meta``) into the current type's."""
    meta = state["meta"]
    old = {k: v for k, v in state.items() if k not in _NOT_PAYLOAD}
    kind, payload, missing = spec.convert(copy.deepcopy(old), meta)
    for key in old:
        del state[key]
    state.update(payload)
    for key in missing:
        state[key] = None
    kept = meta[STORED]
    kept["type"] = spec.stored_type
    kept["as"] = kind
    kept["unrecorded"] = [*kept["unrecorded"], *(k for k in missing
                                                  if k not in kept["unrecorded"])]
    if meta.get("pub"):
        kept["pub"] = copy.deepcopy(meta["pub"])
        _, public, _ = spec.convert(copy.deepcopy(meta["pub"]), meta)
        meta["pub"] = {k: (None if k in missing else v) for k, v in public.items()}


def stored_payload(meta: Mapping[str, Any], spec: Retype) -> dict[str, Any]:
    """A legacy event's payload as stored, in its old type's latest shape."""
    kept = meta[STORED]
    state: dict[str, Any] = copy.deepcopy(kept["payload"])
    for step in spec.steps[kept["class_version"] - 1:]:
        _apply(state, step)
    return state


def current_type(domain_event: Any) -> str:
    """The type the rules give a stored event now (a legacy reader's: its new one)."""
    kept = (getattr(domain_event, "meta", None) or {}).get(STORED)
    if kept and "as" in kept:
        return str(kept["as"])
    return type(domain_event).__name__


def stored_type(kind: str, meta: Mapping[str, Any] | None) -> str:
    """The type an event was stored as (what its digest was computed over)."""
    kept = (meta or {}).get(STORED)
    return str(kept.get("type", kind)) if kept else kind


def is_retyped(meta: Mapping[str, Any] | None) -> bool:
    """Whether an event was read from an older type (``current_type`` differs)."""
    kept = (meta or {}).get(STORED)
    return isinstance(kept, Mapping) and "as" in kept


def upcast_typed(
    game_class: Any, kind: str, payload: Mapping[str, Any], meta: Mapping[str, Any] | None
) -> tuple[str, dict[str, Any], dict[str, Any] | None] | None:
    """A plain record of an old type (``kind``, or its stored type in the meta)
    in the current type and shape, re-derived from its stored form; None when
    ``game_class`` changed no such type."""
    old = stored_type(kind, meta)
    spec = getattr(game_class, "retyped", {}).get(old)
    if spec is None:
        return None
    stored, base = stored_form(payload, meta)
    reader = getattr(game_class, old)
    version = stored_version(reader, stored) if spec.steps else 1
    state: dict[str, Any] = {**copy.deepcopy(stored), "meta": base}
    _keep_stored(state, version)
    for step in spec.steps[version - 1:]:
        _apply(state, step)
    _retype(state, spec)
    new_meta = state.pop("meta")
    return new_meta[STORED]["as"], state, new_meta if meta is not None else None


def event_of(game_class: Any, kind: str, meta: Mapping[str, Any], /, **state: Any) -> Any:
    """A game event object for a plain record in the current shape (``kind``):
    the current ``@event`` class's, or, for an event read from an older type,
    its legacy reader's (built as the library builds a stored one: a reader
    has no fields of the new payload), so folding applies it as stored."""
    if is_retyped(meta):
        reader = getattr(game_class, stored_type(kind, meta))
        ev = object.__new__(reader)
        object.__setattr__(ev, "__dict__", {**state, "meta": dict(meta)})
        return ev
    from aggregates.kernel.game import _event_class

    event_class: Any = _event_class(game_class, kind)
    return event_class(meta=dict(meta), **state)
