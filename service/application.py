"""The eventsourcing Application: games in, events out, nothing half-applied.

Every write goes through ``save`` with the library's optimistic concurrency
on the game's version, so two writers (threads or server processes) can never
fork a game: the loser re-reads and re-decides, or, when the client named the
version it acted on, is refused with the current one.
"""

from __future__ import annotations

import collections
import contextlib
import copy
import dataclasses
import datetime
import functools
import logging
import queue
import random
import secrets
import threading
import time
import uuid
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from eventsourcing.application import (
    AggregateNotFoundError,
    Application,
    EventSourcedLog,
    ProcessingEvent,
    Repository,
    project_aggregate,
)
from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import IntegrityError, Notification, PersistenceError
from eventsourcing.utils import strtobool

from aggregates.catalog import GAMES
from aggregates.kernel import Command, Game, RuleError
from aggregates.kernel.game import command_key
from aggregates.kernel.record import recording as kernel_recording
from service import integrity
from service.auth import Credentials, GameAccess
from service.catalogue import RulesIndex, unknown_rules
from service.envelope import Reader
from service.errors import ServiceError, unknown_game
from service.groupcommit import GroupCommit
from service.ids import (
    GAMES_LOG_ID,
    check_id,
    check_position,
    on_shard,
    parse_game_id,
    parse_options,
)
from service.readmodel import GameFacts, LegalList, ReadModel, SeatState, Turn, facts_of
from service.recent import RecentEvents
from service.settled import SettledHead
from service.snapshots import SnapshotSeal, TrustedSnapshots
from service.turns import TurnWire

log = logging.getLogger(__name__)
_T = TypeVar("_T")
SAVE_ATTEMPTS = 8
#: CreateGame's attempts at the catalogue's next entry, with a jittered,
#: exponentially growing pause between them (at most ``CREATE_BACKOFF[1]``):
#: about 8 s in all before BUSY, against other servers' creators only.
CREATE_ATTEMPTS = 40
CREATE_BACKOFF = (0.002, 0.25)
#: How long a create waits for this server's other creates before BUSY.
CATALOGUE_WAIT = 30.0

#: How long a retried CreateGame (same request_id) gets the game's tokens again.
RETRY_WINDOW = datetime.timedelta(minutes=10)
#: Access records (seat token hashes) kept in memory: about 300 bytes each.
ACCESS_CACHE_SIZE = 20_000
#: The commits kept for the relay to publish (``ArbiterApp.committed``).
COMMITS_KEPT = 1024
#: How long a cached game's look at the store answers reads (``ArbiterApp.game``'s
#: ``lately``), in seconds: a read sees every write another server process on the
#: store committed this long before it began, and every write of this process.
#: ``ARBITER_READ_FRESHNESS_MS`` sets it (0: every read looks at the store).
READ_FRESHNESS = 0.01
#: Store checks kept (one per game read lately); beyond it, the stale ones are dropped.
CHECKS_KEPT = 4096


#: Events read at once, newest first, to fill in a game's command window from
#: them (``ArbiterApp._fill_window``): 256 ids took about 500 in the bench's long game.
FILL_PAGE = 512

#: A game's fields that only live while a command is decided (reset by every
#: command): put back when a command on the cached game is refused.
TRANSIENT_STATE = ("_draws", "_command", "_audience")


class GameLogged(DomainEvent):
    """One entry of the catalogue of games, saved atomically with the game."""

    game_id: uuid.UUID
    rules: str
    seats: list[str]
    request_id: str


class GameLocks:
    """One re-entrant lock per game, alive only while somebody holds or awaits it.

    The cached game is changed in place by its one writer (``ArbiterApp.act``)
    and read in place by borrowers (``ArbiterApp.game(borrow=True)``), so this
    lock is now what keeps a reader from seeing a half-applied command: it must
    never be dropped while held. A weak map drops a lock only when nobody has it
    (the old map was cleared wholesale at 10,000 games, held locks included).
    Re-entrant: the servicer holds it around ``act`` to render the reply from
    the very state the command made.
    """

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: weakref.WeakValueDictionary[uuid.UUID, Any] = (
            weakref.WeakValueDictionary())

    def __call__(self, game_id: uuid.UUID) -> Any:
        with self._guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.RLock()
            return lock


class GameReads(Protocol):
    """What a read of a game's current version (``GetState``, ``LegalActions``)
    asks: its store (``ArbiterApp``), which may look at the store and wait
    for the game's lock, or a game held at hand (``HeldGame``), which does
    neither. The servicer reads through either alike."""

    def access(self, game_id: uuid.UUID) -> GameAccess | None: ...

    def facts(self, game_id: str, seat: int | None = None) -> GameFacts: ...

    def seat_state(self, game_id: str, reader: Reader) -> SeatState: ...

    def legal_actions(self, game_id: str, seat: int) -> LegalList: ...


def state_read(reads: ReadModel, game: Game, reader: Reader) -> SeatState:
    """``game`` now as ``reader`` sees it (the full record once it is over),
    shared with every caller of that audience at this version (its lock held)."""
    return reads.state(game, reader.for_game(game.ended))


def legal_read(reads: ReadModel, game: Game, seat: int) -> LegalList:
    """What ``seat`` may do in ``game`` now (its lock held); ``UNKNOWN_SEAT``
    for a seat it does not have."""
    facts_of(game, seat)
    return reads.legal(game, seat)


class HeldGame:
    """A cached game held for a read that must not wait (``ArbiterApp.hold_cached``):
    its lock taken, without waiting, by the reader's thread, and everything the
    read needs at hand: the game as fresh as a read's look at the store
    (``ArbiterApp._caught_up_lately``), its access record, the read model.

    It answers as the store does (``GameReads``), from these alone: no read
    of it looks at the store or waits, so the server's loop may answer with
    it (``service.aio.at_hand``). Whoever took it releases it, once, on the
    same thread, as soon as the answer is made (a writer of the game waits
    for it meanwhile).

    ``look``: a look at the store to ask (``Lookout``) once the call is
    admitted (its first read), when the game's look is half its age: so
    that it is caught up again before it lapses."""

    __slots__ = ("game", "access_record", "reads", "_lock", "_text", "_look")

    def __init__(self, game: Game, access: GameAccess, reads: ReadModel, lock: Any,
                 look: Callable[[], None] | None = None) -> None:
        self.game, self.access_record, self.reads, self._lock = game, access, reads, lock
        self._text = str(game.id)
        self._look = look

    def _check(self, game_id: str | uuid.UUID) -> None:
        """The game asked for is the one held (the request the probe read
        names it): a mix-up would answer with another game's state."""
        if game_id != self._text and game_id != self.game.id and (
                parse_game_id(str(game_id)) != self.game.id):
            raise AssertionError("a held game is read for another game's call")

    def access(self, game_id: uuid.UUID) -> GameAccess | None:
        self._check(game_id)
        return self.access_record

    def facts(self, game_id: str, seat: int | None = None) -> GameFacts:
        self._check(game_id)
        look = self._look
        if look is not None:
            self._look = None
            look()
        return facts_of(self.game, seat)

    def seat_state(self, game_id: str, reader: Reader) -> SeatState:
        self._check(game_id)
        return state_read(self.reads, self.game, reader)

    def legal_actions(self, game_id: str, seat: int) -> LegalList:
        self._check(game_id)
        return legal_read(self.reads, self.game, seat)

    def release(self) -> None:
        self._lock.release()


