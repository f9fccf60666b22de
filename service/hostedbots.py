"""Bots the server hosts, held to their seat's information as ``arbiter bot`` is.

Two places of the server play seats with bots: a lobby table's bot seats
(``service.lobby.TableBots``, in process) and the web's "play against bots"
(``service.web.bots``, over the web side's own calls). Both decide here, with
the very code ``arbiter bot`` runs over the per-seat ``Play`` stream
(``clients.bots.driver.GameBot``): a seat's level (``clients.bots``: random, greedy,
IS-MCTS) is handed only what that stream would carry to the seat —

- its record, each event in the form its seat may read it (``read``: the
  events a ``Reader`` of the seat gets, ``redacted`` marking the public
  forms), from which the searching levels guess the worlds it may be in
  (``clients.bots.belief``);
- each turn as a ``PlayTurn``: the game as the seat sees it and its legal
  commands (``choose``).

Nothing the server holds beyond that reaches a bot: ``SeatBots`` is given no
game object, store or admin reader, only those messages. A searching level
thinks for its seat's budget per decision, at most the server's
``Settings.bot_budget_seconds``; its CPU is the table's host's or the game's
creator's, charged where the two places run it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from arbiter.play import Move
from arbiter.v1 import game_pb2

from clients import bots
from clients.bots.driver import GameBot, Seat

#: The levels a hosted bot plays at (``clients.bots.LEVELS``); the first is
#: every bot seat's unless told.
LEVELS = bots.LEVELS
DEFAULT_LEVEL = "random"


class LevelError(ValueError):
    """A bot seat's level or budget the server does not host: ``reason`` is
    ``BAD_LEVEL`` or ``BAD_BUDGET``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message


@dataclasses.dataclass(frozen=True)
class BotLevel:
    """How a bot seat plays: its level, and the seconds a searching level may
    think per decision."""

    level: str = DEFAULT_LEVEL
    budget: float = 0.0


def bot_level(level: str, budget: float, most: float) -> BotLevel:
    """A bot seat's level, checked: one of ``LEVELS`` ("" is ``DEFAULT_LEVEL``),
    ``budget`` seconds from above 0 to the server's ``most`` (0 is ``most``)."""
    level = level or DEFAULT_LEVEL
    if level not in LEVELS:
        raise LevelError("BAD_LEVEL", f"a bot's level is one of {', '.join(LEVELS)}, "
                                      f"not {level[:40]!r}")
    if not 0 <= budget <= most:  # NaN fails both
        raise LevelError("BAD_BUDGET", f"a bot's budget is at most this server's {most:g} s "
                                       f"a decision, not {budget:g}")
    return BotLevel(level, budget or most)


class SeatBots:
    """The bot seats of one game, each deciding from its seat's messages alone
    (see the module). Not thread-safe: one caller drives a game's bots."""

    def __init__(self, game_id: str, most: float, seed: str = "", keep: bool = False) -> None:
        self.game_id = game_id
        #: The server's most seconds a decision, whatever a seat was given.
        self.most = most
        self.seed = seed or game_id
        #: ``arbiter bot``'s driver; with ``keep``, each observation it decided
        #: from is kept (``observations``), for whoever checks the bots.
        self.driver = GameBot(game_id, {}, keep)

    @property
    def seats(self) -> dict[int, Seat]:
        return self.driver.seats

    @property
    def observations(self) -> list[bots.Observation]:
        return self.driver.observations

    def take(self, seat: int, level: BotLevel) -> None:
        """A bot plays ``seat`` from now on (a seat taken already is kept: its
        record read so far stays). Its record is read from the start."""
        if seat in self.seats:
            return
        budget = min(level.budget or self.most, self.most)
        self.seats[seat] = Seat(seat, bots.make(level.level, f"{self.seed}:{seat}", budget),
                                level.level)

    def after(self, seat: int) -> int:
        """The last version of ``seat``'s record read (0: none)."""
        reads = self.seats[seat].reads
        return reads[-1].record.version if reads else 0

    def reads_record(self, seat: int) -> bool:
        """Whether ``seat``'s level decides from its record (a searching one's
        belief is guessed from it); a random bot's is never read, so its
        record need not be fetched."""
        return self.seats[seat].level != "random"

    def read(self, seat: int, events: Iterable[game_pb2.Event]) -> None:
        """More of ``seat``'s record, in version order, as its seat reads it
        (events read already are skipped)."""
        last = self.after(seat)
        fresh = [game_pb2.PlayEvent(event=e, for_seats=[seat]) for e in events
                 if e.version > last]
        if fresh:
            self.driver.on_message(game_pb2.PlayMessage(events=fresh))

    def choose(self, turn: game_pb2.PlayTurn) -> Move | None:
        """The seat's move for ``turn`` (its level's, as ``arbiter bot``'s); None
        when the seat is not a bot's or nothing is listed for it."""
        return self.driver.choose(turn)
