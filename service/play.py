"""``Play``: a seat's (or a bot's seats') whole game on one bidirectional stream.

A player's client loop as the game servers players know run it (boardgame.io's
``client.moves.x()`` then a pushed state; Colyseus's ``room.send`` then a
state patch): the client sends moves, the server pushes what follows. Over
the unary calls a bot asked ``LegalActions`` then sent ``Act`` for every move,
each call authenticated again, and followed the game on a ``Subscribe`` of
its own. Here one stream carries it all:

- the first message joins: the game, the seats played, the version the
  events resume after; the caller is authenticated once, for the stream
  (the stream's token, and ``seat_tokens`` for a bot's other seats);
- every event the seats may see, in version order, gap-free and resumable
  by version as ``Subscribe`` is (the same catch-up: this process's newest
  commits, else the store), each in the form its seats see (``for_seats``);
- each move's result, in the order sent: accepted, replayed (a command id
  applied before, on any stream or call: exactly once) or refused with the
  reason code ``Act`` would give; a refusal leaves the stream open, and the
  turns of the seats still asked are pushed again;
- whenever one of the seats has a new decision, its turn: the seat's view,
  its legal moves and the decision ids (once per decision: another seat's
  move does not ask a seat again what it is still asked), made once per
  version as its wire bytes straight from the game, for the seats the game
  waits on alone (``ArbiterApp.turns_at``, ``service.turns``), with no look
  at the store when the cached game is at the version the events said;
- once the game is over, each seat's final state, then ``ENDED``.

All one round has goes in one message (the results of the moves applied, the
events that followed, the turns): one push a move, not one per event (each
message on a stream costs the server about as much as a small reply).

Every ``Play`` stream runs on the server's event loop (gRPC's asyncio
server, ``service.aio``): its moves read by a task (``Inbox``), its pushes
written and its wake-ups awaited there, so a stream holds no thread and a
move waits for no thread of its own. Its moves are applied by its store's one
writer (``Writer``, a thread): every move read since its last pass, of every
stream, decided one after the other and saved in one transaction
(``ArbiterApp.act_moves``); each stream is then woken with its results,
which it pushes in the order sent. A commit wakes this process's followers
of the game at once (``FeedHub.committed``): the wake-ups of a pass reach the
loop in one hop (``aio.LoopWaker``). Other servers' writes arrive as the
feeds' do. The join, and any read of the store a round needs, run on a
thread of the server's pool.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import logging
import threading
import time
import uuid
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable
from typing import Any, Protocol

import grpc
import grpc.aio
import orjson
from arbiter.v1 import game_pb2
from arbiter.wire import WireError, command_to_json

from aggregates.kernel import Game, RuleError
from service import auth, feeds, limits
from service.application import ActResult, ArbiterApp, Move, SeatReading
from service.errors import ServiceError, bad_request
from service.feeds import ENDED, FeedHub
from service.ids import check_position, parse_game_id
from service.readmodel import Turn
from service.status import refused
from service.turns import EventWire
from service.turns import field as _field
from service.turns import varint as _varint

log = logging.getLogger(__name__)

#: A move's command id and what became of it: ``act``'s answer, or a refusal
#: (or any failure) as its exception.
Outcome = tuple[str, ActResult | BaseException]

#: The most seats one stream plays (a request's most seats, as CreateGame's).
MAX_SEATS = 16
#: Moves read and not yet answered at most, per stream: beyond it the reading
#: waits (the client's sends are held back by gRPC's flow control).
INBOX_SIZE = 64
#: The most events one message carries (a resumed stream's backlog comes in
#: several): far below gRPC's 4 MiB message limit for any game's events.
EVENTS_PER_MESSAGE = 256


#: Every stream's events' forms, as wire bytes (``service.turns.EventWire``).
EVENTS = EventWire()

#: ``PlayMessage``'s fields and ``PlayEvent``'s, by number (protos/arbiter/v1/game.proto).
_RESULTS, _EVENTS, _TURNS, _STATUS, _STATE = 1, 2, 3, 4, 5
_EVENT, _FOR_SEATS = 1, 2


class Push:
    """One ``PlayMessage``, put together as its wire bytes from parts encoded
    once: each event's form (``EventWire.for_seats``) and each turn
    (``service.turns``) are serialized once for every stream and push that
    carries them, not copied into a new message and encoded again per push
    (a repeated field's elements are its entries one after another; a
    message's fields may come in any order, each repeated field's in its own).
    ``wire`` hands gRPC the bytes (``play_wire`` is the stream's serializer)."""

    __slots__ = ("_parts", "results", "events", "turns", "status")

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        self.results = self.events = self.turns = 0
        self.status: tuple[str, int] | None = None

    def result(self, result: game_pb2.PlayResult) -> None:
        self._parts.append(_field(_RESULTS, result.SerializeToString()))
        self.results += 1

    def event(self, event: bytes, for_seats: Iterable[int]) -> None:
        """An event's form (its ``Event`` bytes) for the joined seats that see it."""
        seats = b"".join(_varint(seat) for seat in for_seats)
        self._parts.append(_field(_EVENTS, _field(_EVENT, event) + _field(_FOR_SEATS, seats)))
        self.events += 1

    def turn(self, turn: bytes) -> None:
        self._parts.append(_field(_TURNS, turn))
        self.turns += 1

    def say(self, status: str, state: int) -> None:
        self.status = (status, state)

    def __bool__(self) -> bool:
        return bool(self._parts) or self.status is not None

    def wire(self) -> bytes:
        """The message's bytes."""
        if self.status is None:
            return b"".join(self._parts)
        status, state = self.status
        tail = _field(_STATUS, status.encode()) if status else b""
        if state:
            tail += _varint(_STATE << 3) + _varint(state)
        return b"".join(self._parts) + tail

    def message(self) -> game_pb2.PlayMessage:
        """The same as a parsed message (for a reader in this process)."""
        return game_pb2.PlayMessage.FromString(self.wire())


def play_wire(message: Push | game_pb2.PlayMessage | bytes) -> bytes:
    """The ``Play`` stream's response serializer: a push's own bytes (made
    already by the stream, whose CPU is its caller's: ``PlayStream._play``)."""
    if isinstance(message, bytes):
        return message
    return message.wire() if isinstance(message, Push) else message.SerializeToString()


class Host(Protocol):
    """What a stream uses of the service that hosts it (``GameServicer``)."""

    hub: FeedHub
    credentials: auth.Credentials

    def store(self, game_id: str | uuid.UUID) -> ArbiterApp: ...
    def caller(self, context: grpc.ServicerContext, game_id: uuid.UUID | None) -> auth.Caller: ...
    def watch_cancel(self, context: grpc.ServicerContext) -> Callable[[], bool]: ...
    def closing(self) -> bool: ...
    def kept_events(self, game_id: str, gid: uuid.UUID, last: int,
                    polled: bool) -> list[tuple[int, Any]] | None: ...
    def stored_events(self, game_id: str, gid: uuid.UUID,
                      last: int) -> list[tuple[int, Any]]: ...
    def turn_message(self, reading: SeatReading) -> game_pb2.PlayTurn: ...
    def turn_wire(self, reading: SeatReading) -> bytes: ...


@dataclasses.dataclass(frozen=True)
class Joined:
    """What a stream plays: its game (as the relay names it), seats, and the
    version its events resume after."""

    game_id: str
    gid: uuid.UUID
    seats: tuple[int, ...]
    after: int
    screens: bool


class Inbox:
    """The moves a client sends, read off its request stream by a task of the
    server's loop and handed to the writer (``Writer``), and their results,
    which the stream takes (``take``) to push in the order sent.

    ``wake`` is called after each result (and when the requests end), to stop
    the stream's wait. A request that is not a move (a second join) ends the
    stream with ``BAD_ARGUMENT`` (``error``), once the moves before it are
    answered (``ready``)."""

    def __init__(self, requests: AsyncIterator[game_pb2.PlayRequest], wake: Callable[[], None],
                 submit: Callable[[Inbox, game_pb2.PlayMove], None],
                 committed: Callable[[int], None], caller: str = "") -> None:
        #: Whose moves these are, for the writer's fair share of a pass
        #: (``fair_share``): the caller the stream is charged to; "" (the
        #: admin's, or uncharged) counts as a caller of its own.
        self.caller = caller or f"stream:{id(self)}"
        self._requests = requests
        self._wake = wake
        self._submit = submit
        self._committed = committed
        self._results: collections.deque[Outcome] = collections.deque()
        #: The results' lock: the writer answers from its thread.
        self._lock = threading.Lock()
        #: Set when results are taken: the reading waits for room on it.
        self._room: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        #: Moves handed to the writer and not yet taken as results.
        self._unanswered = 0
        #: CPU seconds the writer spent on this stream's moves, not yet charged.
        self._spent = 0.0
        self.closed = False
        self.error: ServiceError | None = None
        #: The call's refusal, when a request was refused as it was read.
        self.aborted: BaseException | None = None

    def start(self) -> None:
        """Start reading (on the running loop)."""
        self._room = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        room = self._room
        assert room is not None
        try:
            async for request in self._requests:
                if request.WhichOneof("item") != "move":
                    self.error = bad_request(
                        "BAD_ARGUMENT", "a Play stream joins once, in its first message; "
                        "every later message is a move")
                    return
                while self._unanswered >= INBOX_SIZE and not self.closed:
                    room.clear()
                    await room.wait()
                if self.closed:
                    return
                with self._lock:
                    self._unanswered += 1
                self._submit(self, request.move)
        except grpc.aio.AbortError as exc:
            self.aborted = exc  # refused (a malformed move): the stream ends with it
        except Exception:  # noqa: BLE001 - the client went away: the stream ends with it
            return
        finally:
            self._wake()

    async def ended(self) -> None:
        """The stream is over: stop reading, and wait until the reading has
        stopped (gRPC releases the call once its handler returns, and a read
        begun after that would be on a released call)."""
        self.closed = True
        if self._room is not None:
            self._room.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    def answered(self, outcome: Outcome, seconds: float) -> None:
        """A move's outcome, from the writer, with the CPU it spent on it.
        The stream is woken: by the commit's wake-up of the game's streams
        here (``FeedHub.committed``, all of them at once, from the writer),
        or for a move that recorded nothing, alone."""
        with self._lock:
            self._results.append(outcome)
            self._spent += seconds
        result = outcome[1]
        if isinstance(result, ActResult) and result.recorded and not result.replayed:
            self._committed(result.version)
        else:
            self._wake()

    def ready(self) -> bool:
        """Whether a result waits, or the stream must end with an error (once
        every move before it is answered)."""
        return bool(self._results) or (self.error is not None and not self._unanswered)

    def failed(self) -> ServiceError | None:
        """The error the stream ends with, once every move read before it
        was answered and its result taken."""
        with self._lock:
            return self.error if self.error is not None and not self._unanswered else None

    def take(self) -> list[Outcome]:
        """The results waiting, in the order their moves were sent; the
        writer's CPU on them is charged to the stream's caller here
        (``limits.charge_stream``)."""
        with self._lock:
            results = list(self._results)
            self._results.clear()
            self._unanswered -= len(results)
            spent, self._spent = self._spent, 0.0
        if self._room is not None:
            self._room.set()
        if spent:
            limits.charge_stream(spent)
        return results


#: A move queued for the writer: its stream, its command id, the move (or
#: its refusal, answered in its turn).
Queued = tuple[Inbox, str, "Move | Exception"]


class Writer(threading.Thread):
    """A store's one writer of ``Play`` moves: it takes every move the
    streams of its store have read since its last pass, decides them one
    after the other and saves them in one transaction (``ArbiterApp.act_moves``),
    then hands each stream its results (``Inbox.answered``), which wakes it.

    Under load a pass holds the moves of many games, so a move costs no
    thread of its own waiting for a commit, and the deciding is one thread's,
    not 32 threads' taking turns at the interpreter's lock. A pass is shared
    out by caller (``fair_share``): a caller who queues thousands of moves
    on many streams holds another caller's move up by one pass of a few of
    its moves, not by its whole queue. Each stream is charged the
    writer's CPU on its own moves (``ArbiterApp.act_moves``' costs: a move's
    deciding and its share of the pass's one save). One
    writer a store: on a store sharded by game, a shard whose database does
    not answer holds up its own games' moves alone. A writer with nothing to
    do for ``WRITER_IDLE_SECONDS`` ends (``stopped``); the next move starts
    another (``submit``)."""

    def __init__(self, store: ArbiterApp) -> None:
        super().__init__(name="play-writer", daemon=True)
        #: Weakly: the map of running writers (``_writers``) is keyed by the
        #: store, so a writer holding it would keep every store a process ever
        #: played on alive, its games cached.
        self._store = weakref.ref(store)
        self._ready = threading.Condition()
        self._queue: list[tuple[Inbox, str, Move | Exception]] = []
        self.stopped = False

    @property
    def store(self) -> ArbiterApp | None:
        """The store this writer saves to (None once it is dropped)."""
        return self._store()

    def submit(self, inbox: Inbox, command_id: str, move: Move | Exception) -> bool:
        """A move to apply (or its refusal, answered in its turn); False when
        this writer has ended (idle), and takes no more."""
        with self._ready:
            if self.stopped:
                return False
            self._queue.append((inbox, command_id, move))
            if len(self._queue) == 1:
                self._ready.notify()
            return True

    def run(self) -> None:
        while True:
            with self._ready:
                while not self._queue:
                    if not self._ready.wait(WRITER_IDLE_SECONDS) and not self._queue:
                        self.stopped = True
                        return
                batch, self._queue = fair_share(self._queue)
            try:
                self._apply(batch)
            except BaseException as exc:  # noqa: BLE001 - never die: each stream told
                log.exception("the Play writer failed")
                for inbox, command_id, _ in batch:
                    inbox.answered((command_id, exc), 0.0)

    def _apply(self, batch: list[tuple[Inbox, str, Move | Exception]]) -> None:
        """The pass's moves in one ``act_moves``, in the order read; each
        stream's results handed back in that order."""
        store = self.store
        moves = [m for _, _, m in batch if isinstance(m, Move)]
        costs: list[float] = []
        answers: list[ActResult | Exception]
        if store is None:  # dropped: its streams are gone with it
            answers = [ServiceError("UNAVAILABLE", "SHUTTING_DOWN", "the server is stopping")
                       for _ in moves]
        else:
            answers = store.act_moves(moves, costs)
        outcomes = iter(answers)
        spent = iter(costs)
        for inbox, command_id, move in batch:
            if isinstance(move, Exception):
                inbox.answered((command_id, move), 0.0)
            else:
                inbox.answered((command_id, next(outcomes)), next(spent, 0.0))


#: The most moves of one caller a writer's pass takes while other callers'
#: moves wait too (``fair_share``)...
MOVES_A_CALLER_A_PASS = 8
#: ...and the most of a pass's moves, when one caller's are all that wait (a
#: bot playing many games from one address keeps its moves saved together).
MOVES_A_PASS = 64


def fair_share(queue: list[Queued]) -> tuple[list[Queued], list[Queued]]:
    """(this pass's moves, the rest), each in the order read: every caller's
    earliest moves, at most ``MOVES_A_CALLER_A_PASS`` of each caller's when
    several callers' moves wait, ``MOVES_A_PASS`` in all. A stream's moves
    keep their order: a stream is one caller's, whose moves are taken
    earliest first. A pass's answers come at its end, so the pass's length is
    what another caller's move waits for."""
    callers = {inbox.caller for inbox, _, _ in queue}
    most = MOVES_A_CALLER_A_PASS if len(callers) > 1 else MOVES_A_PASS
    taken: dict[str, int] = {}
    batch: list[Queued] = []
    rest: list[Queued] = []
    for item in queue:
        count = taken.get(item[0].caller, 0)
        if count < most and len(batch) < MOVES_A_PASS:
            taken[item[0].caller] = count + 1
            batch.append(item)
        else:
            rest.append(item)
    return batch, rest


#: Seconds a writer waits for a move before it ends (a store's streams all idle).
WRITER_IDLE_SECONDS = 30.0
#: The running writer of each store (``submit``).
_writers: weakref.WeakKeyDictionary[ArbiterApp, Writer] = weakref.WeakKeyDictionary()
_writers_guard = threading.Lock()


def submit(store: ArbiterApp, inbox: Inbox, command_id: str, move: Move | Exception) -> None:
    """Hand a move to its store's writer, starting one where none runs."""
    while True:
        with _writers_guard:
            writer = _writers.get(store)
            if writer is None or writer.stopped:
                writer = _writers[store] = Writer(store)
                writer.start()
        if writer.submit(inbox, command_id, move):
            return


class PlayStream:
    """One ``Play`` call (see the module)."""

    def __init__(self, servicer: Host, requests: AsyncIterator[game_pb2.PlayRequest],
                 context: Any) -> None:
        self.servicer = servicer
        self.hub = servicer.hub
        self.requests = requests
        self.context = context
        #: The join's other seats' tokens, checked again each round (``_check_holders``).
        self._seat_tokens: tuple[str, ...] = ()

    async def messages(self) -> AsyncIterator[bytes]:
        """The stream's pushes (their wire bytes), until the game ends or the
        client leaves."""
        try:
            first = await anext(self.requests, None)
        except grpc.aio.AbortError:
            raise  # refused (a malformed message): the call has its status
        except Exception:  # noqa: BLE001 - the client went away before joining
            return
        if first is None:
            return
        if first.WhichOneof("item") != "join":
            raise bad_request("BAD_ARGUMENT", "a Play stream's first message is its join")
        loop = asyncio.get_running_loop()
        joined, store, cls, names = await loop.run_in_executor(None, self._joined, first.join)
        inbox = Inbox(self.requests, lambda: self.hub.nudge(joined.game_id),
                      lambda box, move: submit(store, box, move.command_id,
                                               self._move(joined, move)),
                      lambda version: self.hub.committed(joined.game_id, version),
                      limits.stream_caller())
        inbox.start()
        try:
            async with contextlib.aclosing(self._play(joined, store, cls, names,
                                                            inbox)) as pushes:
                async for wire in pushes:
                    yield wire
        finally:
            await inbox.ended()

    def _joined(self, join: game_pb2.PlayJoin) -> tuple[Joined, ArbiterApp, type[Game],
                                                          tuple[str, ...]]:
        """The join and the game, on a thread (they may read the store)."""
        joined = self.join(join)
        store = self.servicer.store(joined.gid)
        game = store.game(joined.game_id)
        if joined.after > game.version:
            raise ServiceError("OUT_OF_RANGE", "BAD_VERSION",
                               f"the game is at version {game.version}, not {joined.after}",
                               game.version)
        return joined, store, type(game), tuple(game.seats)

    async def _play(self, joined: Joined, store: ArbiterApp, cls: type[Game],
                          names: tuple[str, ...], inbox: Inbox) -> AsyncGenerator[bytes, None]:
        """The stream's rounds: each takes the results of the moves the
        writer answered, reads the events after the last version sent, and
        the turns at the newest; all of it goes in one message (a move's
        result, its events, the next turn: one push, not one per event).
        A round runs on the loop from one await to the next (a push's send,
        the game's next wake-up), its CPU charged to the stream's caller
        as it goes (``limits.charge_stream``); a read of the store, on a
        thread of the pool."""
        loop = asyncio.get_running_loop()
        key, last = joined.game_id, joined.after
        gone = self.servicer.watch_cancel(self.context)
        pushed: dict[int, int] = {}
        asked: dict[int, tuple[str, ...]] = {}
        status, heartbeat, polled, over = "", time.monotonic(), False, False
        clock = time.thread_time
        with self.hub.following(key), store.recent.following(joined.gid):
            mark = clock()
            while self.context.is_active() and not self.servicer.closing():
                ticket = self.hub.ticket(key)
                self._check_holders(store, joined.gid)
                message = Push()
                for outcome in inbox.take():
                    result = self._result(joined, store, outcome)
                    if not result.accepted:
                        pushed.clear()
                        asked.clear()
                    message.result(result)
                failed = inbox.failed()
                if failed is not None:
                    if message.results:
                        wire = message.wire()
                        limits.charge_stream(clock() - mark)
                        yield wire
                    raise failed
                new_events = self.servicer.kept_events(key, joined.gid, last, polled)
                if new_events is None:
                    limits.charge_stream(clock() - mark)
                    new_events = await loop.run_in_executor(
                        None, self.servicer.stored_events, key, joined.gid, last)
                    mark = clock()
                polled = False
                over = over or any(type(e).__name__ == "Ended" for _, e in new_events)
                for position, ev in new_events:
                    if message.events >= EVENTS_PER_MESSAGE:
                        wire = message.wire()
                        limits.charge_stream(clock() - mark)
                        yield wire
                        mark = clock()
                        message = Push()
                    for form, for_seats in self._event(cls, ev, position, joined.seats, names,
                                                       over):
                        message.event(form, for_seats)
                    last = ev.originator_version
                asked_seats = [s for s in joined.seats if pushed.get(s) != last]
                at = store.turns_at_cached(joined.gid, asked_seats, last, joined.screens)
                if at is None:  # the lock held, or the store to read: not on the loop
                    limits.charge_stream(clock() - mark)
                    at = await loop.run_in_executor(
                        None, store.turns_at, key, asked_seats, last, joined.screens)
                    mark = clock()
                version, turns = at
                if version > last:
                    polled = True
                    if message.results or message.events:
                        wire = message.wire()
                        limits.charge_stream(clock() - mark)
                        yield wire
                        mark = clock()
                    continue
                pushed.update(dict.fromkeys(joined.seats, last))
                for turn in turns:
                    if _asks_anew(turn, asked):
                        message.turn(turn.wire if isinstance(turn, Turn)
                                     else self.servicer.turn_wire(turn))
                ended = bool(turns) and _over(turns[0])
                if ended:
                    message.say(ENDED, game_pb2.FEED_STATE_ENDED)
                elif status != self.hub.status or (
                        not message and time.monotonic() - heartbeat > self.hub.heartbeat):
                    said = feeds.status_message(self.hub.status,
                                                heartbeat=status == self.hub.status)
                    message.say(said.status, said.state)
                    status = self.hub.status
                limits.charge_stream(clock() - mark)
                if message:
                    heartbeat = time.monotonic()
                    # The push's send and the wait's start after it are the
                    # loop's, not charged: the thread's clock is a system
                    # call (about 3 us), read once a round on each side of it.
                    yield message.wire()
                if ended:
                    return
                await self.hub.wait_game_async(key, ticket, lambda: gone() or inbox.ready())
                mark = clock()
                polled = self.hub.ticket(key) == ticket and not inbox.ready()
            if inbox.aborted is not None:
                raise inbox.aborted

    def join(self, join: game_pb2.PlayJoin) -> Joined:
        """Who plays which seats: the stream's one authentication. Each seat
        must be the token's (the admin's: any) or one of ``seat_tokens``'."""
        gid = parse_game_id(join.game_id)
        check_position(join.after_version)
        if len(join.seats) > MAX_SEATS or len(join.seat_tokens) > MAX_SEATS:
            raise bad_request("BAD_SEATS", f"a Play stream plays at most {MAX_SEATS} seats")
        store = self.servicer.store(gid)
        access = store.access(gid)
        if access is None:
            store.game(join.game_id)  # NOT_FOUND for a game that is not there
        caller = self.servicer.caller(self.context, gid)
        if caller.principal.revoked is not None or (
                caller.principal == auth.NOBODY and (caller.token or not join.seat_tokens)):
            # SEAT_REVOKED (its holder left the seat), BAD_TOKEN (not this
            # game's), NO_TOKEN (none, and no seat_tokens): the stream's own
            # token is judged before any seat it could name.
            auth.require(*caller)
        self._seat_tokens = tuple(join.seat_tokens)
        others: dict[int, tuple[auth.Principal, str]] = {}
        for token in join.seat_tokens:
            principal = self.servicer.credentials.identify(token, access) if token else auth.NOBODY
            if principal.revoked is not None:
                auth.require(principal, token)
            if principal.seat is None:
                raise ServiceError("PERMISSION_DENIED", "BAD_TOKEN",
                                   "a seat_tokens entry is not a seat token of this game")
            others[principal.seat] = (principal, token)
        seats = tuple(dict.fromkeys(join.seats)) or (
            (caller.principal.seat,) if caller.principal.seat is not None else
            tuple(sorted(others)))
        if not seats:
            raise bad_request("BAD_SEATS", "name the seats to play: this token names none")
        for seat in seats:
            store.facts(join.game_id, seat)  # UNKNOWN_SEAT
            principal, token = others.get(seat, (caller.principal, caller.token))
            auth.require_seat(principal, token, seat)
        return Joined(str(gid), gid, seats, join.after_version, join.screens)

    def _check_holders(self, store: ArbiterApp, gid: uuid.UUID) -> None:
        """A lobby game's seats change holders (a player leaves, a bot plays
        on): each round, the stream's tokens are identified again, and one
        revoked meanwhile ends the stream (``SEAT_REVOKED``). A game whose
        seats never change keeps its record cached: nothing is read."""
        access = store.access(gid)
        if access is None or not getattr(access, "revocable", False):
            return
        caller = self.servicer.caller(self.context, gid)
        for token in (caller.token, *self._seat_tokens):
            if token:
                principal = self.servicer.credentials.identify(token, access)
                if principal.revoked is not None:
                    auth.require(principal, token)

    def _event(self, cls: type[Game], ev: Any, position: int, seats: Iterable[int],
               names: tuple[str, ...], over: bool) -> list[tuple[bytes, list[int]]]:
        """An event, once per form the seats see of it (one, unless it is
        private to some of them), each as its ``Event`` bytes with the seats
        it is for (``EventWire.for_seats``: its audience read once, each form
        written as its wire bytes once for every stream of the game)."""
        return EVENTS.for_seats(cls, ev, tuple(seats), over, position, names)

    def _move(self, joined: Joined, move: game_pb2.PlayMove) -> Move | Exception:
        """A move as the writer applies it, or why it is refused before (its
        seat, its command's form), answered in its turn."""
        try:
            seat = self._seat_of(joined, move)
            key = move.command.SerializeToString()
            rules, action = decoded(move.command, key)
        except (ServiceError, WireError) as exc:
            return exc
        return Move(joined.game_id, seat, action, move.expected_version, move.command_id,
                    move.decision_id, rules, key)

    @staticmethod
    def _result(joined: Joined, store: ArbiterApp, outcome: Outcome) -> game_pb2.PlayResult:
        """A move's result as pushed: applied through the one write path
        (``ArbiterApp.act_moves``: ``act``'s answers), or refused with the
        reason ``Act`` would give; the stream stays open. Any other failure
        ends the stream, as it would end an ``Act`` call."""
        command_id, answer = outcome
        if isinstance(answer, BaseException):
            if not isinstance(answer, (ServiceError, RuleError, WireError)):
                raise answer
            facts = refused(answer)
            version = facts.version or store.facts(joined.game_id).version
            return game_pb2.PlayResult(
                command_id=command_id, accepted=False, version=version,
                reason=facts.reason, code=facts.status, message=facts.message)
        return game_pb2.PlayResult(command_id=command_id, accepted=True,
                                   version=answer.version, replayed=answer.replayed)

    @staticmethod
    def _seat_of(joined: Joined, move: game_pb2.PlayMove) -> int:
        if not move.HasField("seat"):
            if len(joined.seats) == 1:
                return joined.seats[0]
            raise bad_request("BAD_SEATS", "this stream plays several seats: name the move's")
        if move.seat not in joined.seats:
            raise ServiceError("PERMISSION_DENIED", "WRONG_SEAT",
                               f"this stream plays seats {list(joined.seats)}, not {move.seat}")
        return move.seat


#: Distinct commands kept decoded (``decoded``); past it the whole map starts over.
DECODED_KEPT = 16384
#: A command's wire bytes -> its game and its move as JSON text.
_decoded: dict[bytes, tuple[str, bytes]] = {}


def decoded(command: game_pb2.Command, key: bytes = b"") -> tuple[str, dict[str, Any]]:
    """``command_to_json(command)``, decoded once per distinct command: a
    stream's moves are the few legal moves of its game, sent again and again
    (the ones its turns listed), and the generic decoding (protobuf's
    ``MessageToDict``, about 11 us a move) gave the same answer each time. A
    command is known by its wire bytes (equal messages serialize alike); each
    caller gets a fresh copy of the move (JSON text read back: the same
    values and types), as the decoding made one each time. A command that
    cannot be decoded is refused as before, and not kept. ``key``: the
    command's wire bytes, when the caller has them."""
    key = key or command.SerializeToString()
    kept = _decoded.get(key)
    if kept is not None:
        return kept[0], orjson.loads(kept[1])
    rules, action = command_to_json(command)
    try:
        text = orjson.dumps(action)
    except TypeError:  # orjson.JSONEncodeError (nothing the decoding makes): not kept
        return rules, action
    if len(_decoded) >= DECODED_KEPT:
        _decoded.clear()
    _decoded[key] = (rules, text)
    return rules, action


def _over(turn: Turn | SeatReading) -> bool:
    return turn.over if isinstance(turn, Turn) else turn.state.over


def _asks_anew(turn: Turn | SeatReading, asked: dict[int, tuple[str, ...]]) -> bool:
    """Whether a seat's turn (or, the game over, its final reading) is to be
    pushed: its decisions are not the ones its last turn named (a decision's
    id changes when its seat acts or is asked something new, not when another
    seat acts: seats choosing at once are asked once each, not again after
    each other's moves), or the game is over (every seat's final state)."""
    if isinstance(turn, Turn):
        ids = turn.ids
    else:
        ids = tuple(d.id for d in turn.state.pending if d.seat == turn.seat)
    if not _over(turn) and asked.get(turn.seat) == ids:
        return False
    asked[turn.seat] = ids
    return True
