"""Settings from the command line and the environment, in one place."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from pathlib import Path

#: The fewest bytes a secret or a configured token may have.
MIN_SECRET_BYTES = 32


class ConfigError(ValueError):
    """A setting the server refuses to start with; its text is a sentence for the operator."""


@dataclasses.dataclass(frozen=True)
class Settings:
    """How one server process runs.

    ``redis_url`` empty means: start a private Redis under the data dir.
    ``database_url`` empty means: SQLite in ``data_dir/arbiter.sqlite``.
    """

    address: str = "localhost:50051"
    data_dir: Path = Path("./data")
    redis_url: str = ""
    database_url: str = ""
    #: A store sharded by game: PostgreSQL databases, a game's shard its place
    #: here (``service.shards``); ``database_url`` is then the first.
    database_urls: tuple[str, ...] = ()
    max_message_bytes: int = 64 * 1024
    max_workers: int = 256
    #: Open History/Subscribe streams at most; each holds a worker thread, so
    #: this stays below ``max_workers`` to keep threads for unary calls.
    max_streams: int = 224
    snapshot_interval: int = 100
    tls_cert: str = ""
    tls_key: str = ""
    #: Seconds between the probes of the store's writes that health reports.
    health_interval: int = 2
    #: Every caller's share (``service.limits``): per IPv4 address or IPv6 /64.
    max_streams_per_peer: int = 32
    calls_per_second: int = 1000
    creates_per_minute: int = 60
    #: Seconds between keepalive pings on each connection (a peer that misses
    #: one is gone: its connection and streams are closed).
    keepalive_seconds: int = 60
    #: Uncached audits (whole-game replays) running at once, server-wide.
    audits_at_once: int = 2
    #: Health Watch streams with nothing to send for this long are ended.
    idle_watch_seconds: int = 300
    #: The lobby (``service.lobby``): tables gathering players one caller may
    #: have at once, and the seconds a gathering table may go without a join
    #: or a leave before it closes (``TableClosed``).
    waiting_tables_per_caller: int = 5
    table_idle_seconds: float = 3 * 3600.0
    #: The most seconds a bot the server hosts (a lobby table's, the web's
    #: "play against bots") may think per decision, and what a bot seat asked
    #: for no budget takes (``service.hostedbots``): its CPU is its host's.
    bot_budget_seconds: float = 0.2
    #: Seconds a caught-up feed (Subscribe, Play) goes without a message before
    #: it is sent its status again: how soon a client knows the feed lives and
    #: the server finds a client gone (``service.feeds``).
    feed_heartbeat_seconds: float = 10.0
    #: The web side: seconds a connection may take to send a request's headers
    #: or stay idle between requests, and a request's body may take to arrive.
    web_idle_seconds: float = 15.0
    web_body_seconds: float = 10.0
    #: Seconds the published position may stay behind the store, not moving,
    #: before the feeds say that nothing publishes (``service.feeds.PublishWatch``).
    publish_stale_seconds: float = 5.0
    #: HOST:PORT of the Prometheus ``/metrics`` endpoint; empty: none (``service.metrics``).
    metrics_address: str = ""
    #: HOST:PORT of the web pages and JSON gateway; empty: none (``service.web``).
    web_address: str = ""
    #: Requests in progress at once per caller on the web side (a live page holds one).
    web_requests_per_peer: int = 64
    #: Mark the web side's cookies ``Secure`` even over plain HTTP: for a server
    #: behind a proxy that terminates TLS (``ARBITER_WEB_SECURE_COOKIES=1``).
    web_secure_cookies: bool = False
    #: ``json``, ``plain`` or empty: JSON unless stderr is a terminal (``service.logs``).
    log_format: str = ""
    #: One access-log line per so many OK calls (refusals and errors: every one);
    #: 1, every call, unless a busy server is told otherwise (``service.logs``).
    access_log_every: int = 1
    #: At most so many OK calls' lines a second per method (0: no cap); the
    #: next line written counts the calls left out (``service.metrics``).
    access_log_per_second: int = 20
    #: The Redis channel prefix; empty: derived from the store (``channel_prefix``).
    redis_prefix: str = ""
    #: ``REDIS_URL`` names a Redis Cluster's nodes (comma-separated): feeds on
    #: sharded channels (``service.rediscluster``; ``ARBITER_REDIS_CLUSTER=1``).
    redis_cluster: bool = False

    @classmethod
    def from_env(cls, address: str | None = None, data_dir: str | None = None) -> Settings:
        urls = _database_urls()
        return cls(
            address=address or os.environ.get("ARBITER_LISTEN", "localhost:50051"),
            data_dir=Path(data_dir or os.environ.get("ARBITER_DATA_DIR", "./data")),
            redis_url=os.environ.get("REDIS_URL", ""),
            database_url=urls[0] if urls else os.environ.get("ARBITER_DATABASE_URL", "")
            or os.environ.get("DATABASE_URL", ""),
            database_urls=tuple(urls),
            tls_cert=os.environ.get("ARBITER_TLS_CERT", ""),
            tls_key=os.environ.get("ARBITER_TLS_KEY", ""),
            max_workers=_positive("ARBITER_MAX_WORKERS", cls.max_workers),
            max_streams=_positive("ARBITER_MAX_STREAMS", cls.max_streams),
            health_interval=_positive("ARBITER_HEALTH_INTERVAL", cls.health_interval),
            max_streams_per_peer=_positive(
                "ARBITER_MAX_STREAMS_PER_PEER", cls.max_streams_per_peer),
            calls_per_second=_positive("ARBITER_CALLS_PER_SECOND", cls.calls_per_second),
            creates_per_minute=_positive("ARBITER_CREATES_PER_MINUTE", cls.creates_per_minute),
            keepalive_seconds=_positive("ARBITER_KEEPALIVE_SECONDS", cls.keepalive_seconds),
            audits_at_once=_positive("ARBITER_AUDITS_AT_ONCE", cls.audits_at_once),
            idle_watch_seconds=_positive("ARBITER_IDLE_WATCH_SECONDS", cls.idle_watch_seconds),
            waiting_tables_per_caller=_positive("ARBITER_WAITING_TABLES_PER_CALLER",
                                                cls.waiting_tables_per_caller),
            table_idle_seconds=_seconds("ARBITER_TABLE_IDLE_SECONDS", cls.table_idle_seconds),
            bot_budget_seconds=bot_budget_seconds(),
            feed_heartbeat_seconds=_seconds("ARBITER_FEED_HEARTBEAT_SECONDS",
                                            cls.feed_heartbeat_seconds),
            web_idle_seconds=_seconds("ARBITER_WEB_IDLE_SECONDS", cls.web_idle_seconds),
            web_body_seconds=_seconds("ARBITER_WEB_BODY_SECONDS", cls.web_body_seconds),
            publish_stale_seconds=_seconds("ARBITER_PUBLISH_STALE_SECONDS",
                                           cls.publish_stale_seconds),
            metrics_address=os.environ.get("ARBITER_METRICS_ADDRESS", ""),
            web_address=os.environ.get("ARBITER_WEB_ADDRESS", ""),
            web_requests_per_peer=_positive(
                "ARBITER_WEB_REQUESTS_PER_PEER", cls.web_requests_per_peer),
            web_secure_cookies=os.environ.get("ARBITER_WEB_SECURE_COOKIES", "") == "1",
            log_format=os.environ.get("ARBITER_LOG_FORMAT", ""),
            access_log_every=_positive("ARBITER_ACCESS_LOG_EVERY", cls.access_log_every),
            access_log_per_second=_whole("ARBITER_ACCESS_LOG_PER_SECOND",
                                         cls.access_log_per_second),
            redis_prefix=_redis_prefix(os.environ.get("ARBITER_REDIS_PREFIX", "")),
            redis_cluster=_redis_cluster(os.environ.get("ARBITER_REDIS_CLUSTER", ""),
                                         os.environ.get("REDIS_URL", "")),
        )

    def channel_prefix(self) -> str:
        """The prefix of this deployment's Redis channels: the configured one, else
        one derived from the store, so that every server of one store agrees on
        it and two deployments sharing one Redis do not hear each other."""
        return self.redis_prefix or default_redis_prefix(
            self.database_url, os.environ.get("ARBITER_POSTGRES_SCHEMA", "public"),
            self.data_dir)

    def shard_settings(self) -> list[Settings]:
        """One ``Settings`` per store: each shard's (its ``database_url``), or this."""
        if not self.database_urls:
            return [self]
        return [dataclasses.replace(self, database_url=url) for url in self.database_urls]

    def store_env(self) -> dict[str, str]:
        """The eventsourcing library's environment for the configured store."""
        env = {
            "AGGREGATE_CACHE_MAXSIZE": "1000",
            "AGGREGATE_CACHE_FASTFORWARD": "y",
        }
        if self.database_url.startswith(("postgres://", "postgresql://")):
            from urllib.parse import unquote, urlparse

            url = urlparse(self.database_url)
            apply_libpq_options(url.query)
            env.update(
                PERSISTENCE_MODULE="eventsourcing.postgres",
                POSTGRES_DBNAME=url.path.lstrip("/") or "postgres",
                POSTGRES_HOST=url.hostname or "127.0.0.1",
                POSTGRES_PORT=str(url.port or 5432),
                POSTGRES_USER=unquote(url.username or "postgres"),
                POSTGRES_PASSWORD=unquote(url.password or ""),
                POSTGRES_SCHEMA=os.environ.get("ARBITER_POSTGRES_SCHEMA", "public"),
                CREATE_TABLE="y",
            )
            if os.environ.get("ARBITER_POSTGRES_TABLE_LOCK", "") != "1":
                # Inserts through the library's function, without its table
                # lock; readers by position stop at the settled head
                # (``service.settled``), so none skips a late commit.
                env["POSTGRES_ENABLE_DB_FUNCTIONS"] = "y"
        elif self.database_url:
            raise ValueError(f"unsupported database URL {self.database_url!r}")
        else:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            env.update(
                PERSISTENCE_MODULE="eventsourcing.sqlite",
                SQLITE_DBNAME=str(self.data_dir / "arbiter.sqlite"),
                SQLITE_LOCK_TIMEOUT="10",
                CREATE_TABLE="y",
            )
        return env


