"""Bots for "play against bots" on the new-game form: the seats the creator
does not take, each played by a small task on the web side's loop.

A bot is a client like any other: every read and move is an ordinary
``GameService`` call through ``service.web.backend`` (the gRPC write path of
every player), with its seat's own token, charged to the address of the player
who made the game, so a bot spends that player's share of the server's time and
backs off when refused ``RATE_LIMITED``, as ``arbiter simulate`` does. It plays
at the level the form chose (random, greedy or IS-MCTS, ``service.hostedbots``),
deciding from what its seat's token reads alone: its seat's record
(``History``), its view (``GetState``) and its legal moves (``LegalActions``),
as ``arbiter bot`` does over the per-seat stream. A searching level thinks up
to the server's bound per decision (``ARBITER_BOT_BUDGET_SECONDS``), on one
thread for all the web side's bots (``THINKERS``), and that thinking's CPU is
charged to the creating player's share of the server's time as its calls are
(``SHARES``: a bot whose player is in debt waits before it thinks again), so
one player's many games slow its own bots, not everyone's. The tasks end with their game, after
``IDLE_SECONDS`` without a move of the other seats, or when the web side stops
(``install``: cancelled on cleanup).
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from aiohttp import web
from arbiter.v1 import game_pb2

from service.config import bot_budget_seconds
from service.hostedbots import BotLevel, LevelError, SeatBots, bot_level
from service.limits import CallerShares, caller_of
from service.web.backend import Backend, GatewayError
from service.web.gateway import BACKEND

log = logging.getLogger(__name__)
#: The running bot tasks, one per game with bots.
TASKS: web.AppKey[set[asyncio.Task[None]]] = web.AppKey("bot_tasks", set)
#: The one thread the web side's bots think on (see the module).
THINKERS: web.AppKey[ThreadPoolExecutor] = web.AppKey("bot_thinkers", ThreadPoolExecutor)
#: Every caller's share of the server's time (``service.limits``), where the web
#: side runs in the server's process: the bots' thinking is charged to it.
SHARES: web.AppKey[CallerShares | None] = web.AppKey("bot_shares")
#: How long a bot whose player is in debt waits before it asks again.
DEBT_WAIT = 0.05
#: How long a bot waits between looks while the game waits on someone else.
POLL_SECONDS = (0.2, 2.0)
#: A game its player left: the bots stop after this long without a move of theirs.
IDLE_SECONDS = 3600.0
MAX_BACKOFF_SECONDS = 5.0
#: Refusals that only mean the game moved on between a bot's read and its move.
STALE = {"ABORTED", "FAILED_PRECONDITION"}
#: Refusals that mean "not now" (the service busy, restarting or draining for a
#: stop): the bot asks again after a pause, as a person would; a stop of the web
#: side cancels it (``_cancel``) rather than leaving it to quit with a warning.
NOT_NOW = {"UNAVAILABLE"}


#: The levels as the forms offer them.
LEVEL_TITLES = {"random": "random: any legal move",
                "greedy": "greedy: one short playout per move",
                "ismcts": "IS-MCTS: a search of what its seat may see"}


def level_of(level: str, budget: str) -> BotLevel:
    """The new-game form's bot level and budget (seconds; "" is the server's
    bound), checked: refused ``BAD_LEVEL`` / ``BAD_BUDGET`` as the lobby's are."""
    try:
        seconds = float(budget) if budget.strip() else 0.0
    except ValueError:
        seconds = -1.0
    try:
        return bot_level(level, seconds, bot_budget_seconds())
    except LevelError as exc:
        raise GatewayError("INVALID_ARGUMENT", exc.reason, exc.message) from None


async def think(bots: SeatBots, turn: game_pb2.PlayTurn, peer: str,
                thinkers: ThreadPoolExecutor, shares: CallerShares | None) -> Any:
    """A bot's move for ``turn``, thought on the bots' thread; its CPU time is
    the creating player's (``peer``'s) work: as much as it may take is set
    aside from that share first (waited for), so the bots slow down to the
    share rather than put their player in debt (its own reads refused)."""
    key = caller_of(peer)
    most = bot_budget_seconds()
    kept = None if shares is not None else 0.0
    while kept is None and shares is not None:
        kept = shares.reserve(key, most)
        if kept is None:
            await asyncio.sleep(DEBT_WAIT)

    def timed() -> Any:
        started = time.thread_time()
        try:
            return bots.choose(turn)
        finally:
            if shares is not None:
                shares.settle(key, time.thread_time() - started, kept or 0.0)

    return await asyncio.get_running_loop().run_in_executor(thinkers, timed)


