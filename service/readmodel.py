"""What a reader receives of a game at a version, computed once per audience.

A read of a game (``GetState``, an ``Act`` reply's state, ``LegalActions``)
used to rebuild the view, the screen, the pending decisions and their
choices, and encode each as JSON, for every call, even when the game had not
changed since the last one: a hundred spectators of one table paid for a
hundred identical renderings. Here each is made once per (game, version,
audience) and the encoded result, immutable plain values, is handed to every
caller that shares that audience. A game's newest version only is kept (a
new version makes the older readings unreachable), for the most recently read
``GAMES_KEPT`` games.

A reading is a pure function of the game's events up to its version (the
kernel's reads change nothing: tests/property/test_reads_are_pure.py), and it
is made from the cached game under that game's lock, after its command was
saved, so it is never of a half-applied or refused command.
"""

from __future__ import annotations

import collections
import dataclasses
import threading
import uuid
import weakref
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol, TypeVar

from aggregates.kernel import Command, Decision, Game
from aggregates.kernel.outcome import outcome_json
from service.envelope import Reader, dumps

#: The games whose newest readings are kept (each: a few readings of a few KB).
GAMES_KEPT = 1000

T = TypeVar("T")


@dataclasses.dataclass(frozen=True)
class GameFacts:
    """What authorizing a read takes of a game: its id, version, end and seats."""

    id: uuid.UUID
    version: int
    ended: bool
    seats: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class PendingDecision:
    """A decision the game waits on; its choices (JSON) only for its own seat's
    readers and the full record (they may name the seat's hidden cards)."""

    seat: int
    kind: str
    prompt: str
    hidden: bool
    id: str
    choices_json: str
    deadline: float
    default: str


@dataclasses.dataclass(frozen=True)
class SeatState:
    """The game as one audience sees it at one version, encoded."""

    game_id: str
    rules: str
    rules_version: str
    version: int
    over: bool
    outcome_json: str
    pending: tuple[PendingDecision, ...]
    view_json: str
    screen_json: str
    commitment: str
    seed: str
    head: str
    seats: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class LegalAction:
    """One command a seat may send: its JSON form, encoded, and its label."""

    command: dict[str, Any]
    json: str
    label: str


@dataclasses.dataclass(frozen=True)
class LegalList:
    """What one seat may do at one version: the commands listed, the seat's
    pending decisions with their choices, and whether the list is complete (a
    command its choices build is left to them when the list would be too long)."""

    rules: str
    version: int
    actions: tuple[LegalAction, ...]
    decisions: tuple[PendingDecision, ...]
    complete: bool


@dataclasses.dataclass(frozen=True)
class Turn:
    """A seat's turn at a version: its ``PlayTurn`` bytes (``wire``), with
    what a stream reads of it: the seat's pending decisions' ids (a turn is
    pushed again only when they change: ``play._asks_anew``) and whether
    the game is over."""

    seat: int
    ids: tuple[str, ...]
    over: bool
    wire: bytes


def facts_of(game: Game, seat: int | None = None) -> GameFacts:
    """``game``'s facts; ``seat``, when given, checked to be one of its seats."""
    if seat is not None:
        game._check_seat(seat)
    return GameFacts(game.id, game.version, game.ended, tuple(game.seats))


def pending(d: Decision, with_choices: bool) -> PendingDecision:
    return PendingDecision(
        seat=d.seat, kind=d.kind, prompt=d.prompt, hidden=d.hidden, id=d.id,
        choices_json=dumps([c.to_json() for c in d.choices] if with_choices else []),
        deadline=d.deadline or 0.0, default=d.default or "",
    )


def seat_state(game: Game, reader: Reader, screen: bool = True,
               decisions: Sequence[Decision] | None = None) -> SeatState:
    """``game`` as ``reader`` sees it (``reader`` already made for the game's end);
    without ``screen``, no screen is drawn (``screen_json`` empty): a bot's
    turn needs the view and the moves, not a drawing of them. ``decisions``:
    the game's ``pending_decisions()`` at its version, when already made."""
    if decisions is None:
        decisions = game.pending_decisions()
    return SeatState(
        game_id=str(game.id), rules=game.RULES_ID, rules_version=game.rules_version,
        version=game.version, over=game.ended, outcome_json=dumps(outcome_json(game)),
        pending=tuple(pending(d, with_choices=reader.full or reader.seat == d.seat)
                      for d in decisions),
        view_json=dumps(game.view(reader.seat)),
        screen_json=dumps(game.present(reader.seat).to_json()) if screen else "",
        commitment=game.commitment, seed=game.seed if game.ended else "",
        head=game.head, seats=tuple(game.seats),
    )


