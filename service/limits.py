"""Every caller's share of the server (DESIGN principle 11).

Tokens cost nothing to invent, so a caller is its network address: an IPv4
address, or an IPv6 /64 (what one host is usually given). The admin token is
the operator's and is never limited; the creator token (when the operator
configures one) is one caller of its own for game creation. Per caller, on
every service the server hosts (health and reflection included):

- open streams (Subscribe, History, Play, health Watch, reflection's request
  streams: every call that streams requests or responses): at most
  ``ARBITER_MAX_STREAMS_PER_PEER``, beside the server-wide cap (``StreamCap``),
  so one address cannot take every stream slot;
- calls: a token bucket of ``ARBITER_CALLS_PER_SECOND`` (bursts of twice
  that), where a call costs by its size: ``ListGames`` (and the lobby's
  ``ListTables``) one per 10 games it may list, an ``Audit`` ten, others
  one; each message a stream sends after its first (a ``Play`` move) is one
  call too, and waits for the bucket rather than ending the stream;
- work: a bucket of server CPU time, ``WORK_SHARE`` of one core (bursts of
  ``WORK_BURST_SECONDS``) at the default ``ARBITER_CALLS_PER_SECOND`` of
  ``DEFAULT_CALLS``, in proportion to it otherwise (one knob raises or lowers
  a caller's whole share), charged after each call with the CPU time it took
  beyond ``FREE_WORK_SECONDS``: a full replay of an uncached audit, a past
  version rebuilt from a snapshot and its events. Every response stream's
  CPU is charged as it goes (``StreamWork``): a ``Subscribe`` catching up or
  a ``History`` replaying a long game, a ``Play`` round, a lobby
  ``WatchTable``'s looks, a health ``Watch``. A caller in debt is refused
  until its bucket refills, and its open streams wait before their next
  message (a ``Play`` stream slowed, not ended; a stream of one request ended
  ``RATE_LIMITED`` after ``STREAM_PATIENCE_SECONDS``, to be opened again
  after the last version it sent), so however it spends its calls and streams it
  keeps at most that share of the server busy, and every other caller's
  reads stay fast;
- game creation (and a lobby table opened: ``OpenTable``, ``QuickMatch``):
  ``ARBITER_CREATES_PER_MINUTE`` per caller (bursts of as many), so one
  client cannot fill the disk.

The bots of a lobby table play on the server's own threads: each move is
one call of the table's host (its opener) and its CPU time work of the
host's share (``spend``, ``charge_work``), so tables full of bots cost their
opener, not the server. A lobby ``WatchTable`` stream's looks at its table
(at each change, else once a second) are each one of its watcher's calls
(``spend``), and their CPU is charged look by look (``settle_stream``),
those that send nothing included.

Health ``Watch`` streams with nothing to send for
``ARBITER_IDLE_WATCH_SECONDS`` are ended (``IdleWatches``). And per
connection: keepalive pings every ``ARBITER_KEEPALIVE_SECONDS``; a
peer that does not answer is closed, its streams with it.

Beyond its share a caller is refused with ``RESOURCE_EXHAUSTED`` and
``TOO_MANY_STREAMS`` or ``RATE_LIMITED``; others are not slowed.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import ipaddress
import math
import threading
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import grpc

from service import auth
from service.errors import ServiceError
from service.handlers import Wrapping, rebuilt
from service.memo import kept
from service.status import abort_async

GAME_SERVICE = "/arbiter.v1.GameService/"
#: The calls that may make a game or a lobby table: each one of the caller's creations.
CREATING = {GAME_SERVICE + "CreateGame", "/arbiter.v1.LobbyService/OpenTable",
            "/arbiter.v1.LobbyService/QuickMatch"}
HEALTH_WATCH = "/grpc.health.v1.Health/Watch"
AUDIT_COST = 10.0
LIST_PAGE = 10
#: The CPU time a call may take for its call token alone: a cheap read's (a
#: current ``GetState`` is under 1 ms). It was 5 ms, and a past version rebuilt
#: in 4-5 ms then went uncharged: one address reading past versions in a loop
#: kept most of a core busy on its call tokens alone.
FREE_WORK_SECONDS = 0.001
#: The part of one core a caller's work may keep busy, sustained, and the CPU
#: seconds it may spend at once (a few full audits of long games).
WORK_SHARE = 0.1
WORK_BURST_SECONDS = 2.0
#: The calls a second that these are the work share of (the default's).
DEFAULT_CALLS = 1000
#: The most one call's work can put its caller in debt, in bursts.
MAX_DEBT_BURSTS = 4


#: How long a stream's message beyond its caller's share waits before the
#: bucket is tried again (``CallerShares._charged``).
MESSAGE_WAIT = 0.01
#: How often a response stream's CPU is read and charged (``StreamWork``): its
#: thread's CPU clock is read once in that much wall time, not once a message
#: (a read is a system call of 1-10 us, where a feed's event is encoded in tens).
SETTLE_SECONDS = 0.005
#: How long a response stream of one request (``Subscribe``, ``History``, a
#: ``Watch``) waits for its caller's debt to be paid before it ends
#: ``RATE_LIMITED``: where the caller's share is small (a low
#: ``ARBITER_CALLS_PER_SECOND``) paying it could take minutes, and a client is
#: better told at once (it opens the stream again after the last version it
#: received) than left waiting. A ``Play`` stream waits as long as it takes.
STREAM_PATIENCE_SECONDS = 2.0

#: Peers whose caller is kept (``caller_of``): a peer is one connection, so
#: this holds the callers of that many connections; beyond it, it starts over.
PEERS_KEPT = 4096
_callers: dict[str, str] = {}


def caller_of(peer: str) -> str:
    """The caller a gRPC peer string stands for: its IPv4 address or IPv6 /64.

    Worked out once per peer (``ipaddress`` parsing on every call was a tenth
    of the limiter's time); a pure function of the string, so nothing kept can
    be wrong, only dropped."""
    return kept(_callers, peer, _caller_of, PEERS_KEPT)


def _caller_of(peer: str) -> str:
    host = auth.peer_host(peer)
    if not host.startswith(("ipv4:", "ipv6:")):
        return host  # a Unix socket: the local machine's own callers
    # gRPC writes an IPv6 peer percent-encoded: ``ipv6:%5B2001:db8::1%5D:5000``.
    text = urllib.parse.unquote(host.split(":", 1)[1]).strip("[]")
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return f"ipv4:{address.ipv4_mapped}"
        return f"ipv6:{ipaddress.ip_network(f'{address}/64', strict=False)}"
    return f"ipv4:{address}"


class Buckets:
    """A token bucket per key: ``rate`` tokens a second, at most ``burst`` saved."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._lock = threading.Lock()
        self._state: dict[str, tuple[float, float]] = {}

    def take(self, key: str, cost: float = 1.0) -> bool:
        now = time.monotonic()
        cost = min(cost, self.burst)  # a costly call is slow, never impossible
        with self._lock:
            tokens, last = self._state.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            allowed = tokens >= cost
            self._state[key] = (tokens - cost if allowed else tokens, now)
            if len(self._state) > 100_000:
                self._forget(now)
            return allowed

    def owes(self, key: str) -> bool:
        """Whether ``key``'s bucket is in debt (below zero) now: ``take(key,
        0.0)``'s refusal, read without the lock or a write (a bucket's state
        is one tuple, replaced whole; refilled from it or from its last
        refill, a bucket comes to the same tokens)."""
        state = self._state.get(key)
        if state is None:
            return False
        tokens, last = state
        return tokens + (time.monotonic() - last) * self.rate < 0.0

    def charge(self, key: str, cost: float) -> None:
        """Take ``cost`` for work already done: the bucket may go into debt (at
        most ``MAX_DEBT_BURSTS`` bursts), and ``take`` refuses until it refills."""
        now = time.monotonic()
        with self._lock:
            tokens, last = self._state.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            self._state[key] = (max(tokens - cost, -MAX_DEBT_BURSTS * self.burst), now)

    def _forget(self, now: float) -> None:
        """Drop the keys whose buckets have filled up again (they hold nothing)."""
        self._state = {k: (tokens, last) for k, (tokens, last) in self._state.items()
                       if tokens + (now - last) * self.rate < self.burst}


class Counts:
    """How many streams each caller holds; at most ``limit`` each."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._held: dict[str, int] = {}

    def take(self, key: str) -> None:
        with self._lock:
            held = self._held.get(key, 0)
            if held >= self.limit:
                raise ServiceError(
                    "RESOURCE_EXHAUSTED", "TOO_MANY_STREAMS",
                    f"your address has {self.limit} open streams on this server; close one",
                )
            self._held[key] = held + 1

    def give_back(self, key: str) -> None:
        with self._lock:
            held = self._held.get(key, 1) - 1
            if held > 0:
                self._held[key] = held
            else:
                self._held.pop(key, None)


def keepalive_options(seconds: int) -> list[tuple[str, int]]:
    """gRPC server options that close the connection of a peer that stopped
    answering (frozen, unplugged, gone without a goodbye), and with it every
    stream it held: a ping every ``seconds``, unanswered for as long (at most
    20 s), and pings on connections that only hold quiet streams too."""
    return [
        ("grpc.keepalive_time_ms", seconds * 1000),
        ("grpc.keepalive_timeout_ms", min(seconds, 20) * 1000),
        ("grpc.http2.ping_timeout_ms", min(seconds, 20) * 1000),
        ("grpc.http2.max_pings_without_data", 0),
        ("grpc.keepalive_permit_without_calls", 1),
    ]


class IdleWatches(threading.Thread):
    """Ends health ``Watch`` streams that have had nothing to send for
    ``seconds``: such a stream holds a server thread while only waiting, and
    needs no token. The watcher ends cleanly (status OK) and a health-checking
    client simply watches again. (Feeds send a heartbeat every few seconds, so they
    are never idle; the per-caller stream cap bounds them.)"""

    def __init__(self, seconds: float) -> None:
        super().__init__(name="idle-watches", daemon=True)
        self.seconds = seconds
        self._lock = threading.Lock()
        self._last: dict[int, tuple[Any, float]] = {}
        self.stopping = threading.Event()

    def follow(self, watcher: Any) -> Iterator[Any]:
        """Pass ``watcher``'s messages on, closing it once idle for too long."""
        key = id(watcher)
        with self._lock:
            self._last[key] = (watcher, time.monotonic())
        try:
            for message in watcher:
                with self._lock:
                    self._last[key] = (watcher, time.monotonic())
                yield message
        finally:
            with self._lock:
                self._last.pop(key, None)

    def run(self) -> None:
        while not self.stopping.wait(min(1.0, self.seconds / 2)):
            now = time.monotonic()
            with self._lock:
                idle = [w for w, last in self._last.values() if now - last > self.seconds]
            for watcher in idle:
                try:
                    watcher.close()
                except Exception:  # noqa: BLE001 - never let the sweeper die
                    with self._lock:
                        self._last.pop(id(watcher), None)


#: The ``StreamWork`` of the response stream running on each thread, if any.
_streaming = threading.local()


class StreamWork:
    """The CPU time one response stream spends, charged to its caller's work
    share as it goes (DESIGN principle 11).

    The server runs a response stream of the pool (every one but ``Play``,
    ``service.aio``) on one worker thread: the thread calls the handler's
    iterator for each message and hands it to the loop to send, waits, then
    calls again, and runs nothing else until the stream ends. So the thread's
    CPU clock, from the stream's start, is the stream's work: the replay, the
    encoding of its messages (their sending is the loop's), and whatever it
    does between two of them; a wait (for a send, for new events) costs none.
    A stream on the loop counts its own steps (``LoopStreamWork``). The clock is read
    at most once every ``SETTLE_SECONDS`` of wall time (``due``), and each
    reading charges what was spent since the one before beyond ``free``: the
    free part of the calls that reading covers (a stream's opening call's, a
    ``Play`` stream's moves'), used up by that reading or lost, as a call's is."""

    __slots__ = ("work", "key", "free", "started", "read_at", "thread")

    def __init__(self, work: Buckets, key: str, free: float,
                 started: float | None = None) -> None:
        self.work, self.key, self.free = work, key, free
        #: The thread's CPU clock when the stream's work began: before its
        #: handler was called, which may work before it returns its replies.
        self.started = time.thread_time() if started is None else started
        self.read_at = time.monotonic()
        self.thread = threading.get_ident()

    def due(self) -> bool:
        """Whether the clock is to be read again (one wall-clock read: cheap)."""
        return time.monotonic() - self.read_at >= SETTLE_SECONDS

    def settle(self) -> None:
        """Charge the CPU spent since the last reading, beyond the free part.
        Only on the stream's thread: a stream closed by another (a generator
        dropped elsewhere) leaves what it spent since its last reading unread,
        as that thread's clock is not the stream's."""
        if threading.get_ident() != self.thread:
            return
        now = time.thread_time()
        beyond = now - self.started - self.free
        self.started, self.free, self.read_at = now, 0.0, time.monotonic()
        if beyond > 0:
            self.work.charge(self.key, beyond)

    def spent_elsewhere(self, seconds: float) -> None:
        """CPU time another thread spent on this stream's behalf (``Play``'s
        moves, applied by the process's writer): charged with the stream's
        own at its next reading."""
        self.started -= seconds

    def wait(self, context: grpc.ServicerContext, patience: float = math.inf) -> bool:
        """While the caller's share is in debt (and its stream still open): wait,
        at most ``patience`` seconds; whether the debt was paid."""
        deadline = time.monotonic() + patience
        while not self.work.take(self.key, 0.0):
            if not context.is_active() or time.monotonic() >= deadline:
                return False
            time.sleep(MESSAGE_WAIT)
        return True


class LoopStreamWork(StreamWork):
    """A response stream run on the server's event loop (``Play``): the
    loop's thread runs every such stream in turn, so its clock is nobody's;
    the stream charges the CPU of its own steps (``charge_stream``), and the
    writer's on its moves, as they are measured."""

    __slots__ = ()

    def __init__(self, work: Buckets, key: str, free: float) -> None:
        super().__init__(work, key, free, 0.0)

    def settle(self) -> None:
        beyond = -self.started - self.free
        self.started, self.free, self.read_at = 0.0, 0.0, time.monotonic()
        if beyond > 0:
            self.work.charge(self.key, beyond)


#: The ``LoopStreamWork`` of the stream a task on the loop runs, if any.
_loop_streaming: contextvars.ContextVar[StreamWork | None] = contextvars.ContextVar(
    "loop_streaming", default=None)


def _current_work() -> StreamWork | None:
    work = _loop_streaming.get()
    return work if work is not None else getattr(_streaming, "work", None)


def stream_caller() -> str:
    """The caller whose share the response stream this thread (or task on the
    loop) runs is charged to (``StreamWork.key``); "" outside a charged
    stream (the admin's, or none)."""
    work = _current_work()
    return work.key if work is not None else ""


def charge_stream(seconds: float) -> None:
    """Charge ``seconds`` of CPU, spent for the response stream this thread
    (or task on the loop) runs, to that stream's caller (``StreamWork``);
    nothing outside a charged stream (the admin's, or no stream)."""
    work = _current_work()
    if work is not None:
        work.spent_elsewhere(seconds)


def in_debt(what: str = "") -> ServiceError:
    """The refusal of a caller whose share of the server's time is spent."""
    return ServiceError("RESOURCE_EXHAUSTED", "RATE_LIMITED",
                        f"your address has used its share of the server's time{what}; "
                        "slow down")


def rate_limited(what: str) -> ServiceError:
    return ServiceError(
        "RESOURCE_EXHAUSTED", "RATE_LIMITED", f"too many {what} from your address; slow down"
    )


class CallerShares(Wrapping):
    """Per-caller limits on streams, calls and game creation (see the module's doc)."""

    def __init__(
        self,
        credentials: auth.Credentials,
        abort: Callable[[grpc.ServicerContext, Exception], None],
        streams_per_peer: int,
        calls_per_second: int,
        creates_per_minute: int,
        idle_watch_seconds: float = 300.0,
    ) -> None:
        super().__init__()
        self.idle = IdleWatches(idle_watch_seconds)
        self.idle.start()
        self.credentials = credentials
        self.abort = abort
        self.streams = Counts(streams_per_peer)
        self.calls = Buckets(calls_per_second, 2 * calls_per_second)
        scale = calls_per_second / DEFAULT_CALLS
        self.work = Buckets(WORK_SHARE * scale, WORK_BURST_SECONDS * scale)
        self.creates = Buckets(creates_per_minute / 60.0, creates_per_minute)

    def _who(self, context: grpc.ServicerContext) -> tuple[str, str]:
        """(the caller's key, "" or "admin" or "creator")."""
        token = auth.token_from(context.invocation_metadata())
        if token and self.credentials.is_admin(token):
            return "", "admin"
        key = caller_of(auth.peer_of(context))
        if token and self.credentials.creator_required:
            try:
                if self.credentials.creator(token, "") == "creator":
                    return "creator", "creator"
            except ServiceError:
                pass
        return key, ""

    def _admit(self, method: str, request: Any, context: grpc.ServicerContext) -> str:
        """Charge a call to its caller, or refuse it; the caller's key ("" for admin)."""
        key, role = self._who(context)
        if role == "admin":
            return ""
        cost = 1.0
        if method in (GAME_SERVICE + "ListGames", "/arbiter.v1.LobbyService/ListTables"):
            size = getattr(request, "page_size", 0) or getattr(request, "limit", 0)
            cost = 1.0 + (min(max(size, 0) or 50, 500) // LIST_PAGE)
        elif method == GAME_SERVICE + "Audit":
            cost = AUDIT_COST
        if not self.calls.take(key, cost):
            raise rate_limited("calls")
        if self.work.owes(key):  # in debt: its earlier calls' work
            raise in_debt()
        if method in CREATING and not self.creates.take(key):
            raise rate_limited("new games")
        return key

    def key_of(self, context: grpc.ServicerContext) -> str:
        """The caller's key, as its calls are charged ("" for the admin)."""
        key, role = self._who(context)
        return "" if role == "admin" else key

    def spend(self, key: str, stopping: Callable[[], bool],
              reserve: float = 0.0) -> float | None:
        """Before work the server does for ``key`` on its own (a lobby table's
        bots, charged to its host): one call from its bucket, and ``reserve``
        seconds of its share of the server's time set aside (the most the work
        may take: a bot's thinking budget), none while that share is in debt.
        Waits for both to refill. The seconds set aside, to ``settle`` the
        work's CPU time with (set aside first, it does not put the caller in
        debt: a player's own reads are not refused for its bots' thinking; the
        bots wait instead); None when ``stopping`` says to give up. The admin's
        ("") is free."""
        while key and not stopping():
            kept = self.reserve(key, reserve)
            if kept is not None:
                if self.calls.take(key):
                    return kept
                self.work.charge(key, -kept)  # no call to go with it: given back
            time.sleep(MESSAGE_WAIT)
        return None if stopping() else 0.0

    def reserve(self, key: str, seconds: float) -> float | None:
        """``seconds`` of ``key``'s share set aside now, if it has them and a
        quarter of its burst besides (left for the caller's own calls: work done
        on its behalf never takes the last of its share): the seconds set aside
        (a share whose whole burst is less sets that aside: its work may then
        take it into debt), or None when it has not them. Settled by ``settle``
        once the work is done. The admin's ("") is free."""
        if not key:
            return 0.0
        if not seconds:
            return 0.0 if self.work.take(key, 0.0) else None
        wanted = seconds + self.work.burst / 4
        if not self.work.take(key, wanted):
            return None
        taken = min(wanted, self.work.burst)  # as ``take`` caps a cost
        kept = min(seconds, taken)
        self.work.charge(key, kept - taken)  # the spare given back
        return kept

    def settle(self, key: str, cpu_seconds: float, reserved: float) -> None:
        """Charge work done for ``key`` that had ``reserved`` seconds set aside
        (``reserve``): what it took beyond them, or give back what it left."""
        if key:
            self.work.charge(key, max(cpu_seconds - FREE_WORK_SECONDS, 0.0) - reserved)

    def _charge_work(self, key: str, cpu_seconds: float) -> None:
        """Charge a call's CPU time beyond the free part to its caller."""
        beyond = cpu_seconds - FREE_WORK_SECONDS
        if beyond > 0:
            self.work.charge(key, beyond)

    def wrap(self, method: str, handler: Any) -> Any:
        if handler.request_streaming:
            return self._request_stream(method, handler)
        abort = self.abort
        if not handler.response_streaming:
            unary = handler.unary_unary

            def one(request: Any, context: grpc.ServicerContext) -> Any:
                try:
                    key = self._admit(method, request, context)
                except ServiceError as exc:
                    abort(context, exc)
                if not key:
                    return unary(request, context)
                started, began = time.thread_time(), time.perf_counter()
                try:
                    return unary(request, context)
                finally:
                    # A call's CPU is at most its wall time: one that took less
                    # than the free part owes nothing, without a second read of
                    # the thread's clock (a system call, where the wall clock's
                    # is not).
                    if time.perf_counter() - began > FREE_WORK_SECONDS:
                        self._charge_work(key, time.thread_time() - started)

            return grpc.unary_unary_rpc_method_handler(
                one, request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        streaming = handler.unary_stream
        counts = self.streams

        def stream(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            try:
                key = self._admit(method, request, context)
                if key:
                    counts.take(key)
            except ServiceError as exc:
                abort(context, exc)
            # The handler's own work before it hands back its replies (Subscribe
            # loads the game) is the stream's too.
            started = time.thread_time()
            try:
                messages = streaming(request, context)
                if method == HEALTH_WATCH and not inspect.isgenerator(messages) and callable(
                    getattr(messages, "close", None)
                ):  # the health servicer's watcher, closable from another thread
                    messages = self.idle.follow(messages)
                yield from self._worked(messages, key, None, context, started)
            finally:
                if key:
                    counts.give_back(key)

        return grpc.unary_stream_rpc_method_handler(
            stream, request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )

    def charge_work(self, key: str, cpu_seconds: float) -> None:
        """Charge work done for ``key`` outside its calls (``spend``)."""
        if key:
            self._charge_work(key, cpu_seconds)

    def _charged(self, requests: Iterator[Any], key: str,
                 taken: list[int] | None = None) -> Iterator[Any]:
        """A stream's messages after its first, each charged as a call (a move
        on ``Play`` is what an ``Act`` was): beyond the caller's share the
        next message is read only once its bucket has refilled, so the stream
        is slowed to the share, not ended. The admin's ("") are not charged.
        ``taken`` counts the messages read, for ``_worked``'s free part."""
        first = True
        for request in requests:
            if key and not first:
                while not self.calls.take(key):
                    time.sleep(MESSAGE_WAIT)
            first = False
            if taken is not None:
                taken[0] += 1
            yield request

    def _worked(self, replies: Iterator[Any], key: str, taken: list[int] | None,
                context: grpc.ServicerContext, started: float | None = None) -> Iterator[Any]:
        """A response stream's replies, its work charged as its calls' is
        (``StreamWork``): the CPU its thread spends, the replies' making and
        sending included, goes to the caller's share of the server's time;
        while that share is in debt the next reply waits, so a stream is slowed
        to its share (as a caller's calls are refused past it): a ``Play``
        stream as long as it takes, a stream of one request at most
        ``STREAM_PATIENCE_SECONDS``, then ended ``RATE_LIMITED``.
        The free part is its opening call's, or on a stream of requests
        (``Play``) each request's read since the last reading (``taken``
        counts them): a move's as an ``Act``'s. The admin's ("") is free.

        The stream's ``StreamWork`` is its thread's while it runs, for a
        handler that works between replies (``settle_stream``)."""
        if not key:
            _streaming.work = None  # none of this thread's earlier streams
            yield from replies
            return
        work = StreamWork(self.work, key, FREE_WORK_SECONDS if taken is None else 0.0, started)
        read = 0
        _streaming.work = work
        try:
            for reply in replies:
                yield reply
                if work.due():
                    if taken is not None:
                        work.free += FREE_WORK_SECONDS * (taken[0] - read)
                        read = taken[0]
                    work.settle()
                    if not work.wait(context, math.inf if taken is not None
                                     else STREAM_PATIENCE_SECONDS):
                        if context.is_active():
                            self.abort(context, in_debt(
                                ": this stream ends after its last message (open it "
                                "again after the last version received)"))
                        return
        finally:
            if taken is not None:
                work.free += FREE_WORK_SECONDS * (taken[0] - read)
            work.settle()
            if getattr(_streaming, "work", None) is work:
                _streaming.work = None

    @staticmethod
    def settle_stream() -> None:
        """Charge now the CPU spent so far by the response stream this thread
        runs, if any (``StreamWork``): for a handler that works without
        replying (a ``WatchTable`` looking at a table that did not change),
        whose work would else wait for its next reply to be charged."""
        work = getattr(_streaming, "work", None)
        if work is not None:
            work.settle()

    def _request_stream(self, method: str, handler: Any) -> Any:
        """A call that streams requests (reflection's, and any client stream) holds
        a server thread for as long as its caller keeps it open, sending or not:
        it is one of the caller's streams, admitted like every call."""
        abort, counts = self.abort, self.streams

        def admission(context: grpc.ServicerContext) -> str:
            key = self._admit(method, None, context)
            if key:
                counts.take(key)
            return key

        def admitted(context: grpc.ServicerContext) -> str:
            try:
                return admission(context)
            except ServiceError as exc:
                abort(context, exc)
                raise

        if handler.response_streaming and inspect.isasyncgenfunction(handler.stream_stream):
            return self._loop_stream(handler, admission)
        if handler.response_streaming:
            both = handler.stream_stream

            def stream(requests: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                key = admitted(context)
                taken = [0]
                try:
                    replies = both(self._charged(requests, key, taken), context)
                    yield from self._worked(replies, key, taken, context)
                finally:
                    if key:
                        counts.give_back(key)

            return grpc.stream_stream_rpc_method_handler(
                stream, request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        gather = handler.stream_unary

        def one(requests: Any, context: grpc.ServicerContext) -> Any:
            key = admitted(context)
            try:
                return gather(requests, context)
            finally:
                if key:
                    counts.give_back(key)

        return grpc.stream_unary_rpc_method_handler(
            one, request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )

    def _loop_stream(self, handler: Any, admission: Callable[[Any], str]) -> Any:
        """``_request_stream``'s stream of requests and replies for a handler
        on the server's loop (``Play``, ``service.aio``)."""
        both, counts = handler.stream_stream, self.streams

        async def stream(requests: Any, context: Any) -> AsyncIterator[Any]:
            try:
                key = admission(context)
            except ServiceError as exc:
                await abort_async(context, exc)
                return
            taken = [0]
            try:
                replies = both(self._charged_async(requests, key, taken), context)
                async for reply in self._worked_async(replies, key, taken, context):
                    yield reply
            finally:
                if key:
                    counts.give_back(key)

        return rebuilt(handler, stream)

    async def _charged_async(self, requests: AsyncIterator[Any], key: str,
                             taken: list[int]) -> AsyncIterator[Any]:
        """``_charged`` on the loop: a message beyond the caller's share waits, awaited."""
        first = True
        async for request in requests:
            if key and not first:
                while not self.calls.take(key):
                    await asyncio.sleep(MESSAGE_WAIT)
            first = False
            taken[0] += 1
            yield request

    async def _worked_async(self, replies: AsyncIterator[Any], key: str, taken: list[int],
                            context: Any) -> AsyncIterator[Any]:
        """``_worked`` on the loop: the stream's steps' CPU (``LoopStreamWork``)
        charged as it goes, the next reply awaited while the share is in debt."""
        if not key:
            _loop_streaming.set(None)
            async for reply in replies:
                yield reply
            return
        work = LoopStreamWork(self.work, key, 0.0)
        read = 0
        _loop_streaming.set(work)
        try:
            async for reply in replies:
                yield reply
                if work.due():
                    work.free += FREE_WORK_SECONDS * (taken[0] - read)
                    read = taken[0]
                    work.settle()
                    while not self.work.take(key, 0.0):
                        if not context.is_active():
                            return
                        await asyncio.sleep(MESSAGE_WAIT)
        finally:
            work.free += FREE_WORK_SECONDS * (taken[0] - read)
            work.settle()
            _loop_streaming.set(None)
