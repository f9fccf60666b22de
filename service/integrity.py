"""A game loaded from the store is checked as it loads: its chain and digests.

Every stored event carries its hash-chain digest (``aggregates.kernel.record.chain``):
SHA-256 over the previous digest, the event's version, type, time, payload and
meta, salted from the game's seed. A row changed in the store by hand (a
payload edited, an event deleted or moved) breaks it. Without a check, such a
game loaded as whatever its rows said: an edit that stayed within the rules was
served as the game's state, and one that did not failed the load with a bare
``INTERNAL`` on every call.

So when the repository rebuilds a game from the store (after a restart, a cache
eviction, a time-travel read; never for a game already in memory, which its own
writes keep), each event it folds is checked first: its version follows the one
before, it links to the digest before it, and its digest, recomputed from its
contents, is the one it carries. The first event that fails stops the load with
``DATA_LOSS``/``RECORD_CORRUPT`` naming its version; the refusal is counted in
the metrics (``arbiter_records_corrupt_total``, ``arbiter_games_corrupt``) and
the gRPC health service ``RECORDS_SERVICE`` says ``NOT_SERVING`` while any game
is known corrupt. Every other game plays on. A game that loads cleanly again
(its store repaired) leaves the list.

What a load reads is what it checks: a game loaded from a sealed snapshot
(``service.snapshots``, whose seal and head vouch for the state up to it) checks
the events after the snapshot; the events before it are checked by ``Audit``
(``arbiter audit``) and by every verifier of the game's record. The cost is one
digest per event loaded (about 6 microseconds), on the load only.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from eventsourcing.domain import Snapshot
from prometheus_client import Counter, Gauge

from aggregates.kernel import Game, payload_of
from aggregates.kernel.record import chain, upcast
from service.errors import ServiceError

log = logging.getLogger(__name__)

#: The gRPC health service name that reports the stored records' integrity.
RECORDS_SERVICE = "arbiter.records"
#: Corrupt games remembered (for health and metrics) at most.
KEPT = 10_000

CORRUPT_LOADS = Counter(
    "arbiter_records_corrupt",
    "Loads of a game refused because its stored events fail their digests or chain "
    "(RECORD_CORRUPT)",
)
CORRUPT_GAMES = Gauge(
    "arbiter_games_corrupt",
    "Games whose last load from the store found their stored events corrupt",
)

Projector = Callable[[Any, Iterable[Any]], Any]


def record_corrupt(game_id: str, version: int, why: str) -> ServiceError:
    """The refusal for a game whose stored event at ``version`` fails its check."""
    return ServiceError(
        "DATA_LOSS", "RECORD_CORRUPT",
        f"game {game_id}: its stored record is corrupt at version {version} ({why}); "
        "the game is refused until its store is repaired (arbiter audit names every "
        "problem); other games are not affected",
    )


class Known:
    """The games found corrupt by this process, and who is told when that changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, tuple[int, str]] = {}
        self._listeners: list[Callable[[bool], None]] = []

    def found(self, game_id: str, version: int, why: str) -> None:
        with self._lock:
            first = self._games.get(game_id) != (version, why)
            if len(self._games) >= KEPT and game_id not in self._games:
                self._games.pop(next(iter(self._games)))
            self._games[game_id] = (version, why)
            count = len(self._games)
        CORRUPT_LOADS.inc()
        CORRUPT_GAMES.set(count)
        if first:
            log.error("game %s: its stored record is corrupt at version %d (%s); the game "
                      "is refused with RECORD_CORRUPT until its store is repaired",
                      game_id, version, why)
        self._tell(False)

    def loaded(self, game_id: str) -> None:
        """A game loaded with every check passed: not corrupt (any more)."""
        if game_id not in self._games:  # read without the lock: the common case
            return
        with self._lock:
            self._games.pop(game_id, None)
            count = len(self._games)
        CORRUPT_GAMES.set(count)
        log.info("game %s: its stored record checks out again", game_id)
        self._tell(count == 0)

    def games(self) -> dict[str, tuple[int, str]]:
        """{game id: (first bad version, why)} of the games known corrupt."""
        with self._lock:
            return dict(self._games)

    def listen(self, report: Callable[[bool], None]) -> None:
        """Call ``report(all clean)`` now and on every change."""
        with self._lock:
            self._listeners.append(report)
            clean = not self._games
        report(clean)

    def _tell(self, clean: bool) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for report in listeners:
            report(clean)