class GameRepository(Repository[uuid.UUID]):
    """The library's repository, its cached aggregates read under the game's lock.

    The library catches a cached aggregate up (``fastforward``) by applying
    newer events to it in place, and copies it outside its own lock: a copy
    could catch another thread's catch-up half-way. Under the game's lock a
    read, a catch-up and a command never overlap, so a borrower holding the
    lock may use the cached object itself, without the copy (issue 13).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.locks = GameLocks()

    def get(self, aggregate_id: uuid.UUID, *, version: int | None = None,
            **kwargs: Any) -> Any:
        if version is not None or self.cache is None:
            return super().get(aggregate_id, version=version, **kwargs)
        with self.locks(aggregate_id):
            return super().get(aggregate_id, **kwargs)

    def _reconstruct_aggregate(self, aggregate_id: uuid.UUID, version: int | None,
                               projector_func: Any) -> Any:
        """A game loaded from the store (never one cached, caught up) is checked
        as it loads: a corrupt one is refused (``service.integrity``)."""
        return super()._reconstruct_aggregate(
            aggregate_id, version, integrity.checking(projector_func))

    def forget(self, aggregate_id: uuid.UUID) -> None:
        """Drop a cached aggregate that holds changes the store did not record;
        the next read rebuilds it (a verified snapshot plus newer events)."""
        if self.cache is not None:
            with self.locks(aggregate_id), contextlib.suppress(KeyError):
                self.cache.get(aggregate_id, evict=True)


class Snapshotter:
    """Takes the snapshots a save asks for on a thread of its own, so the
    request whose event reached the interval does not wait for one (issue 13).

    A snapshot is only a shortcut for loading: one lost in a crash (queued,
    not yet taken) costs the next load some more events, never correctness.
    ``close`` takes every queued snapshot first, so a stopped server leaves
    the ones it was asked for. Started on the first request, so an
    application that never snapshots runs no thread.
    """

    def __init__(self, take: Callable[[uuid.UUID, int], None]) -> None:
        self._take = take
        self._queue: queue.SimpleQueue[tuple[uuid.UUID, int] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()

    def request(self, game_id: uuid.UUID, version: int) -> None:
        if self._thread is None:
            with self._start:
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._run, name="snapshotter", daemon=True)
                    self._thread.start()
        self._queue.put((game_id, version))

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            try:
                self._take(*item)
            except Exception:  # noqa: BLE001 - a lost snapshot only slows a load
                log.warning("snapshot of game %s at version %d not taken", *item, exc_info=True)

    def close(self, timeout: float = 30.0) -> None:
        """Take the queued snapshots, then stop."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout)


class Lookout:
    """Looks at the store, on a thread of its own, for newer events of the
    games read from the server's loop (``ArbiterApp.look_ahead``), before
    their look at the store lapses (``read_freshness``): a game read without
    pause then stays caught up, and its reads are not sent to the pool, one
    after another, while one of them catches it up.

    Asked by the reads themselves, after their caller was admitted (its
    share: ``service.limits``), and at most once at a time a game, so the
    store is looked at about as often as the reads' own catch-ups would.
    A look not made (the thread behind) costs nothing but the lapse it was
    to spare. Its thread is started by the server (``start``), else by the
    first request.
    """

    def __init__(self, look: Callable[[uuid.UUID], None]) -> None:
        self._look = look
        self._queue: queue.SimpleQueue[uuid.UUID | None] = queue.SimpleQueue()
        self._asked: set[uuid.UUID] = set()
        self._guard = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Its thread started now (by a server, before its loop asks: a
        thread's start waits for the thread)."""
        with self._guard:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="lookout", daemon=True)
                self._thread.start()

    def ask(self, game_id: uuid.UUID) -> None:
        """Look at ``game_id`` soon, unless a look at it is already asked."""
        if self._thread is None:
            self.start()
        with self._guard:
            if game_id in self._asked:
                return
            self._asked.add(game_id)
        self._queue.put(game_id)

    def _run(self) -> None:
        while (game_id := self._queue.get()) is not None:
            try:
                self._look(game_id)
            except Exception:  # noqa: BLE001 - a look not made: the next read catches up
                log.debug("look at game %s not made", game_id, exc_info=True)
            finally:
                with self._guard:
                    self._asked.discard(game_id)

    def close(self, timeout: float = 5.0) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout)


COMMAND_INDEX_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "arbiter:command-index")


def command_index_id(game_id: uuid.UUID, key: str) -> uuid.UUID:
    """Where the store's index keeps one client command id of one game."""
    return uuid.uuid5(COMMAND_INDEX_NAMESPACE, f"{game_id}/{key}")


class CommandIndexed(DomainEvent):
    """One client command id of a game, and the version of the first event it
    caused: the store's index of the ids that left the game (issue 13). The
    game keeps only its newest ids (``COMMAND_WINDOW``), so its state and
    snapshots stay small however long it runs; the command whose id pushes
    the oldest one out saves that one here, atomically with its own events,
    one record per id (its own originator, version 1), read by key. A game
    that never fills its window writes none.

    Not a game's event: no ``meta``, so the relay, the feeds and the audit's
    listings pass it over like the catalogue's entries.
    """

    game_id: uuid.UUID
    key: str
    first: int

    @classmethod
    def of(cls, game_id: uuid.UUID, key: str, first: int) -> CommandIndexed:
        return cls(  # type: ignore[call-arg]
            originator_id=command_index_id(game_id, key), originator_version=1,
            timestamp=cls.create_timestamp(), game_id=game_id, key=key, first=first,
        )

    def mutate(self, aggregate: Any) -> None:
        """Not an aggregate: an id of the index reads as no game at all."""
        return None


@dataclasses.dataclass(frozen=True)
class SeatReading:
    """One seat's reading of a game at a version: its view (``state``), and,
    when it has a decision then, its legal moves (``legal``; None otherwise)."""

    seat: int
    state: SeatState
    legal: LegalList | None


@dataclasses.dataclass(frozen=True)
class ActResult:
    """What a write did: the game after it (the cached object: read it only
    under ``game_lock``), the events it recorded and their global positions,
    whether it answered a command id applied before (``replayed``), whether
    it recorded anything, and the game as the asking reader sees it then."""

    game: Game
    events: list[Any]
    positions: dict[int, int]
    replayed: bool
    recorded: bool = True
    state: SeatState | None = None
    #: The game's version once the write was done, and whether it was over
    #: then (read under its lock).
    version: int = 0
    over: bool = False


@dataclasses.dataclass(frozen=True)
class Move:
    """One seat's command, as ``ArbiterApp.act`` takes it, for ``act_moves``."""

    game_id: str
    seat: int
    action: Mapping[str, Any]
    expected_version: int = 0
    command_id: str = ""
    decision_id: str = ""
    rules: str = ""
    #: The command's wire bytes, when it came typed (a ``Play`` move): the
    #: writer parses each distinct command of a game's rules once (``_parsed``).
    command_key: bytes = b""


