"""The bots' levels measured against each other (``make soak``; or
``python -m tests.bots_soak --games N --budget S``).

For each game and table (two and four players where the game allows them),
each level plays the one below: half the seats each (whole teams, where the
game plays in teams), alternating around the table, the first seat's level
alternating from game to game. Reported per
pairing: the upper level's share of the wins (a shared win split among the
winners) with its 95% Wilson interval, and the mean margin of its seats'
worth over the lower level's (``clients.bots.playout.rewards``: first 1,
last 0) with a 95% normal interval. The Land of Enin is played alone: each
level's win rate and its score, how far its quest got (``SOLO_SCORES``: the
quest's parts done and the XP reached, each with a 95% interval), and each
level's score less the level's below over the games both played (the same
seeds). Each
level's decision time: p50 and p99 at the budget.

``--depths P,C`` plays the upper level at other playout depths than the
bots' own (``clients.bots.playout.Depths``: P moves where a game's standings
score it as if it ended now, C where they count what was scored so far), the
lower level at its own: two runs on the same seeds compare the depths head to
head. Each game's record holds the depths and the load average it was played
at; ``--summarise`` prints their range and what 200 games a table would take,
and with ``--against`` another run's log, the difference game by game.

The records of the runs the docs cite are kept in ``RECORDS``, one file per
budget (``budget-0.1.jsonl``): every game is seeded by its number, so a later
run adds games with ``--first`` (the next numbers) and ``--log`` that file,
and ``--summarise`` reads them all, each game once.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from aggregates.catalog import GAMES
from aggregates.kernel import Game
from clients.bots import DEPTHS, Depths, Determiniser, make, observe
from clients.bots.arena import play

PAIRS = (("greedy", "random"), ("ismcts", "greedy"))
#: A game still running after this many moves is stopped and counted unended:
#: the longest that ended in the kept records took 2,098 (four-player Nine
#: Empires), and four-player Nine Empires can reach a position that no move
#: ends (docs/bots-search.md), where a game ran past 15,000 at 0.1 s a decision.
SOAK_MAX_MOVES = 5_000
#: A solo game's score beside its result, from the player's view at the end
#: (The Land of Enin keeps none: the rulebook's quest is won or lost): the
#: quest's parts done (its items marked on the Character Card, the Lost Book
#: last) and the experience reached.
SOLO_SCORES = {"quest": lambda view: len(view["quest_items"]), "xp": lambda view: view["xp"]}
#: The kept records of the runs the docs cite (``docs/bots-search.md``).
RECORDS = Path(__file__).parent / "bots_records"
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


@dataclasses.dataclass(frozen=True)
class Table:
    """One thing measured: ``upper`` against ``lower`` at a table of
    ``players`` (a solo game: ``upper`` alone, ``lower`` empty)."""

    rules: str
    players: int
    upper: str
    lower: str = ""

    def name(self) -> str:
        if self.players == 1:
            return f"{self.rules} solo {self.upper}"
        return f"{self.rules} {self.players}p {self.upper} v {self.lower}"


def sides(game: Game) -> list[int]:
    """Each seat's side: its team's index where the game plays in teams
    (Ettin's Alliances at four), else the seat itself. A level takes whole
    sides, so a team never mixes the two levels measured."""
    seating = game.seating()
    return [seating.team_index(s) if seating.teams else s  # type: ignore[misc]
            for s in range(len(game.seats))]


def one_game(table: Table, n: int, budget: float, from_record: bool = False,
             depths: Depths = DEPTHS) -> dict[str, Any]:
    """Game ``n`` of a table: the levels alternate around the table by side
    (``sides``) and the first side's level from game to game. The upper level's share of the wins
    (a shared win split), its seats' mean worth over the lower's, and each
    level's decision times. ``from_record``: each seat's belief is guessed
    from its own record, as over ``Play`` (``arena.play``). ``depths``: the
    upper level's playout depths (the lower level plays at the bots' own)."""
    game = GAMES[table.rules].start([f"p{s}" for s in range(table.players)],
                                    seed=f"{n:064x}"[-64:])
    levels = [table.upper if (side + n) % 2 == 0 or table.players == 1 else table.lower
              for side in sides(game)]
    bots = [make(level, seed=f"{table.rules}/{n}/{seat}", budget=budget,
                 depths=depths if level == table.upper else DEPTHS)
            for seat, level in enumerate(levels)]
    started = time.perf_counter()
    result = play(game, bots, random.Random(n), SOAK_MAX_MOVES, from_record=from_record)
    times: dict[str, list[float]] = {}
    for seat, level in enumerate(levels):
        times.setdefault(level, []).extend(result.times[seat])
    won = (sum(levels[s] == table.upper for s in result.winners) / len(result.winners)
           if result.winners else 0.0)
    up = [w for s, w in enumerate(result.worth) if levels[s] == table.upper]
    down = [w for s, w in enumerate(result.worth) if levels[s] == table.lower]
    margin = statistics.fmean(up) - statistics.fmean(down) if down else 0.0
    scores = ({name: score(game.view(0)) for name, score in SOLO_SCORES.items()}
              if table.players == 1 else {})
    return {"table": table.name(), "n": n, "won": won, "margin": margin, **scores,
            "ended": result.ended, "moves": result.moves, "budget": budget,
            "belief": "record" if from_record else "game",
            "depths": [depths.projected, depths.counted],
            "load": round(os.getloadavg()[0], 2),
            "seconds": round(time.perf_counter() - started, 2),
            "times_ms": {k: histogram_ms(v) for k, v in times.items()}}


def histogram_ms(seconds: Sequence[float]) -> dict[str, int]:
    """Decision times as counts per millisecond under 100 ms and per two
    significant figures above (110, 980, 1200 ms): a game's record kept
    small, since the records of many runs are kept (``RECORDS``)."""
    counts: dict[int, int] = {}
    for t in seconds:
        ms = round(t * 1000)
        if ms >= 100:
            ms = round(ms, 2 - len(str(ms)))
        counts[ms] = counts.get(ms, 0) + 1
    return {str(ms): n for ms, n in sorted(counts.items())}


def decision_times(record: dict[str, Any]) -> dict[str, list[float]]:
    """A record's decision times by level, in seconds (older records list
    each time; newer ones count them per millisecond)."""
    if "times" in record:
        return dict(record["times"])
    return {level: [int(ms) / 1000 for ms, n in counts.items() for _ in range(n)]
            for level, counts in record["times_ms"].items()}


def summary(table: Table, games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A table's figures over its games: the upper level's win share with its
    95% Wilson interval and its mean margin with a 95% normal interval (a solo
    game: its win rate)."""
    count = len(games)
    wins = sum(g["won"] for g in games)
    mean, mlow, mhigh = mean_interval([g["margin"] for g in games])
    scored = {name: mean_interval([g[name] for g in games if name in g])
              for name in SOLO_SCORES if any(name in g for g in games)}
    return {"game": table.rules, "players": table.players, "upper": table.upper,
            "lower": table.lower, "level": table.upper, "games": count,
            "win_share": wins / count if count else 0.0, "win_rate": wins / count if count else 0.0,
            "win_ci": wilson(wins, count), "margin": mean, "margin_ci": (mlow, mhigh),
            "scores": scored, "scored": sum(all(n in g for n in SOLO_SCORES) for g in games),
            "unfinished": sum(not g["ended"] for g in games),
            "seconds": round(sum(g["seconds"] for g in games), 1)}


