"""Bots playing a whole game in process: each seat's bot asked in turn.

The harness of the soak figures (``tests/bots_soak.py``) and the tests use
it. Each bot gets only its seat's observation (``seat.observe``) and a belief
built for its seat (``determinisation.Determiniser``); the game is moved with
``Game.act`` on the decision the bot answered, as the server would.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Sequence
from typing import Any

from aggregates.kernel import Game
from clients.bots.belief import Guess, seat_reads
from clients.bots.determinisation import Determiniser
from clients.bots.playout import rewards
from clients.bots.seat import Bot, observe

#: A game not over after this many moves is stopped (and reported).
MAX_MOVES = 20_000


@dataclasses.dataclass
class Result:
    """A finished game: each seat's worth (``playout.rewards``), the winners,
    each seat's score where the game keeps one, and each decision's time."""

    worth: list[float]
    winners: tuple[int, ...]
    scores: tuple[float | None, ...]
    moves: int
    ended: bool
    #: Seconds each seat's bot took per decision it was asked.
    times: dict[int, list[float]] = dataclasses.field(default_factory=dict)


def play(game: Game, bots: Sequence[Bot], rng: random.Random,
         max_moves: int = MAX_MOVES, from_record: bool = False) -> Result:
    """Play ``game`` to its end with ``bots[seat]`` for each seat. When several
    seats are asked at once, one of them (at random) answers first.

    ``from_record``: each seat's belief is the world guessed from its own
    record (``belief.Guess``, fed the events as the server's stream would
    deliver them to the seat, and aligned to its view), as a bot over
    ``Play`` has it, rather than the game itself."""
    times: dict[int, list[float]] = {s: [] for s in range(len(bots))}
    events = list(game.collect_events())
    guesses = {s: Guess(type(game), s, random.Random(f"{rng.random()}:{s}"))
               for s in range(len(bots))} if from_record else {}
    moves = 0
    while not game.ended and moves < max_moves:
        seat = rng.choice(game.waiting_on())
        started = time.perf_counter()
        obs = observe(game, seat, belief(game, seat, guesses.get(seat), events))
        move = bots[seat](obs)
        times[seat].append(time.perf_counter() - started)
        game.act(seat, move.command, decision_id=move.decision_id)
        events += game.collect_events()
        moves += 1
    standings = game.standings() if game.ended else None
    return Result(worth=rewards(game), moves=moves, ended=game.ended, times=times,
                  winners=standings.winners if standings else (),
                  scores=standings.scores if standings else (None,) * len(bots))


def belief(game: Game, seat: int, guess: Guess | None, events: Sequence[Any]) -> Determiniser:
    """The seat's belief: from the game itself, or (``guess``) from the seat's
    record of ``events``, folding only those new since the last call."""
    if guess is None:
        return Determiniser(game, seat)
    guess.add(seat_reads(type(game), events[guess.folded:], seat))
    guess.align(game.view(seat))
    return guess.belief()
