"""gRPC's asyncio server for the whole service: ``Play`` on its event loop,
every other handler as it was, on a thread pool.

One port serves both: an asyncio server runs a handler whose behaviour is a
coroutine (or an async generator) on its loop, and hands any other to a
thread. Our handlers and interceptors are the synchronous API's (a context
with ``is_active`` and ``add_callback``, a blocking ``abort``, a response
stream's generator run on one thread): ``Routes``, the server's one generic
handler, finds a call's handler, applies the synchronous interceptors to it
as the synchronous server does (each wraps an async ``Play`` with async code
of its own) and runs each synchronous handler on the pool with a context of
that API (``SyncContext``), a response stream's whole generator on one
thread as the synchronous server does, each message written on the loop.

A read that needs no wait skips the pool: a method with a probe
(``LoopServer.answer_at_hand``: ``GetState`` and ``LegalActions``) asks it,
once per call and before any interceptor has run, whether what the call
reads is at hand this instant (its game cached, fresh, its lock free); if so
the probe holds it and the very same handler, interceptors and all, runs on
the loop at once (``at_hand``), else on the pool as any other. Either way
each interceptor runs once for the call.

The loop runs on a thread of its own (``LoopServer``); wake-ups from other
threads (the writer's answers, the feed hub's) reach it through one
``LoopWaker`` a loop, which hops once per batch of wake-ups, not once per
stream woken.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import inspect
import logging
import threading
import weakref
from collections.abc import Callable, Iterator
from typing import Any, Protocol

import grpc
import grpc.aio

from service.handlers import Wrapping, rebuilt

log = logging.getLogger(__name__)


def is_async(behaviour: Any) -> bool:
    """Whether a handler's behaviour runs on the loop (a coroutine or an async generator)."""
    return inspect.iscoroutinefunction(behaviour) or inspect.isasyncgenfunction(behaviour)


def behaviour_of(handler: Any) -> Any:
    return (handler.stream_stream or handler.unary_stream or handler.stream_unary
            or handler.unary_unary)


class LoopWaker:
    """Wake-ups of the loop's waiters from any thread, one hop per batch: the
    first post of a batch schedules the flush on the loop, the others join it."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.thread = 0
        self._lock = threading.Lock()
        self._pending: list[LoopWaiter] = []

    def post(self, waiter: LoopWaiter) -> None:
        with self._lock:
            self._pending.append(waiter)
            first = len(self._pending) == 1
        if first:
            if threading.get_ident() == self.thread:
                self.loop.call_soon(self._flush)
            else:
                self.loop.call_soon_threadsafe(self._flush)

    def _flush(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, []
        for waiter in pending:
            waiter.fire()


_wakers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopWaker] = (
    weakref.WeakKeyDictionary())


def waker() -> LoopWaker:
    """The running loop's waker."""
    loop = asyncio.get_running_loop()
    found = _wakers.get(loop)
    if found is None:
        found = _wakers[loop] = LoopWaker(loop)
        found.thread = threading.get_ident()
    return found


class LoopWaiter:
    """A waiter of the feed hub's (it has a condition's ``notify``) that a
    coroutine awaits: notified from any thread, fired on the loop."""

    __slots__ = ("waker", "_future")

    def __init__(self, waker: LoopWaker) -> None:
        self.waker = waker
        self._future: asyncio.Future[None] | None = None

    def notify(self) -> None:
        self.waker.post(self)

    def fire(self) -> None:
        future = self._future
        if future is not None and not future.done():
            future.set_result(None)

    async def wait(self, timeout: float) -> None:
        """Until notified (after this call began) or ``timeout`` seconds."""
        loop = self.waker.loop
        future = self._future = loop.create_future()
        timer = loop.call_later(timeout, self.fire)
        try:
            await future
        finally:
            timer.cancel()
            self._future = None


class LoopContext:
    """An asyncio handler's context with the synchronous API's ``is_active``
    and ``add_callback`` (``watch_cancel``, the interceptors)."""

    __slots__ = ("_context", "_ended")

    def __init__(self, context: Any) -> None:
        self._context = context
        self._ended = False
        context.add_done_callback(self._done)

    def _done(self, _context: Any) -> None:
        self._ended = True

    def is_active(self) -> bool:
        return not self._ended and not self._context.done()

    def add_callback(self, callback: Callable[[], None]) -> bool:
        self._context.add_done_callback(lambda _context: callback())
        return True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


class CallEnded(Exception):
    """A synchronous handler used its call after the call ended."""


