"""The bots' levels measured against each other (``make soak``; or
``python -m tests.bots_soak --games N --budget S``).

For each game and table (two and four players where the game allows them),
each level plays the one below: half the seats each, alternating around the
table, the first seat's level alternating from game to game. Reported per
pairing: the upper level's share of the wins (a shared win split among the
winners) with its 95% Wilson interval, and the mean margin of its seats'
worth over the lower level's (``clients.bots.playout.rewards``: first 1,
last 0) with a 95% normal interval. The Land of Enin is played alone: each
level's win rate. Each level's decision time: p50 and p99 at the budget.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from aggregates.catalog import GAMES
from clients.bots import make
from clients.bots.arena import play

PAIRS = (("greedy", "random"), ("ismcts", "greedy"))
Z = 1.96


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (``successes`` may be fractional)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal interval."""
    mean = statistics.fmean(values) if values else 0.0
    if len(values) < 2:
        return mean, -1.0, 1.0
    half = Z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def tables(rules: str) -> list[int]:
    cls = GAMES[rules]
    return [n for n in (1, 2, 4) if cls.MIN_SEATS <= n <= cls.MAX_SEATS and (n > 1) == (
        cls.MAX_SEATS > 1)]


def pairing(rules: str, players: int, upper: str, lower: str, games: int, budget: float,
            times: dict[str, list[float]]) -> dict[str, Any]:
    """``games`` games of ``upper`` against ``lower`` at one table."""
    wins, margins = 0.0, []
    for n in range(games):
        levels = [upper if (seat + n) % 2 == 0 else lower for seat in range(players)]
        bots = [make(level, seed=f"{rules}/{n}/{seat}", budget=budget)
                for seat, level in enumerate(levels)]
        game = GAMES[rules].start([f"p{s}" for s in range(players)],
                                  seed=f"{n:064x}"[-64:])
        result = play(game, bots, random.Random(n))
        for seat, level in enumerate(levels):
            times[level] += result.times[seat]
        if result.winners:
            wins += sum(levels[s] == upper for s in result.winners) / len(result.winners)
        up = [w for s, w in enumerate(result.worth) if levels[s] == upper]
        down = [w for s, w in enumerate(result.worth) if levels[s] == lower]
        margins.append(statistics.fmean(up) - statistics.fmean(down))
    low, high = wilson(wins, games)
    mean, mlow, mhigh = mean_interval(margins)
    return {"game": rules, "players": players, "upper": upper, "lower": lower, "games": games,
            "win_share": wins / games, "win_ci": (low, high),
            "margin": mean, "margin_ci": (mlow, mhigh)}


def solo(rules: str, level: str, games: int, budget: float,
         times: dict[str, list[float]]) -> dict[str, Any]:
    """A solo game's win rate for one level."""
    won = 0
    for n in range(games):
        game = GAMES[rules].start(["p0"], seed=f"{n:064x}"[-64:])
        result = play(game, [make(level, seed=f"{rules}/{n}", budget=budget)], random.Random(n))
        times[level] += result.times[0]
        won += bool(result.winners)
    return {"game": rules, "players": 1, "level": level, "games": games,
            "win_rate": won / games, "win_ci": wilson(won, games)}


def run(rules_ids: Sequence[str], games: int, budget: float) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    times: dict[str, list[float]] = {"random": [], "greedy": [], "ismcts": []}
    for rules in rules_ids:
        for players in tables(rules):
            started = time.perf_counter()
            if players == 1:
                found = [solo(rules, level, games, budget, times)
                         for level in ("random", "greedy", "ismcts")]
            else:
                found = [pairing(rules, players, up, down, games, budget, times)
                         for up, down in PAIRS]
            for row in found:
                row["seconds"] = round(time.perf_counter() - started, 1)
                print(line(row), flush=True)
            rows += found
    for level, spent in times.items():
        print(f"decision time {level} (budget {budget}s): p50 {percentile(spent, 0.5):.3f}s "
              f"p99 {percentile(spent, 0.99):.3f}s over {len(spent)} decisions", flush=True)
    return rows


def line(row: dict[str, Any]) -> str:
    if row["players"] == 1:
        low, high = row["win_ci"]
        return (f"{row['game']} solo {row['level']}: won {row['win_rate']:.2f} "
                f"[{low:.2f}, {high:.2f}] of {row['games']}")
    low, high = row["win_ci"]
    mlow, mhigh = row["margin_ci"]
    return (f"{row['game']} {row['players']}p {row['upper']} v {row['lower']}: wins "
            f"{row['win_share']:.2f} [{low:.2f}, {high:.2f}], margin {row['margin']:+.2f} "
            f"[{mlow:+.2f}, {mhigh:+.2f}] over {row['games']} games")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("rules", nargs="*", default=sorted(GAMES))
    args = parser.parse_args(argv)
    run(args.rules, args.games, args.budget)


if __name__ == "__main__":
    main()
