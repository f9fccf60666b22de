"""Bots for "play against bots" on the new-game form: the seats the creator
does not take, each played by a small task on the web side's loop.

A bot is a client like any other: every read and move is an ordinary
``GameService`` call through ``service.web.backend`` (the gRPC write path of
every player), with its seat's own token, charged to the address of the player
who made the game, so a bot spends that player's share of the server's time and
backs off when refused ``RATE_LIMITED``, as ``arbiter simulate`` does. It plays a
random listed action (``arbiter.moves``, the picker ``simulate``
uses). The tasks end with their game, after ``IDLE_SECONDS`` without a move of
the other seats, or when the web side stops (``install``: cancelled on cleanup).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time

from aiohttp import web
from arbiter.moves import random_listed
from arbiter.v1 import game_pb2

from service.web.backend import Backend, GatewayError
from service.web.gateway import BACKEND

log = logging.getLogger(__name__)
#: The running bot tasks, one per game with bots.
TASKS: web.AppKey[set[asyncio.Task[None]]] = web.AppKey("bot_tasks", set)
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


async def play(backend: Backend, game_id: str, tokens: dict[int, str], peer: str,
               rng: random.Random) -> None:
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
            seat = turns[0]
            legal = await backend.call("LegalActions", game_pb2.LegalActionsRequest(
                game_id=game_id, seat=seat), tokens[seat], peer)
            picked = random_listed(legal, rng)
            if picked is None:  # nothing listed for it: the others must move first
                await asyncio.sleep(wait)
                continue
            action, decision_id = picked
            await backend.call("Act", game_pb2.ActRequest(  # its reply's state unread: none
                game_id=game_id, seat=seat, command=action.command, decision_id=decision_id,
                expected_version=0 if decision_id else legal.version, with_state=False),
                tokens[seat], peer)
            wait = backoff = POLL_SECONDS[0]
            last_move = time.monotonic()
        except GatewayError as exc:
            if exc.reason == "RATE_LIMITED" or exc.code in NOT_NOW:
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
            elif exc.code not in STALE:
                log.warning("a bot of game %s stops: %s", game_id, exc)
                return


def start(app: web.Application, game_id: str, tokens: dict[int, str], peer: str) -> None:
    """Bots for ``tokens``' seats of a new game, on the web side's own loop."""
    if not tokens:
        return
    task = asyncio.get_running_loop().create_task(
        play(app[BACKEND], game_id, tokens, peer, random.Random()), name=f"bots {game_id}")
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


def install(app: web.Application) -> None:
    """Keep the app's bot tasks, and cancel them when it shuts down."""
    tasks: set[asyncio.Task[None]] = set()
    app[TASKS] = tasks
    app.on_shutdown.append(_cancel)
