"""The gRPC LobbyService: tables where players find each other, then a game.

Each table is a ``Lobby`` aggregate (``aggregates.lobby``) saved in the
games' store (on a store sharded by game, its first shard), and listed in a
log of its own beside the catalogue of games (``LOBBY_LOG_ID``), so tables
replay and audit like games. A command is decided on the newest table and
saved with the library's optimistic concurrency; a save another server beat
is decided again.

Listings and quick matches look at the tables that may still gather
players (``Tables.listing``): an index of the lobby log's entries kept as
the log is followed, each table dropped once it is seen started or closed,
and rebuilt at a process's start from its newest checkpoint in the store
(``service.lobby_index``). So neither tables started or closed at once
(however many one caller opens) nor a restart puts a waiting table out of
sight, and a listing's work is the tables that may gather players, not the
log's entries since the oldest of them. They read those tables in one pass
(``Tables.current``): the newest version of each in one query, and the new
events of the ones changed since this process read them in another. A new table is
decided on that listing and listed at the log's next position: when another server listed a
table meanwhile, the save fails and the table is decided again on the newer
log. So a quick match that found no table to join opens one only if no table
was listed since it looked, on any server of the store (two players matching
at once on two servers meet at one table), and a caller's waiting tables are
counted exactly: at most ``waiting_per_caller`` (``TOO_MANY_WAITING_TABLES``),
each entry naming its opener by a keyed hash of the caller's address (never
the address). A waiting table no one joined or left for ``idle_seconds`` is
closed (``TableClosed``) by the first call that reads it, so tables no one
comes to leave the listings however many are opened.

Secrets: a seat's secret is derived from the server secret, the table, the
seat and the number of its taking (``Lobby.takings``); the host's from the
table. Nothing secret is stored; a presented secret is compared in constant
time with each seat holder's. When the table starts, the game is created
through the application as ``CreateGame`` creates one, with the holders'
secrets as its seat tokens: the secret a player joined with plays the game
(``GameService.Play``, every call). Bots play the bot seats on this server
(``TableBots``), each at its seat's level (random, greedy or IS-MCTS, at a
budget per decision the server bounds), deciding from its seat's record,
view and legal moves alone, as ``arbiter bot`` does over the per-seat stream
(``service.hostedbots``); they play on after the server restarts.

No served game has a rule for a player leaving during the game, so a bot
always takes the seat (``BotTookSeat``). The leaving player's secret is
revoked in the game's access record first (``SeatRevoked``, caught up by
version on every call of every server of the store): it is refused
``PERMISSION_DENIED`` / ``SEAT_REVOKED`` from then on, Play streams
already open included.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import hmac
import itertools
import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple, TypeAlias, TypeVar

import grpc
from arbiter.v1 import game_pb2, lobby_pb2, lobby_pb2_grpc
from arbiter.wire import command_to_json, json_to_command
from eventsourcing.application import EventSourcedLog, project_aggregate
from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import IntegrityError

from aggregates.catalog import GAMES
from aggregates.kernel import Game, RuleError
from aggregates.lobby import (
    BOT,
    CLOSED,
    EXHAUSTED,
    INVALID,
    MAX_TABLE_SEATS,
    OPEN,
    PLAYER,
    STARTED,
    WAITING,
    Lobby,
    LobbyReason,
    check_size,
    player_name,
)
from clients.bots.driver import game_class
from service import auth
from service.application import ArbiterApp, SeatReading
from service.catalogue import served_rules, unknown_rules
from service.config import Settings
from service.envelope import Reader, to_proto
from service.errors import ServiceError, bad_request
from service.feeds import FeedHub
from service.hostedbots import DEFAULT_LEVEL, BotLevel, LevelError, SeatBots, bot_level
from service.ids import check_id, parse_options
from service.limits import CallerShares
from service.lobby_index import Entry, WaitingIndex, events_after, newest_versions
from service.servicer import GameServicer, decision_proto, refusals
from service.shards import Shards
from service.status import refused

log = logging.getLogger(__name__)

SERVICE_NAME = lobby_pb2.DESCRIPTOR.services_by_name["LobbyService"].full_name
#: The lobby's log of tables, beside the catalogue of games.
LOBBY_LOG_ID = uuid.uuid5(uuid.NAMESPACE_URL, "arbiter:lobby")
#: Started tables whose bots the bots' resume looks at on a server's start:
#: the newest this many opened.
SCAN = 500
#: The namespace of each started table's link from its game (``TableOfGame``).
GAME_TABLE_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "arbiter:lobby-table-of-game")
#: Lobby games this process checked for idle bots (``TableBots.seat_called``)
#: and found none to set playing: each a game id's string, the oldest first
#: forgotten (and checked again, one indexed read, at its next call).
GAMES_CHECKED = 16384
LIST_DEFAULT, LIST_MAX = 50, 200
#: Tables of the waiting index a listing reads in one pass, as far as it needs.
LOOK_AT_ONCE = 256
SAVE_ATTEMPTS = 8
#: How long a watch waits for a change before it looks at the store again (a
#: table another server changed), and a bot for a move of the others.
WATCH_POLL = 1.0
BOT_POLL = 0.5
#: Tables kept in memory besides those the waiting index holds (each a few
#: hundred bytes): the least recently read go first.
TABLES_KEPT = 4096
#: Whose share the bots of a table spend when its host is not known here
#: (``opener_key``: with the log's name of its opener, a share of that opener's).
UNKNOWN_HOST = "lobby-bots"
#: Waiting tables one caller may have at once, and how long a waiting table
#: may go without a join or a leave before it closes (``service.config``).
WAITING_PER_CALLER = Settings.waiting_tables_per_caller
IDLE_SECONDS = Settings.table_idle_seconds

T = TypeVar("T")
Context: TypeAlias = grpc.ServicerContext


class TableListed(DomainEvent):
    """One entry of the lobby's log: a table was opened, by ``opener`` (a keyed
    hash of its caller's address; empty for the admin, and for a play
    again's table, which no one caller opened)."""

    table_id: uuid.UUID
    opener: str = ""


class TableOfGame(DomainEvent):
    """A started table's game names its table: saved once, when the game is
    created (``LobbyServicer.start``), under an id derived from the game's
    (``table_link_id``), so a seat's call of the game finds the table in
    one indexed read (``TableBots.seat_called``) however old the table is."""

    table_id: uuid.UUID


