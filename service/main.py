"""Start Arbiter: the store, Redis (configured or private), the relay, the gRPC server."""

from __future__ import annotations

import argparse
import dataclasses
import gc
import logging
import os
import secrets
import shutil
import signal
import sys
import tempfile
import threading
import time
from concurrent import futures
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import grpc
from arbiter.v1 import game_pb2
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from aggregates.catalog import SERVED
from service import auditing, integrity, lobby, logs, shards
from service.aio import LoopServer
from service.application import ArbiterApp
from service.auth import Credentials
from service.clock import ClockKeeper
from service.config import ConfigError, Settings
from service.datadir import make_private
from service.decoding import MalformedRequests
from service.drain import Drain
from service.feeds import FeedHub, PublishWatch
from service.limits import CallerShares, keepalive_options
from service.listen import PortBusy, check_free, reuse_port, server_options, split_address
from service.metrics import CallObserver, MetricsServer, ShardCollectors, StoreCollector
from service.redis_server import PrivateRedis
from service.reflection import enable_server_reflection
from service.relay import FeedRelay, PositionFile, Positions, PositionTable
from service.servicer import GameServicer, StreamCap, add_to_server
from service.shards import Shards
from service.status import abort
from service.storehealth import StoreHealth

if TYPE_CHECKING:
    from service.web.server import WebServer

log = logging.getLogger("arbiter")
SERVICE_NAME = game_pb2.DESCRIPTOR.services_by_name["GameService"].full_name
GRACE_SECONDS = 10.0


@dataclasses.dataclass
class Store:
    """One store of the deployment (the only one, or a shard) and the threads
    that follow it."""

    app: ArbiterApp
    clock: ClockKeeper
    relay: FeedRelay
    watch: PublishWatch
    health: StoreHealth


