"""Playing a sampled world to its end, and what the end is worth to each seat.

Everything here runs on the rules in process: a world is a ``Game`` (a
sample of the seat's belief), moved with ``Game.act`` like any game, so a
search costs no server call. The worth of an end comes from the game's own
result (``Game.standings``): its ranking, which is the game's own score and
tie-breaks in order.

A search also reads a world it stopped before the end (a playout cut at its
depth or its deadline): ``worth`` values it by the game's own score so far
(``Game.standings`` on a game in progress, where the game's standings read its
state: Ethnos' Glory, Titans' VP) and, where the game's standings read only
its recorded outcome, as even. A search's worth adds the score margin to the
ranking, so a win by more, or a loss by less, counts for more.

How far a playout runs before its world is valued depends on what those
standings say before the end, which each game declares
(``STANDINGS_PROJECTED`` on its class, read by ``projects``): standings that
score the game as if it ended now (Ethnos' end of the Age, Nine Empires'
Winter Phase) value a world after a few moves as the rulebook would; standings
that count only what was scored so far (Ettin's and Titans' VP) change little
in a few moves, so their playouts run further (``Depths``, ``depth_of``).
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable

from aggregates.kernel import Command, Game, RuleError

#: A world still running after this many moves counts as a draw for everyone
#: (random games end in a few hundred; see tests/conformance).
MAX_PLAYOUT_MOVES = 5_000


#: A solo world not won is worth at most this, by how far its goal got
#: (``Game.progress``): a win is worth more than any progress.
PROGRESS_WEIGHT = 0.5


def rewards(game: Game) -> list[float]:
    """Each seat's worth of a finished game in 0..1: by its place in the
    ranking (first 1, last 0, tied places sharing their mean); alone at the
    table (a solo game), 1 for a win, else how far its goal got where the
    game says (``Game.progress``, up to ``PROGRESS_WEIGHT``), else 0. A game
    not over is worth the same to everyone (a solo one: its progress)."""
    players = len(game.seats)
    if players == 1:
        won = game.ended and bool(game.standings().winners)
        progress = game.progress()
        if won or progress is None:
            return [1.0 if won else 0.0 if game.ended else 0.5]
        return [PROGRESS_WEIGHT * min(max(progress, 0.0), 1.0)]  # never a win's worth
    if not game.ended:
        return [0.5] * players
    standings = game.standings()
    worth = [0.0] * players
    place = 0
    for group in standings.ranking:
        values = [1.0 - (place + i) / (players - 1) for i in range(len(group))]
        for seat in group:
            worth[seat] = sum(values) / len(values)
        place += len(group)
    return worth


#: The share of a searched world's worth that comes from the score margin
#: (the rest from the ranking).
MARGIN_WEIGHT = 0.3


def scores_of(game: Game) -> list[float] | None:
    """Each seat's score as the game's standings give it, finished or not;
    None where they give none (no score kept, or standings that read only the
    recorded outcome of a finished game)."""
    try:
        scores = game.standings().scores
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None
    if len(scores) != len(game.seats) or any(v is None for v in scores):
        return None
    return [float(v) for v in scores if v is not None]


def ranked(scores: list[float]) -> list[float]:
    """Worth by place from scores (higher first), tied places sharing their mean."""
    players = len(scores)
    return [1.0 - (sum(v > mine for v in scores) + (sum(v == mine for v in scores) - 1) / 2)
            / (players - 1) for mine in scores]


def margins(scores: list[float]) -> list[float]:
    """Each seat's score against the others' mean, scaled into 0..1 (0.5: level)."""
    scale = max(abs(v) for v in scores) + 1.0
    players = len(scores)
    return [0.5 + 0.5 * (mine - (sum(scores) - mine) / (players - 1)) / scale
            for mine in scores]


def sides_of(game: Game) -> list[int]:
    """Each seat's side: its team's index where the game plays in teams
    (``Game.seating``: Ettin's Alliances at four), else the seat itself."""
    seating = game.seating()
    if not seating.teams:
        return list(range(len(game.seats)))
    teams = {s: i for i, team in enumerate(seating.teams) for s in team}
    return [teams.get(s, len(seating.teams) + s) for s in range(len(game.seats))]


def by_side(values: list[float], sides: list[int],
            measure: Callable[[list[float]], list[float]]) -> list[float]:
    """``measure`` applied to the sides' totals (teams score together), each
    seat given its side's figure."""
    order = list(dict.fromkeys(sides))
    totals = [sum(v for v, side in zip(values, sides, strict=True) if side == s) for s in order]
    if len(order) < 2:
        return [0.5] * len(values)
    figure = dict(zip(order, measure(totals), strict=True))
    return [figure[side] for side in sides]


def worth(game: Game) -> list[float]:
    """What a searched world is worth to each seat: the ranking (``rewards``
    at the end, the score so far before it) blended with the score margin.
    Where seats play in teams (``sides_of``), a team's seats share its
    place and margin, from the team's total: a seat gains nothing from a
    partner's loss. A world whose standings say nothing before its end is
    even for everyone; a solo one is worth its progress (``rewards``)."""
    players = len(game.seats)
    scores = scores_of(game) if players > 1 else None
    if scores is None:
        return rewards(game) if game.ended or players == 1 else [0.5] * players
    sides = sides_of(game)
    # Places among seats, each seat holding its side's total, as ``rewards``
    # ranks a finished game (a team's seats share the places they fill).
    base = rewards(game) if game.ended else ranked(by_side(scores, sides, lambda t: t))
    return [(1 - MARGIN_WEIGHT) * b + MARGIN_WEIGHT * m
            for b, m in zip(base, by_side(scores, sides, margins), strict=True)]


def scored_in_progress(game: Game) -> bool:
    """Whether the game's standings give a score before its end, so a
    playout cut short still says something."""
    return not game.ended and len(game.seats) > 1 and scores_of(game) is not None


def projects(game: Game) -> bool:
    """Whether the game declares that its standings before the end score it
    as if it ended now (``STANDINGS_PROJECTED = True`` on its class), rather
    than count what was scored so far. A game that does not say is taken to
    count, the reading that runs its playouts further."""
    return getattr(type(game), "STANDINGS_PROJECTED", False) is True


@dataclasses.dataclass(frozen=True)
class Depths:
    """Moves a playout runs before its world is valued, in a game scored in
    progress (``scored_in_progress``), by what its standings say (``projects``)."""

    #: Standings that score the game as if it ended now: a short playout is
    #: valued as the rulebook would value it.
    projected: int
    #: Standings that count what was scored so far: a short playout reaches
    #: few scorings, so worlds differ little.
    counted: int


#: The depths the searching levels play at, chosen head to head on the soak's
#: seeds, IS-MCTS against greedy at 0.1 s, two players (docs/bots-search.md,
#: "Short playouts"): in Ethnos 8 moves won 18 of 21 where 24 won 0.70 of 23;
#: in Ettin and Titans 8 lost ground against 24, and so did 64 (27 games each
#: paired on their seeds: Ettin -0.22 of the wins, Titans -0.07).
DEPTHS = Depths(projected=8, counted=24)


def depth_of(game: Game, depths: Depths, limit: int = MAX_PLAYOUT_MOVES) -> int:
    """Moves a playout of ``game`` runs: its class's depth where its standings
    give a score before the end, else ``limit`` (a world valued only at its end)."""
    if not scored_in_progress(game):
        return limit
    return depths.projected if projects(game) else depths.counted


def acting_seat(game: Game) -> int | None:
    """The seat a search moves next: the lowest of those asked (several seats
    asked at once answer one after another, none seeing the others' secret
    answers, which are recorded for their chooser alone)."""
    waiting = game.waiting_on()
    return waiting[0] if waiting else None


def legal_commands(game: Game, seat: int) -> list[Command]:
    """The seat's legal commands, each decision's in turn. Unlike
    ``Game.legal_actions`` a command legal for two decisions at once is
    listed twice: dropping the repeats compares every pair of commands, a
    quarter of a Titans playout, for a list the search only samples from."""
    if game.ended:
        return []
    return [command for decision in game.decisions_of(seat, with_ids=False)
            for command in game.FLOW.legal(game, decision)]


def act(game: Game, seat: int, command: Command) -> bool:
    """Play ``command`` in a world; False when the rules refuse it (a list left
    short by the game is guarded by its own checks)."""
    try:
        game.act(seat, command)
    except RuleError:
        return False
    game.collect_events()
    return True


def random_step(game: Game, rng: random.Random) -> bool:
    """One random legal move of a random seat asked; False when nothing could be played."""
    seats = game.waiting_on()
    if not seats:
        return False
    seat = rng.choice(seats)
    options = legal_commands(game, seat)
    rng.shuffle(options)
    return any(act(game, seat, command) for command in options[:8])


def playout(game: Game, rng: random.Random, limit: int = MAX_PLAYOUT_MOVES,
            deadline: float | None = None) -> list[float]:
    """Random moves to the end (or ``limit`` moves, or the ``deadline`` on
    ``time.perf_counter``); where it stopped, its worth to each seat (``worth``)."""
    for _ in range(limit):
        if game.ended or not random_step(game, rng):
            break
        if deadline is not None and time.perf_counter() > deadline:
            break
    return worth(game)
