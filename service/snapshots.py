"""Snapshots the server verifies before it trusts them (issue 8, item 11).

A snapshot is a copy of a game's state at one version, kept so that a long
game loads without replaying every event. Events vouch for themselves (each
carries its hash-chain digest, and ``Audit`` recomputes the chain), but a
snapshot is just a row of JSON: edited in the store, it changed what
``GetState`` served while the chain still checked out. So every snapshot is
now sealed when it is taken and verified whenever it is loaded:

- its state must contain, as ``head``, the digest of the stored event at its
  version, so it belongs to this game's chain at that point;
- its seal, an HMAC under a key derived from the server secret over (game,
  version, aggregate class, the state as canonical JSON), must match, so the
  state is the one the server computed at that head. The key is outside the
  store: someone who can write the store (a PostgreSQL role, a copy of the
  SQLite file) cannot make a seal for an edited state. Every server on one
  store shares the secret already (``ARBITER_SECRET``), so each trusts the
  others' snapshots.

A snapshot that fails either check is ignored, with a warning naming it: the
next older snapshot is tried, then none, and the game is rebuilt from its
events, which is always right, only slower. A snapshot taken before sealing
(by an older release; or under another server secret, whose seal fails) is
treated the same way, so an upgraded store loads from its events until new
sealed snapshots are taken. ``Audit`` compares every stored snapshot, and the
state the server serves, with the state replayed from the events
(``service.auditing``); a snapshot it finds different is not trusted again
by that server process, whatever its seal says.

A snapshot keeps no client command ids (issue 20): they were most of a long
game's snapshot (its newest ``COMMAND_WINDOW`` of them, about 42 bytes each),
and the events record every one. It keeps where they are instead
(``command_gap``, see ``kernel.recording.window_left_to_events``), and a game
loaded from it fills its window from those events before its first command
(``ArbiterApp.act``). Such a snapshot is sealed under a message of its own
(``SEAL_V2``): a server of an older release, which would take its empty
``command_ids`` for the whole window and apply a retried command again, finds
its seal wrong and loads the game from its events instead. Snapshots sealed
before (every id in ``command_ids``) still load, as they are.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import logging
import threading
import uuid
from collections.abc import Iterator, Mapping
from typing import Any

from eventsourcing.domain import Snapshot
from eventsourcing.persistence import EventStore, Mapper, StoredEvent
from eventsourcing.utils import get_topic

from aggregates.kernel.record import chain
from aggregates.kernel.record.recording import filled_window, newest_ids, window_left_to_events

log = logging.getLogger(__name__)

#: Snapshots tried, newest first, before a game is rebuilt from its events.
TRIES = 3
#: (game, version) pairs already warned about, per process, at most this many.
MAX_WARNED = 10_000
#: The sealed message of a snapshot holding its command ids, and of one that
#: leaves them to the events (a ``command_gap``), which an older server must
#: not trust (see the module's doc).
SEAL_V1 = "arbiter/snapshot/v1"
SEAL_V2 = "arbiter/snapshot/v2"


@dataclasses.dataclass(frozen=True)
class SealedSnapshot(Snapshot):
    """A snapshot carrying its seal (see the module's doc)."""

    seal: str


SEALED_TOPIC = get_topic(SealedSnapshot)
#: What the library stores its own (unsealed) snapshots as: an older release's.
PLAIN_TOPIC = get_topic(Snapshot)


def canonical_state(mapper: Mapper[Any], state: dict[str, Any]) -> str:
    """A state as canonical JSON, through the store's own transcoder: the same
    text for the state when it is taken and for the state read back."""
    decoded = json.loads(mapper.transcoder.encode(state))
    return chain.canonical(decoded)


class SnapshotSeal:
    """Seals snapshots when taken and checks them when loaded."""

    def __init__(self, key: bytes, mapper: Mapper[Any], events: EventStore[Any]) -> None:
        self._key = key
        self._mapper = mapper
        self._events = events
        self._warned: set[tuple[uuid.UUID, int]] = set()
        self._distrusted: set[tuple[uuid.UUID, int]] = set()
        self._warned_lock = threading.Lock()

    def _mac(self, gid: uuid.UUID, version: int, topic: str, state: dict[str, Any]) -> str:
        kind = SEAL_V2 if "command_gap" in state else SEAL_V1
        message = json.dumps(
            [kind, str(gid), version, topic, canonical_state(self._mapper, state)]
        )
        return hmac.new(self._key, message.encode("ascii"), hashlib.sha256).hexdigest()

    def take(self, aggregate: Any) -> SealedSnapshot:
        """A sealed snapshot of ``aggregate`` as it is now, its command ids
        left to the events (``window_left_to_events``)."""
        plain = Snapshot.take(aggregate)
        state = window_left_to_events(plain.state, plain.originator_version)
        return SealedSnapshot(
            originator_id=plain.originator_id, originator_version=plain.originator_version,
            timestamp=plain.timestamp, topic=plain.topic, state=state,
            seal=self._mac(plain.originator_id, plain.originator_version, plain.topic, state),
        )

    def problem(self, snapshot: Any) -> str | None:
        """Why ``snapshot`` must not be trusted, or None when it may be."""
        if not isinstance(snapshot, SealedSnapshot):
            return "it was taken before snapshots were sealed"
        gid, version = snapshot.originator_id, snapshot.originator_version
        if (gid, version) in self._distrusted:
            return "the audit found that it differs from the events"
        state = snapshot.state if isinstance(snapshot.state, dict) else {}
        expected = self._mac(gid, version, snapshot.topic, state)
        if not hmac.compare_digest(str(snapshot.seal), expected):
            return "its seal does not match its state (edited, or sealed under another secret)"
        stored = next(self._events.get(gid, gt=version - 1, lte=version), None)
        digest = getattr(stored, "meta", {}).get("digest") if stored is not None else None
        if digest is None:
            return f"the game has no event {version} to check it against"
        if state.get("head") != digest:
            return f"its head digest is not that of the stored event {version}"
        return None

    def distrust(self, gid: uuid.UUID, version: int) -> None:
        """Never trust this snapshot again in this process, seal or not: the
        audit replayed the events and they make another state (a seal made
        with the secret, or by a bug, vouches for nothing then)."""
        with self._warned_lock:
            if len(self._distrusted) >= MAX_WARNED:
                self._distrusted.clear()
            self._distrusted.add((gid, version))

    def warn(self, gid: uuid.UUID, version: int, problem: str) -> None:
        """Say once per process which snapshot was ignored, and why."""
        with self._warned_lock:
            if (gid, version) in self._warned:
                return
            if len(self._warned) >= MAX_WARNED:
                self._warned.clear()
            self._warned.add((gid, version))
        level = logging.INFO if problem.startswith("it was taken before") else logging.WARNING
        log.log(level, "snapshot of game %s at version %d not trusted: %s; the game "
                "is loaded from an older snapshot or from its events instead", gid, version,
                problem)


class TrustedSnapshots(EventStore[uuid.UUID]):
    """The snapshot store as the repository sees it: the newest snapshot at or
    below a version that passes ``SnapshotSeal.problem``, or none.

    The repository asks only for that (``desc=True, limit=1``); any other
    query is answered as the plain store would answer it."""

    def __init__(self, plain: EventStore[uuid.UUID], seal: SnapshotSeal) -> None:
        super().__init__(plain.mapper, plain.recorder)
        self.seal = seal

    def get(
        self,
        originator_id: uuid.UUID,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Iterator[Any]:
        if not desc or limit != 1:
            return super().get(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)
        trusted = self._newest_trusted(originator_id, gt, lte)
        return iter([] if trusted is None else [trusted])

    def _newest_trusted(self, gid: uuid.UUID, gt: int | None, lte: int | None) -> Any:
        upto = lte
        for _ in range(TRIES):
            rows = self.recorder.select_events(gid, gt=gt, lte=upto, desc=True, limit=1)
            if not rows:
                return None
            stored: StoredEvent = rows[0]
            version = stored.originator_version
            if stored.topic != SEALED_TOPIC:
                # An older release's snapshot (or a row no server wrote): every
                # older snapshot is older still, so rebuild from the events.
                legacy = stored.topic == PLAIN_TOPIC
                self.seal.warn(gid, version, "it was taken before snapshots were sealed"
                               if legacy else f"it is not a snapshot ({stored.topic[:60]!r})")
                return None
            try:
                snapshot = self.mapper.to_domain_event(stored)
            except Exception as exc:  # noqa: BLE001 - unreadable bytes: not trusted
                problem: str | None = f"it cannot be read ({type(exc).__name__})"
            else:
                problem = self.seal.problem(snapshot)
            if problem is None:
                return snapshot
            self.seal.warn(gid, version, problem)
            upto = version - 1
            if upto < 1 or (gt is not None and upto <= gt):
                return None
        return None


def window_filled(state: dict[str, Any], events: Mapping[int, Any]) -> dict[str, Any]:
    """A state (a snapshot's, or a loaded game's) with the command ids it left
    to the events filled in from ``events`` (by version), as the game loaded
    from it fills them (``Recording.fill_command_window``): what the audit
    compares with the window a replay makes. Any other state as it is."""
    gap = state.get("command_gap")
    if (not isinstance(gap, list) or len(gap) != 2 or not all(type(n) is int for n in gap)
            or not isinstance(state.get("command_ids"), dict)):
        return state  # none, or damaged: compared as it is
    last, count = gap
    older = newest_ids(((v, getattr(events[v], "meta", None)) for v in range(last, 0, -1)
                        if v in events), count)
    filled = {k: v for k, v in state.items() if k != "command_gap"}
    filled["command_ids"] = filled_window(state["command_ids"], gap, older)
    return filled