def solo_against_below(records: Sequence[dict[str, Any]]) -> list[str]:
    """Each solo level's score less the level's below it (``PAIRS``), game by
    game over the games both played (the same seed), with 95% normal intervals."""
    by: dict[str, dict[tuple[str, int], dict[str, Any]]] = {}
    for r in records:
        rules, solo, level = (r["table"].split(" ") + ["", ""])[:3]
        if solo == "solo" and all(name in r for name in SOLO_SCORES):
            by.setdefault(level, {})[(rules, r["n"])] = r
    out = []
    for upper, lower in PAIRS:
        games, base = by.get(upper, {}), by.get(lower, {})
        both = sorted(k for k in games if k in base)
        for name in SOLO_SCORES if both else ():
            mean, low, high = mean_interval([games[k][name] - base[k][name] for k in both])
            out.append(f"{both[0][0]} solo {upper} v {lower}: {name} {mean:+.2f} "
                       f"[{low:+.2f}, {high:+.2f}] over {len(both)} games of both")
    return out


def plan(rules_ids: Sequence[str], only: Sequence[int] = (), upper: str = "") -> list[Table]:
    """Every table measured: each level alone in a solo game, else each level
    against the one below at two and four players."""
    out = []
    for rules in rules_ids:
        for players in tables(rules):
            if only and players not in only:
                continue
            if players == 1:
                out += [Table(rules, 1, level) for level in ("random", "greedy", "ismcts")
                        if not upper or any(level in pair for pair in PAIRS if pair[0] == upper)]
            else:
                out += [Table(rules, players, up, down) for up, down in PAIRS
                        if not upper or up == upper]
    return out


