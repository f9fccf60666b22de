"""Reading a game's past: the state at a version, and events' global positions.

``GetState`` with a version serves the game as it was after that version,
rebuilt by the library's repository from the nearest snapshot at or below it
that passes its seal and chain checks (``service.snapshots``: an edited one
is passed over, and the past rebuilt from an older one or from the events)
plus the events since, and shown as the reader saw it then: a seat its own
view (the admin any seat's), a spectator the public one. Once the game is
over any credential of the game reads any version of any seat, as ``History``
gives everyone the full record then.

``positions`` finds where each of a game's events sits in the store's global
notification log, with one indexed query (SQLite's rowid, PostgreSQL's
notification_id), so ``History`` envelopes carry their real position.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from aggregates.kernel import Game
from service import auth
from service.application import ArbiterApp
from service.envelope import Reader
from service.errors import ServiceError
from service.eventstable import event_rows
from service.ids import check_position, parse_game_id
from service.readmodel import facts_of


def game_at(
    app: ArbiterApp, game_id: str, version: int, game: Game | None = None
) -> tuple[Game, Game]:
    """(the game now, the game at ``version``), or OUT_OF_RANGE. ``game``: the
    game now, when the caller has it loaded already."""
    game = game or app.game(game_id)
    if not 1 <= version <= game.version:
        raise ServiceError(
            "OUT_OF_RANGE", "BAD_VERSION",
            f"the game has versions 1 to {game.version}, not {version}", game.version,
        )
    if version == game.version:
        return game, game
    past: Any = app.repository.get(game.id, version=version)
    if not isinstance(past, Game) or past.version != version:
        raise ServiceError("DATA_LOSS", "BAD_STORE",
                           f"version {version} cannot be rebuilt", game.version)
    return game, past


@dataclasses.dataclass(frozen=True)
class Past:
    """A past version of a game as one caller may read it: the game then,
    who reads it, and the seed when the game is over (revealed by then)."""

    game: Game
    reader: Reader
    seed: str


def past_for(store: ArbiterApp, request: Any, caller: auth.Caller) -> Past:
    """``GetState`` with a version (see the module's doc), for ``caller``
    (identified once by the call, its seat filled in). The caller is
    authorized before the past is rebuilt (up to a snapshot interval of
    events replayed): a caller without a credential costs no replay."""
    game = store.game(request.game_id)
    facts_of(game, None if request.spectator else request.seat)  # UNKNOWN_SEAT
    if game.ended:
        if not auth.public_read(game.ended, caller.token):  # a finished game's past is public
            auth.require(*caller)
        reader = Reader(None if request.spectator else request.seat, full=True)
    else:
        reader = auth.reader_for(caller, game.ended, request.seat, request.spectator)
        if caller.principal.admin:
            reader = Reader(reader.seat, full=True)
    _, past = game_at(store, request.game_id, request.version, game)
    return Past(past, reader, game.seed if game.ended else "")


def positions(app: ArbiterApp, game_id: str, after: int = 0) -> dict[int, int]:
    """{version: global notification position} of a game's events after ``after``."""
    gid = parse_game_id(game_id)
    check_position(after)
    return dict(event_rows(
        app,
        "SELECT originator_version, notification_id FROM {events} "
        "WHERE originator_id = %s AND originator_version > %s", [gid, after],
        "SELECT originator_version, rowid FROM {events} "
        "WHERE originator_id = ? AND originator_version > ?", [gid.hex, after]))
