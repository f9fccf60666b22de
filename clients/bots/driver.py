"""A bot at a seat, fed by what the seat's ``Play`` stream carries: the events
in the seat's form (``GameBot.on_message``) and each turn (``GameBot.choose``),
deciding at its level (``clients.bots``) from that alone, with a belief
guessed from the seat's own record (``clients.bots.belief``).

The command ``arbiter bot`` (``clients.bot``) runs it over a stream of its
own; the server runs it for the bots it hosts (``service.hostedbots``), handing
it the same messages. It imports nothing of the command line.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import random
from typing import Any

from arbiter.play import Move
from arbiter.v1 import game_pb2

from aggregates.kernel import Game
from aggregates.kernel.record.audit import Record
from aggregates.kernel.unseen import Inconsistent
from clients import bots
from clients.bots import Determiniser, Legal, NoBelief, Observation
from clients.bots.belief import Guess, Read, completes


class BotUsage(ValueError):
    """Bad input to ``arbiter bot`` (exit status 2, ``BAD_ARGUMENT``)."""


@dataclasses.dataclass
class Seat:
    """One seat a bot plays: its level's function and the record it has read."""

    seat: int
    bot: bots.Bot
    level: str
    #: The seat's record as the stream delivered it, in version order, each
    #: event with whether it reached the seat in its public form.
    reads: list[Read] = dataclasses.field(default_factory=list)
    #: Decisions a searching level made at random for want of a belief.
    blind: int = 0
    decisions: int = 0
    #: The world guessed from the seat's record (``clients.bots.belief``),
    #: kept from turn to turn so each event is folded once.
    guess: Guess | None = None
    #: Why no world could be guessed (the game says not how, or the record
    #: did not fold): the searching levels then play at random.
    unguessable: str = ""

    @property
    def records(self) -> list[Record]:
        return [read.record for read in self.reads]

    def seen(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        """The seat's record as ``Observation.seen`` holds it."""
        return tuple((r.record.type, dict(r.record.payload)) for r in self.reads)


def record_of(event: game_pb2.Event) -> Record:
    """A streamed event as a plain record. Of the kernel's meta a seat gets
    only the hash-chain links; the dice counter is the full record's, so it is
    0 here (a sampled world draws its own dice from a seed of its own)."""
    when = event.time.ToDatetime(tzinfo=datetime.UTC).isoformat()
    return Record(event.game_id, event.version, event.type, when,
                  json.loads(event.payload_json or "{}"),
                  {"digest": event.digest, "prev": event.prev_digest, "rng": 0}, event.digest,
                  event.prev_digest)


def game_class(state: game_pb2.GameState) -> type[Game]:
    """The rules the game is played by, at its version. The catalogue is read here,
    not when the module is: every ``arbiter`` command builds its parser with
    ``register`` below, and importing every game costs each of them most of a
    second."""
    from aggregates.catalog import GAMES, rules_class

    cls = rules_class(state.rules, state.rules_version) or GAMES.get(state.rules)
    if cls is None:
        raise BotUsage(f"UNKNOWN_RULES: this client does not know the rules "
                       f"{state.rules} {state.rules_version}")
    return cls


def legal_moves(cls: type[Game], turn: game_pb2.PlayTurn) -> tuple[Legal, ...]:
    """The turn's legal commands as the rules' own commands, each with the
    decision it answers (the seat's only pending decision, else none named)."""
    mine = [d.id for d in turn.state.pending if d.seat == turn.seat]
    decision = mine[0] if len(mine) == 1 else ""
    out = []
    for action in turn.actions:
        spec = json.loads(action.json)
        command = cls.COMMANDS.parse(str(spec["name"]), spec.get("args", {}))
        out.append(Legal(command, decision, action.label))
    return tuple(out)


def belief_of(cls: type[Game], seat: Seat, version: int, seed: str = "",
              view: dict[str, Any] | None = None) -> Determiniser | None:
    """The seat's belief, from its own record alone: a world guessed from it
    (``clients.bots.belief``: hidden setup and the cards read only in public
    form drawn at random, consistent with everything the seat read), whose
    hidden cards the determiniser deals again for every sample. None when the
    record does not reach the turn's version, or the game does not say how to
    complete what it hides (then the decision is made at random, and counted).
    ``view``: the turn's view of the seat, which the guess is aligned to where
    the game's events leave out what it shows (``Guess.align``)."""
    if seat.unguessable or not seat.reads or seat.reads[-1].record.version != version:
        return None
    if [r.record.version for r in seat.reads] != list(range(1, version + 1)):
        return None
    if not completes(cls):
        seat.unguessable = f"{cls.RULES_ID} does not say how to complete its hidden events"
        return None
    # A guess that cannot hold what the seat read (a completion's mistake) is
    # made again from the whole record with other draws, once.
    error = ""
    for attempt in range(2):
        try:
            if seat.guess is None:
                seat.guess = Guess(cls, seat.seat,
                                   random.Random(f"{seed}:{seat.seat}:{attempt}"))
            seat.guess.add(seat.reads[seat.guess.folded:])
            if view is not None:
                seat.guess.align(view)
            return seat.guess.belief()
        except NoBelief as exc:
            seat.unguessable = str(exc)
            return None
        except Inconsistent as exc:
            seat.guess, error = None, str(exc)
    seat.unguessable = error
    return None


def observation(cls: type[Game], seat: Seat, turn: game_pb2.PlayTurn,
                searching: bool) -> Observation:
    """What the seat knows at this turn, from the stream alone."""
    view = json.loads(turn.state.view_json or "{}")
    belief = (belief_of(cls, seat, turn.state.version, turn.state.game_id, view) if searching
              else None)
    return Observation(seat=turn.seat, rules=turn.state.rules,
                       players=len(turn.state.seats), view=view,
                       legal=legal_moves(cls, turn), seen=seat.seen(), belief=belief)


class GameBot:
    """The seats of one game a process plays, on one stream."""

    def __init__(self, game_id: str, seats: dict[int, Seat], keep: bool = False) -> None:
        self.game_id = game_id
        self.seats = seats
        #: With ``keep``: each observation the bot decided from, in order, for
        #: whoever checks the bot (off by default: each holds a world's copy).
        self.keep = keep
        self.observations: list[Observation] = []

    def on_message(self, message: game_pb2.PlayMessage) -> None:
        """Each event goes to the seats it was delivered for, in their form.
        An event with no seats named is for every seat of the stream."""
        for item in message.events:
            targets = list(item.for_seats) or list(self.seats)
            for number in targets:
                seat = self.seats.get(number)
                if seat is None:
                    continue
                seat.reads.append(Read(record_of(item.event), item.event.redacted))

    def choose(self, turn: game_pb2.PlayTurn) -> Move | None:
        """The seat's level's move for the turn (random when its level
        searches and the seat's record cannot be folded: see the module)."""
        seat = self.seats.get(turn.seat)
        if seat is None or not turn.actions:
            return None
        cls = game_class(turn.state)
        searching = seat.level != "random"
        obs = observation(cls, seat, turn, searching)
        if self.keep:
            self.observations.append(obs)
        seat.decisions += 1
        chooser = seat.bot
        if searching and obs.belief is None and len(obs.legal) > 1:
            seat.blind += 1
            chooser = bots.make("random", f"{self.game_id}:{turn.seat}:{seat.decisions}")
        move = chooser(obs)
        return Move(_wire_command(turn, obs, move.command), move.decision_id)


def _wire_command(turn: game_pb2.PlayTurn, obs: Observation, command: Any) -> game_pb2.Command:
    """The listed typed command the bot's choice is (a bot only picks listed ones)."""
    for action, item in zip(turn.actions, obs.legal, strict=True):
        if item.command == command:
            return action.command
    raise RuntimeError(f"BOT_MOVE_NOT_LISTED: seat {obs.seat} chose {command!r}, "
                       "which its turn did not list")
