"""Refusals as gRPC users expect them: ``google.rpc.Status`` with an ``ErrorInfo``.

Every refusal leaves with its gRPC code and the sentence ``REASON: message``,
and carries the same facts three ways, so that every kind of client finds them:

- the rich status (``grpc-status-details-bin``): ``google.rpc.Status`` whose
  details hold one ``google.rpc.ErrorInfo`` with ``reason`` (the stable
  reason code), ``domain`` ``"arbiter"`` and ``metadata["version"]`` (the
  game's current version, ``"0"`` when no game is known) -- what
  ``grpc_status.rpc_status.from_call`` and other languages' status helpers read;
- the trailers ``arbiter-reason`` and ``arbiter-version``, as before, for
  existing clients.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import grpc
from arbiter.wire import WireError
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2

from aggregates.kernel import Reason, RuleError
from service.errors import ServiceError

DOMAIN = "arbiter"
#: The rules' reasons that say the request itself is wrong (INVALID_ARGUMENT);
#: every other rule refusal is FAILED_PRECONDITION (the game's state refuses it).
INVALID_REASONS = {
    Reason.BAD_ARGUMENT, Reason.UNKNOWN_COMMAND, Reason.BAD_OPTIONS,
    Reason.BAD_SEATS, Reason.UNKNOWN_SEAT,
}
DETAILS_KEY = "grpc-status-details-bin"


@dataclasses.dataclass(frozen=True)
class RefusalStatus(grpc.Status):  # type: ignore[misc]
    """A ``grpc.Status`` for ``ServicerContext.abort_with_status``."""

    code: grpc.StatusCode
    details: str
    trailing_metadata: tuple[tuple[str, str | bytes], ...]


def error_info(reason: str, version: int) -> error_details_pb2.ErrorInfo:
    return error_details_pb2.ErrorInfo(
        reason=reason, domain=DOMAIN, metadata={"version": str(version)}
    )


def refusal(code: grpc.StatusCode, reason: str, message: str, version: int) -> RefusalStatus:
    """The status a refusal leaves with: code, sentence, rich details and trailers."""
    details = f"{reason}: {message}"
    packed = any_pb2.Any()
    packed.Pack(error_info(reason, version))
    rich = status_pb2.Status(code=code.value[0], message=details, details=[packed])
    return RefusalStatus(
        code=code,
        details=details,
        trailing_metadata=(
            ("arbiter-reason", reason),
            ("arbiter-version", str(version)),
            (DETAILS_KEY, rich.SerializeToString()),
        ),
    )


@dataclasses.dataclass(frozen=True)
class Refused:
    """What a refusal says, whatever raised it: a gRPC status name, the
    stable reason code, the sentence, and the game's version (0: not known)."""

    status: str
    reason: str
    message: str
    version: int


def refused(exc: ServiceError | RuleError | WireError) -> Refused:
    """A refusal's facts, the same for a unary call's status and for a move
    refused on a ``Play`` stream (which stays open)."""
    if isinstance(exc, ServiceError):
        return Refused(exc.status, exc.reason, exc.message, exc.version)
    if isinstance(exc, RuleError):
        status = "INVALID_ARGUMENT" if exc.reason in INVALID_REASONS else "FAILED_PRECONDITION"
        if exc.reason == Reason.STALE_DECISION:
            status = "ABORTED"  # as VERSION_MISMATCH: read again, then decide
        return Refused(status, exc.reason.value, exc.message, getattr(exc, "version", 0))
    return Refused("INVALID_ARGUMENT", "BAD_COMMAND", str(exc), 0)


def abort(
    context: grpc.ServicerContext, exc: Exception, known: Callable[[], int] | None = None
) -> None:
    """Leave with the refusal's status (see ``service.status``): the game's version
    is the current one wherever a game is known, authentication refusals included."""
    leaving = leaving_status(exc, known)
    context.set_trailing_metadata(leaving.trailing_metadata)  # as abort_with_status does
    context.abort(leaving.code, leaving.details)


async def abort_async(context: Any, exc: Exception,
                      known: Callable[[], int] | None = None) -> None:
    """``abort`` for a handler on the server's loop (``service.aio``)."""
    leaving = leaving_status(exc, known)
    context.set_trailing_metadata(leaving.trailing_metadata)
    await context.abort(leaving.code, leaving.details)


def leaving_status(exc: Exception, known: Callable[[], int] | None) -> RefusalStatus:
    """A refusal's status: a refusal's own (its code, reason, message and
    version), any other error a bad command; the game's version where the
    refusal names none (``known``)."""
    if isinstance(exc, (ServiceError, RuleError, WireError)):
        facts = refused(exc)
        status, reason, message, version = facts.status, facts.reason, facts.message, facts.version
    else:
        status, reason, message, version = "INVALID_ARGUMENT", "BAD_COMMAND", str(exc), 0
    if not version and known is not None and status != "INTERNAL":
        version = known()
    return refusal(getattr(grpc.StatusCode, status), reason, message, version)