def table_link_id(game_id: str) -> uuid.UUID:
    """Where the link from ``game_id`` to its table is saved (``TableOfGame``)."""
    return uuid.uuid5(GAME_TABLE_NAMESPACE, game_id)


class LogMoved(Exception):
    """Another table was listed since the log was read: decide again."""


class Listing(NamedTuple):
    """The lobby log's entries a listing looks at (the waiting index's),
    oldest first, and the position of the log's newest entry when they were
    read (0: none)."""

    entries: list[Entry]
    head: int


def lobby_refusal(exc: RuleError) -> ServiceError:
    """A table's refusal as a status: malformed requests ``INVALID_ARGUMENT``,
    the rest ``FAILED_PRECONDITION`` (the table's state refuses it); the
    rules' own (``BAD_OPTIONS``) as ``GameService`` sends them."""
    if not isinstance(exc.reason, LobbyReason):
        facts = refused(exc)
        return ServiceError(facts.status, facts.reason, facts.message)
    status = ("INVALID_ARGUMENT" if exc.reason in INVALID else
              "RESOURCE_EXHAUSTED" if exc.reason in EXHAUSTED else "FAILED_PRECONDITION")
    return ServiceError(status, exc.reason.value, exc.message)


def unknown_table(table_id: str) -> ServiceError:
    return ServiceError("NOT_FOUND", "UNKNOWN_TABLE", f"no table {table_id[:40]!r}")


def parse_table_id(table_id: str) -> uuid.UUID:
    if not isinstance(table_id, str) or len(table_id) > 64:
        raise bad_request("BAD_TABLE_ID", "a table id is a UUID")
    try:
        return uuid.UUID(table_id)
    except ValueError:
        raise bad_request("BAD_TABLE_ID", f"{table_id[:40]!r} is not a table id (a UUID)") from None


