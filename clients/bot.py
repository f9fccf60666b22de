"""``arbiter bot``: the bot levels (``clients.bots``) as clients of the server.

A bot plays its seats over the per-seat ``Play`` stream, so the server is the
one that holds it to its seat: everything a bot decides from comes off that
stream — each turn's view and legal commands, and the events in the form its
seat may read them. Nothing else is asked of the server (no other seat's
state, no admin token).

- ``arbiter bot --game GAME_ID --token T [--token T2 ...]``: the seats these
  tokens name (a token written ``GAME_ID:TOKEN`` names its game, so one process
  plays seats of several games); one stream per game, the games on a bounded
  pool of threads (``--parallel``).
- ``arbiter bot --lobby TABLE_ID --name NAME``: sit down at an open seat of a
  lobby table, wait for its game to start, and play that seat.

The searching levels (greedy, IS-MCTS) need a belief to sample worlds from.
A client builds one from the seat's own record alone (``clients.bots.belief``):
it folds the record by the rules' event bodies, drawing at random what the
seat read only in public form (a hidden setup, an opponent's draw), as the
game's ``UNSEEN`` says, so the guessed world shows the seat just what the
server shows it. A game that does not say how to complete what it hides is
decided at random, and counted (``Seat.blind``).
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arbiter.client import ArbiterClient
    from arbiter.play import Played, PlayStream
    from arbiter.v1 import game_pb2

    from clients.bots.driver import GameBot

# The bots (``clients.bots``: the rules in process, the search) and the play
# stream are imported by the functions that run a bot, not here: every
# ``arbiter`` command builds this parser, and only ``arbiter bot`` plays.

Add = Callable[..., argparse.ArgumentParser]
#: Games played at once by one process, unless told (each a thread and a stream).
DEFAULT_PARALLEL = 4


def play_game(client: ArbiterClient, game_id: str, tokens: Sequence[str], level: str,
              budget: float, seed: int, max_moves: int = 100_000,
              keep: bool = False) -> tuple[GameBot, Played]:
    """Play the seats ``tokens`` name in one game to its end (or ``max_moves``
    moves), on one stream. The seats are learnt from the stream: every event
    names the seats it is delivered for. ``keep``: keep the observations."""
    from arbiter.play import PlayStream, play_seats

    from clients import bots
    from clients.bots.driver import GameBot, Seat

    bot = GameBot(game_id, {}, keep)

    def open_stream(after: int) -> PlayStream:
        # Every token as a seat token and none on the call: the server then
        # plays every seat they name (a call's own token names its seat alone).
        return PlayStream(client._calls.stub, game_id, "", after_version=after,
                          seat_tokens=list(tokens))

    def on_message(message: game_pb2.PlayMessage) -> None:
        for event in message.events:
            for number in event.for_seats:
                bot.seats.setdefault(number, Seat(number, bots.make(
                    level, f"{seed}:{game_id}:{number}", budget), level))
        bot.on_message(message)

    played = play_seats(open_stream, bot.choose, on_message=on_message, max_moves=max_moves)
    return bot, played


def split_tokens(tokens: Sequence[str], game: str) -> dict[str, list[str]]:
    """Tokens by game: ``GAME_ID:TOKEN`` names its game, a bare token is ``game``'s."""
    from clients.bots.driver import BotUsage

    out: dict[str, list[str]] = {}
    for token in tokens:
        game_id, sep, secret = token.rpartition(":")
        if not sep:
            if not game:
                raise BotUsage(f"NO_GAME: the token {token[:6]}... names no game; "
                               "give --game GAME_ID or write it GAME_ID:TOKEN")
            game_id, secret = game, token
        if not secret:
            raise BotUsage(f"BAD_TOKEN: {token!r} has no token after its game id")
        out.setdefault(game_id, []).append(secret)
    return out


def play_all(client: ArbiterClient, by_game: dict[str, list[str]], level: str, budget: float,
             seed: int, parallel: int) -> list[tuple[str, GameBot, Played]]:
    """Every game on a pool of ``parallel`` threads; each game's result in order."""
    from concurrent.futures import ThreadPoolExecutor

    lock = threading.Lock()

    def one(game_id: str) -> tuple[str, GameBot, Played]:
        bot, played = play_game(client, game_id, by_game[game_id], level, budget, seed)
        with lock:
            report(game_id, bot, played)
        return game_id, bot, played

    with ThreadPoolExecutor(max_workers=parallel, thread_name_prefix="arbiter-bot") as pool:
        return list(pool.map(one, by_game))


def report(game_id: str, bot: GameBot, played: Played) -> None:
    """A line per game: how it ended for the bot's seats."""
    seats = ", ".join(f"Player {s + 1} ({seat.level}"
                      + (f", {seat.blind} of {seat.decisions} decisions at random" if
                         seat.blind else "") + ")" for s, seat in sorted(bot.seats.items()))
    end = "over" if played.final else "not over"
    print(f"game {game_id}: {seats}: {played.moves} moves, {end}", flush=True)
    for state in list(played.final.values())[:1]:
        print(f"  outcome: {state.outcome_json}", flush=True)
    for s, seat in sorted(bot.seats.items()):
        if seat.unguessable:
            print(f"  Player {s + 1} played at random from a point: {seat.unguessable}",
                  flush=True)


