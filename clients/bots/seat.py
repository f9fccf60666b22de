"""What a bot is given and what it answers: one seat's information, one move.

A bot is a function ``Observation -> Move``. The observation holds what the
server would send the seat and nothing else: its view, its legal commands with
the decisions they answer, and the record of events as that seat read them
(the private form for events in its audience, the public form for the rest).
The same function can be called in process (``observe`` below, from a game
object) or by a client of the per-seat stream, which builds the observation
from the messages it receives.

A searching bot also needs a simulator of the hidden parts: ``belief``, a
``Belief`` that samples whole games consistent with the seat's information
(``clients.bots.determinisation``). It is optional: random play needs none, and
a client that cannot build one falls back to the levels that need none.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from aggregates.kernel import Command, Game, event_type
from aggregates.kernel.record.recording import payload_of, recorded_audience


class Belief(Protocol):
    """Samples of the whole game a seat may be in, given what it has seen."""

    def sample(self, rng: random.Random) -> Game:
        """A fresh game, consistent with the seat's information, the caller's to move."""
        ...


@dataclasses.dataclass(frozen=True)
class Legal:
    """One legal command of the seat and the id of the decision it answers."""

    command: Command
    decision_id: str
    label: str = ""

    def key(self) -> str:
        """The command as a stable string (a search tree's edge)."""
        return f"{self.command.NAME}:{sorted(self.command.args().items())!r}"


@dataclasses.dataclass(frozen=True)
class Observation:
    """What one seat knows when it is asked to move."""

    seat: int
    rules: str
    players: int
    view: dict[str, Any]
    legal: tuple[Legal, ...]
    #: The seat's record: ``(event type, payload as the seat read it)``.
    seen: tuple[tuple[str, dict[str, Any]], ...] = ()
    belief: Belief | None = None


@dataclasses.dataclass(frozen=True)
class Move:
    """A bot's answer: the command, the decision it answers, and why (for logs)."""

    command: Command
    decision_id: str
    note: str = ""


Bot = Callable[[Observation], Move]


def legal_of(game: Game, seat: int) -> tuple[Legal, ...]:
    """The seat's legal commands, each with the pending decision it answers
    (the first of the seat's decisions that lists it)."""
    out: list[Legal] = []
    seen: set[str] = set()
    for decision in game.decisions_of(seat):
        for command in game.FLOW.legal(game, decision):
            item = Legal(command, decision.id, game.action_label(command))
            if item.key() not in seen:
                seen.add(item.key())
                out.append(item)
    return tuple(out)


def read_by(game_cls: type[Game], events: Sequence[Any], seat: int
            ) -> tuple[tuple[str, dict[str, Any]], ...]:
    """Each event in the form ``seat`` may read (the creation event without its seed)."""
    out = []
    for ev in events:
        kind = event_type(ev)
        payload = payload_of(ev)
        audience, public = recorded_audience(game_cls, kind, payload, ev.meta)
        if kind == "Created":
            form = game_cls.public_form(kind, payload)
        else:
            form = payload if audience.includes(seat) else public
        out.append((kind, dict(form)))
    return tuple(out)


def observe(game: Game, seat: int, belief: Belief | None = None,
            events: Sequence[Any] = ()) -> Observation:
    """The observation of ``seat`` in an in-process game: its view, its legal
    list, its record of ``events`` (when given) and the belief to search with."""
    return Observation(seat=seat, rules=game.RULES_ID, players=len(game.seats),
                       view=game.view(seat), legal=legal_of(game, seat),
                       seen=read_by(type(game), events, seat), belief=belief)


def no_move(obs: Observation) -> ValueError:
    """Asked to move with nothing legal: the caller's mistake, said plainly."""
    return ValueError(f"NO_LEGAL_MOVE: seat {obs.seat} of {obs.rules} has no legal command")