class Tables:
    """The tables of one store: read from their events (kept in memory,
    caught up on every read), written whole or not at all."""

    def __init__(self, app: ArbiterApp, idle_seconds: float = IDLE_SECONDS,
                 waiting_per_caller: int = WAITING_PER_CALLER) -> None:
        self.app = app
        self.idle_seconds = idle_seconds
        self.waiting_per_caller = waiting_per_caller
        self.log: EventSourcedLog[TableListed] = EventSourcedLog(
            app.events, LOBBY_LOG_ID, TableListed)
        #: Tables read, least recently read first: the waiting index's and
        #: ``TABLES_KEPT`` more.
        self._kept: OrderedDict[uuid.UUID, Lobby] = OrderedDict()
        self._guard = threading.Lock()
        self.index = WaitingIndex(app, self.log, self._finished)
        #: One writer of this process at a time; woken watchers after each save.
        self.changed = threading.Condition()
        self.writing = threading.RLock()

    def get(self, table_id: uuid.UUID) -> Lobby:
        """The table now (a copy of it: its own to decide on)."""
        return copy.deepcopy(self._read(table_id))

    def _read(self, table_id: uuid.UUID) -> Lobby:
        """The table now, as kept: shared, to be read and never changed (one
        copy a read, where a copy to project on, one to keep and one to
        return were three, most of a listing's time)."""
        with self._guard:
            kept = self._kept.get(table_id)
        after = kept.version if kept is not None else None
        if kept is None:
            first = list(self.app.events.get(table_id, limit=1))
            if not first or not isinstance(first[0], Lobby.TableOpened):  # type: ignore[attr-defined]
                # Not a table: a game's id, an access record's, a log's. Its
                # other events are never read (a whole game replayed for nothing).
                raise unknown_table(str(table_id))
        newer = list(self.app.events.get(table_id, gt=after))
        if kept is not None and not newer:
            return kept
        table = project_aggregate(copy.deepcopy(kept) if kept else None, newer)
        if not isinstance(table, Lobby):
            raise unknown_table(str(table_id))
        self._keep(table, owned=True)
        return table

    def _keep(self, table: Lobby, owned: bool = False) -> None:
        """Keep ``table`` (a copy of it, unless ``owned``: no one else holds it),
        the least recently read going first past the waiting index's tables
        and ``TABLES_KEPT`` more: a listing of more tables than that reads
        them again each time, where clearing every table kept did."""
        with self._guard:
            held = self._kept.get(table.id)
            if held is None or held.version <= table.version:  # never an older one back
                self._kept[table.id] = table if owned else copy.deepcopy(table)
            self._kept.move_to_end(table.id)
            while len(self._kept) > TABLES_KEPT + len(self.index):
                self._kept.popitem(last=False)

    def current(self, table_ids: list[uuid.UUID]) -> dict[uuid.UUID, Lobby]:
        """These tables now, read in one pass: their newest versions in one
        query (``newest_versions``), then each kept at that version as kept,
        the others (new here, or changed since) brought up to it from their
        new events, read in one query (``events_after``), and kept. A listing
        of tables that did not change costs one query, not one a table; of
        tables that did, two. The tables are shared: read them, never change
        them."""
        versions = newest_versions(self.app, table_ids)
        found: dict[uuid.UUID, Lobby] = {}
        stale: dict[uuid.UUID, Lobby | None] = {}
        with self._guard:
            for table_id in table_ids:
                version = versions.get(table_id)
                if version is None:
                    continue  # no such table (an entry is saved with its table: never)
                kept = self._kept.get(table_id)
                if kept is not None and kept.version >= version:
                    found[table_id] = kept
                    self._kept.move_to_end(table_id)
                else:
                    stale[table_id] = kept
        newer = events_after(self.app, {table_id: kept.version if kept is not None else 0
                                        for table_id, kept in stale.items()})
        for table_id, kept in stale.items():
            events = newer[table_id]
            if kept is None and not (events and isinstance(
                    events[0], Lobby.TableOpened)):  # type: ignore[attr-defined]
                continue  # not a table (an entry names a table saved with it: never)
            table = project_aggregate(copy.deepcopy(kept) if kept else None, events)
            if isinstance(table, Lobby):
                self._keep(table, owned=True)
                found[table_id] = table
        return found

    def listing(self) -> Listing:
        """The lobby log's entries a listing looks at: the waiting index's,
        after following the log's new entries (one query, of the new rows;
        ``service.lobby_index``). An entry is written at the position after
        the newest its writer read, so none appears behind one already read."""
        entries, head = self.index.follow()
        return Listing(entries, head)

    def _gathering(self, entries: list[Entry]) -> Iterator[Lobby]:
        """The tables of ``entries`` gathering players now, in their order,
        read ``LOOK_AT_ONCE`` at a time in one pass each (``current``; idle
        ones closed first), as far as the caller reads: a listing that has
        its tables, or a quick match that sat its player, reads no more. A
        table that never gathers players again leaves the waiting index (no
        query again). Shared tables: read them, never change them."""
        for start in range(0, len(entries), LOOK_AT_ONCE):
            ids = [e.table_id for e in entries[start:start + LOOK_AT_ONCE]]
            tables = self.current(ids)
            found, finished = [], []
            for table_id in ids:
                table = tables.get(table_id)
                if table is None:
                    continue
                table = self.closed_if_idle(table)
                if table.status in (STARTED, CLOSED):
                    finished.append(table_id)
                elif table.gathering:
                    found.append(table)
            self.index.drop(finished)
            yield from found

    def _finished(self, table_ids: Iterable[uuid.UUID]) -> set[uuid.UUID]:
        """Which of these tables never gather players again (started or
        closed), read in one pass: for the waiting index, following a long
        backlog of the log."""
        tables = self.current(list(table_ids))
        return {table_id for table_id, table in tables.items()
                if table.status in (STARTED, CLOSED)}

    def open(self, table: Lobby, opener: str = "", seen: Listing | None = None) -> Lobby:
        """Save a new table and its entry in the lobby's log, in one
        transaction, at the log's next position after the listing the
        decision read: ``seen`` (once; ``LogMoved`` when another table was
        listed since), else the listing now, read again after each such
        race. ``opener``'s waiting tables in it are counted first."""
        with self.writing:
            for _ in range(1 if seen is not None else SAVE_ATTEMPTS):
                listing = seen if seen is not None else self.listing()
                if opener:
                    self._check_waiting(opener, listing.entries)
                listed = self.log.trigger_event(next_originator_version=listing.head + 1,
                                                table_id=table.id, opener=opener)
                try:
                    self.app.save(copy.deepcopy(table), listed)
                except IntegrityError:
                    try:  # a table of this id saved meanwhile (a play again pressed twice)
                        return self.get(table.id)
                    except ServiceError:
                        continue  # another server took the log's next entry
                self._saved(table)
                return table
        if seen is not None:
            raise LogMoved
        raise ServiceError("UNAVAILABLE", "BUSY", "the lobby is too busy; retry")

    def _check_waiting(self, opener: str, entries: list[Entry]) -> None:
        """Refuse a table past ``waiting_per_caller`` of its opener's gathering
        players (among ``entries``: the tables a listing can show)."""
        waiting = sum(1 for _ in self._gathering(
            [e for e in entries if e.opener == opener]))
        if waiting >= self.waiting_per_caller:
            raise RuleError(LobbyReason.TOO_MANY_WAITING_TABLES,
                            f"your address has {waiting} tables waiting for players "
                            f"(at most {self.waiting_per_caller}): start one, or wait for "
                            "players to fill one (a table no one joins or leaves closes "
                            f"after {self.idle_seconds:g} seconds)")

    def closed_if_idle(self, table: Lobby) -> Lobby:
        """``table``, closed first (``TableClosed``) when it is idle now."""
        if not table.idle(datetime.now(UTC), self.idle_seconds):
            return table
        _, table = self.write(table.id, lambda t: t.close_if_idle(
            datetime.now(UTC), self.idle_seconds))
        return table

    def write(self, table_id: uuid.UUID, decide: Callable[[Lobby], T]) -> tuple[T, Lobby]:
        """Decide on the newest table and save what it triggered; decided again
        when another server saved the table meanwhile."""
        with self.writing:
            for _ in range(SAVE_ATTEMPTS):
                table = self.get(table_id)
                result = decide(table)
                try:
                    self.app.save(table)
                except IntegrityError:
                    with self._guard:
                        self._kept.pop(table_id, None)
                    continue
                self._saved(table)
                return result, table
        raise ServiceError("UNAVAILABLE", "BUSY", "the table is too busy; retry")

    def link(self, game_id: str, table_id: uuid.UUID) -> None:
        """Save the link from a table's game to the table (``TableOfGame``),
        once: a start decided again, here or on another server, finds it
        saved already (the game's id is the table's, so the link is the same)."""
        link = EventSourcedLog(self.app.events, table_link_id(game_id), TableOfGame)
        with contextlib.suppress(IntegrityError):  # saved by the start that created the game
            self.app.save(link.trigger_event(next_originator_version=1, table_id=table_id))

    def table_of(self, game_id: str) -> uuid.UUID | None:
        """The table whose game ``game_id`` is, from its link (one indexed
        read); None for a game no table started (or one started before
        tables linked their games: its bots play on at a look at the table)."""
        link = EventSourcedLog(self.app.events, table_link_id(game_id), TableOfGame)
        first = link.get_first()
        return first.table_id if first is not None else None

    def _saved(self, table: Lobby) -> None:
        self._keep(table)
        with self.changed:
            self.changed.notify_all()

    def waiting(self, rules: str, players: int, seen: Listing | None = None,
                limit: int | None = None) -> list[Lobby]:
        """The tables gathering players (of ``rules`` and ``players`` seats when
        given) in the listing (``seen``, else read now), oldest first, the
        first ``limit`` of them when given (``waiting_tables``)."""
        return list(itertools.islice(self.waiting_tables(rules, players, seen), limit))

    def waiting_tables(self, rules: str, players: int,
                       seen: Listing | None = None) -> Iterator[Lobby]:
        """``waiting``'s tables, read as far as they are taken (``_gathering``:
        a pass a ``LOOK_AT_ONCE`` tables; shared: read them, never change
        them); the idle ones are closed on the way."""
        return (table for table in self._gathering((seen or self.listing()).entries)
                if not (rules and table.rules != rules)
                and not (players and len(table.seats) != players))


