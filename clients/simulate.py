"""Random legal playouts through the server (``arbiter simulate``).

The bot plays every seat on one ``Play`` stream and uses nothing but the
legal moves each turn lists (what LegalActions lists), so it tests the
promise that a random bot built only on that list finishes every game; the summary reports
games that did not finish (capped or stuck) instead of hiding them. It ends
with a table of each seat's wins and scores (read from the games' outcomes),
and says after the first game about how long the whole run will take.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO, TypeVar

from arbiter.answers import bot_move
from arbiter.client import ArbiterClient, ArbiterError
from arbiter.play import Move, legal_of, play_seats
from arbiter.render import loads_object, seat_title
from arbiter.v1 import game_pb2

DEFAULT_CAP = 5000
MAX_REFUSALS = 10
#: How long a playout waits, at most, once the server says it has had its share
#: (``RATE_LIMITED``): it backs off, doubling from 50 ms, as a fair client does.
MAX_BACKOFF_SECONDS = 5.0

T = TypeVar("T")


def patiently(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``call(*args, **kwargs)``, retried while the server refuses it as
    ``RATE_LIMITED``: a long game (hundreds of moves) played as fast as the
    server answers outruns an address's share of the server's time; a fair
    client slows down and goes on."""
    wait = 0.05
    while True:
        try:
            return call(*args, **kwargs)
        except ArbiterError as exc:
            if exc.reason != "RATE_LIMITED":
                raise
            time.sleep(wait)
            wait = min(wait * 2, MAX_BACKOFF_SECONDS)


#: The finished games' ids the summary names (the first so many).
SHOWN_IDS = 10


@dataclass
class Playout:
    """How one game went: its result (``None`` if unfinished) and its command count."""

    game_id: str
    result: str | None
    commands: int
    capped: bool = False
    stuck: bool = False
    refusals: int = 0
    #: The finished game's outcome (``outcome_json``), empty while unfinished.
    outcome: dict[str, Any] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)


@dataclass
class Summary:
    """Totals over all playouts; the arithmetic lives here so it is testable."""

    requested: int
    seconds: float = 0.0
    playouts: list[Playout] = field(default_factory=list)

    @property
    def finished(self) -> int:
        return sum(1 for p in self.playouts if p.result is not None)

    @property
    def capped(self) -> int:
        return sum(1 for p in self.playouts if p.capped)

    @property
    def stuck(self) -> int:
        return sum(1 for p in self.playouts if p.stuck)

    @property
    def refusals(self) -> int:
        return sum(p.refusals for p in self.playouts)

    @property
    def commands(self) -> int:
        return sum(p.commands for p in self.playouts)

    @property
    def outcomes(self) -> Counter[str]:
        return Counter(p.result for p in self.playouts if p.result is not None)

    @property
    def commands_per_second(self) -> float:
        return self.commands / self.seconds if self.seconds > 0 else 0.0

    @property
    def mean_commands(self) -> float:
        return self.commands / len(self.playouts) if self.playouts else 0.0

    def render(self) -> str:
        """The summary block printed at the end of a simulation."""
        lines = [
            f"games finished: {self.finished}/{self.requested}",
            "outcomes: " + (
                ", ".join(f"{name} {count}" for name, count in sorted(self.outcomes.items()))
                or "none"
            ),
            f"commands: {self.commands} total, {self.mean_commands:.1f} per game, "
            f"{self.commands_per_second:.1f}/s over {self.seconds:.2f}s",
        ]
        finished = [p.game_id for p in self.playouts if p.result is not None]
        if finished:  # to replay, audit or export one of them
            shown = ", ".join(finished[:SHOWN_IDS])
            more = len(finished) - SHOWN_IDS
            lines.append(f"finished games: {shown}" + (f" and {more} more" if more > 0 else ""))
        if self.capped:
            lines.append(f"capped games: {self.capped} "
                         f"({', '.join(p.game_id for p in self.playouts if p.capped)})")
        if self.stuck:
            lines.append(f"stuck games (no legal action, not over): {self.stuck} "
                         f"({', '.join(p.game_id for p in self.playouts if p.stuck)})")
        if self.refusals:
            lines.append(f"refused legal actions: {self.refusals}")
        table = standings(self.playouts)
        if table:
            lines += ["", table]
        return "\n".join(lines)


