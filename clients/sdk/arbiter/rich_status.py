"""Reading a refusal's rich status (``google.rpc.Status`` with ``ErrorInfo``).

The server sends the reason and the game's version three ways (see
``service.status``); the client prefers the ``ErrorInfo`` of domain
``arbiter`` when present, and falls back to the ``arbiter-reason`` and
``arbiter-version`` trailers (older servers) and then to the details text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

DETAILS_KEY = "grpc-status-details-bin"
DOMAIN = "arbiter"


@dataclasses.dataclass(frozen=True)
class RichRefusal:
    reason: str
    message: str
    version: int | None
    metadata: dict[str, str]


def read(trailers: Sequence[tuple[str, Any]] | None) -> RichRefusal | None:
    """The ``arbiter`` ErrorInfo in ``trailers``, or None when there is none."""
    raw = next(
        (value for key, value in trailers or () if str(key).lower() == DETAILS_KEY), None
    )
    if not isinstance(raw, bytes):
        return None
    try:
        from google.rpc import error_details_pb2, status_pb2
    except ImportError:  # googleapis-common-protos not installed: the trailers will do
        return None
    try:
        status = status_pb2.Status.FromString(raw)
    except Exception:
        return None
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Is(info.DESCRIPTOR) and detail.Unpack(info) and info.domain == DOMAIN:
            version: int | None
            try:
                version = int(info.metadata["version"])
            except (KeyError, ValueError):
                version = None
            return RichRefusal(info.reason, status.message, version, dict(info.metadata))
    return None
