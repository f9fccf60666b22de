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
produce (``comparable``), both in ``aggregates.kernel.audit``.

Some facts an old event never recorded cannot be derived from it alone (the
magic items one could have chosen, say, depend on the state before it). A step
sets those to None and names them ``unrecorded``: re-execution derives them,
and the comparison leaves them out, since the stored record never vouched for
them.
"""

from __future__ import annotations

import copy
import dataclasses
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

    def upcast(state: dict[str, Any]) -> None:
        _keep_stored(state, number)
        _apply(state, step)

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
    return (
        {k: v for k, v in payload.items() if k not in leave_out},
        {k: v for k, v in (meta or {}).items() if k != STORED},
    )