class ArbiterApp(Application):
    """All games of all rules in one event store."""

    name = "arbiter"
    #: Seals snapshots and checks them (``service.snapshots``); None without snapshots.
    snapshot_seal: SnapshotSeal | None = None
    #: False while the store's database cannot be connected to (its write probe
    #: says so, ``service.storehealth``): its games' calls are refused at once.
    reachable: bool = True

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        snapshot_interval: int = 100,
        credentials: Credentials | None = None,
        shard: int | None = None,
    ):
        # Snapshots every ``snapshot_interval`` events keep long games fast to
        # load. The library only builds a snapshot store when its environment
        # says so (or the class, not the instance, has intervals): say so.
        self.snapshotting_intervals = {  # type: ignore[misc]
            cls: snapshot_interval for cls in GAMES.values()
        }
        env = dict(env or {})
        env.setdefault("IS_SNAPSHOTTING_ENABLED", "y" if snapshot_interval > 0 else "n")
        # Before the library builds the repository, which verifies snapshots
        # with a key derived from the secret (``construct_repository``).
        self.credentials = credentials or Credentials(secrets.token_bytes(32), "")
        #: This store's number on a store sharded by game (``service.shards``):
        #: its new games' ids say it. None: an unsharded store (ids as ever).
        self.shard = shard
        super().__init__(env)
        self.games_log: EventSourcedLog[GameLogged] = EventSourcedLog(
            self.events, GAMES_LOG_ID, GameLogged
        )
        self.rules_index = RulesIndex(self.games_log)
        self._locks_guard = threading.Lock()
        #: Access records by game id: they never change once issued (one
        #: ``Issued`` event), so each is read from the store once, not on
        #: every call, and never takes a game's place in the aggregate cache.
        self._access: OrderedDict[uuid.UUID, GameAccess] = OrderedDict()
        self._catalogue = threading.Lock()
        #: Set after each commit to wake the relay (``_wake_relay``).
        self.saved = threading.Event()
        self.snapshotter = Snapshotter(self._take_snapshot_now)
        #: The version of each game's last snapshot taken of its cached game.
        self._snapshotted: dict[uuid.UUID, int] = {}
        #: (rules, a typed command's wire bytes) -> the command parsed (``_parsed``).
        self._commands: dict[tuple[type, bytes], Command] = {}
        #: Keeps the games read from the server's loop caught up (``look_ahead``).
        self.lookout = Lookout(self.look_ahead)
        #: Without the table lock, readers by position stop at the settled head.
        self._settled: SettledHead | None = None
        if strtobool(self.env.get("POSTGRES_ENABLE_DB_FUNCTIONS", "") or "n"):
            self._settled = SettledHead(self.recorder)
        #: Concurrent moves to different games share a transaction (``service.groupcommit``).
        self.group_commit = GroupCommit(self._record_processed)
        #: Set on the thread of an ``act(defer_snapshots=True)`` while it saves.
        self._deferring = threading.local()
        #: Called with each clocked game loaded (the clock keeper watches them).
        self.on_clocked: Callable[[Game], None] | None = None
        #: Each game's newest readings, by audience (``service.readmodel``).
        self.reads = ReadModel()
        #: ``Play`` streams' turns as wire bytes (``service.turns``).
        self.turn_wire = TurnWire()
        #: This process's commits, as recorded (oldest first), while the relay
        #: that publishes them is this process's (``service.relay``): it takes
        #: its events from here instead of reading them back from the store.
        #: Bounded: a relay that falls behind reads the store, as it always may.
        self.committed: collections.deque[list[Any]] = collections.deque(maxlen=COMMITS_KEPT)
        self.keep_committed = False
        #: The newest events of the games followed here (``service.recent``).
        self.recent = RecentEvents()
        #: When each cached game last caught up from the store (``game``'s ``lately``).
        self.read_freshness = read_freshness(self.env.get("ARBITER_READ_FRESHNESS_MS") or "")
        self._checked: dict[uuid.UUID, tuple[weakref.ref[Game], float]] = {}
        #: The catch-ups (``_checked``'s entries) a look ahead found behind the
        #: store: no other look is asked for them (``look_ahead``).
        self._behind: dict[uuid.UUID, tuple[weakref.ref[Game], float]] = {}

    # -------------------------------------------------------------- snapshots

    def construct_repository(self) -> Repository[uuid.UUID]:
        """The library's repository, loading only snapshots that pass their
        seal and chain checks (``service.snapshots``): the current state and
        the past (``GetState`` at a version) alike come from a verified
        snapshot plus the events after it, or from the events alone."""
        cache_maxsize = self.env.get(self.AGGREGATE_CACHE_MAXSIZE)
        repository = GameRepository(
            event_store=self.events,
            snapshot_store=self.snapshots,
            cache_maxsize=int(cache_maxsize) if cache_maxsize else None,
            fastforward=strtobool(self.env.get(self.AGGREGATE_CACHE_FASTFORWARD, "y")),
            fastforward_skipping=strtobool(
                self.env.get(self.AGGREGATE_CACHE_FASTFORWARD_SKIPPING, "n")),
            deepcopy_from_cache=strtobool(self.env.get(self.DEEPCOPY_FROM_AGGREGATE_CACHE, "y")),
        )
        if self.snapshots is not None:
            key = self.credentials._derive("snapshot-seal/v1").encode("ascii")
            self.snapshot_seal = SnapshotSeal(key, self.mapper, self.events)
            repository.snapshot_store = TrustedSnapshots(self.snapshots, self.snapshot_seal)
        return repository

    def take_snapshot(
        self,
        aggregate_id: uuid.UUID,
        version: int | None = None,
        projector_func: Any = project_aggregate,
    ) -> None:
        """The library's snapshot, sealed (``service.snapshots``)."""
        if self.snapshots is None or self.snapshot_seal is None:
            super().take_snapshot(aggregate_id, version, projector_func)  # refuses
            return
        aggregate = self.repository.get(aggregate_id, version=version,
                                        projector_func=projector_func)
        self.snapshots.put([self.snapshot_seal.take(aggregate)])

    def _take_snapshots(self, processing_event: Any) -> None:
        """The snapshots this save reached the interval of (``snapshots_due``:
        each at the version its game has after the save): asked of the
        ``Snapshotter`` when the save is an ``act(defer_snapshots=True)`` (the
        servicer's, so the request does not wait for one), else taken here,
        before the save returns, as the library does (in-process callers and
        tests may count on finding them at once)."""
        if not self.snapshots or not self.snapshotting_intervals:
            return
        defer = getattr(self._deferring, "on", False)
        for game_id, version in snapshots_due(processing_event,
                                              self.snapshotting_intervals).items():
            # Taken here only if this thread may lock the game at once: in a
            # shared transaction (``GroupCommit``) another saver holds its
            # game's lock while it waits for this very commit.
            lock = self._lock(game_id)
            if defer or not lock.acquire(blocking=False):
                self.snapshotter.request(game_id, version)
                continue
            try:
                self._take_snapshot_now(game_id, version)
            finally:
                lock.release()

    def _take_snapshot_now(self, game_id: uuid.UUID, version: int) -> None:
        """A sealed snapshot at ``version`` or a later move's end: of the
        cached game when it is at that version or past it (sealed and encoded
        under the game's lock, so no command changes it meanwhile; no
        replay), else rebuilt from the store at ``version``.

        Under its lock the cached game is always at the end of a committed
        move (a move being decided holds the lock until its save, and one
        whose save failed is dropped from the cache), so a snapshot asked
        for at a move's end that the game has moved past since (the next
        move came before the ``Snapshotter`` did) is of the game as it is
        now, not rebuilt from the store at the version asked. One version
        is snapshotted once (``_snapshotted``): two requests the game has
        moved past both are one snapshot."""
        stored = None
        if self.snapshots is not None and self.snapshot_seal is not None:
            with self._lock(game_id):
                cached: Any = self._cached(game_id)
                if cached is not None and cached.version >= version:
                    if self._snapshotted.get(game_id) == cached.version:
                        return
                    stored = self.mapper.to_stored_event(self.snapshot_seal.take(cached))
                    if len(self._snapshotted) >= SNAPSHOTTED_KEPT:
                        self._snapshotted.clear()
                    self._snapshotted[game_id] = cached.version
        if stored is None:
            self.take_snapshot(game_id, version)
        elif self.snapshots is not None:
            self.snapshots.recorder.insert_events([stored])

    def close(self) -> None:
        """The queued snapshots taken, then the store closed."""
        self.lookout.close()
        self.snapshotter.close()
        super().close()

    # ------------------------------------------------------------------ reads

    @property
    def repository(self) -> GameRepository:
        return self._repository  # type: ignore[return-value]

    @contextmanager
    def game_lock(self, game_id: str) -> Iterator[None]:
        """Hold a game's lock: no command changes it meanwhile, so a game
        borrowed (``game(borrow=True)``) may be read throughout."""
        with self._lock(parse_game_id(game_id)):
            yield

    def game(self, game_id: str, *, borrow: bool = False, lately: bool = False) -> Game:
        """The game now: a copy of it, or, with ``borrow``, the cached object
        itself, for a caller holding ``game_lock`` for as long as it reads it
        (no copy; only ``act`` ever changes it, under that same lock).

        Each read of a cached game asks the store for newer events (the
        library's fast-forward), so that another server process's writes are
        seen: one query per call, a fifth of a cached ``GetState``. With
        ``lately`` (a borrowing read, never a write), a cached game that did
        so less than ``read_freshness`` ago is used as it is (``_caught_up_lately``).
        """
        gid = parse_game_id(game_id)
        if gid == GAMES_LOG_ID:
            raise unknown_game(game_id)  # the catalogue's log, not an aggregate
        game: Any = self._caught_up_lately(gid) if lately and borrow else None
        if game is None:
            checked = time.monotonic()  # before the query: what it finds was committed by then
            # A catch-up that fails part of the way leaves the cached game in the
            # middle of a command: its earlier catch-up vouches for it no more.
            self._checked.pop(gid, None)
            try:
                game = self.repository.get(gid, deepcopy_from_cache=not borrow)
            except AggregateNotFoundError:
                raise unknown_game(game_id) from None
            if not isinstance(game, Game):
                raise unknown_game(game_id)
            if borrow:
                self._note_checked(gid, game, checked)
        self._watch_clock(game)
        return game

    def _watch_clock(self, game: Game) -> None:
        """A clocked game filed at its next deadline, or off once it is over
        (``service.clock``): after every read of it, and after every write."""
        if self.on_clocked is not None and game.clocked():
            self.on_clocked(game)

    def _cached(self, gid: uuid.UUID) -> Any:
        """The aggregate cache's object for ``gid`` as it is (no catch-up, no
        copy: the caller holds the game's lock), or None when it holds none."""
        cache = self.repository.cache
        if cache is None:
            return None
        try:
            return cache.get(gid)  # kept recent in the cache too
        except KeyError:
            return None

    def _caught_up_lately(self, gid: uuid.UUID) -> Game | None:
        """The cached game, if it caught up from the store less than
        ``read_freshness`` ago; else None (the caller asks the store).

        Why a read may skip the query and still see what it must:

        - this process's writes change the cached object itself, under the
          game's lock (``_write``), which the reader holds too: a read after a
          write of this process sees it, and never a half-applied one;
        - another process's write committed before the last catch-up began was
          found by it (a query sees every transaction committed before it
          starts: SQLite's WAL snapshot, PostgreSQL's READ COMMITTED statement);
          the catch-up is at most ``read_freshness`` old, so a write committed
          that long before the read began is in the game read;
        - the time noted is the catch-up's start, on this process's monotonic
          clock, and only for the object caught up: a game the cache dropped
          (a refused command, a snapshot not trusted, eviction) and rebuilt is
          another object, and is read from the store again.

        The cached game only moves forward, so a caller's reads never go back
        in time either.
        """
        entry = self._checked.get(gid)
        if entry is None or time.monotonic() - entry[1] >= self.read_freshness:
            return None
        cached = self._cached(gid)
        return cached if cached is entry[0]() else None  # type: ignore[no-any-return]

    def _note_checked(self, gid: uuid.UUID, game: Game, checked: float) -> None:
        """``game`` (the cached object) caught up from the store at ``checked``."""
        if self.read_freshness <= 0:
            return
        self._checked[gid] = (weakref.ref(game), checked)
        if len(self._checked) > CHECKS_KEPT:
            stale = time.monotonic() - self.read_freshness
            for key, (_, at) in list(self._checked.items()):
                if at < stale:
                    self._checked.pop(key, None)
            if len(self._checked) > CHECKS_KEPT:
                self._checked.clear()  # all fresh: forgetting them costs queries only

    def facts(self, game_id: str, seat: int | None = None) -> GameFacts:
        """What a caller is authorized by: the game's id, whether it is over,
        its seats; ``seat``, when given, checked to be one of them (``UNKNOWN_SEAT``)."""
        with self.game_lock(game_id):
            return facts_of(self.game(game_id, borrow=True, lately=True), seat)

    def seat_state(self, game_id: str, reader: Reader) -> SeatState:
        """The game now as ``reader`` sees it (the full record once it is over),
        shared with every caller of that audience at this version. The caller
        was admitted by the game's ``facts`` (read just before, within the
        same ``read_freshness``: no second look at the store)."""
        with self._lock(parse_game_id(game_id)):  # ``game_lock``, without its generator
            return state_read(self.reads, self.game(game_id, borrow=True, lately=True), reader)

    def legal_actions(self, game_id: str, seat: int) -> LegalList:
        """What ``seat`` may do now: the commands, its pending decisions and
        their choices. Listing moves never changes a game
        (tests/property/test_reads_are_pure.py), so the cached game is read
        as it is, under its lock, as fresh as ``facts`` read it (``lately``)."""
        with self.game_lock(game_id):
            return legal_read(self.reads, self.game(game_id, borrow=True, lately=True), seat)

    def hold_cached(self, gid: uuid.UUID) -> HeldGame | None:
        """The game held for a read of its current version that must not wait
        (a ``GetState`` or ``LegalActions`` answered on the server's loop:
        ``service.aio.at_hand``), when all it needs is at hand this instant:
        its lock free (taken without waiting), the cached game caught up from
        the store less than ``read_freshness`` ago (what ``seat_state`` and
        ``legal_actions`` would read without a look at the store) and its
        access record kept, not a lobby table's (whose record is caught up
        from the store on each call). None otherwise, and nothing held: the
        read is asked of the store from a thread, as ever. The clock keeper
        is told of the game, as by any read (``_watch_clock``). A look ahead
        is asked with it (``HeldGame``'s ``look``) once the catch-up is half
        its age, unless a look found the store ahead of that very catch-up
        (``look_ahead``): the next catch-up is the pool's, at its lapse."""
        lock = self._lock(gid)
        if not lock.acquire(blocking=False):
            return None
        try:
            checked = self._checked.get(gid)
            game = self._caught_up_lately(gid)
            access = self._kept_access(gid)
            if (game is None or checked is None or access is None
                    or getattr(access, "revocable", False)):
                lock.release()
                return None
            self._watch_clock(game)
        except BaseException:
            lock.release()
            raise
        look = None
        if (time.monotonic() - checked[1] >= self.read_freshness / 2
                and self._behind.get(gid) is not checked):
            look = functools.partial(self.lookout.ask, gid)
        return HeldGame(game, access, self.reads, lock, look)

    def look_ahead(self, gid: uuid.UUID) -> None:
        """A look at the store for a cached game's newer events, without its
        lock held meanwhile (``Lookout``): none found, the game is noted caught
        up as of the look's start, as a read's catch-up notes it
        (``_caught_up_lately``); found (another server's write), nothing is
        noted and the next read catches up as ever.

        Why this is as good as a read's catch-up: the query starts after the
        time noted, so it sees every write committed before then; it finds
        none after the version the cached game had under its lock (where no
        command was half-applied), and the game is still that object at that
        version when noted, under its lock again. The lock is only tried,
        never waited for: a game busy at either end is not noted this time.

        Nor is a game whose catch-up (``_checked``'s entry) is not the one
        the look began with: a read's catch-up came between, and one that
        failed part of the way leaves the game half-changed at the same
        version (the library applies an event before it moves the version
        on), which no look may vouch for: this one's query was made before
        that write, and a later one finds it. A look that found the store
        ahead is remembered with its catch-up (``_behind``), so that the
        reads until that catch-up lapses ask no other: each would find the
        same write, a query a read where a lapse makes one catch-up."""
        checked = time.monotonic()
        lock = self._lock(gid)
        if not lock.acquire(blocking=False):
            return
        try:
            entry = self._checked.get(gid)
            game = self._cached(gid)
            version = game.version if game is not None else 0
        finally:
            lock.release()
        if game is None or entry is None:
            return
        if next(iter(self.events.get(gid, gt=version, limit=1)), None):
            if len(self._behind) >= CHECKS_KEPT:
                self._behind.clear()  # forgetting them costs a look each only
            self._behind[gid] = entry
            return
        if not lock.acquire(blocking=False):
            return
        try:
            if (self._checked.get(gid) is entry and self._cached(gid) is game
                    and game.version == version):
                self._note_checked(gid, game, checked)
        finally:
            lock.release()

    def seats_at(self, game_id: str, seats: Sequence[int], version: int,
                 screens: bool = True) -> tuple[int, list[SeatReading]]:
        """The readings of those of ``seats`` the game waits on at ``version``
        (each its own view and legal moves; every seat's final view once the
        game is over), shared with every reader of that version
        (``ReadModel``); with the game's version now. Nothing (an empty list)
        when the game is not at ``version``: a reader that knows of newer
        events takes them first. ``screens``: the readings carry each seat's
        screen (a bot's need none: it is not drawn for them).

        A version check, not a look at the store: the reader was told
        ``version`` by the game's events (this process's commits, or another
        server's through the feed), so a cached game at that version is the
        game then, and only a cached game behind it (another server's write)
        catches up from the store."""
        return self._at(game_id, version, lambda game: self._readings(
            game, seats, version, screens))

    def _at(self, game_id: str, version: int, read: Callable[[Game], _T]) -> _T:
        """``read`` of the game under its lock: the cached game when it is at
        ``version`` or newer, else the game caught up from the store."""
        gid = parse_game_id(game_id)
        with self._lock(gid):
            game = self._cached_as_is(gid)
            if game is None or game.version < version:
                game = self.game(game_id, borrow=True)
            return read(game)

    def _readings(self, game: Game, seats: Sequence[int], version: int,
                  screens: bool) -> tuple[int, list[SeatReading]]:
        """The game's readings for ``seats_at`` (the caller holds its lock)."""
        if game.version != version:
            return game.version, []
        readings = []
        waiting = set(self.reads.waiting_on(game))
        for seat in seats:
            if game.ended or seat in waiting:
                state = self.reads.state(game, Reader(seat).for_game(game.ended),
                                         screen=screens or game.ended)
                legal = None if game.ended else self.reads.legal(game, seat)
                readings.append(SeatReading(seat, state, legal))
        return game.version, readings

    def turns_at(self, game_id: str, seats: Sequence[int], version: int,
                 screens: bool = True) -> tuple[int, list[Turn | SeatReading]]:
        """``seats_at`` as a ``Play`` stream pushes it: each turn of a seat
        the game waits on as its ``PlayTurn`` bytes (``Turn``, made once per
        version: ``ReadModel.turn``); a game over, every seat's final reading
        as ``seats_at`` reads it (signed when pushed)."""
        return self._at(game_id, version, lambda game: self._turns(
            game, seats, version, screens))

    def turns_at_cached(self, gid: uuid.UUID, seats: Sequence[int], version: int,
                        screens: bool = True) -> tuple[int, list[Turn | SeatReading]] | None:
        """``turns_at`` for a reader that must not wait (a ``Play`` round on the
        event loop, where a wait stalls every stream): the cached game's turns
        when its lock is free this instant and it is at ``version`` or newer;
        None when the lock is held (its writer's save) or the game must be read
        from the store (not cached, or behind: another server's write), and the
        reader asks ``turns_at`` from a thread instead."""
        lock = self._lock(gid)
        if not lock.acquire(blocking=False):
            return None
        try:
            game = self._cached_as_is(gid)
            if game is None or game.version < version:
                return None
            return self._turns(game, seats, version, screens)
        finally:
            lock.release()

    def _turns(self, game: Game, seats: Sequence[int], version: int,
               screens: bool) -> tuple[int, list[Turn | SeatReading]]:
        """The game's turns for ``turns_at`` (the caller holds its lock): only
        what the seats asked need, the waiting seats' turns alone."""
        if game.version != version:
            return game.version, []
        if game.ended:
            version, readings = self._readings(game, seats, version, screens)
            return version, list(readings)
        waiting = {d.seat for d in self.reads.decisions(game)}
        return game.version, [self.reads.turn(game, seat, screens, self.turn_wire)
                              for seat in seats if seat in waiting]

    def _read(self, game: Game, reader: Reader | None) -> SeatState | None:
        """The state a write's reply carries, when its caller asked for one."""
        return None if reader is None else self.reads.state(game, reader.for_game(game.ended))

    def game_events(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Any]:
        gid = parse_game_id(game_id)
        check_position(after)
        return list(self.events.get(gid, gt=after or None, lte=upto))

    def notifications(self, after: int, limit: int = 200,
                      topics: Sequence[str] = ()) -> list[Notification]:
        """The events after global position ``after``, up to the settled head
        (``service.settled``): a reader that moves its position past these
        never misses an event that commits later."""
        check_position(after)
        return list(self.recorder.select_notifications(
            start=after + 1, limit=limit, stop=self.settled_head(), topics=topics))

    def settled_head(self) -> int | None:
        """Where readers by position may read to: None (anywhere) when inserts
        commit in id order (SQLite; PostgreSQL with the library's table lock)."""
        return None if self._settled is None else self._settled.head()

    def to_event(self, notification: Notification) -> Any:
        return self.mapper.to_domain_event(notification)

    def list_games(self, rules: str = "", after: int = 0, limit: int = 50,
                   before: int | None = None) -> list[GameLogged]:
        """The catalogue's entries (of ``rules``, if given) after position ``after``,
        oldest first; or, with ``before``, those before it, newest first (``0``:
        from the newest)."""
        check_position(after)
        if before is not None:
            check_position(before)
        if rules:
            # Checked before UNKNOWN_RULES echoes it: 60 KB of it overflowed the
            # trailers, and the caller got RESOURCE_EXHAUSTED with no reason.
            check_id("rules", rules)
            if rules not in GAMES:
                raise unknown_rules(rules)
            return self.rules_index.page(rules, after, limit, before)  # an index, not a scan
        if before == 1:  # nothing comes before the first game
            return []
        if before is not None:
            return list(self.games_log.get(lte=before - 1 if before else None, desc=True,
                                           limit=limit))
        return list(self.games_log.get(gt=after or None, limit=limit))

    # ----------------------------------------------------------------- writes

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """The library's save; a store that cannot write (a full disk, a
        read-only database) refuses cleanly, and the write is not recorded."""
        processed: ProcessingEvent[uuid.UUID] = ProcessingEvent()
        processed.collect_events(*objs, **kwargs)
        return self._record_processed(processed, defer=False)

    def _record_processed(self, processed: ProcessingEvent[uuid.UUID], defer: bool) -> list[Any]:
        """The library's save steps for events already collected (``GroupCommit``):
        record them in one transaction, then the snapshots due (taken later when
        ``defer``) and the notifications; a store that cannot write refuses as
        ``save`` does."""
        try:
            recordings = self._record(processed)
        except IntegrityError:
            raise
        except PersistenceError as exc:
            log.warning("the store cannot write: %s", str(exc).splitlines()[0][:200])
            raise ServiceError(
                "UNAVAILABLE", "STORE_UNAVAILABLE", "the store cannot record anything now; retry"
            ) from None
        # Committed: from here on nothing may raise to the savers. A saver told
        # its move failed would send it again, and a batch that failed would be
        # saved again saver by saver, each refused by the store's versions and
        # decided anew: a move without a command id applied twice.
        self.recent.record(recordings)  # before the relay can publish them
        if self.keep_committed:
            self.committed.append(recordings)
        was = getattr(self._deferring, "on", False)
        self._deferring.on = defer
        try:
            self._take_snapshots(processed)
            self._notify(recordings)
            self.notify(processed.events)
        except Exception:  # noqa: BLE001 - a snapshot is a shortcut; the events are stored
            log.warning("after a commit, its snapshots or notifications failed; the "
                        "events are stored", exc_info=True)
        finally:
            self._deferring.on = was
        return recordings

    def apply_overdue(self, game_id: str, now: float) -> list[Any]:
        """Apply the declared default of every overdue decision of a clocked
        game, each recorded like any command (``_write``; the relay publishes
        it); another server doing the same at once loses the optimistic save
        and decides again, finding nothing overdue."""
        applied: list[Any] = []

        def decide(game: Game) -> list[Any] | None:
            seats = game.overdue(now)
            if not seats:
                return None
            game.act_default(seats[0])
            return []

        for _ in range(SAVE_ATTEMPTS):
            try:
                written = self._write(game_id, decide)
            except RuleError:
                return applied  # the game no longer allows it: nothing recorded
            if not written.recorded:
                return applied
            applied.extend(written.events)
        return applied

    def access(self, game_id: uuid.UUID) -> GameAccess | None:
        """A game's access record (its token hashes), None if it has none.

        Immutable once issued, so kept in a cache of its own after one read
        of its one event: not the aggregate cache (where it took a game's
        place, and cost a catch-up query and a deep copy on every call). Only
        records found are kept: a game not found now may be created later.
        """
        access: Any = self._kept_access(game_id)
        if access is not None and not getattr(access, "revocable", False):
            return access  # type: ignore[no-any-return]
        if access is not None:
            # A lobby game's record: its seats may change holders on any
            # server of the store, so it is caught up by version on each call.
            newer = list(self.events.get(access.id, gt=access.version))
            if not newer:
                return access  # type: ignore[no-any-return]
            access = project_aggregate(copy.deepcopy(access), newer)
        else:
            access = project_aggregate(None, self.events.get(GameAccess.create_id(game_id)))
        if not isinstance(access, GameAccess):
            return None
        with self._locks_guard:
            self._access[game_id] = access
            if len(self._access) > ACCESS_CACHE_SIZE:
                self._access.popitem(last=False)
        return access

    def _kept_access(self, game_id: uuid.UUID) -> GameAccess | None:
        """The game's access record as kept in memory (no look at the store),
        None when none is kept."""
        with self._locks_guard:
            access: Any = self._access.get(game_id)
            if access is not None:
                self._access.move_to_end(game_id)
        return access  # type: ignore[no-any-return]

    def revoke_seat(self, game_id: uuid.UUID, seat: int) -> None:
        """A lobby game's seat changed holders (its player left; a bot plays
        on): record it in the game's access record, so the old token is
        refused on every server of the store (``access`` catches up)."""
        for _ in range(CREATE_ATTEMPTS):
            access = self.access(game_id)
            if access is None:
                return
            fresh = copy.deepcopy(access)
            if not fresh.revoke(seat):
                return  # revoked already (or not a lobby game's seat)
            try:
                self.save(fresh)
            except IntegrityError:
                with self._locks_guard:
                    self._access.pop(game_id, None)
                continue
            with self._locks_guard:
                self._access[game_id] = fresh
            return
        raise ServiceError("UNAVAILABLE", "BUSY", "the seat could not be revoked; retry")

    def create_game(
        self,
        rules: str,
        seats: list[str],
        options_json: str = "",
        request_id: str = "",
        caller: str = "",
        entropy: Sequence[str] = (),
        seat_tokens: Sequence[str] = (),
    ) -> Game:
        """A new game; or, for a retried ``request_id`` of the same ``caller`` (see
        ``Credentials.creator``), the game that request made.

        The game id of a request id is keyed with the server secret and the
        caller, so it cannot be computed by anyone else, and another caller
        using the same request id gets a game of its own. (Games created
        before this keying keep their ids; a request made before it is not
        recognised when retried after it.)

        ``entropy``: the request's contributions to the dice (``Game.start``);
        a retried request gets the game the first one made, with its own.
        ``seat_tokens``: the seats' tokens, when not the server's own (a lobby
        table's holders' secrets, ``service.lobby``).
        """
        check_id("rules", rules)  # before it is echoed in UNKNOWN_RULES
        cls = GAMES.get(rules)
        if cls is None:
            raise unknown_rules(rules)
        check_id("request_id", request_id)
        options = parse_options(options_json)
        game_id = (self._on_this_shard(self.credentials.game_id(rules, caller, request_id))
                   if request_id else None)
        for attempt in range(CREATE_ATTEMPTS):
            if attempt:
                time.sleep(create_backoff(attempt))
            if game_id is not None:
                # Decided again on every attempt: the race just lost may have
                # been to this same request, sent twice (to this server or
                # another), and its game is the answer.
                existing = self._existing(game_id)
                if existing is not None:
                    return self._retried(existing, seats, options)
            # A fresh game and access record on every attempt: ``save`` collects
            # (empties) their pending events even when the store refuses them,
            # so saving the same objects again would record the catalogue entry
            # alone, naming a game that was never stored.
            game = cls.start(
                list(seats), options, game_id=game_id or self._on_this_shard(uuid.uuid4()),
                entropy=entropy
            )
            access = self.credentials.issue(game.id, len(game.seats), seat_tokens)
            if self._record_created(game, access, rules, seats, request_id):
                self._wake_relay()
                self._watch_clock(game)
                return game
        log.warning("CreateGame gave up after %d attempts at the catalogue", CREATE_ATTEMPTS)
        raise ServiceError("UNAVAILABLE", "BUSY", "the catalogue of games is too busy; retry")

    def _on_this_shard(self, game_id: uuid.UUID) -> uuid.UUID:
        """A new game's id as this store gives it: saying its shard, if sharded."""
        return game_id if self.shard is None else on_shard(game_id, self.shard)

    def _record_created(
        self, game: Game, access: GameAccess, rules: str, seats: list[str], request_id: str
    ) -> bool:
        """Save a new game, its access record and its catalogue entry in one
        transaction; False when another writer took the catalogue's next entry
        (or the game's id) first.

        The catalogue is one log, so every create wants its next version. This
        server's creators take it one at a time (a lock, held only for the
        read of the log's head and the save), so they never lose to each
        other; only creators of other server processes on the store still
        race, and the loser backs off and decides again (``create_game``).
        """
        if not self._catalogue.acquire(timeout=CATALOGUE_WAIT):
            return False
        try:
            logged = self.games_log.trigger_event(
                game_id=game.id, rules=rules, seats=list(seats), request_id=request_id
            )
            self.save(game, access, logged)
        except IntegrityError:
            return False
        finally:
            self._catalogue.release()
        return True

    def _existing(self, game_id: uuid.UUID) -> Game | None:
        try:
            return self.game(str(game_id))
        except ServiceError:
            return None

    @staticmethod
    def _retried(game: Game, seats: list[str], options: dict[str, Any]) -> Game:
        """The game a retried ``CreateGame`` made, if this really is its retry.

        A retry gets the game's tokens again, so the request id is as good as
        every seat's token: it must not hand them out once play has begun (the
        client that lost the reply has no token, so nobody can have played but
        someone else), nor long after the creation, nor to a different request
        that happens to reuse the id (which would silently get a game with
        other seats or options than it asked for).
        """
        if game.seats != list(seats) or game.options != type(game).check_options(dict(options)):
            raise ServiceError(
                "ALREADY_EXISTS", "REQUEST_ID_USED",
                "this request_id already created a game with other seats or options",
                game.version,
            )
        age = datetime.datetime.now(datetime.UTC) - game.created_on
        if game.commands_applied or age > RETRY_WINDOW:
            raise ServiceError(
                "ALREADY_EXISTS", "REQUEST_ID_USED",
                "this request_id's game is under way; its tokens are not issued again",
                game.version,
            )
        return game

    def act(
        self,
        game_id: str,
        seat: int,
        action: Mapping[str, Any],
        expected_version: int = 0,
        command_id: str = "",
        decision_id: str = "",
        rules: str = "",
        defer_snapshots: bool = False,
        reader: Reader | None = None,
    ) -> ActResult:
        """A seat's command, decided against the newest state and saved or
        refused whole (``_write``); a command id already applied is answered
        with what it did then (exactly once). ``rules``, when given, must be
        the game's rules (``WRONG_GAME`` otherwise), checked on that same read.
        ``reader``: the reply also carries the game as that reader sees it
        after the command (``state``), read under the same lock.
        ``defer_snapshots``: a snapshot due is taken by the ``Snapshotter``
        after this returns, not before.
        """
        check_id("command_id", command_id)
        replayed: ActResult | None = None

        def decide(game: Game) -> list[Any] | None:
            nonlocal replayed
            if rules and rules != game.RULES_ID:
                raise ServiceError(
                    "INVALID_ARGUMENT", "WRONG_GAME",
                    f"a {rules} command sent to a {game.RULES_ID} game", game.version,
                )
            if command_id:
                # A game loaded from a snapshot knows its newest ids only once
                # they are read from its events: for the lookup, and for the
                # ids this command pushes out of the window (indexed below).
                self._fill_window(game)
            first = self._command_version(game, seat, command_id) if command_id else None
            if first is not None:
                replayed = self._original_result(game, first)
                return None
            if expected_version and game.version != expected_version:
                raise ServiceError(
                    "ABORTED", "VERSION_MISMATCH",
                    f"the game is at version {game.version}, not {expected_version}",
                    game.version,
                )
            # A full window loses its oldest id(s) to this command's: those
            # are indexed, with this command's events (``CommandIndexed``).
            window = list(game.command_ids.items()) if game.command_window_full() else []
            command = game.COMMANDS.parse(str(action.get("name")), action.get("args", {}))
            game.act(seat, command, command_id, decision_id)
            return [CommandIndexed.of(game.id, key, first) for key, first in window
                    if key not in game.command_ids]

        written = self._write(game_id, decide, defer_snapshots, reader)
        if replayed is not None:
            return dataclasses.replace(replayed, state=written.state,
                                       version=written.version, over=written.over)
        return written

    def act_moves(self, moves: Sequence[Move],
                  costs: list[float] | None = None) -> list[ActResult | Exception]:
        """Several moves (of any games) decided one after the other and saved
        together: one saver of the group commit, one transaction, where each
        ``act`` was a saver of its own, woken by the leader's commit. Each
        move's answer is what ``act`` would have given it (``defer_snapshots``),
        a refusal as its exception, in the moves' order.

        The fast path decides each move on its cached game as it is, under
        the game's lock, held until the save: what ``_write``'s first attempt
        does (a save proves the game was not behind). Anything else goes
        through ``act`` alone after the save, in the moves' order, with every
        later move of the same game (a game's moves are applied in the order
        sent, across both paths): a game not cached, a command id applied
        before (answered as then), a refusal (decided again on the store's
        newest, as ``_write`` does), and the moves of a batch whose save
        failed because another server wrote first (the store's conflict:
        nothing was saved, each is decided again). A save that failed
        otherwise may have been saved or not (a connection lost at the
        commit): each of its moves is answered with that failure, as ``act``
        answers it, never decided a second time.

        ``costs``, when given, gets each move's CPU seconds on this thread:
        its own deciding (on the fast path or alone) and an equal share of
        the one save among the moves saved in it, so each caller is charged
        its own moves' work (``service.play.Writer``)."""
        answers: list[ActResult | Exception | None] = [None] * len(moves)
        spent = costs if costs is not None else [0.0] * len(moves)
        spent[:] = [0.0] * len(moves)
        clock = time.thread_time
        slow: set[uuid.UUID] = set()  # games whose moves go through ``act`` alone
        decided: dict[uuid.UUID, list[tuple[int, Game, list[Any], list[Any]]]] = {}
        with contextlib.ExitStack() as locks:
            held: set[uuid.UUID] = set()
            # One read of the thread's clock a move (each a system call of a
            # few microseconds): a move's deciding ends where the next begins.
            started = clock()
            for n, move in enumerate(moves):
                self._decide_fast(move, n, held, locks, slow, decided, answers)
                now = clock()
                spent[n] += now - started
                started = now
            objs: list[Any] = []
            for made in decided.values():
                if made:
                    objs.append(made[0][1])
                    objs.extend(extra for _, _, _, extras in made for extra in extras)
            if objs:
                try:
                    recordings = self.group_commit.save(*objs, defer=True)
                except IntegrityError:  # another writer first: each decided again alone
                    for gid in decided:
                        self.repository.forget(gid)
                    slow.update(decided)
                    decided.clear()
                    recordings = []
                except Exception as exc:  # noqa: BLE001 - saved or not: each told, as act tells
                    for gid, made in decided.items():
                        self.repository.forget(gid)
                        for n, *_ in made:
                            answers[n] = exc
                    decided.clear()
                    recordings = []
                if decided:
                    self._wake_relay()
                by_event = {id(r.domain_event): r for r in recordings}
                for made in decided.values():
                    for n, game, events, _ in made:
                        self._watch_clock(game)
                        positions = {e.originator_version: by_event[id(e)].notification.id
                                     for e in events if id(e) in by_event}
                        answers[n] = ActResult(
                            game, events, positions, replayed=False,
                            version=events[-1].originator_version if events else game.version,
                            over=game.ended if made[-1][0] == n else False)
            saved = [n for made in decided.values() for n, *_ in made]
            share = (clock() - started) / len(saved) if saved else 0.0
            for n in saved:
                spent[n] += share
        for n, move in enumerate(moves):
            if answers[n] is None:
                started = clock()
                try:
                    answers[n] = self.act(move.game_id, move.seat, move.action,
                                          move.expected_version, move.command_id,
                                          move.decision_id, rules=move.rules,
                                          defer_snapshots=True)
                except Exception as exc:  # noqa: BLE001 - the move's own answer
                    answers[n] = exc
                spent[n] += clock() - started
        return answers  # type: ignore[return-value]

    def _decide_fast(self, move: Move, n: int, held: set[uuid.UUID],
                     locks: contextlib.ExitStack,
                     slow: set[uuid.UUID],
                     decided: dict[uuid.UUID, list[tuple[int, Game, list[Any], list[Any]]]],
                     answers: list[ActResult | Exception | None]) -> None:
        """``act_moves``' first look at move ``n``: its ids checked, its game
        locked (once a pass), decided on the cached game when it is for the
        fast path, else its game's moves sent to ``act`` alone (``slow``)."""
        try:
            gid = parse_game_id(move.game_id)
            check_id("command_id", move.command_id)
        except ServiceError as exc:
            answers[n] = exc
            return
        if gid in slow:
            return
        if gid not in held:
            locks.enter_context(self._lock(gid))
            held.add(gid)
        game = self._cached_as_is(gid)
        if game is None or not self._decided(game, move, n, decided.setdefault(gid, [])):
            slow.add(gid)
            if game is not None and decided.get(gid):
                self.repository.forget(gid)  # its earlier moves: decided again alone
            decided.pop(gid, None)

    def _decided(self, game: Game, move: Move, n: int,
                 made: list[tuple[int, Game, list[Any], list[Any]]]) -> bool:
        """``move`` decided on the cached ``game`` (its lock held) and its new
        events noted in ``made``; False (the game as it was before this move)
        when it is not for the fast path: refused, or its command id seen."""
        transient = {k: getattr(game, k, None) for k in TRANSIENT_STATE}
        before = len(game.pending_events)
        try:
            if move.rules and move.rules != game.RULES_ID:
                return False
            if move.command_id:
                self._fill_window(game)
                if self._command_version(game, move.seat, move.command_id) is not None:
                    return False
            if move.expected_version and game.version != move.expected_version:
                return False
            window = list(game.command_ids.items()) if game.command_window_full() else []
            command = self._parsed(game, move)
            # The decisions a reader of this version read (the seat's turn),
            # not asked of the rules again: the same game object at the same
            # version, under its lock (``ReadModel.kept_decisions``).
            game.act(move.seat, command, move.command_id, move.decision_id,
                     self.reads.kept_decisions(game))
        except Exception:  # noqa: BLE001 - refused, or worse: ``act`` alone answers it
            self._undo(game.id, game, transient)
            return False
        extra = [CommandIndexed.of(game.id, key, first) for key, first in window
                 if key not in game.command_ids]
        made.append((n, game, list(game.pending_events)[before:], extra))
        return True

    def _parsed(self, game: Game, move: Move) -> Command:
        """``move``'s command parsed by ``game``'s rules, once per distinct
        typed command (its wire bytes, ``Move.command_key``) and rules: the
        same few moves come back move after move, and a command is a frozen
        dataclass, the same whoever holds it. One with a list among its
        arguments (not hashable: not wholly frozen) is parsed each time; a
        refused one is never kept."""
        command = None
        key = (type(game), move.command_key) if move.command_key else None
        if key is not None:
            command = self._commands.get(key)
        if command is None:
            command = game.COMMANDS.parse(str(move.action.get("name")),
                                          move.action.get("args", {}))
            if key is not None and _hashable(command):
                if len(self._commands) >= COMMANDS_KEPT:
                    self._commands.clear()
                self._commands[key] = command
        return command

    def contribute(self, game_id: str, seat: int, entropy: str) -> ActResult:
        """A seat's entropy, recorded once (``Game.contribute``), through the
        one write path (``_write``): the game's lock, the group commit, a
        retried request answered without a second record (``recorded`` False)."""

        def decide(game: Game) -> list[Any] | None:
            return [] if game.contribute(seat, entropy) else None

        return self._write(game_id, decide)

    def _write(
        self,
        game_id: str,
        decide: Callable[[Game], list[Any] | None],
        defer_snapshots: bool = False,
        reader: Reader | None = None,
    ) -> ActResult:
        """Every change to a game goes through here: ``decide`` changes the
        game (or returns None: nothing to record), the events it triggered
        are saved with the objects it returns (one transaction, shared with
        other games' moves: ``GroupCommit``), or the whole is refused.

        One read of the game, and no copy of it: ``decide`` runs on the cached
        game itself, under the game's lock (which every reader of the cached
        object holds too, ``GameRepository``). A refusal after it changed the
        game, or a save that fails, would leave the cache ahead of the store:
        the cached game is then dropped (``_undo``), and the next read rebuilds
        it from the store. Another process's write first (the store's
        optimistic concurrency): read again and decide again.

        The first attempt decides on the cached game as it is, without asking
        the store for newer events (``_cached_as_is``): a save proves the game
        was not behind (its events take the versions after the cached one, or
        the store refuses them), so a command that is saved needed no look.
        Only what a game behind could get wrong is decided again on the
        store's newest: a refusal, and a command that records nothing (a
        retried id, a contribution already made), whose answer names the
        game's version.
        """
        gid = parse_game_id(game_id)
        with self._lock(gid):
            game: Game | None = self._cached_as_is(gid)
            for _ in range(SAVE_ATTEMPTS):
                caught_up = game is None
                if game is None:
                    game = self.game(game_id, borrow=True)
                transient = {k: getattr(game, k, None) for k in TRANSIENT_STATE}
                try:
                    extra = decide(game)
                except (RuleError, ServiceError) as exc:
                    self._undo(gid, game, transient)
                    if not caught_up:
                        game = None  # refused by a game perhaps behind: ask the store
                        continue
                    if isinstance(exc, RuleError):
                        exc.version = game.version  # type: ignore[attr-defined]
                    raise
                except BaseException:
                    self._undo(gid, game, transient)
                    raise
                if extra is None:
                    if not caught_up:
                        game = None
                        continue
                    return ActResult(game, [], {}, replayed=False, recorded=False,
                                     state=self._read(game, reader), version=game.version,
                                     over=game.ended)
                new_events = list(game.pending_events)
                try:
                    recordings = self.group_commit.save(game, *extra, defer=defer_snapshots)
                except IntegrityError:
                    self.repository.forget(gid)
                    game = None
                    continue  # another writer got there first: decide again
                except BaseException:
                    self.repository.forget(gid)
                    raise
                self._wake_relay()
                self._watch_clock(game)  # its clocks restarted: filed at the new deadline
                positions = {
                    r.domain_event.originator_version: r.notification.id for r in recordings
                    if r.domain_event.originator_id == gid
                }
                return ActResult(game, new_events, positions, replayed=False,
                                 state=self._read(game, reader), version=game.version,
                                     over=game.ended)
        raise ServiceError("ABORTED", "CONTENDED", "the game is too contended; retry", 0)

    def _wake_relay(self) -> None:
        """Tell the relay a commit is stored. Only when it is not told already:
        ``Event.set`` takes the event's lock, which every commit of a busy
        server and the relay's wait contended for. None is missed: the relay
        clears the event before it reads what is new, and this commit was
        stored before the event was found set."""
        if not self.saved.is_set():
            self.saved.set()

    def _cached_as_is(self, gid: uuid.UUID) -> Game | None:
        """The cached game itself, not caught up from the store (the caller
        holds its lock and lets the store's optimistic concurrency vouch for
        it, ``_write``); None when it is not cached."""
        game = None if gid == GAMES_LOG_ID else self._cached(gid)
        if not isinstance(game, Game):
            return None
        self._watch_clock(game)  # as ``game`` does on every read
        return game

    def _fill_window(self, game: Game) -> None:
        """Fill in a game's older command ids, left to the events by the
        snapshot it was loaded from (``command_gap``), before its command is
        looked up and applied: once per load, its events read newest first
        until they gave the ids counted (about two events an id in the bench's game),
        never on a game whose window is whole (every game not loaded from
        such a snapshot, and this one from now on, while it stays cached)."""
        gap = game.command_gap
        if gap is None:
            return
        last, count = gap
        older = kernel_recording.newest_ids(self._metas_newest_first(game.id, last), count)
        if len(older) < count:
            log.warning("game %s: its events up to %d carry %d command ids, its snapshot "
                        "counted %d; its window holds what the events say", game.id, last,
                        len(older), count)
        game.fill_command_window(older)

    def _metas_newest_first(self, gid: uuid.UUID, last: int
                            ) -> Iterator[tuple[int, dict[str, Any] | None]]:
        """A game's stored events' (version, meta) from ``last`` down, read a
        page at a time. Only the meta is wanted: on a plain JSON store an event
        whose bytes hold no ``"cmd"`` records no command and is not decoded
        (half of the bench's game), and none is made into an event object."""
        mapper = self.mapper
        plain = mapper.cipher is None and mapper.compressor is None
        page = FILL_PAGE
        while last > 0:
            rows = self.recorder.select_events(gid, lte=last, desc=True, limit=page)
            for row in rows:
                if plain and b'"cmd"' not in row.state:
                    yield row.originator_version, None
                elif plain:
                    yield row.originator_version, mapper.transcoder.decode(row.state).get("meta")
                else:
                    yield row.originator_version, getattr(mapper.to_domain_event(row), "meta", None)
            if len(rows) < page:
                return
            last = rows[-1].originator_version - 1
            page = min(page * 2, 4 * FILL_PAGE)

    def _command_version(self, game: Game, seat: int, command_id: str) -> int | None:
        """The first version a seat's command id caused, if it was applied: from
        the game's newest ids (which ``act`` fills in first, ``_fill_window``;
        unfilled, the game raises ``WindowIncomplete``), else (only when older
        ones have left them) from the store's index, where an entry is trusted
        only if the event it names carries that very command (the events vouch
        for themselves; an index row is just a row)."""
        first = game.command_version(seat, command_id)
        if first is not None or not game.command_window_full():
            return first
        key = command_key(seat, command_id)
        entry: Any = next(iter(self.events.get(command_index_id(game.id, key), limit=1)), None)
        if not isinstance(entry, CommandIndexed) or entry.game_id != game.id:
            return None
        named: Any = next(iter(self.events.get(game.id, gt=entry.first - 1, lte=entry.first)),
                          None)
        cmd = getattr(named, "meta", {}).get("cmd") or {}
        if cmd.get("seat") == seat and cmd.get("id") == command_id:
            return int(entry.first)
        log.warning("the command index of game %s names version %d for a command that "
                    "event does not carry; ignored", game.id, entry.first)
        return None

    def _undo(self, gid: uuid.UUID, game: Game, transient: dict[str, Any]) -> None:
        """A refused command leaves the cached game as it found it: its
        deciding-only fields put back, and, if it had triggered events before
        it was refused, the game dropped from the cache (``GameRepository.forget``)."""
        changed = bool(game.pending_events)
        for name, value in transient.items():
            setattr(game, name, value)
        if changed:
            game.collect_events()  # not to be saved by anyone
            self.repository.forget(gid)

    def _original_result(self, game: Game, first: int) -> ActResult:
        events: list[Any] = []
        for ev in self.game_events(str(game.id), after=first - 1):
            if events and "cmd" in ev.meta:
                break
            events.append(ev)
        return ActResult(game, events, {}, replayed=True)

    def _lock(self, game_id: uuid.UUID) -> Any:
        """The game's lock (``GameLocks``): one writer per game in this process
        (the store's optimistic concurrency orders writers of several
        processes), and no reader of the cached game meanwhile."""
        return self.repository.locks(game_id)


