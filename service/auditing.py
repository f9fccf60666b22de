"""The server's audit of what it stores: one game's events and snapshots, and
which games changed after a global position (for a nightly ``audit --since``).

The audit reads the stored events themselves, not the game the repository
would load, so a store damaged under the server (an event changed, dropped or
swapped, a snapshot edited) is reported with the version that fails rather
than failing the call: the kernel's proofs run over the events, and every
stored snapshot, and the state the server serves (``GetState``: its cache,
or a verified snapshot plus newer events, see ``service.snapshots``), are
compared with the state the events make. The server never serves a snapshot
whose seal fails; this comparison is what catches one it would trust all the
same (sealed by someone holding the server secret, or by a server bug).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import threading
import uuid
from collections.abc import Callable
from typing import Any

from eventsourcing.utils import resolve_topic

from aggregates.catalog import GAMES, RULES
from aggregates.kernel import Game, payload_of
from aggregates.kernel.audit import AuditReport, record_of
from aggregates.kernel.verify import audit_by_version
from service.application import GAMES_LOG_ID, ArbiterApp, parse_game_id
from service.errors import ServiceError, unknown_game

#: State held only while deciding a command, and the id and version (kept
#: beside a snapshot's state, not in it): not compared.
TRANSIENT = frozenset({"_draws", "_command", "_audience", "_pending_events", "_id", "_version"})
#: Kernel state that snapshots taken before Kernel 2 do not hold.
KERNEL2_STATE = frozenset({"last_acted", "collecting"})


@dataclasses.dataclass
class StoredAudit:
    """A game's audit, with what the stored events say of it."""

    game_id: str
    over: bool
    seed: str
    commitment: str
    head: str
    version: int
    report: AuditReport
    bad_snapshots: list[int] = dataclasses.field(default_factory=list)


def last_event(app: ArbiterApp, game_id: str) -> Any:
    """A game's newest stored event (read cheaply, before any authorization)."""
    gid = parse_game_id(game_id)
    if gid == GAMES_LOG_ID:
        raise unknown_game(game_id)
    found = list(app.events.get(gid, desc=True, limit=1))
    if not found or not hasattr(found[0], "meta"):
        raise unknown_game(game_id)
    return found[0]


class AuditSlots:
    """So many uncached audits at once, server-wide; a caller waits its turn
    for a while, then is refused. An audit replays a whole game (0.65 s of CPU
    for a long one) under the interpreter's one lock, so a handful running at
    once would slow every other call; the per-caller call rate
    (``service.limits``) bounds each caller, this bounds them all."""

    def __init__(self, at_once: int, wait: float = 10.0) -> None:
        self.at_once = at_once
        self.wait = wait
        self._free = threading.BoundedSemaphore(at_once)

    def run(self, work: Callable[[], StoredAudit]) -> StoredAudit:
        if not self._free.acquire(timeout=self.wait):
            raise ServiceError(
                "RESOURCE_EXHAUSTED", "AUDITS_BUSY",
                f"{self.at_once} audits are running on this server; retry later",
            )
        try:
            return work()
        finally:
            self._free.release()


#: Uncached audits at once (``ARBITER_AUDITS_AT_ONCE``; set by the server).
SLOTS = AuditSlots(2)


def audit_stored(app: ArbiterApp, game_id: str) -> StoredAudit:
    """Audit a game's stored events and snapshots, one of ``SLOTS`` at a time."""
    return SLOTS.run(lambda: _audit_stored(app, game_id))


def _audit_stored(app: ArbiterApp, game_id: str) -> StoredAudit:
    """Audit a game's stored events and snapshots, and the state it is served in."""
    gid = parse_game_id(game_id)
    served = _served(app, gid)  # first: the events read next reach at least its version
    events = list(app.events.get(gid))
    if not events or not hasattr(events[0], "meta"):
        raise unknown_game(game_id)
    created = payload_of(events[0])
    if str(created.get("rules", "")) not in GAMES:
        raise unknown_game(game_id)
    # Re-executed by the rules version that recorded the game (docs/rules-versions.md).
    report = audit_by_version([record_of(ev) for ev in events], RULES)
    last: Any = events[-1]
    over = type(last).__name__ == "Ended"
    result = StoredAudit(
        game_id=str(gid), over=over, seed=str(created.get("seed", "")),
        commitment=str(created.get("commitment", "")), head=str(last.meta.get("digest", "")),
        version=last.originator_version, report=report,
    )
    bad, served_differs = check_snapshots(app, gid, events, served)
    seal = app.snapshot_seal
    for version in bad:
        result.bad_snapshots.append(version)
        report.fail("chain", f"the snapshot at version {version} differs from its events",
                    version)
        if seal is not None:
            seal.distrust(gid, version)
    if served_differs:
        report.fail("replay", f"the state served at version {served_differs} differs from "
                    "the state its events make", served_differs)
    if served_differs or bad:
        # Dropped from the cache: the next read rebuilds it (a snapshot still
        # trusted plus newer events, or the events alone).
        cache = app.repository.cache
        if cache is not None:
            with contextlib.suppress(KeyError):
                cache.get(gid, evict=True)
    return result