async def play(backend: Backend, game_id: str, tokens: dict[int, str], peer: str,
               bots: SeatBots, thinkers: ThreadPoolExecutor,
               shares: CallerShares | None = None) -> None:
    """Play ``tokens``' seats of the game until it is over (or left idle)."""
    wait, backoff = POLL_SECONDS[0], POLL_SECONDS[0]
    last_move = time.monotonic()
    first = min(tokens)
    while time.monotonic() - last_move < IDLE_SECONDS:
        try:
            state = await backend.call("GetState", game_pb2.GetStateRequest(
                game_id=game_id, seat=first), tokens[first], peer)
            if state.over:
                return
            turns = sorted({d.seat for d in state.pending if d.seat in tokens})
            if not turns:  # the player's turn: look again, less often the longer it takes
                await asyncio.sleep(wait)
                wait = min(wait * 1.5, POLL_SECONDS[1])
                continue
            turn = await seat_turn(backend, game_id, turns[0], tokens[turns[0]], peer, bots,
                                   state if turns[0] == first else None)
            move = None if turn is None else await think(bots, turn, peer, thinkers, shares)
            if turn is None or move is None:  # the game moved meanwhile, or nothing listed
                await asyncio.sleep(wait)
                continue
            assert isinstance(move.command, game_pb2.Command)  # a listed action's own
            await backend.call("Act", game_pb2.ActRequest(  # its reply's state unread: none
                game_id=game_id, seat=turn.seat, command=move.command,
                decision_id=move.decision_id,
                expected_version=0 if move.decision_id else turn.state.version,
                with_state=False), tokens[turn.seat], peer)
            wait = backoff = POLL_SECONDS[0]
            last_move = time.monotonic()
        except GatewayError as exc:
            if exc.reason == "RATE_LIMITED" or exc.code in NOT_NOW:
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
            elif exc.code not in STALE:
                log.warning("a bot of game %s stops: %s", game_id, exc)
                return


async def seat_turn(backend: Backend, game_id: str, seat: int, token: str, peer: str,
                    bots: SeatBots, known: game_pb2.GameState | None = None
                    ) -> game_pb2.PlayTurn | None:
    """The seat's turn as its ``Play`` stream would push it, read with its own
    token: its legal moves, its view (``known``: the seat's state read just
    before, used when the moves are of its version), and its record up to
    them (read into ``bots``). None when the game moved between the reads."""
    legal = await backend.call("LegalActions", game_pb2.LegalActionsRequest(
        game_id=game_id, seat=seat), token, peer)
    state = known if known is not None and known.version == legal.version else (
        await backend.call("GetState", game_pb2.GetStateRequest(
            game_id=game_id, seat=seat), token, peer))
    if state.version != legal.version:
        return None
    if not bots.reads_record(seat):  # a random bot: its record is never read
        return game_pb2.PlayTurn(seat=seat, state=state, actions=legal.actions,
                                 complete=legal.complete)
    events = [e async for e in backend.stream("History", game_pb2.HistoryRequest(
        game_id=game_id, seat=seat, after_version=bots.after(seat)), token, peer)
        if e.version <= state.version]
    bots.read(seat, events)
    return game_pb2.PlayTurn(seat=seat, state=state, actions=legal.actions,
                             complete=legal.complete)


def start(app: web.Application, game_id: str, tokens: dict[int, str], peer: str,
          level: BotLevel | None = None) -> None:
    """Bots for ``tokens``' seats of a new game, on the web side's own loop,
    each at ``level`` (random unless told)."""
    if not tokens:
        return
    bots = SeatBots(game_id, bot_budget_seconds())
    for seat in tokens:
        bots.take(seat, level or BotLevel())
    task = asyncio.get_running_loop().create_task(
        play(app[BACKEND], game_id, tokens, peer, bots, app[THINKERS], app.get(SHARES)),
        name=f"bots {game_id}")
    app[TASKS].add(task)
    task.add_done_callback(app[TASKS].discard)


async def _cancel(app: web.Application) -> None:
    """The web side stops: so do its bots (a bot's game waits for its next start
    no more than any player's)."""
    running: set[asyncio.Task[None]] = app[TASKS]
    tasks = list(running)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if tasks:  # the operator's record that no bot plays on past the stop
        log.info("the bots of %d game(s) stopped with the web side", len(tasks))
    app[THINKERS].shutdown(wait=False, cancel_futures=True)


def install(app: web.Application) -> None:
    """Keep the app's bot tasks, and cancel them when it shuts down."""
    tasks: set[asyncio.Task[None]] = set()
    app[TASKS] = tasks
    app[THINKERS] = ThreadPoolExecutor(max_workers=1, thread_name_prefix="web-bots")
    app.on_shutdown.append(_cancel)
