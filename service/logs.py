"""The server's log: one JSON object per line for machines, plain lines for people.

Log shippers (journald, Docker, Loki, Elasticsearch) read one JSON object per
line without a parsing rule per message, so JSON is the default whenever
stderr is not a terminal; a person at a terminal gets plain lines. Either can
be forced with ``--log-format json|plain`` (or ``ARBITER_LOG_FORMAT``).

A record's structured fields travel in ``extra={"fields": {...}}`` and become
top-level keys of the JSON object (and ``key=value`` pairs in plain lines).
Nothing secret is ever a field: the store's URL is logged through
:func:`redact_url`, and tokens are never handed to the logger at all.
"""

from __future__ import annotations

import datetime
import json
import logging
import sys
from typing import Any, TextIO
from urllib.parse import urlsplit, urlunsplit

FORMATS = ("json", "plain")
#: The access log's logger: one line per call (``service.metrics.CallObserver``).
ACCESS = logging.getLogger("arbiter.access")


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
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str, separators=(",", ":"))


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


def configure(log_format: str = "", stream: TextIO | None = None,
              level: int = logging.INFO) -> str:
    """Send every logger's records to stderr in the chosen format; returns the format."""
    chosen = choose_format(log_format, stream)
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonFormatter() if chosen == "json" else PlainFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return chosen


def redact_url(url: str) -> str:
    """A URL fit for a log: any password (and a user's token-like name) removed.

    ``redis://:s3cret@host:6379/0`` becomes ``redis://***@host:6379/0``;
    ``postgresql://arbiter:pw@db/arbiter`` becomes ``postgresql://arbiter:***@db/arbiter``;
    query parameters (``?password=...``, a TLS key path) are dropped. A path
    (a SQLite file) is returned as it is.
    """
    if "://" not in url:
        return url
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