def listed(game: Game, seat: int, decisions: Sequence[Decision]) -> tuple[list[Command], bool]:
    """The commands ``seat``'s legal list names in ``game`` now, and whether
    the list is complete; ``decisions``: the game's pending decisions now."""
    actions = [] if game.ended else game.legal_actions(seat, decisions)
    complete = game.ended or game.legal_list_complete(seat)
    if not complete:
        # Too many to send: the commands a choice structure builds are
        # described by it alone; the rest are listed. Unless that leaves the
        # seat nothing listed (every move it has is one a structure builds:
        # a game's assignment of units to places): then the game's own sample stays,
        # so that a bot reading only the list always has a move (DESIGN
        # principle 6) and a clock's default has one to pick.
        built = {getattr(c, "command", None) for c in game.choices(seat)}
        actions = [a for a in actions if a.NAME not in built] or actions
    return actions, complete


def legal_list(game: Game, seat: int,
               decisions: Sequence[Decision] | None = None) -> LegalList:
    """What ``seat`` may do in ``game`` now (``decisions``: as ``seat_state``'s)."""
    if decisions is None:
        decisions = game.pending_decisions()
    actions, complete = listed(game, seat, decisions)
    return LegalList(
        rules=game.RULES_ID, version=game.version,
        actions=tuple(LegalAction(command, dumps(command), game.action_label(a))
                      for a, command in ((a, a.to_json()) for a in actions)),
        decisions=tuple(pending(d, with_choices=True) for d in decisions if d.seat == seat),
        complete=complete,
    )


class TurnMaker(Protocol):
    """What makes a stream's turn (``service.turns.TurnWire``)."""

    def turn(self, game: Game, seat: int, decisions: Sequence[Decision],
             screen: bool) -> Turn: ...


class ReadModel:
    """The readings of each game's newest version, by audience (see the module)."""

    def __init__(self, games_kept: int = GAMES_KEPT) -> None:
        self.games_kept = games_kept
        self._guard = threading.Lock()
        #: game id -> (the cached game read, its version, {audience key: reading})
        self._games: collections.OrderedDict[
            uuid.UUID, tuple[weakref.ref[Game], int, dict[Hashable, Any]]] = (
            collections.OrderedDict())
        self.made = 0  # readings computed (the rest were shared)

    def decisions(self, game: Game) -> tuple[Decision, ...]:
        """The game's pending decisions (with their ids), made once per (game,
        version): every seat's state and legal list at that version, and who
        the game waits on, are read from them, where each asked the rules again
        (a turn of a ``Play`` stream read them four times)."""
        return self._kept(game, "decisions", lambda: tuple(game.pending_decisions()),
                          counted=False)

    def kept_decisions(self, game: Game) -> tuple[Decision, ...] | None:
        """``decisions`` when they are kept for this very game at its version
        (a reader read them: a ``Play`` turn), else None: nothing is made. The
        writer's next move on the game checks its decision id against them
        rather than asking the rules again (``ArbiterApp._decided``)."""
        with self._guard:
            entry = self._games.get(game.id)
            if entry is None or entry[0]() is not game or entry[1] != game.version:
                return None
            return entry[2].get("decisions")  # type: ignore[no-any-return]

    def waiting_on(self, game: Game) -> tuple[int, ...]:
        """The seats with a decision pending (``Game.waiting_on``), from ``decisions``."""
        return tuple(sorted({d.seat for d in self.decisions(game)}))

    def state(self, game: Game, reader: Reader, screen: bool = True) -> SeatState:
        """``seat_state``, made once per (game, version, reader, with the screen or not)."""
        key = ("state", reader) if screen else ("bare", reader)
        return self._kept(game, key, lambda: seat_state(game, reader, screen,
                                                        self.decisions(game)))

    def legal(self, game: Game, seat: int) -> LegalList:
        """``legal_list``, made once per (game, version, seat)."""
        return self._kept(game, ("legal", seat),
                          lambda: legal_list(game, seat, self.decisions(game)))

    def turn(self, game: Game, seat: int, screen: bool, wire: TurnMaker) -> Turn:
        """A ``Play`` stream's turn for ``seat`` (the game not over), as its
        wire bytes (``service.turns``), made once per (game, version, seat,
        with the screen or not)."""
        return self._kept(game, ("turn", seat, screen),
                          lambda: wire.turn(game, seat, self.decisions(game), screen))

    def _kept(self, game: Game, key: Hashable, make: Callable[[], T], counted: bool = True) -> T:
        """A reading of the very object read (the application's cached game) at
        its version: a game dropped from the cache and rebuilt (a refused
        command, a snapshot the audit stopped trusting) is another object, and
        its readings are made afresh even at the same version. ``counted``:
        counted in ``made`` (the decisions readings share are not a reading)."""
        gid, version = game.id, game.version
        with self._guard:
            entry = self._games.get(gid)
            if (entry is not None and entry[0]() is game and entry[1] == version
                    and key in entry[2]):
                self._games.move_to_end(gid)
                return entry[2][key]  # type: ignore[no-any-return]
        reading = make()  # outside the guard: the caller holds the game's own lock
        with self._guard:
            entry = self._games.get(gid)
            if entry is None or entry[0]() is not game or entry[1] != version:
                entry = self._games[gid] = (weakref.ref(game), version, {})
            entry[2][key] = reading
            self._games.move_to_end(gid)
            self.made += counted
            while len(self._games) > self.games_kept:
                self._games.popitem(last=False)
        return reading