def _served(app: ArbiterApp, gid: uuid.UUID) -> Any:
    """The game as ``GetState`` serves it now (aggregate cache, else verified
    snapshot plus newer events), or None if it cannot be loaded (the chain
    check then names the event that breaks it)."""
    try:
        return app.repository.get(gid)
    except Exception:  # noqa: BLE001 - reported by the event checks
        return None


def check_snapshots(
    app: ArbiterApp, gid: uuid.UUID, events: list[Any], served: Any = None
) -> tuple[list[int], int]:
    """(versions of the game's stored snapshots that differ from the state its
    events make at that version, the version of ``served`` if it differs from
    the state the events make at its version, else 0); one pass over the events."""
    snapshots: dict[int, Any] = {}
    if app.snapshots is not None:
        for stored in app.snapshots.recorder.select_events(gid):
            try:
                snapshots[stored.originator_version] = app.mapper.to_domain_event(stored)
            except Exception:  # noqa: BLE001 - unreadable: differs from anything
                snapshots[stored.originator_version] = None
    upto = max([*snapshots, getattr(served, "version", 0)], default=0)
    bad: list[int] = []
    served_differs = 0
    aggregate: Any = None
    by_version = {ev.originator_version: ev for ev in events}
    for version in range(1, upto + 1):
        ev = by_version.get(version)
        try:
            if ev is None:
                raise ValueError(f"version {version} is missing")
            aggregate = ev.mutate(aggregate)
        except Exception:  # noqa: BLE001 - the chain check names the broken event
            return bad, served_differs
        if served is not None and version == served.version and (
            _state(app, dict(vars(served))) != _state(app, dict(vars(aggregate)))
        ):
            served_differs = version
        if version not in snapshots:
            continue
        snapshot = snapshots[version]
        if snapshot is None or not isinstance(getattr(snapshot, "state", None), dict):
            bad.append(version)
            continue
        made = dict(vars(aggregate))
        taken = dict(snapshot.state)
        if "last_acted" not in taken:
            # A snapshot taken before Kernel 2: it kept none of Kernel 2's
            # keys, and its game may have worded its presentation-only state
            # (the game's WORDING_STATE) differently; the rest must agree.
            for key in KERNEL2_STATE | set(type(aggregate).WORDING_STATE):
                made.pop(key, None)
                taken.pop(key, None)
        if _state(app, taken) != _state(app, made):
            bad.append(version)
    return bad, served_differs


def _state(app: ArbiterApp, state: dict[str, Any]) -> str:
    """A state as canonical JSON through the store's own transcoder."""
    kept = {k: v for k, v in state.items() if k not in TRANSIENT and k != "class_version"}
    decoded = json.loads(app.mapper.transcoder.encode(kept))
    return json.dumps(decoded, sort_keys=True)


def changed_games(app: ArbiterApp, after: int, limit: int) -> tuple[list[uuid.UUID], int]:
    """The games with events after global position ``after`` (at most ``limit``
    of them, in the order of their first such event), and the position covered:
    every event up to it belongs to a listed game or to one listed before."""
    seen: dict[uuid.UUID, None] = {}
    covered = after
    while True:
        batch = app.notifications(covered, limit=500)
        if not batch:
            return list(seen), covered
        for notification in batch:
            gid = notification.originator_id
            gid = gid if isinstance(gid, uuid.UUID) else uuid.UUID(str(gid))
            if gid not in seen and _is_game(notification.topic):
                if len(seen) == limit:
                    return list(seen), covered
                seen[gid] = None
            covered = notification.id


@functools.lru_cache(maxsize=1024)
def _is_game(topic: str) -> bool:
    """Whether a stored event's topic is a game's (not the catalogue's or
    access's): a game event class, of whichever rules version recorded it --
    not only the served ones, whose events may even name a base class's module
    (a newer version subclassing the older)."""
    try:
        cls = resolve_topic(topic)
    except Exception:  # noqa: BLE001 - a class gone from the code: not a game served here
        return False
    return isinstance(cls, type) and issubclass(cls, Game.Event)