def lobby_tokens(client: ArbiterClient, table_id: str, name: str) -> dict[str, list[str]]:
    """Sit down at an open seat of the table; its game and the seat's secret
    once the table starts (``TableClosed``, an ``ArbiterError``, when it closes
    instead: the command says so and exits 1)."""
    from arbiter.lobby import Lobby

    lobby = Lobby(client)
    reply = lobby.join(table_id, name)
    print(f"table {table_id}: seated as Player {reply.seat.seat + 1} ({name})", flush=True)
    table = lobby.wait_started(table_id)
    return {table.game_id: [reply.seat.secret]}


def cmd_bot(args: argparse.Namespace) -> int:
    """``arbiter bot``: play the seats given, each to the end of its game."""
    import grpc
    from arbiter.client import ArbiterClient, ArbiterError, default_address

    from clients.bots.driver import BotUsage

    if args.budget <= 0:
        raise BotUsage(f"BAD_BUDGET: --budget must be above 0 seconds, not {args.budget}")
    if args.parallel < 1:
        raise BotUsage(f"BAD_PARALLEL: --parallel must be at least 1, not {args.parallel}")
    if bool(args.lobby) == bool(args.token):
        raise BotUsage("NO_SEATS: give the seats' --token, or a --lobby table to sit at")
    if args.lobby and not args.name:
        raise BotUsage("NO_NAME: a bot joining a lobby table needs --name")
    # token="": the client's calls carry no credential of their own (not the
    # environment's, not the admin's); each seat's comes on its own stream.
    with ArbiterClient(args.address or default_address(), token="",
                       tls_ca=args.tls_ca or None, tls=args.tls) as client:
        try:
            by_game = (lobby_tokens(client, args.lobby, args.name) if args.lobby
                       else split_tokens(args.token, args.game or ""))
            results = play_all(client, by_game, args.level, args.budget, args.seed,
                               args.parallel)
        except grpc.RpcError as exc:
            raise ArbiterError.from_rpc_error(exc) from None
    return 0 if all(played.final for _, _, played in results) else 1


class Levels(Sequence[str]):
    """``--level``'s choices: ``clients.bots.LEVELS``, read when argparse first
    checks a ``--level`` or prints the bot's help. Importing ``clients.bots``
    loads the rules and the search (tens of milliseconds), which every other
    command would pay at start-up for a list it never looks at."""

    def _levels(self) -> tuple[str, ...]:
        from clients.bots import LEVELS

        return LEVELS

    def __getitem__(self, index: int) -> str:  # type: ignore[override]
        return self._levels()[index]

    def __len__(self) -> int:
        return len(self._levels())

    def __iter__(self) -> Iterator[str]:
        return iter(self._levels())

    def __contains__(self, value: object) -> bool:
        return value in self._levels()


def register(add: Add, common: argparse.ArgumentParser) -> None:
    """``arbiter bot`` on the CLI's parser (``clients.cli.build_parser``);
    ``common`` gives ``--address``."""

    def run(args: argparse.Namespace) -> int:
        from clients.bots.driver import BotUsage

        try:
            return cmd_bot(args)
        except BotUsage as exc:
            sys.stderr.write(f"error: BAD_ARGUMENT: {exc}\n")
            return 2
        except RuntimeError as exc:  # play_seats: the server kept refusing its moves
            sys.stderr.write(f"error: BOT_STOPPED: {exc}\n")
            return 1

    p = add("bot", run, "play seats with a bot level over the per-seat stream "
            "(by their tokens, or an open seat of a lobby table)", parent=common)
    # A metavar of its own: argparse formats an option's metavar when it is
    # added, and without one that would read the (lazy) choices at once.
    p.add_argument("--level", choices=Levels(), default="random", metavar="LEVEL",
                   help="one of %(choices)s (default %(default)s); greedy plays one short "
                        "playout per move, ismcts searches; both at --budget seconds a "
                        "decision")
    p.add_argument("--budget", type=float, default=0.5, metavar="S",
                   help="seconds a greedy or ismcts decision may take (default 0.5)")
    p.add_argument("--token", action="append", default=[], metavar="[GAME_ID:]TOKEN",
                   help="a seat's token (repeat per seat; GAME_ID: names its game)")
    p.add_argument("--game", default=None, metavar="GAME_ID",
                   help="the game of the tokens that name none")
    p.add_argument("--lobby", default=None, metavar="TABLE_ID",
                   help="sit at an open seat of this lobby table and play it")
    p.add_argument("--name", default=None, help="the bot's name at the lobby table")
    p.add_argument("--seed", type=int, default=0, help="seed of the bots' own choices")
    p.add_argument("--parallel", type=int, default=DEFAULT_PARALLEL, metavar="N",
                   help=f"games played at once (default {DEFAULT_PARALLEL})")
    p.add_argument("--tls-ca", default=None, metavar="PATH",
                   help="connect with TLS trusting this PEM CA file")
    p.add_argument("--tls", action="store_true",
                   help="connect with TLS trusting the system's root certificates")