class LobbyServicer(lobby_pb2_grpc.LobbyServiceServicer):
    """One method per RPC: requests in, ``Tables`` and the application behind."""

    def __init__(self, app: ArbiterApp | Shards, hub: FeedHub,
                 shares: CallerShares | None = None, idle_seconds: float = IDLE_SECONDS,
                 waiting_per_caller: int = WAITING_PER_CALLER,
                 bot_budget: float = Settings.bot_budget_seconds) -> None:
        self.stores = app if isinstance(app, Shards) else Shards([app])
        self.tables = Tables(self.stores.first, idle_seconds, waiting_per_caller)
        self.hub = hub
        #: Every caller's share (``service.limits``): the bots' moves are their host's.
        self.shares = shares
        self.credentials = self.stores.first.credentials
        self.bots = TableBots(self, bot_budget)
        #: One quick match of each rules and size at a time on this server, so
        #: two players matching at once meet at one table (``QuickMatch``).
        self._matching: dict[tuple[str, int], threading.Lock] = {}
        self._matching_guard = threading.Lock()

    def matching(self, rules: str, players: int) -> threading.Lock:
        """The lock of the quick matches of ``rules`` at ``players`` seats (a
        served rules id and a size its rules take: a few dozen in all)."""
        with self._matching_guard:
            return self._matching.setdefault((rules, players), threading.Lock())

    # ------------------------------------------------------------ secrets

    def seat_secret(self, table: Lobby, seat: int) -> str:
        return self.credentials._derive(
            f"lobby-seat:{table.id}:{seat}:{table.seats[seat]['taking']}")

    def host_secret(self, table: Lobby) -> str:
        return self.credentials._derive(f"lobby-host:{table.id}")

    def holder_of(self, table: Lobby, context: Context) -> tuple[int | None, bool]:
        """(the seat the caller's secret holds, whether it is the host's); or refuse."""
        token = auth.token_from(context.invocation_metadata())
        if not token:
            raise ServiceError("UNAUTHENTICATED", "NO_TOKEN",
                               "send a seat's secret as 'authorization: Bearer <secret>'")
        presented = token.encode()
        host = hmac.compare_digest(presented, self.host_secret(table).encode())
        seat = None
        for n, held in enumerate(table.seats):
            if held["taking"] and hmac.compare_digest(
                    presented, self.seat_secret(table, n).encode()):
                seat = n
        if seat is None and not host and not self.credentials.is_admin(token):
            raise ServiceError("UNAUTHENTICATED", "BAD_TOKEN",
                               "the secret holds no seat of this table")
        return seat, host or self.credentials.is_admin(token)

    def require_creator(self, context: Context) -> None:
        """Opening a table is creating a game (a table of named players starts
        at once): on a server that creates games for its creator token alone
        (``ARBITER_CREATOR_TOKEN``), refused ``CREATOR_REQUIRED`` without it or
        the admin's, as ``CreateGame`` is. Joining a table, and playing again
        once its game is over, need no creator: the table was the creator's."""
        if self.credentials.creator_required:
            self.credentials.creator(auth.token_from(context.invocation_metadata()), "")

    def caller_key(self, context: Context) -> str:
        """The caller's key in ``service.limits`` ("" without limits, or the admin)."""
        return self.shares.key_of(context) if self.shares is not None else ""

    def opener(self, key: str) -> str:
        """How the lobby's log names the caller of ``key`` as a table's opener:
        a keyed hash (every server of the store derives the same one; the
        store never holds an address). "" (the admin, or no limits): none."""
        return self.credentials._derive(f"lobby-opener:{key}")[:24] if key else ""

    def secret_message(self, table: Lobby, seat: int) -> lobby_pb2.SeatSecret:
        return lobby_pb2.SeatSecret(seat=seat, name=table.seats[seat]["name"],
                                    secret=self.seat_secret(table, seat))

    def revoke(self, game_id: str, seat: int) -> None:
        """The leaving player's secret stops playing the game: the game's
        access record says so (``SeatRevoked``, read by every server of the
        store), and its open Play streams here are woken to end (on other
        servers, at the game's next commit, before they push anything)."""
        store = self.stores.of(game_id)
        store.revoke_seat(uuid.UUID(game_id), seat)
        # Woken as by a commit of the game (at its version: nothing new to
        # read), so each stream checks its tokens now, not at the next move.
        self.hub.committed(game_id, store.facts(game_id).version)

    # ------------------------------------------------------------ reading

    def game_over(self, table: Lobby) -> bool:
        if not table.game_id:
            return False
        return bool(self.stores.of(table.game_id).facts(table.game_id).ended)

    def message(self, table: Lobby) -> lobby_pb2.Table:
        """A table as everyone sees it: never a secret."""
        return lobby_pb2.Table(
            table_id=str(table.id), rules=table.rules, status=table.status,
            seats=[lobby_pb2.TableSeat(seat=n, kind=s["kind"], name=s["name"],
                                       level=s.get("level", DEFAULT_LEVEL),
                                       budget_seconds=s.get("budget") or self.bots.most)
                   for n, s in enumerate(table.seats)],
            game_id=table.game_id, next_table_id=table.next_table, again_of=table.again_of,
            options_json=table.options_json, version=table.version,
            game_over=self.game_over(table),
        )

    def table(self, table_id: str) -> Lobby:
        return self.tables.get(parse_table_id(table_id))

    # ------------------------------------------------------------ writing

    def opened(self, rules: str, seats: list[dict[str, Any]], options_json: str,
               host: str, table_id: uuid.UUID | None = None, again_of: str = "",
               seen: Listing | None = None) -> Lobby:
        """A new table, saved; started at once when no seat is open. ``host``:
        the opener's key in ``service.limits``, whose share its bots spend
        and whose waiting tables are counted (not for a play again's table:
        its players were seated by the game before); ``seen``: the log's
        listing the caller decided on (``Tables.open``)."""
        rules = served_rules(rules)
        check_id("rules", rules)
        cls = GAMES.get(rules)
        if cls is None:
            raise unknown_rules(rules)
        cls.check_options(parse_options(options_json))  # BAD_OPTIONS before a table
        table = Lobby.open(table_id or uuid.uuid4(), rules, seats, options_json,
                           cls.MIN_SEATS, cls.MAX_SEATS, again_of)
        # The rules' own setup at this many seats, tried once in memory: some
        # options fit some sizes only (Ethnos' six tribes need four players),
        # and the join that fills the table must not be the one to find out.
        cls.start(table.names(), parse_options(options_json))
        self.tables.open(table, "" if again_of else self.opener(host), seen)
        self.bots.hosts.keep(table.id, host)
        return self.started_if_full(table)

    def looked_at(self, table: Lobby) -> Lobby:
        """The table as a look at it leaves it: closed when idle, started
        when full (``started_when_it_can``), its bots playing when its game
        goes on (``TableBots.play_on``: a table a server's start did not
        resume)."""
        table = self.started_when_it_can(self.tables.closed_if_idle(table))
        self.bots.play_on(table)
        return table

    def started_if_full(self, table: Lobby) -> Lobby:
        return self.start(table) if table.full and table.status == WAITING else table

    def started_when_it_can(self, table: Lobby) -> Lobby:
        """``started_if_full``, for a call whose own change is saved already (a
        join's): a game the store cannot create now (``UNAVAILABLE``) leaves
        the table full and waiting, started by the next look at it (``GetTable``,
        ``WatchTable``) or the next server's start (``TableBots.resume``), so
        the caller still gets the secret of the seat it took."""
        try:
            return self.started_if_full(table)
        except ServiceError as exc:
            if exc.status != "UNAVAILABLE":
                raise
            log.warning("table %s is full; its game could not be created yet: %s",
                        table.id, exc)
            return table

    def start(self, table: Lobby) -> Lobby:
        """Create the game (once, whichever server or caller gets here first:
        its request id is the table's), with the holders' secrets as its seat
        tokens, then record the table started and set its bots playing."""
        cls = GAMES[table.rules]
        with self.tables.writing:  # no join or leave of this server in between
            table = self.tables.get(table.id)
            if table.status != WAITING:
                return table  # another caller started it
            seated = copy.deepcopy(table)
            seated.start("", cls.MIN_SEATS)  # the bots' takings, as the event records them
            tokens = [self.seat_secret(seated, n) for n in range(len(seated.seats))]
            store = self.stores.for_new_game(
                self.credentials.game_id(table.rules, "lobby", str(table.id)))
            game = store.create_game(table.rules, seated.names(), table.options_json,
                                     request_id=str(table.id), caller="lobby",
                                     seat_tokens=tokens)
            self.tables.link(str(game.id), table.id)
            _, started = self.tables.write(
                table.id, lambda t: t.start(str(game.id), cls.MIN_SEATS)
                if t.status == WAITING else None)
        self.bots.play(started)
        return started


