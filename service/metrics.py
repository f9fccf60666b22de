"""Prometheus metrics on an operator port, and one access-log line per call.

``--metrics-address HOST:PORT`` (or ``ARBITER_METRICS_ADDRESS``) serves
``/metrics`` in Prometheus' text format; unset, no port is opened. What an
operator watches:

- per RPC (a gRPC server interceptor, :class:`CallObserver`): calls by
  status code, refusals by reason code, latency, open response streams;
- the store: games created, active and finished per rules id, events
  recorded (read from the store at scrape time by :class:`StoreCollector`,
  so they count every server process on the store, not only this one);
- the feed: the relay's lag behind the store's head, and whether Redis
  answers the relay and the feed hub;
- the web side (``service.web.observe.web_observer``, an aiohttp middleware): requests by
  route pattern, method and HTTP status, and their latency.

A call its client cancelled (a closed page, a feed left, Ctrl-C) is counted
under its code, CANCELLED, and is not an error: the errors counter is for
what went wrong, and a client leaving is not that.

The same interceptor writes the access log (``service.logs``): method, game,
seat, status, reason and duration, never a token or a request's contents.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import Any

import grpc
from prometheus_client import (
    REGISTRY,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    start_http_server,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from service.auth import peer_of
from service.handlers import Wrapping, rebuilt
from service.logs import ACCESS, access

log = logging.getLogger(__name__)

GAME_SERVICE = "arbiter.v1.GameService"
REASON_TRAILER = "arbiter-reason"

CALLS = Counter(
    "arbiter_grpc_calls", "gRPC calls handled, by service, method and status code",
    ["service", "method", "code"],
)
ERRORS = Counter(
    "arbiter_grpc_errors", "gRPC calls that ended in an error, by method and reason code "
    "(the arbiter-reason trailer; the status code when there is none)",
    ["service", "method", "reason"],
)
LATENCY = Histogram(
    "arbiter_grpc_call_seconds", "Time from a call's arrival to its last response message",
    ["service", "method"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
OPEN_STREAMS = Gauge(
    "arbiter_grpc_open_streams", "Response streams open now (Subscribe, History, Watch)",
    ["service", "method"],
)
WEB_REQUESTS = Counter(
    "arbiter_web_requests", "Web requests (pages and the JSON gateway), by route pattern, "
    "method and HTTP status (499: the client closed the request first)",
    ["route", "method", "status"],
)
WEB_LATENCY = Histogram(
    "arbiter_web_request_seconds", "Time from a web request's arrival to its response's end",
    ["route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
#: The status of a web request its client closed before the answer (nginx's).
CLIENT_CLOSED = 499
RELAY_POSITION = Gauge(
    "arbiter_relay_position", "Global position of the last event the relay published to Redis",
)
RELAY_PUBLISHED = Gauge(
    "arbiter_relay_last_publish_timestamp_seconds",
    "When the relay last published a batch (Unix time)",
)


def relay_published(position: int) -> None:
    """The relay's hook: call after each batch is published and its position saved."""
    RELAY_POSITION.set(position)
    RELAY_PUBLISHED.set(time.time())


# --- per call -------------------------------------------------------------------


def _split(full_method: str) -> tuple[str, str]:
    """``/arbiter.v1.GameService/Act`` -> ``("arbiter.v1.GameService", "Act")``."""
    service, _, method = full_method.lstrip("/").rpartition("/")
    return service or "unknown", method or full_method


def _seat_of(request: Any) -> int | None:
    """The seat a request names; None when it names none (or none was given)."""
    descriptor = getattr(request, "DESCRIPTOR", None)
    field = descriptor.fields_by_name.get("seat") if descriptor is not None else None
    if field is None:
        return None
    if getattr(field, "has_presence", False) and not request.HasField("seat"):
        return None
    return int(request.seat)


#: The most characters of a caller's game id the access log repeats (an id is 36).
MAX_LOGGED_ID = 64


