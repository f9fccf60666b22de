"""Random legal playouts of Titans for 2, 3 and 4 players, checked after every command.

Bots use only ``legal_actions``: they pick a seat the game waits on, then a
legal command *name* (ending a phase early only one time in four when
something else is legal), then uniformly one of that name's instances. After
every command: units per Nation never exceed the supply (reserve + map +
Battle = 6/4/2/1), one Nation per region outside the Battle being fought and
control following the units, the dice of a Battle within the reserve, Support,
Order, Nation and Secret Objective cards conserved, VP never decreasing. Every
game ends, is audited by the kernel (chain, dice, re-execution) and rebuilt
from its events alone into the same views.

CI plays ``GAMES_PER_COUNT`` games per player count; ``make soak``
(``ARBITER_SOAK=1``, ``tests/soak.py``) plays 100.
"""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from aggregates.kernel import event_type
from aggregates.titans import Titans, testing
from tests import soak
from tests.property.replay import assert_replays

GAMES_PER_COUNT = soak.games(3)
#: CI plays on past ``GAMES_PER_COUNT``, up to this many, until every rule path
#: of ``PATHS`` is reached (a random game enters an empty enemy region, say, one
#: time in three or four).
MAX_GAMES_PER_COUNT = max(GAMES_PER_COUNT, 12)
MAX_COMMANDS = 6000
#: The commands that end a phase of the turn (the bots prefer doing something).
ENDING = {"end_orders", "end_stage", "decline"}
#: Rule paths random games of every count reach (the events that record them).
PATHS = {"OrderTaken", "UnitMoved", "UnitDeployed", "BattleDeclared", "BattleBegun",
         "SupportPlayed", "BattleWon", "UnitsDestroyed", "UnitsWithdrew", "BattleResolved",
         "RegionTaken", "NationCardPurchased", "StrongholdBuilt", "SupportDrawn",
         "SupportDiscarded", "DiceRerolled", "OrderPoolSlid", "RoundScored",
         "StartingPlayerPassed", "ReinforcementChosen", "RoundPrepared",
         "ObjectiveKept", "OpeningPurchasesRevealed", "Ended"}


def play(players: int, seed: int, options: dict[str, object]) -> tuple[Titans, list, int]:
    rng = random.Random(seed)
    game = Titans.start([f"p{i}" for i in range(players)], options, seed=f"{seed:064x}")
    events = list(game.collect_events())
    vp = list(game.vp)
    commands = 0
    while not game.ended:
        assert commands < MAX_COMMANDS, "the game did not end"
        seat = rng.choice(game.waiting_on())
        legal = game.legal_actions(seat)
        assert legal, f"seat {seat} is asked {game.pending()} with nothing legal"
        names = sorted({c.NAME for c in legal})
        acting = [n for n in names if n not in ENDING]
        # ending a phase early is one choice in four, so armies meet in Battles
        name = rng.choice(acting if acting and rng.random() > 0.25 else names)
        game.act(seat, rng.choice([c for c in legal if name == c.NAME]))
        commands += 1
        events += game.collect_events()
        testing.check_invariants(game)
        assert all(a >= b for a, b in zip(game.vp, vp, strict=True)), "VP never decreases"
        vp = list(game.vp)
    return game, events, commands


@pytest.mark.heavy(30)
@pytest.mark.parametrize("players", [4, 3, 2])
def test_random_playouts_end_keep_the_invariants_and_replay(players: int) -> None:
    seen: Counter[str] = Counter()
    started = time.perf_counter()
    lengths = []
    for n in range(MAX_GAMES_PER_COUNT):
        if n >= GAMES_PER_COUNT and not PATHS - set(seen):
            break
        options: dict[str, object] = {}
        if n % 3 == 1:
            options["variant"] = "simplified"
        if n % 4 == 2:
            options["extended"] = True
        game, events, commands = play(players, 7_000_000 + 1000 * players + n, options)
        lengths.append(commands)
        assert game.outcome is not None and game.outcome["winner"] == game.outcome["ranking"][0]
        assert game.round == game.rounds
        assert_replays(game, events)
        seen.update(event_type(e) for e in events)
    missing = PATHS - set(seen)
    assert not missing, f"{players} players: no game reached {sorted(missing)}"
    print(f"\n{players} players: {len(lengths)} games, {sum(lengths)} commands "
          f"(min {min(lengths)}, max {max(lengths)}), "
          f"{time.perf_counter() - started:.1f}s; battles {seen['BattleWon']}")


@pytest.mark.heavy(10)
def test_every_legal_command_is_accepted() -> None:
    """Every command on a legal list at a point is accepted there (each tried on a
    copy of the game rebuilt from its events)."""
    import functools

    rng = random.Random(5)
    game = Titans.start(["a", "b", "c"], seed="5" * 64)
    events = list(game.collect_events())
    for _ in range(120):
        if game.ended:
            break
        seat = rng.choice(game.waiting_on())
        legal = game.legal_actions(seat)
        for command in rng.sample(legal, min(4, len(legal))):
            copy_ = functools.reduce(lambda agg, ev: ev.mutate(agg), events, None)
            assert copy_ is not None
            copy_.act(seat, command)  # raises if a listed command is refused
        game.act(seat, rng.choice(legal))
        events += game.collect_events()