def lobby_call(method: Callable[..., Any]) -> Callable[..., Any]:
    """A lobby method whose refusals leave as every service's do: a table's
    (``RuleError`` with a ``LobbyReason``) as ``lobby_refusal`` says."""

    @functools.wraps(method)
    def inner(self: Any, request: Any, context: Context) -> Any:
        try:
            return method(self, request, context)
        except RuleError as exc:
            raise lobby_refusal(exc) from None

    return refusals(inner)


class LobbyService(LobbyServicer):
    """The RPCs."""

    @lobby_call
    def OpenTable(self, request: lobby_pb2.OpenTableRequest,
                  context: Context) -> lobby_pb2.OpenTableResponse:
        self.require_creator(context)
        if len(request.seats) > MAX_TABLE_SEATS:  # from the count, before a seat is read
            raise lobby_refusal(RuleError(
                LobbyReason.BAD_SEATS,
                f"a table has at most {MAX_TABLE_SEATS} seats, not {len(request.seats)}"))
        table = self.opened(request.rules, [self.seat_of(s) for s in request.seats],
                            request.options_json, self.caller_key(context))
        return lobby_pb2.OpenTableResponse(
            table=self.message(table), host_secret=self.host_secret(table),
            seat_secrets=[self.secret_message(table, n) for n, s in enumerate(table.seats)
                          if s["kind"] == PLAYER])

    def seat_of(self, spec: lobby_pb2.SeatSpec) -> dict[str, Any]:
        """A requested seat as ``Lobby.open`` takes it, its bot's level and
        budget checked against the levels this server hosts and its bound
        (``BAD_LEVEL``, ``BAD_BUDGET``)."""
        try:
            level = bot_level(spec.level, spec.budget_seconds, self.bots.most)
        except LevelError as exc:
            raise lobby_refusal(RuleError(LobbyReason(exc.reason), exc.message)) from None
        # Recorded as asked (none: none), so a table opened without levels
        # records what it always did, and a later bound applies to it.
        return {"kind": spec.kind, "name": spec.name, "level": spec.level and level.level,
                "budget": spec.budget_seconds}

    @lobby_call
    def ListTables(self, request: lobby_pb2.ListTablesRequest,
                   context: Context) -> lobby_pb2.ListTablesResponse:
        rules = served_rules(request.rules) if request.rules else ""
        if rules:
            check_id("rules", rules)
            if rules not in GAMES:
                raise unknown_rules(rules)
        limit = min(request.limit or LIST_DEFAULT, LIST_MAX)
        found = self.tables.waiting(rules, request.players, limit=limit)
        return lobby_pb2.ListTablesResponse(tables=[self.message(t) for t in found])

    @lobby_call
    def GetTable(self, request: lobby_pb2.GetTableRequest,
                 context: Context) -> lobby_pb2.GetTableResponse:
        table = self.looked_at(self.table(request.table_id))
        return lobby_pb2.GetTableResponse(table=self.message(table))

    @lobby_call
    def JoinTable(self, request: lobby_pb2.JoinTableRequest,
                  context: Context) -> lobby_pb2.JoinTableResponse:
        wanted = request.seat if request.HasField("seat") else None
        table_id = parse_table_id(request.table_id)
        self.tables.closed_if_idle(self.tables.get(table_id))  # TABLE_CLOSED, not a seat
        seat, table = self.tables.write(table_id, lambda t: t.take(request.name, wanted))
        secret = self.secret_message(table, seat)
        table = self.started_when_it_can(table)
        return lobby_pb2.JoinTableResponse(table=self.message(table), seat=secret)

    @lobby_call
    def LeaveTable(self, request: lobby_pb2.LeaveTableRequest,
                   context: Context) -> lobby_pb2.LeaveTableResponse:
        wanted = request.seat if request.HasField("seat") else None
        table_id = parse_table_id(request.table_id)
        self.tables.closed_if_idle(self.tables.get(table_id))
        _, table = self.tables.write(table_id, lambda t: self._leave(t, wanted, context))
        if table.status == STARTED:
            self.bots.play(table)
        return lobby_pb2.LeaveTableResponse(table=self.message(table))

    def _leave(self, table: Lobby, wanted: int | None, context: Context) -> None:
        """Decide a leave on the newest table (``Tables.write``): the secret,
        the seat and the game's state as they are when it is saved. A leave
        read on a waiting table would otherwise be saved on a table the last
        join has just started: a bot's seat whose leaver still played it."""
        held, host = self.holder_of(table, context)
        seat = wanted if wanted is not None else held
        if seat is None:
            raise lobby_refusal(RuleError(LobbyReason.NOT_SEATED, "name the seat to leave"))
        if seat != held and not host:
            raise ServiceError("PERMISSION_DENIED", "WRONG_SEAT",
                               f"your secret holds seat {held + 1 if held is not None else 0}"
                               f", not {seat + 1}")
        over = self.game_over(table)
        if table.status == STARTED:
            copy.deepcopy(table).leave(seat, over)  # refused before the revoke
            self.revoke(table.game_id, seat)
        table.leave(seat, over)

    @lobby_call
    def StartTable(self, request: lobby_pb2.StartTableRequest,
                   context: Context) -> lobby_pb2.StartTableResponse:
        table = self.tables.closed_if_idle(self.table(request.table_id))
        _, host = self.holder_of(table, context)
        if not host:
            raise ServiceError("PERMISSION_DENIED", "HOST_ONLY",
                               "only the table's host secret starts it early")
        copy.deepcopy(table).start("", GAMES[table.rules].MIN_SEATS)  # refused before a game
        return lobby_pb2.StartTableResponse(table=self.message(self.start(table)))

    @lobby_call
    def PlayAgain(self, request: lobby_pb2.PlayAgainRequest,
                  context: Context) -> lobby_pb2.PlayAgainResponse:
        table = self.table(request.table_id)
        held, _ = self.holder_of(table, context)
        if held is None or table.seats[held]["kind"] != PLAYER:
            raise lobby_refusal(RuleError(LobbyReason.NOT_SEATED,
                                          "play again with your seat's secret"))
        over = self.game_over(table)
        next_id = uuid.uuid5(table.id, "play-again")
        _, table = self.tables.write(table.id, lambda t: t.offer_again(str(next_id), over))
        try:
            fresh = self.tables.get(next_id)
        except ServiceError:
            fresh = self.opened(table.rules, table.next_round_seats(), table.options_json,
                                self.caller_key(context), table_id=next_id,
                                again_of=str(table.id))
        seat = (held + 1) % len(table.seats)
        return lobby_pb2.PlayAgainResponse(table=self.message(fresh),
                                           seat=self.secret_message(fresh, seat))

    @lobby_call
    def QuickMatch(self, request: lobby_pb2.QuickMatchRequest,
                   context: Context) -> lobby_pb2.QuickMatchResponse:
        rules = served_rules(request.rules)
        check_id("rules", rules)
        cls = GAMES.get(rules)
        if cls is None:
            raise unknown_rules(rules)
        players = request.players or cls.MIN_SEATS
        check_size(rules, players, cls.MIN_SEATS, cls.MAX_SEATS)  # before a seat is made
        player_name(request.name)  # BAD_NAME before a table is looked at
        with self.matching(rules, players):
            return self._quick_match(rules, players, request.name, context)

    def _quick_match(self, rules: str, players: int, name: str,
                     context: Context) -> lobby_pb2.QuickMatchResponse:
        """Join the oldest waiting table, else open one. Two players matching
        at once would both find no table and open one each, each waiting for
        the other: on one server they match one at a time (``matching``); on
        several, a table is opened only at the log's position the search read
        (``Tables.open``), else the search is made again and finds the table
        the other server listed."""
        for _ in range(SAVE_ATTEMPTS):
            seen = self.tables.listing()
            joined = self._join_waiting(rules, players, name, seen)
            if joined is not None:
                return joined
            self.require_creator(context)  # no table waits: this one is opened
            seats = [{"kind": PLAYER, "name": name}] + [{"kind": OPEN}] * (players - 1)
            try:
                table = self.opened(rules, seats, "", self.caller_key(context), seen=seen)
            except LogMoved:
                continue  # a table was listed since the search: search again
            return lobby_pb2.QuickMatchResponse(
                table=self.message(table), seat=self.secret_message(table, 0), opened=True)
        raise ServiceError("UNAVAILABLE", "BUSY", "the lobby is too busy; retry")

    def _join_waiting(self, rules: str, players: int, name: str,
                      seen: Listing) -> lobby_pb2.QuickMatchResponse | None:
        """Sit ``name`` at the oldest table of ``seen`` that takes it; None when none does."""
        for table in self.tables.waiting_tables(rules, players, seen):
            try:
                seat, joined = self.tables.write(table.id, lambda t: t.take(name))
            except RuleError as exc:
                if exc.reason in (LobbyReason.TABLE_FULL, LobbyReason.TABLE_STARTED,
                                  LobbyReason.NAME_TAKEN, LobbyReason.TOO_MANY_TAKINGS,
                                  LobbyReason.TABLE_CLOSED):
                    continue  # taken meanwhile, or the name is someone's there: the next one
                raise
            secret = self.secret_message(joined, seat)
            joined = self.started_when_it_can(joined)
            return lobby_pb2.QuickMatchResponse(table=self.message(joined), seat=secret)
        return None

    @lobby_call
    def WatchTable(self, request: lobby_pb2.WatchTableRequest,
                   context: Context) -> Iterator[lobby_pb2.WatchTableResponse]:
        table_id = parse_table_id(request.table_id)
        self.tables.get(table_id)  # UNKNOWN_TABLE before the stream
        return self._watch(table_id, request.after_version, context, self.caller_key(context))

    def _watch(self, table_id: uuid.UUID, after: int, context: Context,
               key: str) -> Iterator[lobby_pb2.WatchTableResponse]:
        """The table each time its version or its game's end changes; over once
        its next round is named or it closed (nothing more can change).

        Each look at the table (one a change, else one every ``WATCH_POLL``)
        is a call of the watcher's (``key``), and its CPU time the watcher's
        work, sending included, as every response stream's is
        (``service.limits.StreamWork``), charged look by look, those that
        send nothing too: a look waits while the watcher's share is spent, so
        streams left open by the dozen keep the server no busier than its
        calls could."""
        sent: tuple[int, bool] = (after, False) if after else (-1, False)
        stopping = lambda: self.hub.stopping.is_set() or not context.is_active()  # noqa: E731
        shares = self.shares
        while not stopping():
            if shares is not None and shares.spend(key, stopping) is None:
                return
            table = self.looked_at(self.tables.get(table_id))
            now = (table.version, self.game_over(table))
            if now != sent and table.version > after:
                sent = now
                yield lobby_pb2.WatchTableResponse(table=self.message(table))
            if shares is not None:
                shares.settle_stream()
            if table.next_table or table.status == CLOSED:
                return
            with self.tables.changed:
                self.tables.changed.wait(WATCH_POLL)