class Server:
    """One Arbiter server process and the threads it owns."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.reuse_port = reuse_port()
        if not self.reuse_port:
            check_free(settings.address)  # before starting anything
        else:
            log.warning("ARBITER_REUSE_PORT=1: other processes may listen on %s too; "
                        "they must all use this same store", settings.address)
        make_private(settings.data_dir)  # the store, secret and token: the operator's alone
        credentials = Credentials.configure(settings.data_dir)  # before starting anything
        self.private_redis: PrivateRedis | None = None
        #: Whether each store writes (``_store_writes``), by shard.
        self._writable: dict[int, bool] = {}
        self._health_lock = threading.Lock()
        redis_url = settings.redis_url
        if not redis_url:
            # A random password (never logged) and a supervisor that restarts it.
            self.private_redis = PrivateRedis(
                settings.data_dir / "redis", password=secrets.token_urlsafe(32))
            self.private_redis.supervise()
            redis_url = self.private_redis.url
            log.info("started a private Redis at %s (it stops with the server)",
                     self.private_redis.address)
        self.redis_url = redis_url
        auditing.SLOTS = auditing.AuditSlots(settings.audits_at_once)
        prefix = settings.channel_prefix()
        if settings.redis_cluster:
            log.info("feeds on a Redis Cluster: sharded channels %sgame:<id>, and one "
                     "%sgames:{<tag>} per shard", prefix, prefix)
        else:
            log.info("feeds on Redis channels %sgames and %sgame:<id>", prefix, prefix)
        self.hub = FeedHub(redis_url, prefix, cluster=settings.redis_cluster,
                           heartbeat=settings.feed_heartbeat_seconds)
        try:
            self.stores = [self._open_store(n, shard, credentials)
                           for n, shard in enumerate(settings.shard_settings())]
        except BaseException:
            for store in getattr(self, "stores", []):
                store.app.close()
            if self.private_redis is not None:
                self.private_redis.stop()
            raise
        if settings.database_urls:
            log.info("a store sharded by game: %d databases", len(self.stores))
        #: The first store's application (the only one, unsharded): its secret's
        #: signer and its file, for the log.
        self.app = self.stores[0].app
        limit = settings.max_message_bytes
        streams = max(1, min(settings.max_streams, settings.max_workers - 8))
        self.drain = Drain()
        self.grpc = LoopServer(
            futures.ThreadPoolExecutor(max_workers=settings.max_workers),
            interceptors=[
                # Outermost: counts and logs every call, refused ones too.
                CallObserver(settings.access_log_every, settings.access_log_per_second),
                self.drain,
                MalformedRequests(abort),
                StreamCap(streams),
                # Innermost: it sees the services' own handlers (the health watcher).
                shares := CallerShares(credentials, abort, settings.max_streams_per_peer,
                                       settings.calls_per_second,
                                       settings.creates_per_minute,
                                       settings.idle_watch_seconds),
            ],
            options=[
                ("grpc.max_receive_message_length", limit),
                ("grpc.max_send_message_length", 16 * 1024 * 1024),
                # No widening of a stream's receive window past its initial
                # 64 KiB (a request's most, max_message_bytes): bytes a
                # handler has not read yet wait at the client, not here (with
                # BDP probing a Play stream that is not read pins ~6.5 MB).
                ("grpc.http2.bdp_probe", 0),
                *server_options(self.reuse_port),
                *keepalive_options(settings.keepalive_seconds),
            ],
        )
        games = GameServicer(Shards([store.app for store in self.stores]), self.hub)
        add_to_server(games, self.grpc)
        lobby.install(self.grpc, Shards([store.app for store in self.stores]), self.hub, games,
                      shares, settings)
        #: Every caller's share: the web side's bots charge their thinking to it.
        self.shares = shares
        self.health = health.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.grpc)
        integrity.report_health(self.health)  # corrupt stored records: NOT_SERVING
        enable_server_reflection((SERVICE_NAME, lobby.SERVICE_NAME, health.SERVICE_NAME),
                                 self.grpc)
        self.metrics: MetricsServer | None = None
        self.web: WebServer | None = None
        self.web_socket = self._web_socket(settings) if settings.web_address else ""
        try:
            self.port = self._listen(settings)
        except RuntimeError as exc:
            if not str(exc).startswith("Failed to bind"):
                raise
            self.port = 0
        if self.port == 0:
            self.stop_started()
            raise PortBusy(f"cannot listen on {settings.address}: it is in use or not an "
                           "address of this machine")
        if settings.metrics_address:
            self.metrics = self._serve_metrics(settings.metrics_address)

    def _web_socket(self, settings: Settings) -> str:
        """The private Unix socket the web side reaches the service through: in the
        data folder (the operator's alone), or a private temporary folder when that
        path is too long for a socket's name."""
        path = settings.data_dir.resolve() / "web.sock"
        if len(str(path)) > 100:
            path = Path(tempfile.mkdtemp(prefix="arbiter-web-")) / "web.sock"
        path.unlink(missing_ok=True)
        target = f"unix:{path}"
        if not self.grpc.add_insecure_port(target):
            raise ConfigError(f"cannot open the web side's socket {path}")
        return target

    def _serve_web(self, address: str) -> WebServer:
        """The pages and JSON gateway; an address that cannot be bound refuses the start.

        Imported here, when asked for: a server without web pages never loads
        aiohttp and the pages' modules (half a second of every start)."""
        from service.web.server import Waits, WebError, WebServer

        try:
            return WebServer(address, self.web_socket, self.settings.max_message_bytes,
                             self.settings.web_requests_per_peer,
                             self.settings.web_secure_cookies,
                             Waits(self.settings.web_idle_seconds,
                                   self.settings.web_body_seconds),
                             self.shares)
        except WebError as exc:
            raise ConfigError(str(exc)) from None

    def _serve_metrics(self, address: str) -> MetricsServer:
        """The operator's ``/metrics`` port; one that cannot be bound refuses the start."""
        collectors = [
            StoreCollector(store.app, store.relay, self.hub if n == 0 else None,
                           private_redis=self.private_redis is not None,
                           published=self._positions(store.app, shard).peek)
            for n, (store, shard) in enumerate(zip(self.stores, self.settings.shard_settings(),
                                                   strict=True))]
        collector = ShardCollectors(collectors) if self.settings.database_urls else collectors[0]
        try:
            return MetricsServer(address, collector)
        except (OSError, ValueError) as exc:
            self.stop_started()
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise ConfigError(f"cannot serve metrics on {address}: {why}") from None

    def _open_store(self, shard: int, settings: Settings, credentials: Credentials) -> Store:
        """One store and what follows it: its clock, relay (its own lease and
        position), publish watch and write probe. On a sharded store, the
        database is checked to be the shard its place says first."""
        sharded = bool(self.settings.database_urls)
        if sharded:
            try:
                shards.claim(settings.database_url,
                             os.environ.get("ARBITER_POSTGRES_SCHEMA", "public"), shard)
            except shards.ShardMismatch as exc:
                raise ConfigError(str(exc)) from None
        app = ArbiterApp(settings.store_env(), settings.snapshot_interval, credentials,
                         shard=shard if sharded else None)
        clock = ClockKeeper(app)
        app.on_clocked = clock.watch
        positions = self._positions(app, settings)
        relay = FeedRelay(app, self.redis_url, positions, self.hub.prefix,
                          cluster=self.settings.redis_cluster, echo=self.hub)
        if sharded:
            relay.name = f"feed-relay-{shard}"
        watch = PublishWatch(self.hub, lambda: app.recorder.max_notification_id() or 0,
                             self._positions(app, settings).peek, shard=shard,
                             stale=settings.publish_stale_seconds)
        health = StoreHealth(app, lambda writable: self._store_writes(shard, writable),
                             self.settings.health_interval)
        return Store(app, clock, relay, watch, health)

    def _store_writes(self, shard: int, writable: bool) -> None:
        """Health follows the stores: NOT_SERVING while none can write (one
        shard down: only its games wait, and its own ``shard-<n>`` says so)."""
        serving, not_serving = (health_pb2.HealthCheckResponse.SERVING,
                                health_pb2.HealthCheckResponse.NOT_SERVING)
        with self._health_lock:  # each store's probe reports on a thread of its own
            self._writable[shard] = writable
            if self.settings.database_urls:
                # Sharded: a shard that cannot be reached is refused at once, so
                # the others' games never wait on it. (One store: calls wait on
                # its connection pool as ever, and succeed once it is back.)
                store = self.stores[shard]
                store.app.reachable = writable or store.health.reachable
                self.health.set(f"shard-{shard}", serving if writable else not_serving)
            status = serving if any(self._writable.values()) else not_serving
            for name in (SERVICE_NAME, ""):
                self.health.set(name, status)

    def _listen(self, settings: Settings) -> int:
        """TLS when a certificate and key are configured, plaintext otherwise."""
        if bool(settings.tls_cert) != bool(settings.tls_key):
            raise RuntimeError("set both ARBITER_TLS_CERT and ARBITER_TLS_KEY, or neither")
        if settings.tls_cert:
            credentials = grpc.ssl_server_credentials(
                [(Path(settings.tls_key).read_bytes(), Path(settings.tls_cert).read_bytes())]
            )
            return self.grpc.add_secure_port(settings.address, credentials)
        return self.grpc.add_insecure_port(settings.address)

    @staticmethod
    def _positions(app: ArbiterApp, settings: Settings) -> Positions:
        """Where a store's relay records its position: beside the store it follows."""
        env = app.env
        if env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres":
            return PositionTable(settings.database_url, env.get("POSTGRES_SCHEMA", "public"))
        return PositionFile(settings.data_dir / "relay.position")

    def start(self) -> None:
        for store in self.stores:
            store.clock.start()
            store.relay.start()
        self.hub.start()
        for store in self.stores:
            store.watch.start()
        self.grpc.start()
        if self.settings.web_address:
            try:
                self.web = self._serve_web(self.settings.web_address)
            except ConfigError:
                self.grpc.stop(None)
                self.stop_started()
                raise
        for store in self.stores:  # SERVING only once a store is seen to write
            store.health.check()
            store.health.start()
        log.info("Arbiter serving on %s (store: %s)", self.settings.address, self.store_text(),
                 extra=logs.fields(event="start", address=self.settings.address,
                                   port=self.port, store=self.store_text(),
                                   redis=logs.redact_url(self.redis_url),
                                   metrics=self.metrics.url if self.metrics else "",
                                   web=self.web.url if self.web else ""))
        signer = self.app.credentials.signer
        log.info("signing games' heads with key %s (epoch %d; `arbiter keys` prints it)",
                 signer.key_id, signer.epoch,
                 extra=logs.fields(event="signing_key", key_id=signer.key_id,
                                   epoch=signer.epoch))

    def store_text(self) -> str:
        """The store's file or URL, for the log: never its password."""
        if self.settings.database_url:
            return logs.redact_url(self.settings.database_url)
        return str(self.app.env.get("SQLITE_DBNAME", self.settings.data_dir))

    def client_address(self) -> str:
        """The address a client on this machine dials: the real port, a local host."""
        parsed = split_address(self.settings.address)
        if parsed is None:
            return self.settings.address
        host = parsed[0] if parsed[0] not in ("", "0.0.0.0", "::") else "localhost"
        return f"[{host}]:{self.port}" if ":" in host else f"{host}:{self.port}"

    def stop_started(self) -> None:
        """Undo a start that failed before serving: the private Redis, the stores."""
        if self.private_redis is not None:
            self.private_redis.stop()
        for store in self.stores:
            store.app.close()

    def stop(self) -> None:
        """Drain in-flight calls, then stop the relay, the hub and any private Redis."""
        for store in self.stores:
            store.health.stop()
        self.health.enter_graceful_shutdown()
        self.drain.drain()  # new calls refused cleanly until none arrive
        if self.web is not None:
            self.web.stop()  # its live pages hold feeds open
        for store in self.stores:
            store.clock.stop()
            store.watch.stop()
        for store in self.stores:
            store.watch.join(timeout=5)  # it reads the store, closed below
        self.hub.stop()
        self.grpc.stop(GRACE_SECONDS).wait()
        for store in self.stores:
            store.relay.stop()
        for store in self.stores:
            store.relay.join(timeout=5)
        if self.private_redis is not None:
            self.private_redis.stop()
        if self.metrics is not None:
            self.metrics.stop()
        for store in self.stores:
            store.app.close()
        log.info("Arbiter stopped (store: %s)", self.store_text(),
                 extra=logs.fields(event="stop", address=self.settings.address,
                                   store=self.store_text()))


#: How soon the main thread sees a stop signal (it only polls a list the
#: signal handler appends to, so the handler takes no lock).
STOP_POLL_SECONDS = 0.1


def cli_command() -> str:
    """How the operator runs this installation's ``arbiter``: the bare name when PATH
    finds it, else its path (``.venv/bin/arbiter`` after ``make run``)."""
    script = Path(sys.executable).parent / "arbiter"
    if not script.exists() or shutil.which("arbiter") == str(script):
        return "arbiter"
    try:
        return str(script.relative_to(Path.cwd()))
    except ValueError:
        return str(script)


def ready_line(server: Server) -> str:
    """What the operator reads once serving: where, and what to try next."""
    target = server.client_address()
    flag = "" if target == "localhost:50051" else f" --address {target}"
    cli = cli_command()
    metrics = f"; metrics at {server.metrics.url}" if server.metrics else ""
    if server.web:
        metrics += f"; web pages at {server.web.url}/"
    return (f"arbiter: serving on {server.settings.address} (port {server.port}); "
            f"try `{cli} rules{flag}` or `{cli} play {SERVED[0].RULES_ID}{flag}` in another "
            f"terminal{metrics}")


def serve(address: str, data_dir: str, metrics_address: str | None = None,
          log_format: str | None = None, web_address: str | None = None) -> None:
    """Run a server until SIGINT or SIGTERM."""
    try:
        settings = Settings.from_env(address, data_dir)
        settings = dataclasses.replace(
            settings,
            metrics_address=settings.metrics_address if metrics_address is None
            else metrics_address,
            log_format=settings.log_format if log_format is None else log_format,
            web_address=settings.web_address if web_address is None else web_address,
        )
        logs.configure(settings.log_format)
    except ValueError as exc:
        raise SystemExit(f"arbiter: cannot start: {exc}") from None
    try:
        server = Server(settings)
    except ConfigError as exc:
        raise SystemExit(f"arbiter: cannot start: {exc}") from None
    signals: list[int] = []

    def on_signal(signum: int, frame: FrameType | None) -> None:
        # No lock here: a handler runs in the main thread between any two
        # bytecodes, and a second signal (``make`` passing on a SIGTERM the
        # whole process group also got) arriving while the main thread held
        # an ``Event``'s lock, in ``wait``, deadlocked the server for good.
        signals.append(signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        server.start()
    except ConfigError as exc:
        raise SystemExit(f"arbiter: cannot start: {exc}") from None
    settle_startup_objects()
    # One write, the line with its newline: print() writes them apart, and on an
    # unbuffered stdout a log line from another thread could land between them.
    sys.stdout.write(ready_line(server) + "\n")
    sys.stdout.flush()
    while not signals:
        time.sleep(STOP_POLL_SECONDS)
    log.info("stopping: draining in-flight calls")
    server.stop()


def settle_startup_objects() -> None:
    """Move what the start made (modules, classes, the rules' tables, gRPC and
    protobuf descriptors: most of a server's objects, none of them ever
    garbage) out of the cyclic collector's sight (``gc.freeze``).

    The collector's full passes walk every object the process holds; with the
    start's objects among them, one took 52-67 ms here, a pause of every thread
    at once, every call in flight included (seen in the feed's latency). After
    the freeze the same pass took about 2 ms. What the start left as garbage is
    collected first, so nothing is kept that should not be."""
    gc.collect()
    gc.freeze()


def main() -> None:
    parser = argparse.ArgumentParser(prog="arbiter-server")
    parser.add_argument("--address", default="localhost:50051")
    parser.add_argument("--data-dir", default="./data")
    parser.add_argument("--redis-prefix", default="",
                        help="Redis channel prefix (ARBITER_REDIS_PREFIX); "
                        "default: derived from the store")
    parser.add_argument("--metrics-address", default=None, metavar="HOST:PORT",
                        help="serve Prometheus /metrics here (default: "
                             "$ARBITER_METRICS_ADDRESS; none when unset)")
    parser.add_argument("--web-address", default=None, metavar="HOST:PORT",
                        help="serve the web pages and the JSON gateway here (default: "
                             "$ARBITER_WEB_ADDRESS; none when unset)")
    parser.add_argument("--log-format", default=None, choices=logs.FORMATS,
                        help="json (one object per line) or plain (default: "
                             "$ARBITER_LOG_FORMAT, else plain on a terminal, json otherwise)")
    args = parser.parse_args()
    if args.redis_prefix:
        os.environ["ARBITER_REDIS_PREFIX"] = args.redis_prefix
    serve(args.address, args.data_dir, args.metrics_address, args.log_format,
          args.web_address)


if __name__ == "__main__":
    main()