def _game_of(request: Any, response: Any) -> str:
    """The game a call names, as the access log may repeat it: the caller's
    text, so escaped (a newline would forge a line of the plain log) and cut
    (a request may hold 64 KiB of it)."""
    for message in (request, response):
        value = getattr(message, "game_id", "")
        if isinstance(value, str) and value:
            if not value.isprintable():
                value = value.encode("unicode_escape").decode("ascii")
            return value if len(value) <= MAX_LOGGED_ID else value[:MAX_LOGGED_ID] + "..."
    return ""


class CallObserver(Wrapping):
    """Counts, times and logs every call of every service the server hosts.

    Outermost of the server's interceptors, so the calls the others refuse
    (draining, rate limits, malformed bytes, the stream cap) are seen too.
    The GameService's calls are logged at INFO, health checks and reflection
    at DEBUG (a load balancer's probes would drown the log). ``access_every``
    and ``access_per_second``: which OK calls' lines are written (``Sampler``;
    each line says how many calls it stands for); every refused or failed
    call's line is.
    """

    def __init__(self, access_every: int = 1, access_per_second: int = 0) -> None:
        self.access_every = max(1, access_every)
        self.access_per_second = max(0, access_per_second)
        #: One finisher per method, its metric children bound (``Bound``).
        self._finishers: dict[str, Callable[..., None]] = {}
        super().__init__()

    def wrap(self, full_method: str, handler: Any) -> Any:
        finish = self._finishers.get(full_method)
        if finish is None:
            service, method = _split(full_method)
            finish = self._finishers.setdefault(
                full_method,
                _finisher(service, method, Sampler(self.access_every, self.access_per_second)))
        if handler.response_streaming:
            inner = handler.stream_stream if handler.request_streaming else handler.unary_stream
            open_streams = finish.open_streams  # type: ignore[attr-defined]

            @contextlib.contextmanager
            def observed(request: Any, context: Any) -> Iterator[None]:
                started = time.perf_counter()
                open_streams.inc()
                failure: BaseException | None = None
                try:
                    yield
                except BaseException as exc:
                    failure = exc
                    raise
                finally:
                    open_streams.dec()
                    finish(request, None, context, started, failure)

            def streaming(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                with observed(request, context):
                    yield from inner(request, context)

            async def looped(request: Any, context: Any) -> AsyncIterator[Any]:
                # A stream on the server's loop (``Play``: ``service.aio``).
                with observed(request, context):
                    async for message in inner(request, context):
                        yield message

            behaviour: Callable[..., Any] = (
                looped if inspect.isasyncgenfunction(inner) else streaming)
        else:
            inner = handler.stream_unary if handler.request_streaming else handler.unary_unary

            def unary(request: Any, context: grpc.ServicerContext) -> Any:
                started = time.perf_counter()
                response = failure = None
                try:
                    response = inner(request, context)
                    return response
                except BaseException as exc:
                    failure = exc
                    raise
                finally:
                    finish(request, response, context, started, failure)

            behaviour = unary
        return rebuilt(handler, behaviour)


class Bound:
    """One method's metric children, bound once: ``labels()`` looks a child up
    by its label values under the metric's lock, so it is done per method (and
    per status code or reason, on its first call), not on every call."""

    def __init__(self, service: str, method: str) -> None:
        self.service, self.method = service, method
        self.latency = LATENCY.labels(service, method)
        self.open_streams = OPEN_STREAMS.labels(service, method)
        self._calls: dict[grpc.StatusCode, Any] = {}
        self._errors: dict[str, Any] = {}

    def calls(self, code: grpc.StatusCode) -> Any:
        child = self._calls.get(code)
        if child is None:
            child = self._calls[code] = CALLS.labels(self.service, self.method, code.name)
        return child

    def errors(self, reason: str) -> Any:
        child = self._errors.get(reason)
        if child is None:
            child = self._errors[reason] = ERRORS.labels(self.service, self.method, reason)
        return child


class Sampler:
    """Which OK calls of one method get an access line: one in ``every``, and at
    most ``per_second`` lines a second (0: no cap).

    A line stands for the OK calls since the method's previous line, itself
    included (its ``calls`` field, when more than one), so the lines of a busy
    server still add up to its calls. A quiet server's every call is written:
    the cap only thins a busy one, where formatting a line per call cost as
    much server time as the rules did (issue 20). Errors and refusals never
    pass through here: each has its line.
    """

    def __init__(self, every: int = 1, per_second: int = 0) -> None:
        self.every, self.per_second = max(1, every), max(0, per_second)
        self._lock = threading.Lock()
        self._unwritten = 0  # OK calls since the last line
        self._second, self._lines = 0.0, 0  # the current second and its lines

    def take(self, now: float) -> int:
        """For an OK call at ``now`` (``time.monotonic``): 0 if no line is written
        for it, else the number of calls the line stands for."""
        with self._lock:
            self._unwritten += 1
            if self._unwritten < self.every:
                return 0
            if self.per_second:
                if now - self._second >= 1.0:
                    self._second, self._lines = now, 0
                if self._lines >= self.per_second:
                    return 0
                self._lines += 1
            calls, self._unwritten = self._unwritten, 0
            return calls


def _finisher(
    service: str, method: str, sampler: Sampler | None = None
) -> Callable[[Any, Any, Any, float, BaseException | None], None]:
    """The end of one call of ``service/method``: its metrics and its access line
    (for an OK call, when ``sampler`` says so)."""
    level = logging.INFO if service == GAME_SERVICE else logging.DEBUG
    bound = Bound(service, method)
    sampler = sampler or Sampler()

    def finish(request: Any, response: Any, context: Any, started: float,
               failure: BaseException | None) -> None:
        seconds = time.perf_counter() - started
        try:
            code = context.code()
            if code is None:
                # A stream its client left ends without a status of its own.
                gone = isinstance(failure, GeneratorExit) or not context.is_active()
                code = grpc.StatusCode.CANCELLED if gone else (
                    grpc.StatusCode.OK if failure is None else grpc.StatusCode.UNKNOWN)
            reason = ""
            if code != grpc.StatusCode.OK:
                trailers = context.trailing_metadata() or ()
                reason = next((str(v) for k, v in trailers if k == REASON_TRAILER), code.name)
            bound.calls(code).inc()
            bound.latency.observe(seconds)
            if reason and code != grpc.StatusCode.CANCELLED:  # a cancel is no error
                bound.errors(reason).inc()
            if not ACCESS.isEnabledFor(level):
                return
            calls = 1 if reason else sampler.take(time.monotonic())
            if not calls:
                return  # an OK call the method's next line will count
            access(level, _summary(method, code.name, reason, seconds),
                   _access_fields(service, method, code.name, reason, seconds, request,
                                  response, context, calls))
        except Exception:  # noqa: BLE001 - observing must never fail a call
            log.debug("observing %s failed", method, exc_info=True)

    finish.open_streams = bound.open_streams  # type: ignore[attr-defined]
    return finish


def _summary(method: str, code: str, reason: str, seconds: float) -> str:
    """The access line's message: ``Act OK 2.1ms``, ``Act FAILED_PRECONDITION WRONG_SEAT 0.4ms``."""
    shown = f" {reason}" if reason and reason != code else ""
    return f"{method} {code}{shown} {seconds * 1000:.1f}ms"


def _access_fields(service: str, method: str, code: str, reason: str, seconds: float,
                   request: Any, response: Any, context: Any, calls: int) -> dict[str, Any]:
    """The access line's fields: never a token nor a request's contents."""
    record: dict[str, Any] = {"method": method, "code": code}
    if service != GAME_SERVICE:
        record["service"] = service
    game = _game_of(request, response)
    if game:
        record["game"] = game
    seat = _seat_of(request)
    if getattr(request, "spectator", False):
        record["spectator"] = True
    elif seat is not None:
        record["seat"] = seat
    if reason:
        record["reason"] = reason
    record["ms"] = round(seconds * 1000, 2)
    record["peer"] = peer_of(context)
    if calls > 1:
        record["calls"] = calls  # this line stands for so many OK calls
    return record


# --- the store, the relay and Redis, read at scrape time -----------------------------


class StoreCollector(Collector):  # type: ignore[misc]
    """Games and events from the store; the relay's lag; Redis' state.

    Games are counted by following the store's notification log for two
    kinds of event only (the catalogue's ``GameLogged`` and each game's
    ``Ended``), caught up at each scrape from where the last one stopped, so
    a scrape reads only what is new.
    """

    def __init__(self, app: Any, relay: Any = None, hub: Any = None,
                 private_redis: bool = False,
                 published: Callable[[], int] | None = None) -> None:
        from eventsourcing.utils import get_topic

        from aggregates.catalog import GAMES
        from aggregates.kernel.game import _event_class
        from service.application import GameLogged

        self.app = app
        self.relay = relay
        self.hub = hub
        self.private_redis = private_redis
        #: The position the relay has published, as recorded beside the store: any
        #: process reads it, so every server reports the lag, not only the leader.
        self.published = published
        self._lock = threading.Lock()
        self._after = 0
        self._logged_topic = get_topic(GameLogged)
        # ``Ended`` is declared once, on the kernel's Game, and recorded under that
        # topic for every game; the game's rules come from its catalogue entry.
        self._ended_topics = sorted(
            {get_topic(_event_class(cls, "Ended")) for cls in GAMES.values()})
        self.created: dict[str, int] = dict.fromkeys(GAMES, 0)
        self.finished: dict[str, int] = dict.fromkeys(GAMES, 0)
        #: The rules of each game seen created and not yet ended (active games only).
        self._running: dict[Any, str] = {}

    def _catch_up(self) -> None:
        topics = [self._logged_topic, *self._ended_topics]
        while True:
            batch = self.app.notifications(self._after, limit=1000, topics=topics)
            for notification in batch:
                self._after = notification.id
                event = self.app.to_event(notification)
                if notification.topic == self._logged_topic:
                    self._running[event.game_id] = event.rules
                    self.created[event.rules] = self.created.get(event.rules, 0) + 1
                else:
                    rules = self._running.pop(event.originator_id, None) or self._rules_of(
                        event.originator_id)
                    self.finished[rules] = self.finished.get(rules, 0) + 1
            if len(batch) < 1000:
                return

    def _rules_of(self, game_id: Any) -> str:
        """A game's rules from its first event (a game the catalogue did not list)."""
        try:
            return str(self.app.game(str(game_id)).RULES_ID)
        except Exception:  # noqa: BLE001 - counted, if not by rules
            return "unknown"

    def collect(self) -> Iterable[Any]:
        head = None
        try:
            head = int(self.app.recorder.max_notification_id() or 0)
            with self._lock:
                self._catch_up()
                created, finished = dict(self.created), dict(self.finished)
        except Exception as exc:  # noqa: BLE001 - a scrape reports what it can
            log.warning("metrics: cannot read the store (%s)", exc)
            created = finished = {}
        up = GaugeMetricFamily("arbiter_store_up", "1 when the store answered this scrape")
        up.add_metric([], 0 if head is None else 1)
        yield up
        if head is not None:
            events = CounterMetricFamily(
                "arbiter_events_appended", "Events recorded in the store by every server "
                "process on it (the notification log's head; catalogue and access records "
                "included)")
            events.add_metric([], head)
            yield events
            games = CounterMetricFamily("arbiter_games_created", "Games created, per rules",
                                        labels=["rules"])
            ended = CounterMetricFamily("arbiter_games_finished",
                                        "Games that have ended, per rules", labels=["rules"])
            active = GaugeMetricFamily("arbiter_games_active",
                                       "Games created and not yet ended, per rules",
                                       labels=["rules"])
            for rules in sorted(created):
                games.add_metric([rules], created[rules])
                ended.add_metric([rules], finished.get(rules, 0))
                active.add_metric([rules], max(0, created[rules] - finished.get(rules, 0)))
            yield games
            yield ended
            yield active
        yield from self._group_commit()
        yield from self._feed(head)

    def _group_commit(self) -> Iterable[Any]:
        """This process's saves of moves and the transactions they shared
        (``service.groupcommit``): their ratio is the moves per transaction."""
        group = getattr(self.app, "group_commit", None)
        if group is None:
            return
        moves = CounterMetricFamily(
            "arbiter_group_commit_moves", "Moves (Act saves) this process recorded")
        moves.add_metric([], group.saved)
        yield moves
        commits = CounterMetricFamily(
            "arbiter_group_commit_transactions",
            "Transactions that recorded them (several moves to different games share one)")
        commits.add_metric([], group.commits)
        yield commits
        seconds = CounterMetricFamily(
            "arbiter_group_commit_seconds",
            "Seconds those transactions took (over the transactions' rate: the commit "
            "latency, a shard's first sign of a store in trouble)")
        seconds.add_metric([], group.commit_seconds)
        yield seconds

    def _feed(self, head: int | None) -> Iterable[Any]:
        redis_up = GaugeMetricFamily(
            "arbiter_redis_up", "1 when Redis answers (role: the relay publishing, the feed "
            "hub listening)", labels=["role"])
        if self.relay is not None:
            redis_up.add_metric(["relay"], 1 if self.relay.healthy else 0)
        if self.hub is not None:
            redis_up.add_metric(["feed_hub"], 1 if self.hub.healthy else 0)
        yield redis_up
        if self.hub is not None:
            live = GaugeMetricFamily(
                "arbiter_feed_live", "1 when feeds are live (Redis answers and the store's "
                "new events are being published); 0: degraded, served by polling")
            live.add_metric([], 1 if getattr(self.hub, "live", self.hub.healthy) else 0)
            yield live
            degraded = CounterMetricFamily(
                "arbiter_feed_degradations", "Times the feeds went from live to degraded "
                "(Redis lost, a cluster's failover, nothing publishing)")
            degraded.add_metric([], getattr(self.hub, "degradations", 0))
            yield degraded
        private = GaugeMetricFamily("arbiter_redis_private",
                                    "1 when the server runs its own private Redis")
        private.add_metric([], 1 if self.private_redis else 0)
        yield private
        if self.relay is None:
            return
        leader = GaugeMetricFamily(
            "arbiter_relay_leader", "1 when this process's relay is the one publishing")
        leader.add_metric([], 1 if self.relay.leader else 0)
        yield leader
        position: int | None = int(self.relay.position) if self.relay.leader else None
        if self.published is not None:
            try:
                position = int(self.published())
            except Exception as exc:  # noqa: BLE001 - a scrape reports what it can
                log.warning("metrics: cannot read the relay's position (%s)", exc)
        if head is not None and position is not None:
            lag = GaugeMetricFamily(
                "arbiter_relay_lag_events",
                "Events recorded in the store and not yet published to Redis by the relay")
            lag.add_metric([], max(0, head - position))
            yield lag


class ShardCollectors(Collector):  # type: ignore[misc]
    """Every shard's ``StoreCollector`` on a store sharded by game, each sample
    labelled with its ``shard``: relay lag, commit latency, games and events
    per database, which is what an operator watches per shard
    (docs/operations.md). The process's own figures (Redis, the feed hub)
    come with shard 0's."""

    def __init__(self, collectors: list[StoreCollector]) -> None:
        self.collectors = collectors

    def collect(self) -> Iterable[Any]:
        families: dict[str, Any] = {}
        for shard, collector in enumerate(self.collectors):
            for family in collector.collect():
                merged = families.get(family.name)
                if merged is None:
                    merged = families[family.name] = Metric(
                        family.name, family.documentation, family.type)
                for sample in family.samples:
                    merged.samples.append(sample._replace(
                        labels={**sample.labels, "shard": str(shard)}))
        yield from families.values()


class MetricsServer:
    """The ``/metrics`` HTTP endpoint on the operator's address."""

    def __init__(self, address: str,
                 collector: StoreCollector | ShardCollectors | None = None) -> None:
        host, _, port = address.rpartition(":")
        if not port.isdigit():
            raise ValueError(f"the metrics address is HOST:PORT, not {address!r}")
        disable_created_metrics()  # a ``_created`` twin of every counter is only noise here
        self.httpd, self.thread = start_http_server(
            int(port), addr=host.strip("[]") or "0.0.0.0", registry=REGISTRY)
        self.collector = collector
        if collector is not None:
            REGISTRY.register(collector)
        self.port = int(self.httpd.server_port)
        shown = host or "0.0.0.0"
        self.url = f"http://{shown}:{self.port}/metrics"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        if self.collector is not None:
            REGISTRY.unregister(self.collector)
