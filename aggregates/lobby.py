"""The lobby: tables where players find each other before a game starts.

A table is an event-sourced aggregate like a game: each command decides
first (every check, refused with a ``LobbyReason`` before anything is
recorded) and then triggers one event, named as the fact it records, whose
body only changes state. Its events replay and audit like a game's:

- ``TableOpened``: the rules, the seats (each open, given to a named player,
  or to a bot), the options, and the table it is a new round of (play again);
  a seat may name the level a bot plays it at and its seconds per decision
  (``level``, ``budget``: the bot given the seat, or the one that takes it
  when it is still open at the start or its player leaves the game; checked
  by the service, which hosts the bots);
- ``SeatTaken``: a player sat down in an open seat, by name;
- ``SeatLeft``: a player left before the start; the seat is open again;
- ``BotTookSeat``: a player left a started game; a bot plays their seat on;
- ``TableStarted``: the game was created; the seats still open are bots';
- ``PlayAgainOffered``: a new table of the same players was opened after
  the game, named here so every player finds it;
- ``TableClosed``: a waiting table no one joined or left for the server's
  idle time (``close_if_idle``): it leaves the listings, and its open seats
  can no longer be taken.

The lobby knows nothing of a game's rules: the service checks the rules and
their seat counts and creates the game. Modelled on boardgame.io's Lobby
(create, join, leave, playAgain) and its credentials: each seat holder's
secret is derived by the service from the seat and the number of the taking
(``Seat.taking``), so a player who left holds no secret for the seat's next
holder.
"""

from __future__ import annotations

import unicodedata
import uuid
from datetime import datetime
from enum import StrEnum
from typing import Any

from eventsourcing.domain import Aggregate, event

from aggregates.kernel.errors import RuleError

#: What may sit in a seat.
OPEN = "open"
PLAYER = "player"
BOT = "bot"
KINDS = (OPEN, PLAYER, BOT)
#: Where a table is: players gather, then the game is on; or no one came
#: (closed, idle: ``Lobby.close_if_idle``).
WAITING = "waiting"
STARTED = "started"
CLOSED = "closed"
MAX_NAME = 32
MAX_TABLE_SEATS = 16
#: The most seat takings a table records (``Lobby.takings``): a seat joined
#: and left in a loop would grow a waiting table's events without end.
MAX_TAKINGS = 256


class LobbyReason(StrEnum):
    """Why the lobby refuses a command. Never rename one; add new ones."""

    BAD_NAME = "BAD_NAME"
    BAD_SEATS = "BAD_SEATS"
    UNKNOWN_SEAT = "UNKNOWN_SEAT"
    SEAT_TAKEN = "SEAT_TAKEN"
    TABLE_FULL = "TABLE_FULL"
    NAME_TAKEN = "NAME_TAKEN"
    NOT_SEATED = "NOT_SEATED"
    TABLE_STARTED = "TABLE_STARTED"
    NOT_STARTED = "NOT_STARTED"
    NOT_ENOUGH_PLAYERS = "NOT_ENOUGH_PLAYERS"
    GAME_NOT_OVER = "GAME_NOT_OVER"
    GAME_OVER = "GAME_OVER"
    TOO_MANY_TAKINGS = "TOO_MANY_TAKINGS"
    TABLE_CLOSED = "TABLE_CLOSED"
    TOO_MANY_WAITING_TABLES = "TOO_MANY_WAITING_TABLES"
    BAD_LEVEL = "BAD_LEVEL"
    BAD_BUDGET = "BAD_BUDGET"


#: The reasons that say the request itself is malformed (the rest: the table's
#: state refuses it).
INVALID = {LobbyReason.BAD_NAME, LobbyReason.BAD_SEATS, LobbyReason.UNKNOWN_SEAT,
           LobbyReason.BAD_LEVEL, LobbyReason.BAD_BUDGET}