#: Outcome keys holding one score per seat, the likeliest first.
SCORE_KEYS = ("scores", "score", "glory", "points", "vp")
#: Results that mean a solo player won.
WON = ("won", "win", "victory", "victorious")


def seat_scores(outcome: Mapping[str, Any], seats: int) -> tuple[str, list[float]] | None:
    """The outcome's per-seat scores and their name: a known key first, else its
    first list of one number per seat."""
    keys = [k for k in SCORE_KEYS if k in outcome] + [k for k in outcome if k not in SCORE_KEYS]
    for key in keys:
        value = outcome[key]
        if (isinstance(value, list) and len(value) == seats and value
                and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)):
            return str(key), [float(v) for v in value]
    return None


def winners_of(outcome: Mapping[str, Any], seats: int) -> list[int]:
    """The winning seats an outcome names (``winners``/``winner``; a solo ``won``)."""
    for key in ("winners", "winner"):
        value = outcome.get(key)
        found = value if isinstance(value, list) else [value]
        picked = [w for w in found if isinstance(w, int) and not isinstance(w, bool)
                  and 0 <= w < seats]
        if picked:
            return picked
    if seats == 1 and str(outcome.get("result", "")).lower() in WON:
        return [0]
    return []


def standings(playouts: Sequence[Playout]) -> str:
    """The table of winners and scores over the finished games: per seat its wins
    (a shared win counts for each), its share of the games, and its mean and best
    score when the outcomes carry scores."""
    done = [p for p in playouts if p.result is not None and p.seats]
    if not done:
        return ""
    names = done[0].seats
    seats = len(names)
    wins = [0] * seats
    scored: list[list[float]] = [[] for _ in range(seats)]
    score_name = ""
    for p in done:
        for seat in winners_of(p.outcome, seats):
            wins[seat] += 1
        found = seat_scores(p.outcome, seats)
        if found is not None:
            score_name = score_name or found[0]
            for seat, value in enumerate(found[1]):
                scored[seat].append(value)
    header = ["player", "wins", "win %"]
    if score_name:
        header += [f"mean {score_name}", f"best {score_name}"]
    rows = []
    for seat in range(len(names)):
        row = [seat_title(seat, names), str(wins[seat]),  # "Player 1", as results count
               f"{100 * wins[seat] / len(done):.0f}%"]
        if score_name:
            values = scored[seat]
            row += [f"{sum(values) / len(values):.1f}" if values else "-",
                    f"{max(values):g}" if values else "-"]
        rows.append(row)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    draws = sum(1 for p in done if not winners_of(p.outcome, seats))
    title = f"winners and scores over {len(done)} finished game{'s' if len(done) != 1 else ''}"
    if draws:
        title += f" ({draws} without a winner)"
    return "\n".join([title, line(header), *(line(r) for r in rows)])


def estimate(done: int, total: int, seconds: float) -> str:
    """How long the rest will take at the pace so far: ``about 1m 20s left``."""
    if done <= 0 or done >= total:
        return ""
    left = seconds / done * (total - done)
    return f"about {duration(left)} left"


def duration(seconds: float) -> str:
    """``7s``, ``2m 05s``, ``1h 03m``: short enough for a progress line."""
    whole = max(0, round(seconds))
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m {whole % 60:02d}s"
    return f"{whole // 3600}h {whole % 3600 // 60:02d}m"


def progress_bar(done: int, total: int, commands: int, width: int = 30, eta: str = "") -> str:
    """A plain-text bar like ``[######------] 3/10 games, 1234 commands, about 9s left``."""
    filled = width * done // total if total else width
    tail = f", {eta}" if eta else ""
    return (f"[{'#' * filled}{'-' * (width - filled)}] {done}/{total} games, "
            f"{commands} commands{tail}")