def run(rules_ids: Sequence[str], games: int, budget: float, only: Sequence[int] = (),
        upper: str = "", seconds: float = 0.0, log: str = "",
        from_record: bool = False, depths: Depths = DEPTHS,
        first: int = 0) -> list[dict[str, Any]]:
    """Game ``n`` of every table before game ``n + 1`` of any (so a run cut
    short by ``seconds`` leaves every table with about as many games), each
    game's record appended to ``log`` as a JSON line; then each table's figures.
    ``first``: the first game's number, so that runs side by side (or one
    after another) play other games of the same tables, their logs summed."""
    todo = plan(rules_ids, only, upper)
    played: dict[Table, list[dict[str, Any]]] = {t: [] for t in todo}
    started = time.perf_counter()
    for n in range(first, first + games):
        for table in todo:
            if seconds and time.perf_counter() - started > seconds:
                break
            record = one_game(table, n, budget, from_record, depths)
            played[table].append(record)
            print(f"  {table.name()} game {n + 1}: won {record['won']:.2f}, margin "
                  f"{record['margin']:+.2f}, {record['seconds']} s", file=sys.stderr, flush=True)
            if log:
                with open(log, "a", encoding="utf-8") as out:
                    out.write(json.dumps(record) + "\n")
    return report({t.name(): t for t in todo}, [g for gs in played.values() for g in gs])