#: The reasons that say the caller has used its share of the lobby (the
#: service's decision, per caller: ``service.lobby``).
EXHAUSTED = {LobbyReason.TOO_MANY_WAITING_TABLES}


def refuse(reason: LobbyReason, message: str) -> RuleError:
    return RuleError(reason, message)


def player_name(name: str) -> str:
    """A name as players see it: stripped, 1 to ``MAX_NAME`` printable characters."""
    cleaned = name.strip() if isinstance(name, str) else ""
    if not cleaned or len(cleaned) > MAX_NAME or not cleaned.isprintable():
        raise refuse(LobbyReason.BAD_NAME,
                     f"a player's name is 1 to {MAX_NAME} printable characters")
    return cleaned


def reads_as(name: str) -> str:
    """A name as a reader tells it from another: case and width folded
    (``Ada``, ``ada`` and ``Ａda`` are one name to a person at the table)."""
    return unicodedata.normalize("NFKC", name).casefold()


def seat_names(seats: list[dict[str, Any]]) -> list[str]:
    """The names the game's seats get: each player's, each bot's (an open
    seat's and an unnamed bot's: ``Bot`` and the seat's number)."""
    return [s["name"] or f"Bot {n + 1}" for n, s in enumerate(seats)]


def check_unique(seats: list[dict[str, Any]], seat: int, name: str) -> None:
    """Refuse ``name`` for ``seat`` when it reads as another seat's name."""
    others = {reads_as(n) for k, n in enumerate(seat_names(seats)) if k != seat}
    if reads_as(name) in others:
        raise refuse(LobbyReason.NAME_TAKEN, f"{name!r} reads as a name at this table already")


def check_size(rules: str, count: int, min_seats: int, max_seats: int) -> None:
    """Refuse a table of ``count`` seats where the rules seat fewer or more
    (checked from the number alone, before any seat is made: a request's
    count is a ``uint32``, four billion seats at most)."""
    most = min(max_seats, MAX_TABLE_SEATS)
    if not min_seats <= count <= most:
        raise refuse(LobbyReason.BAD_SEATS,
                     f"{rules} seats {min_seats} to {most} players, not {count}")


def seat_spec(kind: str, name: str = "", level: str = "", budget: float = 0.0
              ) -> dict[str, Any]:
    """A seat as ``TableOpened`` records it, checked: an open seat has no
    name; a player's is its name; a bot's is its name or ``Bot``. ``level``
    and ``budget``: how a bot plays the seat, recorded when given (the
    service has checked them against the levels it hosts)."""
    if kind not in KINDS:
        raise refuse(LobbyReason.BAD_SEATS, f"a seat is one of {', '.join(KINDS)}, not {kind!r}")
    bot = bot_of({"level": level, "budget": budget})
    if kind == OPEN:
        return {"kind": OPEN, "name": "", **bot}
    if kind == BOT:
        return {"kind": BOT, "name": player_name(name) if name.strip() else "", **bot}
    return {"kind": PLAYER, "name": player_name(name), **bot}


def bot_of(seat: dict[str, Any]) -> dict[str, Any]:
    """How a bot plays ``seat``, where the seat says (a table opened before
    seats named a level says nothing: its bots play at random)."""
    out: dict[str, Any] = {}
    if seat.get("level"):
        out["level"] = str(seat["level"])
    if seat.get("budget"):
        out["budget"] = float(seat["budget"])
    return out