class Aborted(Exception):
    """A synchronous handler's ``abort``: as the synchronous server's, it
    raises, and the call's status is sent once the handler has returned
    (its wrappers, the access log's among them, done first)."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self.code, self.details = code, details


class Held(Protocol):
    """What a probe holds for a call answered on the loop (``at_hand``): the
    call's reads at hand, kept so until the answer is made."""

    def release(self) -> None:
        """Let go of what was held (on the thread that took it: the loop's)."""


#: A method's probe: for a call's request, what it reads held at hand (its
#: answer is then made on the loop), or None (the call runs on the pool). It
#: may neither wait nor change anything but what it holds: whichever way it
#: answers, the call's interceptors have not run yet and run once.
Probe = Callable[[Any], Held | None]


class SyncContext:
    """The synchronous API's context for a handler run on a thread, over an
    asyncio call's: its blocking calls (``abort``, ``write``, ``read``) run
    on the loop and wait there."""

    #: What the call's probe holds for it when it is answered on the loop
    #: (``LoopCallContext``); None on the pool: the handler reads for itself.
    held: Held | None = None

    def __init__(self, context: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._context = context
        self._loop = loop
        self._ended = False
        self._callbacks: list[Callable[[], None]] = []
        self._lock: Any = threading.Lock()
        self._metadata: tuple[Any, ...] | None = None
        #: Read now: gRPC releases the call when it ends, and a stream's
        #: thread may log its peer after that (``CallObserver``).
        self._peer: str | None = context.peer()

    def peer(self) -> str:
        peer = self._peer
        if peer is None:
            peer = self._peer = self._context.peer()
        return peer

    def invocation_metadata(self) -> tuple[Any, ...]:
        """The call's metadata, made into Python's once a call (gRPC builds a
        new tuple at each ask; a call asks for its token more than once)."""
        metadata = self._metadata
        if metadata is None:
            metadata = self._metadata = self._context.invocation_metadata()
        return metadata

    def code(self) -> Any:
        return self._context.code()

    def set_code(self, code: grpc.StatusCode) -> None:
        self._context.set_code(code)

    def _call(self, coroutine: Any) -> Any:
        """``coroutine`` run on the loop, and its answer; refused once the call
        has ended (gRPC releases it then: an operation on it would crash)."""
        async def guarded() -> Any:
            if self._ended:
                coroutine.close()
                raise CallEnded("the call has ended")
            return await coroutine

        return asyncio.run_coroutine_threadsafe(guarded(), self._loop).result()

    def abort(self, code: grpc.StatusCode, details: str = "") -> None:
        self._context.set_code(code)
        raise Aborted(code, details)

    def abort_with_status(self, status: Any) -> None:
        self._context.set_trailing_metadata(status.trailing_metadata)
        self.abort(status.code, status.details)

    def send_initial_metadata(self, metadata: Any) -> None:
        self._call(self._context.send_initial_metadata(metadata))

    def write(self, message: Any) -> None:
        self._call(self._context.write(message))

    def read(self) -> Any:
        return self._call(self._context.read())

    def is_active(self) -> bool:
        return not self._ended and not self._context.done()

    def add_callback(self, callback: Callable[[], None]) -> bool:
        with self._lock:
            if not self._ended:
                self._callbacks.append(callback)
                return True
        return False

    def ended(self) -> None:
        """The call is over (on the loop): its callbacks run."""
        with self._lock:
            self._ended = True
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


#: The lock of a context whose call is all run on one thread (``LoopCallContext``).
_UNLOCKED = contextlib.nullcontext()


class LoopCallContext(SyncContext):
    """``SyncContext`` for a synchronous handler run on the loop itself, with
    what its probe holds (``held``): nothing of the call may wait there, so
    a blocking call of the context (a write, a read) is refused, not run (it
    would wait for the very loop it runs on)."""

    def __init__(self, context: Any, loop: asyncio.AbstractEventLoop, held: Held) -> None:
        # No lock (the call runs start to end on the loop's thread) and its
        # peer read only if asked (the call is live as long as its handler runs).
        self._context = context
        self._loop = loop
        self._ended = False
        self._callbacks = []
        self._lock = _UNLOCKED
        self._metadata = None
        self._peer = None
        self.held = held

    def _call(self, coroutine: Any) -> Any:
        coroutine.close()
        raise RuntimeError("a call answered on the loop cannot wait for the loop")


def held_by(context: Any) -> Any:
    """What the call's probe holds for it (``LoopCallContext.held``), None
    when it runs on the pool (or with a context of no server of ours)."""
    return getattr(context, "held", None)


def _requests(context: SyncContext) -> Iterator[Any]:
    """A request stream read on a thread."""
    while True:
        message = context.read()
        if message is grpc.aio.EOF:
            return
        yield message


def _pump(replies: Iterator[Any], context: SyncContext) -> None:
    """A response stream's generator run on a thread, each reply written on the loop."""
    try:
        for reply in replies:
            context.write(reply)
    finally:
        close = getattr(replies, "close", None)
        if close is not None:
            close()


def bridged(handler: Any, pool: concurrent.futures.Executor, probe: Probe | None = None) -> Any:
    """``handler``, run on the loop as it is if it is asyncio's, else on
    ``pool`` with a ``SyncContext``; a unary call with a ``probe``, on the
    loop when the probe holds what it reads (``at_hand``)."""
    behaviour = behaviour_of(handler)
    if is_async(behaviour):
        if handler.response_streaming:
            async def looped(request: Any, context: Any) -> None:
                # Closed before the call ends (and is released by gRPC), not
                # by the collector later, when it ended by a cancel.
                async with contextlib.aclosing(behaviour(request, LoopContext(context))) as replies:
                    async for reply in replies:
                        await context.write(reply)

            return rebuilt(handler, looped)
        return handler
    request_streaming, response_streaming = handler.request_streaming, handler.response_streaming

    def run(request: Any, context: SyncContext) -> Any:
        if request_streaming:
            request = _requests(context)
        if response_streaming:
            _pump(behaviour(request, context), context)
            return None
        return behaviour(request, context)

    async def on_pool(request: Any, context: Any) -> Any:
        loop = asyncio.get_running_loop()
        sync = SyncContext(context, loop)
        try:
            return await loop.run_in_executor(pool, run, request, sync)
        except Aborted as aborted:
            await context.abort(aborted.code, aborted.details)
        finally:
            sync.ended()

    if request_streaming:
        # The requests are read by the thread (``_requests``), not by gRPC.
        async def streamed(requests: Any, context: Any) -> Any:
            return await on_pool(None, context)

        return rebuilt(handler, streamed)
    if probe is not None and not response_streaming:
        return rebuilt(handler, at_hand(behaviour, probe, on_pool))
    return rebuilt(handler, on_pool)


def at_hand(behaviour: Callable[[Any, Any], Any], probe: Probe,
            on_pool: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """A unary call answered on the loop when it needs no wait, else on the pool.

    The probe decides, once, before any interceptor has run: on the loop
    the synchronous ``behaviour`` (the interceptors' wrappers around the
    handler) runs at once, start to end, with what the probe holds, which is
    let go before the loop does anything else; so the thread's CPU clock
    over it is the call's alone (the caller's share is charged as on the
    pool) and nothing of it waits. A refusal's status is sent as the pool's
    is (``Aborted``). A probe that fails is a bug of its own, logged: the
    call runs on the pool, as if nothing were at hand."""

    async def answered(request: Any, context: Any) -> Any:
        try:
            held = probe(request)
        except Exception:
            log.exception("a probe failed; the call runs on the pool")
            held = None
        if held is None:
            return await on_pool(request, context)
        call = LoopCallContext(context, asyncio.get_running_loop(), held)
        try:
            try:
                return behaviour(request, call)
            finally:
                held.release()
        except Aborted as aborted:
            await context.abort(aborted.code, aborted.details)
        finally:
            call.ended()

    return answered


class Routes:
    """Every method the server serves, found and made ready for a call by one
    synchronous function (``service``), the asyncio server's one generic
    handler: the method's handler looked up (the registered methods' table,
    else the generic handlers, as gRPC looks), the server's synchronous
    interceptors applied to it as the synchronous server applies them (the
    first outermost; each wraps the handler it is handed as it always did),
    and the handler they make run as the asyncio server runs it
    (``bridged``, made once per method and handler).

    gRPC's asyncio server gets no interceptor of its own and no registered
    method: an asyncio interceptor costs each call coroutines of gRPC's and
    ours, and each registered method keeps a request of its own pending that
    gRPC's accepting loop waits on (``asyncio.wait`` over all of them) at
    every call. The interceptors that wrap a method's handler the same way
    call after call (``handlers.Wrapping``), innermost first, are applied once
    per method; the others (``drain``'s, which notes each call's arrival) on
    each call, as before."""

    def __init__(self, pool: concurrent.futures.Executor,
                 interceptors: list[grpc.ServerInterceptor]) -> None:
        self.pool = pool
        inner_first = interceptors[::-1]
        fixed = 0
        while fixed < len(inner_first) and isinstance(inner_first[fixed], Wrapping):
            fixed += 1
        #: The interceptors applied once per method (innermost first), then
        #: those applied on each call.
        self._fixed, self._per_call = inner_first[:fixed], inner_first[fixed:]
        self.registered: dict[str, Any] = {}
        self.generic: list[Any] = []
        #: The methods whose calls may be answered on the loop, by their probes.
        self.probes: dict[str, Probe] = {}
        #: method -> (the handler found, the fixed interceptors' handler)
        self._wrapped: dict[str, tuple[Any, Any]] = {}
        #: method -> (the per-call interceptors' handler, its bridged form)
        self._made: dict[str, tuple[Any, Any]] = {}

    def _found(self, details: Any) -> Any:
        handler = self.registered.get(details.method)
        if handler is None:
            for generic in self.generic:
                handler = generic.service(details)
                if handler is not None:
                    break
        return handler

    def service(self, details: Any) -> Any:
        """The handler a call of ``details.method`` runs, None for a method not served."""
        handler = self._found(details)
        if handler is None:
            return None
        method = details.method
        wrapped = self._wrapped.get(method)
        if wrapped is None or wrapped[0] is not handler:
            outer = handler
            for interceptor in self._fixed:
                outer = interceptor.intercept_service(lambda _details, h=outer: h, details)
                if outer is None:
                    return None
            wrapped = (handler, outer)
            if len(self._wrapped) < 4096:
                self._wrapped[method] = wrapped
        handler = wrapped[1]
        for interceptor in self._per_call:
            handler = interceptor.intercept_service(lambda _details, h=handler: h, details)
            if handler is None:
                return None
        made = self._made.get(method)
        if made is None or made[0] is not handler:
            made = (handler, bridged(handler, self.pool, self.probes.get(method)))
            if len(self._made) < 4096:
                self._made[method] = made
        return made[1]


class Stopping:
    """``LoopServer.stop``'s answer: ``wait`` until the server has stopped."""

    def __init__(self, future: concurrent.futures.Future[Any], after: Callable[[], None]) -> None:
        self._future = future
        self._after = after

    def wait(self, timeout: float | None = None) -> bool:
        try:
            self._future.result(timeout)
        except concurrent.futures.TimeoutError:
            return False
        self._after()
        return True


class LoopServer:
    """gRPC's asyncio server on a loop of its own thread, with the
    synchronous server's methods (``grpc.server``'s): ``add_insecure_port``,
    ``start``, ``stop(grace).wait()``..."""

    def __init__(self, pool: concurrent.futures.ThreadPoolExecutor,
                 interceptors: list[grpc.ServerInterceptor], options: list[Any]) -> None:
        self.pool = pool
        self.loop = asyncio.new_event_loop()
        self.loop.set_default_executor(pool)
        self._thread = threading.Thread(target=self._run, name="grpc-loop", daemon=True)
        self._thread.start()

        self.routes = Routes(pool, interceptors)

        async def make() -> grpc.aio.Server:
            waker()  # the loop's, its thread known
            return grpc.aio.server(migration_thread_pool=pool, options=options)

        self.server = self._call(make())
        self.server.add_generic_rpc_handlers((self.routes,))

    def answer_at_hand(self, method: str, probe: Probe) -> None:
        """Answer ``method``'s (a unary method's full name) calls on the loop
        whenever ``probe`` holds what they read (``at_hand``); before the
        server starts."""
        self.routes.probes[method] = probe

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def _call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    def add_generic_rpc_handlers(self, handlers: Any) -> None:
        self.routes.generic.extend(handlers)

    def add_registered_method_handlers(self, name: str, handlers: dict[str, Any]) -> None:
        """As gRPC's: each handler under its full name (``/<service>/<method>``),
        found before any generic handler's (``Routes``)."""
        self.routes.registered.update(
            {f"/{name}/{method}": handler for method, handler in handlers.items()})

    def add_insecure_port(self, address: str) -> int:
        async def add() -> int:
            return self.server.add_insecure_port(address)  # type: ignore[no-any-return]
        return self._call(add())  # type: ignore[no-any-return]

    def add_secure_port(self, address: str, credentials: Any) -> int:
        async def add() -> int:
            return self.server.add_secure_port(address, credentials)  # type: ignore[no-any-return]
        return self._call(add())  # type: ignore[no-any-return]

    def start(self) -> None:
        self._call(self.server.start())

    def stop(self, grace: float | None) -> Stopping:
        future = asyncio.run_coroutine_threadsafe(self.server.stop(grace), self.loop)
        return Stopping(future, self._close)

    def _close(self) -> None:
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout=5)
