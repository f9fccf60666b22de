"""The re-executed events against the recorded ones (``Comparison``): the
audit's third proof, that re-executing every recorded command makes exactly
the recorded events (types, payloads, dice, audiences), event by event as
the re-execution makes them.
"""

from __future__ import annotations

import marshal
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from aggregates.kernel.game import Game, _event_class
from aggregates.kernel.record import chain, upcast
from aggregates.kernel.record.recorded import AuditReport, Record, record_of, upcast_record
from aggregates.kernel.record.recording import payload_of

#: Meta keys Kernel 2 added: an event recorded before them has nothing to compare.
KERNEL2_META = ("aud", "pub")


def _fingerprint(rec: Record, legacy: bool = False,
                 leave_out: tuple[str, ...] = ()) -> tuple[str, str, str]:
    """What must be equal on re-execution: type, payload, and meta (less the
    chain links, which the chain check covers). ``legacy``: compare with an
    event recorded before audiences were recorded, so leave those out.
    ``leave_out``: facts an upcast event never recorded (``kernel.upcast``)."""
    skip = ("digest", "prev", *KERNEL2_META) if legacy else ("digest", "prev")
    payload, kept = upcast.comparable(rec.payload, rec.meta, leave_out)
    meta = {k: v for k, v in kept.items() if k not in skip}
    return (rec.type, chain.canonical(payload), chain.canonical(meta))


#: The chain's links in a meta record: the chain check's, not compared on re-execution.
_LINKS = ("digest", "prev")
#: ``marshal``'s format 2: exact types and values; format 3 on marks objects
#: met twice and interned strings, which would part equal values.
_MARSHAL_FORMAT = 2