KNOWN = Known()


def report_health(health: Any) -> None:
    """Keep ``RECORDS_SERVICE`` in a gRPC health servicer ``SERVING`` while no
    game is known corrupt, ``NOT_SERVING`` while one is."""
    from grpc_health.v1 import health_pb2

    def report(clean: bool) -> None:
        health.set(RECORDS_SERVICE, health_pb2.HealthCheckResponse.SERVING if clean
                   else health_pb2.HealthCheckResponse.NOT_SERVING)

    KNOWN.listen(report)


class Corrupt(Exception):
    """One event of a game's record failed its check (``version``, ``why``)."""

    def __init__(self, version: int, why: str) -> None:
        super().__init__(f"version {version}: {why}")
        self.version = version
        self.why = why
        self.game_id = ""


class Links:
    """The chain followed event by event: the version and digest reached."""

    def __init__(self, seed: str, head: str, version: int) -> None:
        try:
            self.salt_of = chain.salter(seed)
        except (TypeError, ValueError):
            raise Corrupt(1, "the recorded seed is not hex") from None
        self.head = head
        self.version = version
        self.game_id = ""  # the game's id as text, made once

    def follow(self, event: Any) -> None:
        """Check one stored event against the chain so far, then move on to it."""
        version = event.originator_version
        if version != self.version + 1:
            raise Corrupt(self.version + 1, f"it is missing (the next stored event is "
                          f"version {version})")
        meta = getattr(event, "meta", None)
        if not isinstance(meta, dict):
            raise Corrupt(version, "it carries no chain record")
        if meta.get("prev") != self.head:
            raise Corrupt(version, "it does not link to the digest of the event before it")
        if not self.game_id:
            self.game_id = str(event.originator_id)
        if digest_of(event, meta, self.head, self.salt_of(version),
                     self.game_id) != meta.get("digest"):
            raise Corrupt(version, "its digest does not match its contents")
        self.head = str(meta["digest"])
        self.version = version


def digest_of(event: Any, meta: dict[str, Any], prev: str, salted: str, game_id: str) -> str:
    """The digest a stored event must carry, over its contents as stored (an
    event upcast from an older shape keeps those in its meta)."""
    payload: dict[str, Any] = payload_of(event)
    kind = type(event).__name__
    if upcast.STORED in meta:
        kind = upcast.stored_type(upcast.current_type(event), meta)
        payload, meta = upcast.stored_form(payload, meta)
    return chain.digest(prev, game_id, event.originator_version, kind,
                        event.timestamp.isoformat(), payload, meta, salted)


def start(first: Any) -> Links | None:
    """The chain a load starts from: a sealed snapshot's head and seed (trusted:
    ``service.snapshots`` checked its seal and head), or the creation event,
    checked here; None for what is not a game (nothing to check)."""
    if isinstance(first, Snapshot):
        state = first.state if isinstance(first.state, dict) else {}
        if "head" not in state or "seed" not in state:
            return None
        return Links(str(state["seed"]), str(state["head"]), first.originator_version)
    if not isinstance(first, Game.Event):
        return None
    if first.originator_version != 1:
        raise Corrupt(1, f"it is missing (the first stored event is version "
                      f"{first.originator_version})")
    links = Links(str(payload_of(first).get("seed", "")), chain.GENESIS, 0)
    links.follow(first)
    return links


def checked(events: Iterable[Any]) -> Iterator[Any]:
    """``events`` (a snapshot first, or not), each checked before it is passed on."""
    found = iter(events)
    first = next(found, None)
    if first is None:
        return
    try:
        links = start(first)
        yield first
        if links is None:
            yield from found
            return
        for event in found:
            links.follow(event)
            yield event
    except Corrupt as exc:
        exc.game_id = str(first.originator_id)
        raise


def checking(project: Projector) -> Projector:
    """``project`` (the repository's projector) over checked events: a load that
    meets a corrupt event is refused with ``RECORD_CORRUPT`` (``record_corrupt``)."""

    def project_checked(initial: Any, events: Iterable[Any]) -> Any:
        try:
            aggregate = project(initial, checked(events))
        except Corrupt as exc:
            KNOWN.found(exc.game_id, exc.version, exc.why)
            raise record_corrupt(exc.game_id, exc.version, exc.why) from None
        if isinstance(aggregate, Game):
            KNOWN.loaded(str(aggregate.id))
        return aggregate

    return project_checked