class Lobby(Aggregate):
    """One table: its seats and who holds them, then the game it started."""

    @staticmethod
    def create_id(table_id: uuid.UUID, **_: Any) -> uuid.UUID:
        """A table's id is chosen by the service (random, or derived from the
        table it is a new round of, so that every player's "play again"
        reaches the same new table)."""
        return table_id

    @classmethod
    def open(cls, table_id: uuid.UUID, rules: str, seats: list[dict[str, Any]],
             options_json: str, min_seats: int, max_seats: int,
             again_of: str = "") -> Lobby:
        """Decide a new table: between the rules' fewest and most seats, no
        player's name twice, and a seat for a player (given or open): a
        table of bots alone could never start (``start``), so it is not
        recorded to wait for ever."""
        check_size(rules, len(seats), min_seats, max_seats)
        checked = [seat_spec(str(s.get("kind", "")), str(s.get("name", "")),
                             str(s.get("level", "")), float(s.get("budget", 0.0)))
                   for s in seats]
        if all(spec["kind"] == BOT for spec in checked):
            raise refuse(LobbyReason.NOT_ENOUGH_PLAYERS,
                         "a table needs a seat for a player: given, or open to join")
        for n, spec in enumerate(checked):
            if spec["name"]:
                check_unique(checked, n, spec["name"])
        return cls(table_id=table_id, rules=rules, seats=checked, options_json=options_json,
                   again_of=again_of)

    @event("TableOpened")
    def __init__(self, table_id: uuid.UUID, rules: str, seats: list[dict[str, Any]],
                 options_json: str, again_of: str) -> None:
        self.rules = rules
        self.options_json = options_json
        self.again_of = again_of
        self.status = WAITING
        self.game_id = ""
        self.next_table = ""
        #: The idle time that closed the table (``TableClosed``), else 0.
        self.closed_after = 0.0
        #: How many times a seat was taken at this table: each taking's number
        #: keys its holder's secret.
        self.takings = 0
        self.seats: list[dict[str, Any]] = []
        for spec in seats:
            self.seats.append(dict(spec, taking=self._taken() if spec["kind"] != OPEN else 0))

    def _taken(self) -> int:
        self.takings += 1
        return self.takings

    # ------------------------------------------------------------ reading

    @property
    def open_seats(self) -> list[int]:
        return [n for n, s in enumerate(self.seats) if s["kind"] == OPEN]

    @property
    def full(self) -> bool:
        return not self.open_seats

    def holder(self, seat: int) -> dict[str, Any]:
        if not 0 <= seat < len(self.seats):
            raise refuse(LobbyReason.UNKNOWN_SEAT,
                         f"seats are numbered 0 to {len(self.seats) - 1}, not {seat}")
        return self.seats[seat]

    def names(self) -> list[str]:
        """The names the game's seats get: each player's, each bot's."""
        return seat_names(self.seats)

    @property
    def gathering(self) -> bool:
        """Waiting with a seat open: what a listing shows and a quick match joins."""
        return self.status == WAITING and not self.full

    def idle(self, now: datetime, idle_seconds: float) -> bool:
        """Whether the table gathers players and no one opened, joined or left
        it for ``idle_seconds`` (its last event's time: a waiting table's
        events are those). A full table waiting for its game is not idle: its
        start is owed to its players (``service.lobby``, ``started_when_it_can``)."""
        return self.gathering and (now - self.modified_on).total_seconds() >= idle_seconds

    # ------------------------------------------------------------ decide

    def take(self, name: str, seat: int | None = None) -> int:
        """A player sits down by name: in ``seat``, else the first open one."""
        cleaned = player_name(name)
        self._waiting("join")
        if self.takings >= MAX_TAKINGS:
            raise refuse(LobbyReason.TOO_MANY_TAKINGS,
                         f"this table's seats were taken {MAX_TAKINGS} times: open a new one")
        if seat is None:
            if self.full:
                raise refuse(LobbyReason.TABLE_FULL, "every seat of this table is taken")
            seat = self.open_seats[0]
        elif self.holder(seat)["kind"] != OPEN:
            raise refuse(LobbyReason.SEAT_TAKEN, f"seat {seat + 1} is not open")
        check_unique(self.seats, seat, cleaned)
        self._seat_taken(seat=seat, name=cleaned)
        return seat

    def leave(self, seat: int, game_over: bool) -> None:
        """A player leaves: before the start the seat opens again; during the
        game a bot plays it on; after the game there is nothing to leave."""
        if self.holder(seat)["kind"] != PLAYER:
            raise refuse(LobbyReason.NOT_SEATED, f"no player holds seat {seat + 1}")
        self._not_closed("leave")
        if self.status == WAITING:
            self._seat_left(seat=seat)
        elif game_over:
            raise refuse(LobbyReason.GAME_OVER, "the game is over: there is no seat to leave")
        else:
            self._bot_took_seat(seat=seat)

    def close_if_idle(self, now: datetime, idle_seconds: float) -> bool:
        """Close the table when it is ``idle`` at ``now``; False when it is
        not. Tables no one comes to would otherwise wait for ever, pushing
        the tables players do come to out of the listings."""
        if not self.idle(now, idle_seconds):
            return False
        self._table_closed(idle_seconds=idle_seconds)
        return True

    def start(self, game_id: str, min_seats: int) -> None:
        """The game was created: bots take the seats still open (when the
        table's creator starts it before it is full)."""
        self._waiting("start")
        if not any(s["kind"] == PLAYER for s in self.seats):
            raise refuse(LobbyReason.NOT_ENOUGH_PLAYERS, "no player sits at this table")
        if len(self.seats) < min_seats:
            raise refuse(LobbyReason.NOT_ENOUGH_PLAYERS, f"the rules need {min_seats} seats")
        self._table_started(game_id=game_id, bots=self.open_seats)

    def offer_again(self, next_table: str, game_over: bool) -> bool:
        """Name the next round's table; False when one is named already."""
        self._not_closed("play again")
        if self.status != STARTED:
            raise refuse(LobbyReason.NOT_STARTED, "the game has not started")
        if not game_over:
            raise refuse(LobbyReason.GAME_NOT_OVER, "play again once the game is over")
        if self.next_table:
            return False
        self._play_again_offered(next_table=next_table)
        return True

    def next_round_seats(self) -> list[dict[str, Any]]:
        """The seats of the next round: the same players and bots, each one
        seat on (the first player of this round is the last of the next)."""
        count = len(self.seats)
        moved: list[dict[str, Any]] = [{} for _ in range(count)]
        for n, s in enumerate(self.seats):
            moved[(n + 1) % count] = {"kind": s["kind"], "name": s["name"], **bot_of(s)}
        return moved

    def _waiting(self, what: str) -> None:
        self._not_closed(what)
        if self.status != WAITING:
            raise refuse(LobbyReason.TABLE_STARTED, f"cannot {what}: the game has started")

    def _not_closed(self, what: str) -> None:
        if self.status == CLOSED:
            raise refuse(LobbyReason.TABLE_CLOSED,
                         f"cannot {what}: the table closed, no one joined or left it for "
                         f"{self.closed_after:g} seconds; open or quick-match a new one")

    # ------------------------------------------------------------ apply

    @event("SeatTaken")
    def _seat_taken(self, seat: int, name: str) -> None:
        self.seats[seat] = {"kind": PLAYER, "name": name, "taking": self._taken(),
                            **bot_of(self.seats[seat])}

    @event("SeatLeft")
    def _seat_left(self, seat: int) -> None:
        self.seats[seat] = {"kind": OPEN, "name": "", "taking": 0, **bot_of(self.seats[seat])}

    @event("BotTookSeat")
    def _bot_took_seat(self, seat: int) -> None:
        self.seats[seat] = dict(self.seats[seat], kind=BOT)

    @event("TableStarted")
    def _table_started(self, game_id: str, bots: list[int]) -> None:
        self.status = STARTED
        self.game_id = game_id
        for seat in bots:
            self.seats[seat] = {"kind": BOT, "name": f"Bot {seat + 1}", "taking": self._taken(),
                                **bot_of(self.seats[seat])}

    @event("PlayAgainOffered")
    def _play_again_offered(self, next_table: str) -> None:
        self.next_table = next_table

    @event("TableClosed")
    def _table_closed(self, idle_seconds: float) -> None:
        self.status = CLOSED
        self.closed_after = idle_seconds