class Comparison:
    """The re-executed events against the recorded ones, position by position,
    as the replay makes them (so no re-executed event outlives its comparison).

    The verdict is the one a comparison of every event after the replay would
    give (``conclude``): the first position that fails names the failure,
    and a replay refused anywhere is reported instead (``check_replay``
    returns before concluding).
    """

    def __init__(self, recorded: Sequence[Record], game_class: type[Game],
                 watch: Any = None) -> None:
        self.recorded = recorded
        self.game_class = game_class
        #: Shown the re-executed game after each event while every event so far
        #: is as recorded (``audit.ReplayWatch``), at the versions in its
        #: ``wanted`` set only when it has one (None: at every version).
        self.watch = watch
        self.wanted: Any = getattr(watch, "wanted", None)
        #: How many events the replay has made so far.
        self.made = 0
        #: The position of the first re-executed event that differs (-1: none yet).
        self.differs = -1
        #: ``_shape`` of each type met, read once per audit.
        self.shapes: dict[str, Any] = {}
        #: Whether a record compared so far keeps a stored form (``upcast.STORED``).
        self.stored_forms = False
        #: How many records from the first were re-executed exactly as
        #: recorded, each in the shape it was recorded in (no upcast read).
        self.proven = 0
        #: Whether the last ``same`` compared a record in its recorded shape.
        self.exact = False

    def applied(self, game: Game, ev: Any, payload: dict[str, Any] | None = None) -> None:
        """One re-executed event as soon as it is applied (the re-executed game's
        ``on_applied``): compared with the record at its position, then the
        game shown to the watch while every event so far is as recorded. One
        call per event, where a batch (``add``) and a watch call were three.
        ``payload``: the event's game attributes in their order, when its
        maker has them at hand (else ``payload_of`` copies them)."""
        index = self.made
        self.made = index + 1
        if self.differs >= 0:
            return
        recorded = self.recorded
        if index < len(recorded):
            if not self.same(recorded[index], ev, payload):
                self.differs = index
                return
            if index == self.proven and self.exact:
                self.proven = index + 1
        watch = self.watch
        if watch is not None:
            version = ev.originator_version
            if self.wanted is None or version in self.wanted:
                watch.after(game, version)

    def add(self, events: Iterable[Any]) -> None:
        """Compare newly re-executed events with the recorded ones at their positions."""
        recorded = self.recorded
        for ev in events:
            index = self.made
            self.made += 1
            if self.differs < 0 and index < len(recorded):
                if not self.same(recorded[index], ev):
                    self.differs = index
                elif index == self.proven and self.exact:
                    self.proven += 1

    def same(self, served: Record, ev: Any, payload: dict[str, Any] | None = None) -> bool:
        """Whether the re-executed ``ev`` is the recorded ``served`` in type,
        payload and meta, less the chain's links (``_fingerprint``).

        An event recorded in the current shape (no upcast, audiences recorded:
        every event this release records) is compared without re-deriving
        its shape or copying it: by ``marshal`` format 2 first, whose bytes
        are equal only for values of the same types (``True``, ``1`` and
        ``1.0`` apart, as in canonical JSON), contents and key order (the
        format marks no shared or interned object), so equal bytes are equal
        canonical JSON; else (bytes apart, or a value marshal does not
        write) by their canonical JSON, exactly as ``_fingerprint`` compares
        them (a tuple and a list, or keys in another order, are the same).
        ``payload``: ``payload_of(ev)``, when the caller has it.
        """
        meta = served.meta
        self.exact = False
        if meta is None or upcast.STORED in meta or "aud" not in meta:
            if meta is not None and upcast.STORED in meta:
                self.stored_forms = True
            return self.same_upcast(served, ev)
        kind = served.type
        if self.shapes.get(kind) is not True and not self.as_recorded(kind, served.payload):
            return self.same_upcast(served, ev)
        self.exact = True
        made = ev.meta
        if kind != (type(ev).__name__ if upcast.STORED not in made
                    else upcast.current_type(ev)):
            return False
        if payload is None:
            payload = payload_of(ev)
        # The re-executed event's links, which are left out of the comparison,
        # set to the recorded ones: in place (the keys keep their order, and
        # nothing reads this event's meta after its comparison).
        made["prev"], made["digest"] = meta.get("prev"), meta.get("digest")
        try:
            if (marshal.dumps((served.payload, meta), _MARSHAL_FORMAT)
                    == marshal.dumps((payload, made), _MARSHAL_FORMAT)):
                return True
        except ValueError:
            pass  # a value marshal does not write: compared below
        return (chain.canonical(served.payload) == chain.canonical(payload)
                and chain.canonical({k: v for k, v in meta.items() if k not in _LINKS})
                == chain.canonical({k: v for k, v in made.items() if k not in _LINKS}))

    def as_recorded(self, kind: str, payload: Mapping[str, Any]) -> bool:
        """``_as_recorded``, its look-ups made once per type in this audit
        (``_shape``): only a type with upcast steps reads the payload."""
        shape = self.shapes.get(kind)
        if shape is None:
            shape = self.shapes[kind] = _shape(self.game_class, kind)
        if isinstance(shape, bool):
            return shape
        return upcast.stored_version(shape, payload) > len(shape.upcast_steps)

    def same_upcast(self, served: Record, ev: Any) -> bool:
        """``same`` for any record: in the current shape re-derived from its
        stored form, legacy audiences and unrecorded facts left out."""
        rec = upcast_record(served, self.game_class)
        legacy = "aud" not in (rec.meta or {})
        leave_out = upcast.unrecorded(rec.meta)
        return (_fingerprint(rec, legacy, leave_out)
                == _fingerprint(record_of(ev), legacy, leave_out))

    def conclude(self, report: AuditReport, cut: bool) -> None:
        """Report the first recorded event that fails: not the upcast of its
        stored form, not re-executed, or differing; then events made beyond
        the record (unless ``cut``).

        Nothing to look for when every record was compared (each is, until
        one differs), none differed and none keeps a stored form."""
        recorded = self.recorded
        if self.differs < 0 and self.made >= len(recorded) and not self.stored_forms:
            self.beyond(report, cut)
            return
        for index, served in enumerate(recorded):
            if upcast.STORED in (served.meta or {}) and (
                    chain.canonical(served.payload)
                    != chain.canonical(upcast_record(served, self.game_class).payload)):
                report.fail("replay", f"version {served.version} is not the upcast of its "
                            "stored form", served.version)
                return
            if index >= self.made:
                report.fail("replay", f"version {served.version} was recorded but not "
                            "re-executed", served.version)
                return
            if index == self.differs:
                report.fail("replay", f"version {served.version} differs on re-execution",
                            served.version)
                return
        self.beyond(report, cut)

    def beyond(self, report: AuditReport, cut: bool) -> None:
        """Report events re-executed beyond the record (unless ``cut``)."""
        recorded = self.recorded
        if self.made > len(recorded) and not cut:
            version = recorded[-1].version + 1 if recorded else 2
            report.fail("replay", f"{len(recorded)} events recorded, {self.made} re-executed",
                        version)


def _as_recorded(game_class: type[Game], kind: str, payload: Mapping[str, Any]) -> bool:
    """Whether ``upcast_record`` leaves a record of ``kind`` (with no stored
    form in its meta) as it is: its type is read as itself (``upcast.retype``)
    and its payload is in its class's latest shape. Read afresh each time
    (the class look-up is cached), so upcasts declared later still count."""
    shape = _shape(game_class, kind)
    if isinstance(shape, bool):
        return shape
    return upcast.stored_version(shape, payload) > len(shape.upcast_steps)


def _shape(game_class: type[Game], kind: str) -> Any:
    """What ``_as_recorded`` needs of a type: False for a type read as another
    one, True for one with nothing to upcast (the kernel's own events and types
    the replay will refuse among them), else its event class, whose payload's
    keys say its stored shape."""
    if kind in getattr(game_class, "retyped", {}):
        return False
    try:
        event_class = _event_class(game_class, kind)
    except TypeError:
        return True
    return event_class if getattr(event_class, "upcast_steps", ()) else True
