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

from aggregates.kernel import Game
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
         max_moves: int = MAX_MOVES) -> Result:
    """Play ``game`` to its end with ``bots[seat]`` for each seat. When several
    seats are asked at once, one of them (at random) answers first."""
    times: dict[int, list[float]] = {s: [] for s in range(len(bots))}
    moves = 0
    while not game.ended and moves < max_moves:
        seat = rng.choice(game.waiting_on())
        started = time.perf_counter()
        obs = observe(game, seat, Determiniser(game, seat))
        move = bots[seat](obs)
        times[seat].append(time.perf_counter() - started)
        game.act(seat, move.command, decision_id=move.decision_id)
        game.collect_events()
        moves += 1
    standings = game.standings() if game.ended else None
    return Result(worth=rewards(game), moves=moves, ended=game.ended, times=times,
                  winners=standings.winners if standings else (),
                  scores=standings.scores if standings else (None,) * len(bots))