def opener_key(entries: Sequence[Entry | TableListed], table_id: uuid.UUID) -> str:
    """Whose share the bots of a table opened elsewhere (on another server, or
    before a restart) spend: a share of their opener's own, named by the
    keyed hash the lobby's log keeps of it, so that one host's bots cannot
    stall every other such table's (a searching bot thinks up to
    ``ARBITER_BOT_BUDGET_SECONDS`` a decision); ``UNKNOWN_HOST``'s where the
    log names no opener (the admin's, a play again's) or no longer holds
    the table's entry."""
    for entry in reversed(entries):
        if entry.table_id == table_id:
            return f"{UNKNOWN_HOST}:{entry.opener}" if entry.opener else UNKNOWN_HOST
    return UNKNOWN_HOST


class Hosts:
    """Each table's host, as a caller of ``service.limits``, for the tables
    opened on this server (the newest ``TABLES_KEPT``): its bots spend the
    host's share. A table whose host is not known here (opened before a
    restart, or on another server) spends its opener's share by the log's
    name of it (``opener_key``)."""

    def __init__(self) -> None:
        self._keys: OrderedDict[uuid.UUID, str] = OrderedDict()
        self._guard = threading.Lock()

    def keep(self, table_id: uuid.UUID, key: str) -> None:
        with self._guard:
            self._keys[table_id] = key
            while len(self._keys) > TABLES_KEPT:
                self._keys.popitem(last=False)

    def of(self, table_id: uuid.UUID) -> str:
        with self._guard:
            return self._keys.get(table_id, UNKNOWN_HOST)


