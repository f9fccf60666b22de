"""The client reads google.rpc.Status/ErrorInfo when present, else the trailers."""

from __future__ import annotations

import grpc
from arbiter.client import ArbiterError

from service.status import refusal


def test_rich_status_alone_is_enough() -> None:
    status = refusal(grpc.StatusCode.ABORTED, "VERSION_MISMATCH", "the game is at 7", 7)
    rich_only = [(k, v) for k, v in status.trailing_metadata if not k.startswith("arbiter-")]
    error = ArbiterError.from_parts(status.code, status.details, rich_only)
    assert (error.reason, error.version, error.message) == (
        "VERSION_MISMATCH", 7, "the game is at 7")


def test_rich_status_wins_over_the_trailers() -> None:
    status = refusal(grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN", "not valid", 12)
    trailers = [("arbiter-reason", "OLD"), ("arbiter-version", "0"),
                *[(k, v) for k, v in status.trailing_metadata if k.endswith("-bin")]]
    error = ArbiterError.from_parts(status.code, status.details, trailers)
    assert (error.reason, error.version) == ("BAD_TOKEN", 12)


def test_trailers_only_from_an_older_server() -> None:
    error = ArbiterError.from_parts(
        grpc.StatusCode.NOT_FOUND, "UNKNOWN_GAME: no game 'x'",
        [("arbiter-reason", "UNKNOWN_GAME"), ("arbiter-version", "0")])
    assert (error.reason, error.version, error.message) == ("UNKNOWN_GAME", 0, "no game 'x'")


def test_garbage_details_fall_back_to_the_trailers() -> None:
    error = ArbiterError.from_parts(
        grpc.StatusCode.ABORTED, "VERSION_MISMATCH: stale",
        [("arbiter-reason", "VERSION_MISMATCH"), ("arbiter-version", "4"),
         ("grpc-status-details-bin", b"\xff\xfe not a status")])
    assert (error.reason, error.version) == ("VERSION_MISMATCH", 4)