#: URL query options passed to libpq (psycopg) through its environment variables.
LIBPQ_OPTIONS = {
    "sslmode": "PGSSLMODE",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "application_name": "PGAPPNAME",
}


def apply_libpq_options(query: str) -> None:
    """TLS for PostgreSQL from the URL (``?sslmode=verify-full&sslrootcert=...``).

    The eventsourcing library connects with host/port/user/password settings
    only; libpq reads the TLS settings from these variables for every
    connection the process opens, the relay's included.
    """
    from urllib.parse import parse_qs

    for key, values in parse_qs(query).items():
        if key not in LIBPQ_OPTIONS:
            raise ValueError(f"unsupported PostgreSQL URL option {key!r}")
        os.environ[LIBPQ_OPTIONS[key]] = values[-1]


#: What a configured channel prefix may hold: no spaces, no glob characters.
REDIS_PREFIX = re.compile(r"[A-Za-z0-9_.:/-]{1,64}")


def _database_urls() -> list[str]:
    """``ARBITER_DATABASE_URLS`` (separated by commas, spaces or new lines), or
    the lines of ``ARBITER_SHARDS_FILE`` (``#`` starts a comment): the shards
    of a store sharded by game, in their order, which must never change."""
    text = os.environ.get("ARBITER_DATABASE_URLS", "")
    path = os.environ.get("ARBITER_SHARDS_FILE", "")
    if text and path:
        raise ConfigError("set ARBITER_DATABASE_URLS or ARBITER_SHARDS_FILE, not both")
    if path:
        try:
            lines = Path(path).read_text().splitlines()
        except OSError as exc:
            raise ConfigError(f"cannot read ARBITER_SHARDS_FILE {path}: {exc.strerror}") from None
        text = " ".join(line.split("#", 1)[0] for line in lines)
    urls = text.replace(",", " ").split()
    if urls and (os.environ.get("ARBITER_DATABASE_URL") or os.environ.get("DATABASE_URL")):
        raise ConfigError("a store sharded by game lists every database in "
                          "ARBITER_DATABASE_URLS (the first: the unsharded store's, if any); "
                          "unset ARBITER_DATABASE_URL")
    for url in urls:
        if not url.startswith(("postgres://", "postgresql://")):
            raise ConfigError(f"each shard is a PostgreSQL database URL, not {url[:40]!r}")
    if len(set(urls)) != len(urls):
        raise ConfigError("a database is listed twice among the shards")
    if len(urls) > 1 << 16:
        raise ConfigError("at most 65,536 shards")
    return urls