class TableBots:
    """Bots playing the bot seats of started tables on this server, each at
    its seat's level (``service.hostedbots``: from its seat's record, view and
    legal moves alone), through the application's one write path, as a seat's
    ``Act`` would; a thread per game, ended with it (or when the server
    stops). Each move is a call of the table's host and its CPU time, the
    bot's thinking included, the host's work (``service.limits``): opening
    tables full of bots makes the server do no more than its opener's share."""

    def __init__(self, lobby: LobbyServicer, most: float = Settings.bot_budget_seconds) -> None:
        self.lobby = lobby
        #: The most seconds a bot thinks per decision (``Settings.bot_budget_seconds``).
        self.most = most
        self.hosts = Hosts()
        self._running: set[str] = set()
        #: Lobby games checked since this process started whose bots needed
        #: no setting playing (``seat_called``), the newest ``GAMES_CHECKED``.
        self._checked: OrderedDict[str, None] = OrderedDict()
        self._guard = threading.Lock()

    def resume(self) -> None:
        """On a server's start: the bots of the started tables (among the newest
        ``SCAN``) whose games are not over play on, and the tables full but
        not started (their game's creation failed, or the server stopped
        between the last join and the start: the waiting index's, however
        old) start, as a thread of their own (the server serves meanwhile)."""
        threading.Thread(target=self._resume, name="lobby-bots-resume", daemon=True).start()

    def _resume(self) -> None:
        tables = self.lobby.tables
        try:
            for entry in tables.log.get(desc=True, limit=SCAN):
                table = self.lobby.started_when_it_can(tables.get(entry.table_id))
                if table.status == STARTED and not self.lobby.game_over(table):
                    self.play(table, opener_key([entry], table.id))
            for table in tables.current([e.table_id for e in tables.listing().entries]).values():
                if table.status == WAITING and table.full:
                    self.play(self.lobby.started_when_it_can(table))
        except Exception:  # noqa: BLE001 - the tables' own calls still work
            log.warning("the lobby's bots could not be resumed", exc_info=True)

    def play_on(self, table: Lobby) -> None:
        """Set the bots of a started table playing if they are not and its game
        goes on: a server's start resumes the newest ``SCAN`` tables' alone,
        so an older table's bots play on from the first look at it (its
        page, ``GetTable``, ``WatchTable``), not never."""
        if table.status != STARTED or not table.game_id or not any(
                s["kind"] == BOT for s in table.seats):
            return
        with self._guard:
            if table.game_id in self._running:
                return
        if not self.lobby.game_over(table):
            self.play(table)

    def seat_called(self, game_id: str) -> None:
        """A call of a lobby table's game (``Play``, ``Act``, ``GetState``,
        ``LegalActions``; the seat's page is those calls): a seat back at a
        game whose table a server's start did not resume (older than the
        newest ``SCAN``) finds the bots playing, not the game waiting on them
        for ever. A game whose bots play here, or that was checked in this
        process already, costs a set's lookup; the first call of another
        sets a check going on a thread of its own (the game's link to its
        table, the table, whether the game is over: ``_check``), so the
        call itself waits on none of it."""
        if game_id in self._running or game_id in self._checked:
            return
        with self._guard:
            if game_id in self._running or game_id in self._checked:
                return
            self._checked[game_id] = None
            while len(self._checked) > GAMES_CHECKED:
                self._checked.popitem(last=False)
        threading.Thread(target=self._check, args=(game_id,), name="lobby-bots-check",
                         daemon=True).start()

    def _check(self, game_id: str) -> None:
        """``seat_called``'s check: the game's table's bots set playing when
        it is started, has bots and its game goes on (``play_on``)."""
        try:
            table_id = self.lobby.tables.table_of(game_id)
            if table_id is not None:
                self.play_on(self.lobby.tables.get(table_id))
        except Exception:  # noqa: BLE001 - the call that set it going is served regardless
            log.warning("the bots of game %s could not be checked", game_id, exc_info=True)
            with self._guard:
                self._checked.pop(game_id, None)  # checked again at its next call

    def play(self, table: Lobby, host: str = "") -> None:
        """Set the table's bots playing (once a game), spending ``host``'s share,
        else its host's as this server knows it (``_run``)."""
        if not any(s["kind"] == BOT for s in table.seats) or not table.game_id:
            return
        with self._guard:
            if table.game_id in self._running:
                return
            self._running.add(table.game_id)
        threading.Thread(target=self._run, args=(table.id, table.game_id, host),
                         name="lobby-bots", daemon=True).start()

    def _run(self, table_id: uuid.UUID, game_id: str, host: str = "") -> None:
        hub = self.lobby.hub
        bots = SeatBots(game_id, self.most)
        host = host or self.hosts.of(table_id)
        if host == UNKNOWN_HOST:  # the log names its opener: followed to here first
            self.lobby.tables.listing()
            host = opener_key(self.lobby.tables.index.known(table_id), table_id)
        try:
            with hub.following(game_id):
                while not hub.stopping.is_set():
                    ticket = hub.ticket(game_id)
                    moved = self._charged(host, lambda: self._move(table_id, game_id, bots))
                    if moved is None:
                        return
                    if not moved:  # the others' turn: until a commit of the game
                        hub.wait_game(game_id, ticket, hub.stopping.is_set, timeout=BOT_POLL)
        except Exception:  # noqa: BLE001 - a bot's failure ends its play, not the server
            log.exception("the bots of game %s stop", game_id)
        finally:
            with self._guard:
                self._running.discard(game_id)

    def _charged(self, host: str, move: Callable[[], bool | None]) -> bool | None:
        """``move`` once the host's share admits it, its CPU time charged to
        the host; None when the server stops meanwhile."""
        shares = self.lobby.shares
        if shares is None:
            return move()
        kept = shares.spend(host, self.lobby.hub.stopping.is_set, self.most)
        if kept is None:
            return None
        started = time.thread_time()
        try:
            return move()
        finally:
            shares.settle(host, time.thread_time() - started, kept)

    def _move(self, table_id: uuid.UUID, game_id: str, bots: SeatBots) -> bool | None:
        """One move of a bot seat whose turn it is; None once the game is over."""
        store = self.lobby.stores.of(game_id)
        facts = store.facts(game_id)
        if facts.ended:
            return None
        table = self.lobby.tables.get(table_id)
        seats = [n for n, held in enumerate(table.seats) if held["kind"] == BOT]
        for seat in seats:  # a player who left mid-game: a bot takes the seat on
            bots.take(seat, BotLevel(table.seats[seat].get("level", DEFAULT_LEVEL),
                                     table.seats[seat].get("budget", 0.0)))
        version, readings = store.seats_at(game_id, seats, facts.version, screens=False)
        for reading in readings:
            if reading.legal is None:
                continue
            turn = seat_turn(reading)
            if bots.reads_record(reading.seat):
                bots.read(reading.seat, seat_record(store, game_class(turn.state), game_id,
                                                    reading.seat, bots.after(reading.seat),
                                                    version))
            move = bots.choose(turn)
            if move is None:
                continue
            try:
                result = store.act(
                    game_id, reading.seat, as_json(move.command),
                    expected_version=0 if move.decision_id else version,
                    decision_id=move.decision_id, rules=table.rules)
            except (RuleError, ServiceError) as exc:
                log.debug("a bot's move of game %s was refused: %s", game_id, exc)
                continue
            self.lobby.hub.committed(game_id, result.version)
            return True
        return False