def report(by_name: dict[str, Table], records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each table's figures and each level's decision times, printed."""
    rows = []
    for name, table in by_name.items():
        games = [r for r in records if r["table"] == name]
        if games:
            rows.append(summary(table, games))
            print(line(rows[-1]), flush=True)
    spent: dict[tuple[str, str], list[float]] = {}
    for r in records:
        for level, values in decision_times(r).items():
            spent.setdefault((r["table"].split(" ")[0], level), []).extend(values)
    for (rules, level), values in sorted(spent.items()):
        print(f"{rules} decision time {level}: p50 {percentile(values, 0.5):.3f} s, "
              f"p99 {percentile(values, 0.99):.3f} s over {len(values)} decisions", flush=True)
    for text in solo_against_below(records) + conditions(rows, records):
        print(text, flush=True)
    return rows


def conditions(rows: Sequence[dict[str, Any]], records: Sequence[dict[str, Any]]) -> list[str]:
    """What the games were played at (budgets, the upper level's depths, the
    load average as each game ended, in logs that record them) and how long
    200 games of every table would take, one table after another, at the
    measured seconds per game."""
    out = []
    for name in ("budget", "depths"):
        seen = sorted({json.dumps(r[name]) for r in records if name in r})
        if seen:
            out.append(f"{name}: {', '.join(seen)}")
    loads = [r["load"] for r in records if "load" in r]
    if loads:
        out.append(f"load average (1 min) at each game's end: {min(loads):.1f} to "
                   f"{max(loads):.1f}, median {statistics.median(loads):.1f}")
    short = [row for row in rows if row["games"] < 200]
    if short:
        hours = sum(row["seconds"] / row["games"] * 200 for row in rows) / 3600
        out.append(f"{len(short)} of {len(rows)} tables below 200 games (fewest "
                   f"{min(row['games'] for row in rows)}); 200 games of every table: "
                   f"about {hours:.1f} h of one process at these rates")
    return out


def summarise(paths: Sequence[str]) -> list[dict[str, Any]]:
    """The figures of one or more runs' logs (``--log``), complete or cut
    short: a game played in more than one of them (the same table, number,
    budget, belief and depths) counts once."""
    records: dict[tuple[Any, ...], dict[str, Any]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for text in f:
                if text.strip():
                    r = json.loads(text)
                    records.setdefault(game_key(r), r)
    every = {t.name(): t for t in plan(sorted(GAMES))}
    kept = list(records.values())
    return report({name: every[name] for name in dict.fromkeys(r["table"] for r in kept)}, kept)


def game_key(record: dict[str, Any]) -> tuple[Any, ...]:
    """What makes a game of a log the same game as another's."""
    return (record["table"], record["n"], record.get("budget"), record.get("belief"),
            json.dumps(record.get("depths")))


def paired(path: str, against: str) -> list[str]:
    """Two runs' logs compared game by game: for each table, over the games
    both played (the same table and seed), the mean of the first's win
    share and margin less the second's, with 95% normal intervals."""
    logs = []
    for name in (path, against):
        with open(name, encoding="utf-8") as f:
            logs.append({(r["table"], r["n"]): r for r in map(json.loads, f) if r})
    first, second = logs
    out = []
    for table in dict.fromkeys(t for t, _ in first):
        both = [n for t, n in first if t == table and (t, n) in second]
        for key in ("won", "margin"):
            mean, low, high = mean_interval([first[(table, n)][key] - second[(table, n)][key]
                                             for n in both])
            out.append(f"{table}: {key} less the other run's {mean:+.2f} "
                       f"[{low:+.2f}, {high:+.2f}] over {len(both)} games of both")
    return out


def timing(rules: str, budgets: Sequence[float], decisions: int) -> list[str]:
    """Each level's decision time at positions reached by random play: p50 and
    p99 over ``decisions`` decisions, the searching levels at each budget."""
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
        for level, budget in [("random", 0.0), *((lv, b) for lv in ("greedy", "ismcts")
                                                  for b in budgets)]:
            started = time.perf_counter()
            obs = observe(game, seat, Determiniser(game, seat))
            make(level, seed=n, budget=budget)(obs)
            name = f"{level} at {budget} s" if budget else level
            spent.setdefault(name, []).append(time.perf_counter() - started)
    return [f"{rules} decision time {name}: p50 {percentile(v, 0.5):.3f} s, "
            f"p99 {percentile(v, 0.99):.3f} s over {len(v)} decisions"
            for name, v in spent.items()]


def line(row: dict[str, Any]) -> str:
    if row["players"] == 1:
        low, high = row["win_ci"]
        scores = "".join(f", {name} {mean:.2f} [{lo:.2f}, {hi:.2f}]"
                         for name, (mean, lo, hi) in row["scores"].items())
        scored = f" (scores of {row['scored']})" if scores else ""
        return (f"{row['game']} solo {row['level']}: won {row['win_rate']:.2f} "
                f"[{low:.2f}, {high:.2f}] of {row['games']}{scores}{scored}")
    low, high = row["win_ci"]
    mlow, mhigh = row["margin_ci"]
    unfinished = f", {row['unfinished']} not finished" if row["unfinished"] else ""
    return (f"{row['game']} {row['players']}p {row['upper']} v {row['lower']}: wins "
            f"{row['win_share']:.2f} [{low:.2f}, {high:.2f}], margin {row['margin']:+.2f} "
            f"[{mlow:+.2f}, {mhigh:+.2f}] over {row['games']} games{unfinished} "
            f"({row['seconds']} s)")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0,
                        help="the first game's number (its seed): another run's games "
                             "of the same tables, for logs summarised together")
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--timing", default="0.1,0.5,2",
                        help="budgets to time the searching levels' decisions at "
                             "(comma-separated; empty: none)")
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--only-timing", action="store_true")
    parser.add_argument("--players", default="", help="only these tables (e.g. 2,4)")
    parser.add_argument("--upper", default="", help="only the pairing of this level")
    parser.add_argument("--seconds", type=float, default=0.0,
                        help="stop starting games after this long (every table at about "
                             "as many games)")
    parser.add_argument("--log", default="", help="append each game's record to this file")
    parser.add_argument("--from-record", action="store_true",
                        help="each seat's belief guessed from its own record, as a bot "
                             "over Play has it (default: from the game itself)")
    parser.add_argument("--depths", default="", metavar="P,C",
                        help="the upper level's playout depths: P moves where a game's "
                             "standings score it as if it ended now, C where they count "
                             "what was scored so far (default: the bots' own, "
                             f"{DEPTHS.projected},{DEPTHS.counted})")
    parser.add_argument("--summarise", default="", metavar="LOG[,LOG...]",
                        help="only print the figures of runs' logs (a game in several "
                             "counted once)")
    parser.add_argument("--against", default="", metavar="LOG",
                        help="with --summarise: that run less this one, game by game")
    parser.add_argument("rules", nargs="*", default=sorted(GAMES))
    args = parser.parse_args(argv)
    if args.summarise:
        summarise(args.summarise.split(","))
        if args.against:
            for text in paired(args.summarise, args.against):
                print(text, flush=True)
        return
    budgets = [float(b) for b in args.timing.split(",") if b]
    for rules in args.rules:
        for text in timing(rules, budgets, args.decisions):
            print(text, flush=True)
    if not args.only_timing:
        run(args.rules, args.games, args.budget,
            [int(n) for n in args.players.split(",") if n], args.upper, args.seconds, args.log,
            args.from_record, depths_of(args.depths), args.first)


def depths_of(text: str) -> Depths:
    """``--depths P,C`` as ``Depths`` (empty: the bots' own)."""
    if not text:
        return DEPTHS
    projected, counted = (int(v) for v in text.split(","))
    return Depths(projected=projected, counted=counted)


if __name__ == "__main__":
    main()
