"""Every version of a game can be read as it was: time travel (``GetState``
with a version, the replay slider, ``arbiter replay``) rebuilds the game at any
version, including the versions inside one command, between two of the events
a single move recorded, which the live game never rests at.

Random games of every game are played to the end; their events are folded
again one at a time, as the repository rebuilds a past, and at every version
a reader's whole state (pending decisions, view, screen) is drawn. Found by a
random Ettin game: between the removals of one start-of-battle resolution
(Ettin rules, "Battles": the abilities resolve together) the target queue was
derived from a board that had already changed, and the read failed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from aggregates.catalog import GAMES
from aggregates.kernel import Game
from service.envelope import Reader
from service.readmodel import seat_state
from tests.soak import cases, games

TABLES = cases(
    [("enin", 1), ("ethnos", 3), ("ettin", 4), ("titans", 2), ("nine_empires", 3)],
    [("ethnos", 6), ("ettin", 2), ("ettin", 6), ("titans", 4), ("nine_empires", 4)],
)
MAX_COMMANDS = 20000
#: A screen is drawn at every seventh version (the slowest part of a read);
#: pending decisions and the view at every one.
SCREEN_EVERY = 7


def played(cls: type[Game], players: int, seed: int) -> list[Any]:
    """The events of one random game played to the end by legal moves."""
    rng = random.Random(seed)
    game = cls.start([f"p{i}" for i in range(players)], seed=f"{seed:064x}")
    events = list(game.collect_events())
    for _ in range(MAX_COMMANDS):
        if game.ended:
            break
        seat = rng.choice(game.waiting_on())
        game.act(seat, rng.choice(game.legal_actions(seat)))
        events += game.collect_events()
    assert game.ended, f"{cls.RULES_ID} did not end in {MAX_COMMANDS} commands"
    return events


@pytest.mark.parametrize(("rules", "players"), TABLES, ids=[f"{r}-{n}p" for r, n in TABLES])
def test_every_version_of_a_random_game_reads_as_each_reader(rules: str, players: int) -> None:
    cls = GAMES[rules]
    readers: list[int | None] = [None, *range(players)]
    # Nine Empires' games are long (a second and a half each): one in CI.
    for seed in range(games(1 if rules == "nine_empires" else 3, 20)):
        past: Any = None
        for ev in played(cls, players, seed):
            past = ev.mutate(past)
            reader = readers[past.version % len(readers)]
            state = seat_state(past, Reader(reader, full=False),
                               screen=past.version % SCREEN_EVERY == 0)
            assert state.version == past.version
