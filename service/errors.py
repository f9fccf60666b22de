"""Service-level refusals, each with a stable reason code like the rules' own."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the service refuses before or around the rules.

    ``status`` names a gRPC status code (``grpc.StatusCode`` member name);
    ``version`` is the game's current version where one is known.
    """

    def __init__(self, status: str, reason: str, message: str, version: int = 0) -> None:
        super().__init__(f"{reason}: {message}")
        self.status = status
        self.reason = reason
        self.message = message
        self.version = version


def unknown_game(game_id: str) -> ServiceError:
    return ServiceError("NOT_FOUND", "UNKNOWN_GAME", f"no game {game_id!r}")


def bad_request(reason: str, message: str) -> ServiceError:
    return ServiceError("INVALID_ARGUMENT", reason, message)
