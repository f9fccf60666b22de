"""The server's log: one JSON object per line for machines, plain lines for people.

Log shippers (journald, Docker, Loki, Elasticsearch) read one JSON object per
line without a parsing rule per message, so JSON is the default whenever
stderr is not a terminal; a person at a terminal gets plain lines. Either can
be forced with ``--log-format json|plain`` (or ``ARBITER_LOG_FORMAT``).

A record's structured fields travel in ``extra={"fields": {...}}`` and become
top-level keys of the JSON object (and ``key=value`` pairs in plain lines).
Nothing secret is ever a field: the store's URL is logged through
:func:`redact_url`, and tokens are never handed to the logger at all.

Off the request thread: a call only puts its record on a queue
(``QueueHandler``); one thread of the log's own (``QueueListener``) formats
and writes it, so a slow stderr (a full pipe, a busy journald) never holds a
call, and no call waits on another's write lock. The access log's records are
made without the logger's caller lookup (:func:`access`), and a busy server
may write one line in ``every`` OK calls (``ARBITER_ACCESS_LOG_EVERY``):
errors and refusals are always written.
"""

from __future__ import annotations

import atexit
import datetime
import json
import logging
import logging.handlers
import queue
import sys
import threading
from typing import Any, TextIO
from urllib.parse import urlsplit, urlunsplit

FORMATS = ("json", "plain")
#: The access log's logger: one line per call (``service.metrics.CallObserver``).
ACCESS = logging.getLogger("arbiter.access")


#: The JSON lines' encoder, made once (not per line, as ``json.dumps`` with options does).
_LINE = json.JSONEncoder(default=str, separators=(",", ":"))


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "msg", ...fields}``; a traceback as ``exc``."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC)
            .isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            for key, value in fields.items():
                out.setdefault(key, value)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            out["exc"] = record.exc_text
        return _LINE.encode(out)


class PlainFormatter(logging.Formatter):
    """``time level logger message key=value ...`` for a person reading a terminal."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict) and fields:
            pairs = " ".join(f"{k}={v}" for k, v in fields.items() if v not in (None, ""))
            first, sep, rest = text.partition("\n")  # a traceback stays below the line
            text = f"{first} [{pairs}]{sep}{rest}" if pairs else text
        return text


def choose_format(requested: str = "", stream: TextIO | None = None) -> str:
    """The format asked for; else plain on a terminal and JSON everywhere else."""
    requested = requested.strip().lower()
    if requested:
        if requested not in FORMATS:
            raise ValueError(f"the log format is json or plain, not {requested!r}")
        return requested
    stream = stream if stream is not None else sys.stderr
    try:
        return "plain" if stream.isatty() else "json"
    except (AttributeError, ValueError):
        return "json"


class _Enqueue(logging.handlers.QueueHandler):
    """Hands a record to the log's thread as it is, not a formatted copy.

    The library's handler formats each record on the caller's thread (and
    copies it) before queueing it; here only what cannot wait is done there:
    the message's arguments frozen into its text (they may change after the
    call) and a traceback made text (its frames do not outlive the thread's
    stack). Formatting happens on the listener's thread, by its handler.
    """

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        if record.args:
            record.msg, record.args = record.getMessage(), None
        if record.exc_info:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
            record.exc_info = None
        return record


class _Log:
    """The queue, its listener thread, and a way to wait until it is written out."""

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.listener: logging.handlers.QueueListener | None = None
        self.lock = threading.Lock()

    def start(self, handler: logging.Handler) -> None:
        with self.lock:
            self.stop()
            self.listener = logging.handlers.QueueListener(self.queue, handler)
            self.listener.start()

    def stop(self) -> None:
        """Write out what is queued, then stop the thread (at exit, or on reconfiguring)."""
        listener, self.listener = self.listener, None
        if listener is not None:
            listener.stop()

    def drain(self, timeout: float = 5.0) -> None:
        """Return once every record queued before the call is written."""
        if self.listener is None:
            return
        written = threading.Event()
        self.queue.put(logging.makeLogRecord({"written": written}))  # see _Flushing
        written.wait(timeout)


class _Flushing(logging.Handler):
    """The listener's handler: the stream's, with the ``drain`` markers answered."""

    def __init__(self, inner: logging.Handler) -> None:
        super().__init__()
        self.inner = inner

    def handle(self, record: logging.LogRecord) -> bool:
        written = getattr(record, "written", None)
        if written is not None:
            self.inner.flush()
            written.set()
            return False
        return bool(self.inner.handle(record))

    def flush(self) -> None:
        self.inner.flush()


_LOG = _Log()
atexit.register(_LOG.stop)


def configure(log_format: str = "", stream: TextIO | None = None,
              level: int = logging.INFO) -> str:
    """Send every logger's records to stderr in the chosen format, through the
    log's queue and thread (see the module's doc); returns the format."""
    chosen = choose_format(log_format, stream)
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonFormatter() if chosen == "json" else PlainFormatter())
    # Neither format names the process, its name or the thread: not looked up per record.
    logging.logProcesses = logging.logMultiprocessing = logging.logThreads = False
    _LOG.start(_Flushing(handler))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(_Enqueue(_LOG.queue))  # type: ignore[arg-type]
    root.setLevel(level)
    return chosen


def drain() -> None:
    """Wait until the records logged so far are written (a test, a benchmark)."""
    _LOG.drain()


def access(level: int, message: str, values: dict[str, Any]) -> None:
    """One access-log line with its fields, made cheaply.

    ``Logger.log`` looks up its caller's file and line by walking the stack
    for every record; an access line names its call by its fields instead,
    so the record is made directly and handed to the handlers.
    """
    if ACCESS.isEnabledFor(level):
        record = ACCESS.makeRecord(ACCESS.name, level, "(access)", 0, message, (), None)
        record.__dict__["fields"] = values
        ACCESS.handle(record)


def redact_url(url: str) -> str:
    """A URL fit for a log: any password (and a user's token-like name) removed.

    ``redis://:s3cret@host:6379/0`` becomes ``redis://***@host:6379/0``;
    ``postgresql://arbiter:pw@db/arbiter`` becomes ``postgresql://arbiter:***@db/arbiter``;
    query parameters (``?password=...``, a TLS key path) are dropped; in a
    comma-separated list (a Redis Cluster's nodes) each URL alike. A path
    (a SQLite file) is returned as it is.
    """
    if "://" not in url:
        return url
    if "," in url:  # a Redis Cluster's nodes: each redacted alone
        return ",".join(redact_url(part) for part in url.split(","))
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        credentials, _, host = netloc.rpartition("@")
        user, has_password, _ = credentials.partition(":")
        # Redis puts a password alone in the user slot (``redis://token@host``).
        netloc = f"{user}:***@{host}" if has_password and user else f"***@{host}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def fields(**values: Any) -> dict[str, Any]:
    """``extra=`` for a record with structured fields: ``log.info(msg, extra=fields(a=1))``."""
    return {"fields": values}