def outcome_result(state: game_pb2.GameState) -> str:
    """Who won a finished game, to tally (``Player 2 wins``, ``nobody wins``;
    ``unknown`` from an outcome not in the shared shape)."""
    winners = loads_object(state.outcome_json).get("winners")
    if not isinstance(winners, list):
        return "unknown"
    if not winners:
        return "nobody wins"
    names = " & ".join(f"Player {int(w) + 1}" for w in winners)
    return f"{names} win" if len(winners) > 1 else f"{names} wins"


def playout(
    client: ArbiterClient,
    rules: str,
    seats: list[str],
    rng: random.Random,
    cap: int = DEFAULT_CAP,
    on_command: Callable[[], None] | None = None,
) -> Playout:
    """Create one game and play random legal commands until it ends or hits ``cap``.

    Every seat is played on one ``Play`` stream (``arbiter.play.play_seats``),
    as a bot holding several seats: each seat's own token from ``CreateGame``
    authenticates it once, so the server's seat checks are exercised too; the
    server pushes each seat's turn (its legal moves) and the stream answers it.
    """
    created = patiently(client.create_game, rules, seats)
    game_id = created.game_id
    run = Playout(game_id=game_id, result=None, commands=0, seats=list(seats))

    def choose(turn: game_pb2.PlayTurn) -> Move | None:
        move = bot_move(legal_of(turn), rng, explore=False)  # the listed actions only
        return None if move is None else Move(move.command, move.decision_id)

    def counted(message: game_pb2.PlayMessage) -> None:
        for result in message.results:
            if result.accepted and on_command is not None:
                on_command()

    try:
        played = play_seats(
            lambda after: client.play(game_id, list(range(len(seats))), after_version=after),
            choose, max_moves=cap, max_refusals=MAX_REFUSALS, on_message=counted)
    except RuntimeError:  # as many refusals in a row: the bot cannot go on
        run.stuck = True
        return run
    run.commands, run.refusals, run.stuck = played.accepted, played.refused, played.stuck
    final = next(iter(played.final.values()), None)
    if final is None:
        run.capped = not played.stuck
        return run
    run.result = outcome_result(final)
    run.outcome = loads_object(final.outcome_json)
    return run


def simulate(
    client: ArbiterClient,
    rules: str,
    games: int,
    players: int,
    seed: int | None = None,
    cap: int = DEFAULT_CAP,
    progress: TextIO | None = None,
) -> Summary:
    """Play ``games`` random playouts one after another; draw progress on ``progress``."""
    rng = random.Random(seed)
    seats = [f"Player {i + 1}" for i in range(players)]
    summary = Summary(requested=games)
    start = time.perf_counter()
    last_draw = 0.0
    commands_so_far = 0

    # A terminal gets a bar redrawn in place; a pipe or log file gets only the
    # final bar, not hundreds of carriage-return frames.
    live = progress is not None and _isatty(progress)

    def draw(force: bool = False) -> None:
        nonlocal last_draw
        now = time.perf_counter()
        if progress is None or (not force and now - last_draw < 0.2):
            return
        if not live and len(summary.playouts) < games:
            return
        last_draw = now
        done = len(summary.playouts)
        eta = estimate(done, games, now - start)
        bar = progress_bar(done, games, commands_so_far, eta=eta)
        progress.write("\r" + bar + " " * max(0, drawn[0] - len(bar)))  # no stale tail
        drawn[0] = len(bar)
        progress.flush()

    def tick() -> None:
        nonlocal commands_so_far
        commands_so_far += 1
        draw()

    drawn = [0]
    draw(force=True)
    for n in range(games):
        summary.playouts.append(playout(client, rules, seats, rng, cap, on_command=tick))
        if n == 0 and games > 1 and progress is not None:
            first = time.perf_counter() - start
            note = (f"the first game took {duration(first)}: all {games} games will take "
                    f"about {duration(first * games)}")
            progress.write(("\r" + " " * drawn[0] + "\r" if live else "") + note + "\n")
            drawn[0] = 0
            progress.flush()
        draw(force=True)
    summary.seconds = time.perf_counter() - start
    if progress is not None:
        progress.write("\n")
        progress.flush()
    return summary


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