def as_json(command: game_pb2.Command | Mapping[str, Any]) -> Mapping[str, Any]:
    """A bot's command as the application's ``act`` takes it (its JSON)."""
    return command if isinstance(command, Mapping) else command_to_json(command)[1]


def seat_turn(reading: SeatReading) -> game_pb2.PlayTurn:
    """A bot seat's turn as its ``Play`` stream would push it: the game as the
    seat sees it (no screen: a bot draws none) and its legal commands."""
    state, legal = reading.state, reading.legal
    assert legal is not None
    return game_pb2.PlayTurn(
        seat=reading.seat,
        state=game_pb2.GameState(
            game_id=state.game_id, rules=state.rules, rules_version=state.rules_version,
            version=state.version, over=state.over, outcome_json=state.outcome_json,
            pending=[decision_proto(d) for d in state.pending], view_json=state.view_json,
            seats=state.seats),
        actions=[game_pb2.LegalAction(command=json_to_command(legal.rules, a.command),
                                      json=a.json, label=a.label) for a in legal.actions],
        complete=legal.complete)


def seat_record(store: ArbiterApp, cls: type[Game], game_id: str, seat: int, after: int,
                upto: int) -> list[game_pb2.Event]:
    """The game's events after ``after`` up to ``upto`` in the form ``seat``
    reads them, as its ``Play`` stream delivers them (the game not over)."""
    reader = Reader(seat).for_game(False)
    return [to_proto(cls, ev, reader) for ev in store.game_events(game_id, after, upto)]


def install(server: grpc.Server, app: ArbiterApp | Shards, hub: FeedHub, games: GameServicer,
            shares: CallerShares | None = None, settings: Settings | None = None
            ) -> LobbyService:
    """Serve the lobby on ``server`` (``service.main``); its bots and watches
    spend the shares of ``shares`` (the server's ``CallerShares``); its
    tables' idle time and waiting tables per caller are ``settings``'. The
    server's game servicer ``games`` tells it of the calls of its tables'
    games (``GameServicer.lobby_games``)."""
    settings = settings or Settings()
    servicer = LobbyService(app, hub, shares, settings.table_idle_seconds,
                            settings.waiting_tables_per_caller, settings.bot_budget_seconds)
    lobby_pb2_grpc.add_LobbyServiceServicer_to_server(servicer, server)
    games.lobby_games = servicer.bots.seat_called
    servicer.bots.resume()
    return servicer
