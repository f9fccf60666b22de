"""One recorded event as plain data (``Record``): what a stored event, a
``History`` envelope or a line of an exported record all reduce to, and the
same record in the shape the current rules record its event
(``upcast_record``). The audit (``aggregates.kernel.record.audit``) and the offline
verifier read records; they never need the library's event objects.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from aggregates.kernel.game import Game, _event_class
from aggregates.kernel.record import upcast
from aggregates.kernel.record.recording import payload_of


@dataclasses.dataclass(frozen=True)
class Record:
    """One recorded event as plain data: what a stored event, a ``History``
    envelope or a line of an exported record all reduce to.

    ``meta`` is None when the reader did not get the kernel's record (a seat's
    or a spectator's read of a game in progress).
    """

    game_id: str
    version: int
    type: str
    time: str
    payload: dict[str, Any]
    meta: dict[str, Any] | None
    digest: str
    prev: str


def make_record(game_id: str, version: int, kind: str, time: str,
                payload: dict[str, Any], meta: dict[str, Any]) -> Record:
    """A ``Record`` of a kernel record's fields, its links read from ``meta``.

    Made without the frozen dataclass's ``__init__``, which sets each field
    through ``object.__setattr__``: an audit makes one per stored event, and
    that was a third of reading a row. The record is as frozen as one made
    by its constructor (its ``__setattr__`` still refuses)."""
    rec = object.__new__(Record)
    vars(rec).update(game_id=game_id, version=version, type=kind, time=time,
                     payload=payload, meta=meta, digest=str(meta.get("digest", "")),
                     prev=str(meta.get("prev", "")))
    return rec


def record_of(ev: Any, game_id: str = "") -> Record:
    """A stored domain event as a plain record (``game_id``: its originator
    id as text, when the caller has it)."""
    return make_record(game_id or str(ev.originator_id), ev.originator_version,
                       upcast.current_type(ev), ev.timestamp.isoformat(), payload_of(ev),
                       dict(ev.meta))


def records_of(events: Iterable[Any]) -> list[Record]:
    """``record_of`` for each of a game's events, each game id's text made
    once (a ``UUID`` formats itself in Python, on every call)."""
    ids: dict[Any, str] = {}
    out: list[Record] = []
    for ev in events:
        oid = ev.originator_id
        game_id = ids.get(oid)
        if game_id is None:
            game_id = ids[oid] = str(oid)
        out.append(record_of(ev, game_id))
    return out


def upcast_record(rec: Record, game_class: type[Game]) -> Record:
    """A record in the shape the current rules record its event (an exported
    record of an older release may hold the old shape, or an old type); ``kernel.upcast``."""
    typed = upcast.upcast_typed(game_class, rec.type, rec.payload, rec.meta)
    if typed is not None:
        return dataclasses.replace(rec, type=typed[0], payload=typed[1], meta=typed[2])
    try:
        event_class = _event_class(game_class, rec.type)
    except TypeError:
        return rec  # the kernel's own events, and types the replay will refuse
    payload, meta = upcast.upcast_payload(event_class, rec.payload, rec.meta)
    return dataclasses.replace(rec, payload=payload, meta=meta)


@dataclasses.dataclass
class AuditReport:
    events: int = 0
    dice: int = 0
    commands: int = 0
    chain_ok: bool = True
    dice_ok: bool = True
    replay_ok: bool = True
    problems: list[str] = dataclasses.field(default_factory=list)
    #: The first version found wrong by any check (0: none).
    first_failure: int = 0

    @property
    def ok(self) -> bool:
        return self.chain_ok and self.dice_ok and self.replay_ok

    def fail(self, check: str, problem: str, version: int = 0) -> None:
        setattr(self, f"{check}_ok", False)
        if version and (not self.first_failure or version < self.first_failure):
            self.first_failure = version
        # At most 20 per check, so one check's flood never hides another's first word.
        if sum(p.startswith(f"{check}:") for p in self.problems) < 20:
            self.problems.append(f"{check}: {problem}")