#: Distinct typed commands kept parsed (``ArbiterApp._parsed``); past it the map starts over.
COMMANDS_KEPT = 16384


def _hashable(command: Command) -> bool:
    try:
        hash(command)
    except TypeError:
        return False
    return True


#: Games whose last snapshot's version ``ArbiterApp._take_snapshot_now`` keeps.
SNAPSHOTTED_KEPT = 10_000


def snapshots_due(processing_event: Any,
                  intervals: Mapping[type, int]) -> dict[uuid.UUID, int]:
    """The games a save's events reached a multiple of their snapshot interval
    in, each with the version it has after the save (the end of the move).

    A snapshot is taken of the game as it is at a move's end, not at the
    multiple itself: the writer's cached game is at the move's end, and a
    multiple inside a move (one event of several) was at no point a state
    anyone holds, so each such snapshot was rebuilt from the store (the last
    snapshot and up to an interval's worth of events replayed). A snapshot
    at any version serves a load the same way (the events after it are
    applied)."""
    due: dict[uuid.UUID, int] = {}
    for event in processing_event.events:
        aggregate = processing_event.aggregates.get(event.originator_id)
        interval = intervals.get(type(aggregate))
        if interval and event.originator_version % interval == 0:
            due[event.originator_id] = max(aggregate.version, event.originator_version)
    return due


def read_freshness(text: str) -> float:
    """``ARBITER_READ_FRESHNESS_MS`` in seconds (a whole number of milliseconds;
    empty: ``READ_FRESHNESS``)."""
    if not text:
        return READ_FRESHNESS
    if not text.isdigit():
        raise ValueError(
            f"ARBITER_READ_FRESHNESS_MS must be a whole number of milliseconds, not {text!r}")
    return int(text) / 1000


def create_backoff(attempt: int) -> float:
    """The pause before a create's ``attempt``-th try ("full jitter"): random,
    so creators of several servers that just collided do not collide again in
    step, and growing, so many of them spread out instead of hammering the store."""
    first, longest = CREATE_BACKOFF
    return random.uniform(0, min(longest, first * 2**attempt))
