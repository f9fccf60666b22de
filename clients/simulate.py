"""Random legal playouts through the server (``arbiter simulate``).

The bot uses nothing but LegalActions, so it tests the promise that a
random bot built only on that list finishes every game; the summary reports
games that did not finish (capped or stuck) instead of hiding them.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from arbiter.v1 import game_pb2

from clients.choices import bot_move
from clients.client import ArbiterClient, ArbiterError
from clients.render import loads_object

DEFAULT_CAP = 5000
MAX_REFUSALS = 10


@dataclass
class Playout:
    """How one game went: its result (``None`` if unfinished) and its command count."""

    game_id: str
    result: str | None
    commands: int
    capped: bool = False
    stuck: bool = False
    refusals: int = 0


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
        if self.capped:
            lines.append(f"capped games: {self.capped} "
                         f"({', '.join(p.game_id for p in self.playouts if p.capped)})")
        if self.stuck:
            lines.append(f"stuck games (no legal action, not over): {self.stuck} "
                         f"({', '.join(p.game_id for p in self.playouts if p.stuck)})")
        if self.refusals:
            lines.append(f"refused legal actions: {self.refusals}")
        return "\n".join(lines)


def progress_bar(done: int, total: int, commands: int, width: int = 30) -> str:
    """A plain-text bar like ``[######------] 3/10 games, 1234 commands``."""
    filled = width * done // total if total else width
    return f"[{'#' * filled}{'-' * (width - filled)}] {done}/{total} games, {commands} commands"


def outcome_result(state: game_pb2.GameState) -> str:
    """The ``result`` of a finished game's outcome (``"unknown"`` if it names none)."""
    result = loads_object(state.outcome_json).get("result")
    return str(result) if result is not None else "unknown"


def seat_tokens(created: game_pb2.CreateGameResponse) -> dict[int, str]:
    """Each seat's token from a ``CreateGame`` response (empty from a server without auth)."""
    return {t.seat: t.token for t in created.seat_tokens if t.token}


def _seats_to_ask(state: game_pb2.GameState) -> list[int]:
    """The seats the game waits on; all seats when it does not say."""
    waiting = sorted({decision.seat for decision in state.pending})
    return waiting or list(range(max(1, len(state.seats))))


def playout(
    client: ArbiterClient,
    rules: str,
    seats: list[str],
    rng: random.Random,
    cap: int = DEFAULT_CAP,
    on_command: Callable[[], None] | None = None,
) -> Playout:
    """Create one game and play random legal commands until it ends or hits ``cap``.

    Each seat is played with its own token from ``CreateGame``, as separate
    players would, so the server's seat checks are exercised too.
    """
    created = client.create_game(rules, seats)
    game_id = created.game_id
    tokens = seat_tokens(created)
    state = created.state if created.state.game_id else client.state(
        game_id, token=tokens.get(0)
    )
    run = Playout(game_id=game_id, result=None, commands=0)
    consecutive_refusals = 0
    while not state.over:
        if run.commands >= cap:
            run.capped = True
            return run
        choice: tuple[int, game_pb2.LegalActionsResponse] | None = None
        for seat in _seats_to_ask(state):
            legal = client.legal(game_id, seat, token=tokens.get(seat))
            if legal.actions:
                choice = (seat, legal)
                break
        if choice is None:
            run.stuck = True
            return run
        seat, legal = choice
        move = bot_move(legal, rng, explore=False)  # the listed actions only
        assert move is not None
        try:
            response = client.act(
                game_id, seat, move.command, decision_id=move.decision_id,
                expected_version=0 if move.decision_id else legal.version,
                token=tokens.get(seat),
            )
        except ArbiterError:
            run.refusals += 1
            consecutive_refusals += 1
            if consecutive_refusals >= MAX_REFUSALS:
                run.stuck = True
                return run
            state = client.state(game_id, seat, token=tokens.get(seat))
            continue
        consecutive_refusals = 0
        run.commands += 1
        if on_command is not None:
            on_command()
        state = response.state if response.state.game_id else client.state(
            game_id, seat, token=tokens.get(seat)
        )
    run.result = outcome_result(state)
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
        progress.write("\r" + progress_bar(len(summary.playouts), games, commands_so_far))
        progress.flush()

    def tick() -> None:
        nonlocal commands_so_far
        commands_so_far += 1
        draw()

    draw(force=True)
    for _ in range(games):
        summary.playouts.append(playout(client, rules, seats, rng, cap, on_command=tick))
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
