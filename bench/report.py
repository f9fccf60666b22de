"""From raw measurements to figures (each with its floor and ratio), the goals,
and the printed table."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

#: The goals: (goal name, figure, comparison, target, words). A goal is judged
#: on its figure's ratio to its floor of the same run (``ABSOLUTE``: on the
#: figure itself). "A snapshot's size independent of the game's length" has
#: no number of its own; 1.5x allows the state to differ between two points
#: of a game. One `Act` alone (its rate and CPU at 32 in flight, its p50 one at
#: a time) and the audit's seconds are figures without a target: a bot's whole
#: loop per move and the audit against the trivial replay are what is judged.
GOALS: list[tuple[str, str, str, float, str]] = [
    ("move_cpu_vs_boardgameio", "move_cpu_many", "<=", 5.0,
     "server CPU per move of a bot's whole loop, 32 games at once: at most 5x "
     "boardgame.io's"),
    ("move_cpu_vs_noop", "move_cpu_many_vs_noop", "<=", 4.0,
     "server CPU per move of a bot's whole loop, 32 games at once: at most 4x a unary "
     "no-op call's"),
    ("move_p50_vs_boardgameio", "move_p50_one", "<=", 3.0,
     "p50 move -> the next decision at the bot, one game at a time: at most 3x "
     "boardgame.io's"),
    ("audit_vs_trivial_replay", "audit_vs_trivial", "<=", 4.0,
     "audit of the 10,000-event game: at most 4x the trivial aggregate's replay"),
    ("audit_all_two_vs_one", "audit_all_two_vs_one", ">=", 1.6,
     "arbiter audit --all: events/s over 2 server processes at least 1.6x one's"),
    ("feed_p99_vs_redis", "feed_subscribe_p99", "<=", 5.0,
     "Act reply -> Subscribe message p99: at most 5x bare Redis publish -> receive p99"),
    ("cold_load_long_vs_short", "cold_load", "<=", 2.0,
     "cold load of a 10,000-event game: at most 2x a 100-event game's"),
    ("snapshot_size_long_vs_short", "snapshot_bytes", "<=", 1.5,
     "snapshot size independent of the game's length (10,000 vs 100 events)"),
    ("replay_vs_trivial", "replay_rate", ">=", 0.5,
     "replay: at least 0.5 of the trivial aggregate's replay rate"),
    ("memory_enin_kb", "memory_enin", "<", 200.0, "memory per cached Enin game under 200 KB"),
    ("memory_ethnos_kb", "memory_ethnos", "<", 200.0,
     "memory per cached Ethnos game under 200 KB"),
    ("memory_ettin_kb", "memory_ettin", "<", 200.0, "memory per cached Ettin game under 200 KB"),
    ("act_32_postgres_vs_library", "act_32_postgres_enin", ">=", 1.0,
     "Act, 32 in flight, PostgreSQL: at least the library's own get+save rate"),
    ("getstate_spectators_vs_noop", "getstate_spectators", ">=", 0.5,
     "GetState of an unchanged game by 100 spectators: at least 0.5 of the no-op's rate"),
]
#: The phase a goal's figure comes from when that phase may be skipped (its
#: reason, in ``skipped``, is the goal's).
NEEDS = {"move_cpu_vs_boardgameio": "peer", "move_p50_vs_boardgameio": "peer",
         "act_32_postgres_vs_library": "postgres", "audit_all_two_vs_one": "audit_all"}
COMPARE: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge, "<=": operator.le, "<": operator.lt,
}
#: Goals judged on the figure itself, not on its ratio to a floor.
ABSOLUTE = {"audit_long_game", "memory_enin", "memory_ethnos", "memory_ettin"}


def _number(value: Any) -> float | None:
    if isinstance(value, int | float) and not (isinstance(value, float) and math.isnan(value)):
        return float(value)
    return None


def figure(value: Any, unit: str, floor: Any = None, floor_name: str = "",
           about: str = "") -> dict[str, Any]:
    """One figure: its value, and when it has one, its floor and the ratio of the two."""
    v, f = _number(value), _number(floor)
    ratio = v / f if v is not None and f else None  # no ratio to a floor of 0
    return {"value": v, "unit": unit, "floor": f, "floor_name": floor_name,
            "ratio": ratio, "about": about}


def _act(raw: dict[str, Any], rules: str, in_flight: int) -> dict[str, Any] | None:
    for phase in raw.get("act", []):
        if phase["rules"] == rules and phase["in_flight"] == in_flight:
            found: dict[str, Any] = phase
            return found
    return None


def _loop(raw: dict[str, Any], loop: str, games: int | None) -> dict[str, Any] | None:
    """The bot loop phase of kind ``loop`` with ``games`` at once (None: the most)."""
    found = [p for p in raw.get("loops", []) if p.get("loop") == loop and p.get("moves")]
    if not found:
        return None
    if games is None:
        return max(found, key=lambda p: int(p["games_at_once"]))
    return next((p for p in found if int(p["games_at_once"]) == games), None)


def _noop_cpu(raw: dict[str, Any]) -> float | None:
    """The no-op server's CPU per unary call, 32 in flight (the act phases' mean)."""
    values = [p["noop"]["cpu_ms_per_call"] for p in raw.get("act", [])
              if p.get("in_flight") == 32 and "noop" in p]
    numbers = [v for v in values if _number(v) is not None]
    return sum(numbers) / len(numbers) if numbers else None


def _loop_figures(raw: dict[str, Any], figures: dict[str, Any]) -> None:
    """A move of a bot's whole loop beside the peer's and the no-op's: the main
    loop (``Play`` where the server has it, else unary calls) unsuffixed, the
    unary loop beside it as ``_unary`` when ``Play`` is the main one."""
    sqlite, peer = raw.get("sqlite", {}), raw.get("peer") or {}
    peer_many = max(peer.values(), key=lambda p: int(p["games_at_once"]), default=None)
    peer_one = peer.get("1")
    noop = _noop_cpu(sqlite)
    kinds = ["play", "unary"] if _loop(sqlite, "play", None) else ["unary"]
    for n, kind in enumerate(kinds):
        suffix = "" if n == 0 else f"_{kind}"
        many, one = _loop(sqlite, kind, None), _loop(sqlite, kind, 1)
        how = ("the Play stream" if kind == "play" else
               "LegalActions + Act, each seat's Subscribe feed")
        if many:
            at_once = many["games_at_once"]
            about = (f"{how}; template game, {at_once} games at once, {many['moves']} moves "
                     f"({many['calls_per_move']:.2f} calls, {many['feed_messages_per_move']:.2f} "
                     f"feed messages a move)")
            figures[f"move_cpu_many{suffix}"] = figure(
                many["cpu_ms_per_move"], "ms", peer_many and peer_many["cpu_ms_per_move"],
                f"boardgame.io server CPU per move, {at_once} games at once", about)
            figures[f"move_cpu_many_vs_noop{suffix}"] = figure(
                many["cpu_ms_per_move"], "ms", noop, "no-op server CPU per unary call", about)
        if one:
            figures[f"move_p50_one{suffix}"] = figure(
                one["p50_ms"], "ms", peer_one and peer_one["p50_ms"],
                "boardgame.io p50, one game at a time",
                f"{how}: move sent -> the next decision in hand, one game at a time "
                f"(p99 {one['p99_ms']:.2f} ms)")


def _audit_figures(raw: dict[str, Any], figures: dict[str, Any]) -> None:
    """The audit against the trivial replay, and ``audit --all`` over 1 and 2
    connections, each to a server process of its own (the audits' work is the
    servers')."""
    long = raw.get("long_games")
    if long:
        figures["audit_vs_trivial"] = figure(
            long["audit_seconds"], "s",
            long.get("audit_trivial_seconds", long["trivial_replay_seconds"]),
            "the trivial aggregate's replay of as many events",
            f"audit of a {long['long_events']}-event game (in process, CPU seconds, turn about "
            "with the trivial replay)")
    every = raw.get("audit_all")
    if every and "1" in every and "2" in every:
        figures["audit_all_two_vs_one"] = figure(
            every["2"]["events_per_second"], "events/s", every["1"]["events_per_second"],
            "one connection to one server process", f"arbiter audit --all of "
            f"{every['2']['games']} games ({every['2']['events']} events), two connections, "
            "each to a server process of its own")


def figures_and_goals(
    raw: dict[str, Any], skipped: dict[str, str]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    figures: dict[str, Any] = {}
    sqlite = raw.get("sqlite", {})
    for rules in ("enin", "ethnos"):
        many, one = _act(sqlite, rules, 32), _act(sqlite, rules, 1)
        if many:
            figures[f"act_32_sqlite_{rules}"] = figure(
                many["arbiter"]["per_second"], "Act/s", many["noop"]["per_second"],
                "no-op RPC, 32 in flight",
                f"{rules.title()}, {many['games']} games; the load generator's CPU per call "
                f"{many['arbiter'].get('client_cpu_ms_per_call', 0):.2f} ms, per no-op call "
                f"{many['noop'].get('client_cpu_ms_per_call', 0):.2f} ms")
            figures[f"server_cpu_per_act_{rules}"] = figure(
                many["arbiter"]["cpu_ms_per_call"], "ms", many["noop"]["cpu_ms_per_call"],
                "no-op server CPU per call", "server process CPU time / Acts, 32 in flight")
        if one:
            figures[f"act_seq_{rules}"] = figure(
                one["arbiter"]["per_second"], "Act/s", one["noop"]["per_second"],
                "no-op RPC, one at a time", rules.title())
            figures[f"act_seq_p50_{rules}"] = figure(
                one["arbiter"]["p50_ms"], "ms", one["noop"]["p50_ms"], "no-op p50",
                f"{rules.title()}, one at a time")
    feed = sqlite.get("feed")
    if feed:
        for q in ("p50", "p99"):
            figures[f"feed_subscribe_{q}"] = figure(
                feed[f"subscribe_{q}_ms"], "ms", feed[f"redis_{q}_ms"],
                f"bare Redis publish -> receive {q}", "Act reply -> Subscribe message")
        figures["feed_direct_p99"] = figure(
            feed["direct_p99_ms"], "ms", feed["redis_p99_ms"], "bare Redis publish -> receive p99",
            "Act reply -> direct Redis subscriber")
    watched = sqlite.get("spectators")
    if watched:
        figures["getstate_spectators"] = figure(
            watched["arbiter"]["per_second"], "GetState/s", watched["noop"]["per_second"],
            f"no-op RPC, {watched['spectators']} in flight, a reply of the same state",
            f"{watched['spectators']} spectators of one unchanged Ethnos game "
            f"({watched['state_bytes']} bytes); server CPU per call "
            f"{watched['arbiter']['cpu_ms_per_call']:.3f} ms, no-op "
            f"{watched['noop']['cpu_ms_per_call']:.3f} ms")
    long = raw.get("long_games")
    if long:
        n, short = long["long_events"], long["short_events"]
        figures["cold_load"] = figure(
            long["cold_load_long_ms"], "ms", long["cold_load_short_ms"],
            f"cold load of a {short}-event game", f"cold load of a {n}-event game")
        figures["snapshot_bytes"] = figure(
            long["snapshot_long"]["bytes"], "bytes", long["snapshot_short"]["bytes"],
            f"snapshot at version {long['snapshot_short']['version']}",
            f"snapshot at version {long['snapshot_long']['version']}")
        trivial = long["trivial_replay_per_second"]
        figures["replay_rate"] = figure(
            long["replay_per_second"], "events/s", trivial, "trivial aggregate replay",
            f"{n} events from the store (CPU seconds, turn about with the trivial replay)")
        audit_trivial = n / long.get("audit_trivial_seconds", n / trivial)
        figures["audit_rate"] = figure(long["audit_per_second"], "events/s", audit_trivial,
                                       "trivial aggregate replay", "Audit re-verification")
        figures["audit_long_game"] = figure(long["audit_seconds"], "s",
                                            about=f"audit of a {n}-event game")
    _loop_figures(raw, figures)
    _audit_figures(raw, figures)
    memory = raw.get("memory", {})
    for rules in ("enin", "ethnos", "ettin"):
        if rules in memory:
            figures[f"memory_{rules}"] = figure(
                memory[rules]["bytes_per_game"] / 1000, "KB",
                about=f"heap kept per cached {rules.title()} game "
                      f"(RSS {memory[rules]['rss_per_game'] / 1000:.0f} KB)")
    library = raw.get("library_sqlite")
    if library:
        figures["library_get_save_sqlite"] = figure(
            library["per_second"], "saves/s", about="the library's own get+save, 32 threads")
    postgres = raw.get("postgres")
    if postgres:
        many = _act(postgres["load"], "enin", 32)
        if many:
            figures["act_32_postgres_enin"] = figure(
                many["arbiter"]["per_second"], "Act/s", postgres["library"]["per_second"],
                "the library's get+save, 32 threads", "Enin, PostgreSQL")
        scaled = postgres.get("reuse_port", {})
        one, two = (_act(scaled.get(n, {}), "enin", 32) for n in ("1", "2"))
        if one and two:
            # A figure with no target: on two cores the load generator
            # takes one of them.
            figures["reuse_port_two_vs_one"] = figure(
                two["arbiter"]["per_second"], "Act/s", one["arbiter"]["per_second"],
                f"one server process, {one.get('channels', 1)} connections",
                f"two processes on one port (ARBITER_REUSE_PORT), PostgreSQL, Enin; server "
                f"CPU per Act {two['arbiter']['cpu_ms_per_call']:.2f} ms (one: "
                f"{one['arbiter']['cpu_ms_per_call']:.2f} ms)")
    return figures, _goals(figures, skipped)


def _goals(figures: dict[str, Any], skipped: dict[str, str]) -> list[dict[str, Any]]:
    goals = []
    for name, key, op, target, words in GOALS:
        fig = figures.get(key)
        value = None
        if fig is not None:
            value = fig["value"] if key in ABSOLUTE else fig["ratio"]
        goal: dict[str, Any] = {
            "name": name, "value": value, "target": f"{op} {target:g}",
            "met": None if value is None else COMPARE[op](value, target), "about": words,
        }
        if value is None:
            goal["skipped"] = skipped.get(NEEDS.get(name, ""), "not measured")
        goals.append(goal)
    return goals


def _fmt(value: float | None, unit: str = "") -> str:
    if value is None:
        return "—"
    if abs(value) >= 100:
        text = f"{value:,.0f}"
    elif abs(value) >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.2f}"
    return f"{text} {unit}".strip()


def render_table(results: dict[str, Any]) -> str:
    """The figures and the goals as Markdown tables (the same as docs/performance.md's)."""
    m = results["machine"]
    quick = "QUICK (not for judging goals), " if results["quick"] else ""
    lines = [
        f"Arbiter benchmark, {results['when']}, {quick}"
        f"{m['cpus']} CPUs, load average {m['load_average_before'][0]} before, "
        f"{m['load_average'][0]} after; {results['seconds']} s",
        "",
        "| figure | Arbiter | floor (same run) | ratio |",
        "| --- | --- | --- | --- |",
    ]
    for name, fig in results["figures"].items():
        floor = "—" if fig["floor"] is None else (
            f"{_fmt(fig['floor'], fig['unit'])} ({fig['floor_name']})")
        ratio = _fmt(fig["ratio"]) if fig["ratio"] is not None else "—"
        lines.append(f"| {name}: {fig['about']} | {_fmt(fig['value'], fig['unit'])} | {floor} | "
                     f"{ratio} |")
    lines += ["", "| goal | value | target | met |", "| --- | --- | --- | --- |"]
    for goal in results["goals"]:
        met = {True: "met", False: "MISSED", None: f"skipped: {goal.get('skipped', '')}"}[
            goal["met"]]
        lines.append(f"| {goal['about']} | {_fmt(goal['value'])} | {goal['target']} | {met} |")
    for name, reason in results.get("skipped", {}).items():
        lines.append(f"\nskipped {name}: {reason}")
    return "\n".join(lines)


def clean(value: Any) -> Any:
    """NaN (a figure with no samples) as null: results.json stays strict JSON."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean(v) for v in value]
    return value