def _redis_cluster(flag: str, redis_url: str) -> bool:
    """``ARBITER_REDIS_CLUSTER``: 1 (a cluster, named by ``REDIS_URL``), else 0 or unset."""
    if flag not in ("", "0", "1"):
        raise ConfigError(f"ARBITER_REDIS_CLUSTER must be 1 or 0, not {flag!r}")
    if flag == "1" and not redis_url:
        raise ConfigError("ARBITER_REDIS_CLUSTER=1 needs REDIS_URL: one or more of the "
                          "cluster's nodes, comma-separated (the private Redis is no cluster)")
    return flag == "1"


def _redis_prefix(text: str) -> str:
    if text and not REDIS_PREFIX.fullmatch(text):
        raise ConfigError(
            f"ARBITER_REDIS_PREFIX must be 1-64 of A-Z a-z 0-9 _ . : / -, not {text!r}")
    return text


def default_redis_prefix(database_url: str, schema: str, data_dir: Path) -> str:
    """``arbiter:<12 hex digits>:`` from the store's identity: for PostgreSQL its
    host, port, database and schema (not the credentials); for SQLite the real
    path of its file. Servers of one store share it; other stores differ."""
    if database_url:
        from urllib.parse import urlparse

        url = urlparse(database_url)
        identity = (f"postgresql://{(url.hostname or '127.0.0.1').lower()}:{url.port or 5432}"
                    f"/{url.path.lstrip('/') or 'postgres'}?schema={schema}")
    else:
        identity = f"sqlite:{(data_dir / 'arbiter.sqlite').resolve()}"
    return f"arbiter:{hashlib.sha256(identity.encode()).hexdigest()[:12]}:"


def _whole(name: str, default: int) -> int:
    """A whole number (0 or more) from the environment, or the default."""
    text = os.environ.get(name, "")
    if not text:
        return default
    if not text.isdigit():
        raise ValueError(f"{name} must be a whole number (0 or more), not {text!r}")
    return int(text)


def bot_budget_seconds() -> float:
    """``Settings.bot_budget_seconds`` from ``ARBITER_BOT_BUDGET_SECONDS`` (the
    web side, which is handed no ``Settings``, reads it here too)."""
    return _seconds("ARBITER_BOT_BUDGET_SECONDS", Settings.bot_budget_seconds)


def _seconds(name: str, default: float) -> float:
    """A positive number of seconds (fractions allowed) from the environment,
    or the default."""
    text = os.environ.get(name, "")
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise ValueError(f"{name} must be a positive number of seconds, not {text!r}")
    return seconds


def _positive(name: str, default: int) -> int:
    """A positive whole number from the environment, or the default."""
    text = os.environ.get(name, "")
    if not text:
        return default
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{name} must be a positive whole number, not {text!r}")
    return int(text)
