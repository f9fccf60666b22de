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
import functools
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from aggregates.catalog import GAMES
from clients.bots import Determiniser, make, observe
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
        print(f"  {rules} {players}p {upper} v {lower} game {n + 1}/{games}: "
              f"margin {margins[-1]:+.2f}", file=sys.stderr, flush=True)
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


Job = Callable[[int, float, dict[str, list[float]]], dict[str, Any]]


def jobs(rules: str, players: int, upper: str = "") -> list[Job]:
    """What is measured at one table: each level alone (a solo game), else
    each level against the one below."""
    if players == 1:
        return [functools.partial(solo, rules, level) for level in ("random", "greedy", "ismcts")]
    return [functools.partial(pairing, rules, players, up, down) for up, down in PAIRS
            if not upper or up == upper]


def run(rules_ids: Sequence[str], games: int, budget: float,
        only: Sequence[int] = (), upper: str = "") -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    times: dict[str, list[float]] = {"random": [], "greedy": [], "ismcts": []}
    for rules in rules_ids:
        for players in tables(rules):
            if only and players not in only:
                continue
            for job in jobs(rules, players, upper):
                started = time.perf_counter()
                row = job(games, budget, times)
                row["seconds"] = round(time.perf_counter() - started, 1)
                print(line(row), flush=True)
                rows.append(row)
    for level, spent in times.items():
        print(f"decision time {level} (budget {budget}s): p50 {percentile(spent, 0.5):.3f}s "
              f"p99 {percentile(spent, 0.99):.3f}s over {len(spent)} decisions", flush=True)
    return rows


def timing(rules: str, budgets: Sequence[float], decisions: int) -> list[str]:
    """Each level's decision time at positions reached by random play: p50 and
    p99 over ``decisions`` decisions, IS-MCTS at each budget."""
    cls = GAMES[rules]
    players = 1 if cls.MAX_SEATS == 1 else 2
    rnd = random.Random(rules)
    spent: dict[str, list[float]] = {}
    game = cls.start([f"p{s}" for s in range(players)], seed=f"{1:064x}")
    for n in range(decisions):
        while game.ended or rnd.random() < 0.8:
            if game.ended:
                game = cls.start([f"p{s}" for s in range(players)], seed=f"{n + 2:064x}")
            seat = rnd.choice(game.waiting_on())
            game.act(seat, rnd.choice(game.legal_actions(seat)))
        seat = rnd.choice(game.waiting_on())
        for level, budget in [("random", 0.0), ("greedy", 0.0), *(("ismcts", b) for b in budgets)]:
            started = time.perf_counter()
            obs = observe(game, seat, Determiniser(game, seat))
            make(level, seed=n, budget=budget)(obs)
            name = f"{level} at {budget} s" if level == "ismcts" else level
            spent.setdefault(name, []).append(time.perf_counter() - started)
    return [f"{rules} decision time {name}: p50 {percentile(v, 0.5):.3f} s, "
            f"p99 {percentile(v, 0.99):.3f} s over {len(v)} decisions"
            for name, v in spent.items()]


def line(row: dict[str, Any]) -> str:
    if row["players"] == 1:
        low, high = row["win_ci"]
        return (f"{row['game']} solo {row['level']}: won {row['win_rate']:.2f} "
                f"[{low:.2f}, {high:.2f}] of {row['games']}")
    low, high = row["win_ci"]
    mlow, mhigh = row["margin_ci"]
    return (f"{row['game']} {row['players']}p {row['upper']} v {row['lower']}: wins "
            f"{row['win_share']:.2f} [{low:.2f}, {high:.2f}], margin {row['margin']:+.2f} "
            f"[{mlow:+.2f}, {mhigh:+.2f}] over {row['games']} games ({row['seconds']} s)")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--timing", default="0.1,0.5,2",
                        help="IS-MCTS budgets to time decisions at (comma-separated)")
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--only-timing", action="store_true")
    parser.add_argument("--players", default="", help="only these tables (e.g. 2,4)")
    parser.add_argument("--upper", default="", help="only the pairing of this level")
    parser.add_argument("rules", nargs="*", default=sorted(GAMES))
    args = parser.parse_args(argv)
    budgets = [float(b) for b in args.timing.split(",") if b]
    for rules in args.rules:
        for text in timing(rules, budgets, args.decisions):
            print(text, flush=True)
    if not args.only_timing:
        run(args.rules, args.games, args.budget,
            [int(n) for n in args.players.split(",") if n], args.upper)


if __name__ == "__main__":
    main()
