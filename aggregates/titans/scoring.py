"""End of the Round (step 1: Victory Points for Regions; step 2: the new
Starting Player and Round) and End of the Game (rulebook).

1. Each player scores 1 VP per region he controls; in the last Round these
   are kept apart (``region_vp``), for the tie-breaks.
2. The Starting Player Token passes to the next player counter-clockwise and
   the Round Tracker moves on (Reinforcements follow: ``reinforcements.py``).
The game ends after the last Round's step 1 (3 Rounds; 4 in the Extended
game): most VP wins; ties go to the tied player controlling more regions, then
more units on the map, then the one who took his turn earlier in the last Round.
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel import flow as kflow
from aggregates.kernel.outcome import Outcome, scored
from aggregates.titans import regions
from aggregates.titans.state import State


def end_round(game: State) -> None:
    """Decide: score the regions; then the game ends, or a new Round is begun."""
    players = len(game.seats)
    held = [len(regions.controlled(game, s)) for s in range(players)]
    final = game.round >= game.rounds
    game.emit("RoundScored", round=game.round, regions=held, vp=held, final=final)
    if not final:
        game.emit("StartingPlayerPassed", round=game.round + 1,
                  start_player=kflow.next_seat(game.start_player, players, step=-1))


def ranking_of(game: State) -> list[int]:
    """Seats best first: VP, then regions controlled, units on the map, and
    the earlier turn in the last Round."""
    players = len(game.seats)
    order = kflow.order_from(game.start_player, players)

    def key(seat: int) -> tuple[int, int, int, int]:
        return (game.vp[seat], len(regions.controlled(game, seat)),
                regions.unit_count_on_map(game, seat), -order.index(seat))

    return sorted(range(players), key=key, reverse=True)


def standings(game: State) -> Outcome:
    """The shared outcome: VP are the scores, the recorded ranking (every
    tie-break applied, so no two seats tie) the order."""
    recorded = game.outcome or {}
    ranking = tuple((int(s),) for s in recorded.get("ranking") or ranking_of(game))
    return scored(recorded, [int(v) for v in recorded.get("vp") or game.vp], ranking, "VP")


def outcome(game: State) -> dict[str, Any]:
    ranked = ranking_of(game)
    return {
        "result": "finished",
        "winner": ranked[0],
        "winners": [ranked[0]],
        "ranking": ranked,
        "vp": list(game.vp),
        "region_vp": list(game.region_vp),
        "regions": [len(regions.controlled(game, s)) for s in range(len(game.seats))],
        "units": [regions.unit_count_on_map(game, s) for s in range(len(game.seats))],
    }
