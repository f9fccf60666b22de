"""``arbiter lobby``: find players before a game (``LobbyService``).

``list``, ``open``, ``join``, ``leave``, ``start``, ``again``, ``quick``. A
seat's secret is kept in ``$ARBITER_HOME/lobby.json`` by table (and the host
secret of the tables opened here); once the table's game starts, it is saved
as that game's seat token in the token store, so ``arbiter play GAME --game
GAME_ID --player N`` plays it without being told.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arbiter.client import ArbiterClient
from arbiter.lobby import Lobby, TableClosed
from arbiter.v1 import lobby_pb2

from clients.tokens import TokenStore, arbiter_home

Add = Callable[..., argparse.ArgumentParser]


#: The most seats a table has (the lobby's bound, whatever the rules allow).
MOST_SEATS = 16


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None


def seat_number(text: str) -> int:
    """``--seat N``: a seat as people count them, 1 to ``MOST_SEATS`` (a
    usage error otherwise, before anything is sent: the wire's seat is a
    ``uint32`` counted from 0)."""
    number = _whole(text, "a seat number")
    if not 1 <= number <= MOST_SEATS:
        raise argparse.ArgumentTypeError(
            f"seats are counted from 1 (Player 1 is the first), at most {MOST_SEATS}")
    return number


def player_count(text: str) -> int:
    """``--players N``: how many seats, 0 (any, or the game's fewest) to ``MOST_SEATS``."""
    number = _whole(text, "a number of players")
    if not 0 <= number <= MOST_SEATS:
        raise argparse.ArgumentTypeError(f"a table seats at most {MOST_SEATS} players")
    return number


def secrets_path() -> Path:
    return arbiter_home() / "lobby.json"


def load_secrets() -> dict[str, Any]:
    with contextlib.suppress(FileNotFoundError, json.JSONDecodeError):
        data = json.loads(secrets_path().read_text(encoding="utf-8"))
        if isinstance(data, dict):
            return data
    return {}


def save_secret(table_id: str, **fields: Any) -> None:
    """Keep a table's secrets (0600: each is a seat)."""
    data = load_secrets()
    data.setdefault(table_id, {}).update(fields)
    path = secrets_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1)


def table_lines(table: lobby_pb2.Table) -> list[str]:
    """A table as people read it: seats counted from 1, with names."""
    lines = [f"table {table.table_id}: {table.rules}, {len(table.seats)} seats, {table.status}"]
    for seat in table.seats:
        who = seat.name if seat.kind == "player" else (
            f"{seat.name or 'a bot'} (bot, {seat.level or 'random'})" if seat.kind == "bot"
            else "open")
        lines.append(f"  Player {seat.seat + 1}: {who}")
    if table.game_id:
        lines.append(f"  game {table.game_id}" + (" (over)" if table.game_over else ""))
    if table.next_table_id:
        lines.append(f"  next round: table {table.next_table_id}")
    return lines


def _print_seat(lobby: Lobby, address: str, table: lobby_pb2.Table,
                seat: lobby_pb2.SeatSecret) -> None:
    save_secret(table.table_id, seat=seat.seat, name=seat.name, secret=seat.secret)
    _saved_game(address, table)
    for line in table_lines(table):
        print(line)
    print(f"your seat: Player {seat.seat + 1} ({seat.name}); its secret: {seat.secret}")
    if table.game_id:
        print(f"play it: arbiter play {table.rules} --game {table.game_id} "
              f"--player {seat.seat + 1} --address {address}")
    else:
        print(f"the game starts when the table is full: arbiter lobby wait {table.table_id}")


def _saved_game(address: str, table: lobby_pb2.Table) -> None:
    """The seat's secret as its game's seat token, once the game exists."""
    held = load_secrets().get(table.table_id, {})
    if table.game_id and held.get("secret"):
        TokenStore().save_game(address, table.game_id,
                               [(int(held["seat"]), str(held["name"]), str(held["secret"]))],
                               rules=table.rules)


def cmd_list(args: argparse.Namespace, client: ArbiterClient) -> int:
    tables = Lobby(client).list_tables(args.rules, args.players)
    if not tables:
        print("no table is gathering players (open one: arbiter lobby open GAME)")
    for table in tables:
        for line in table_lines(table):
            print(line)
    return 0


def seat_spec(text: str, budget: float) -> lobby_pb2.SeatSpec:
    """``--seat``: ``open`` or ``bot``, either with ``:LEVEL`` (the level of
    the bot that plays it: a bot seat's own, or the one that takes an open
    seat the table starts without), or a player's name."""
    kind, _, level = text.partition(":")
    if kind in ("open", "bot"):
        return lobby_pb2.SeatSpec(kind=kind, level=level, budget_seconds=budget)
    return lobby_pb2.SeatSpec(kind="player", name=text)


def cmd_open(args: argparse.Namespace, client: ArbiterClient) -> int:
    reply = Lobby(client).open_table(
        args.game, [seat_spec(text, args.bot_budget) for text in args.seat or []],
        args.options or "")
    save_secret(reply.table.table_id, host=reply.host_secret)
    for line in table_lines(reply.table):
        print(line)
    print(f"host secret (starts the table early): {reply.host_secret}")
    for seat in reply.seat_secrets:
        print(f"Player {seat.seat + 1} ({seat.name})'s secret: {seat.secret}")
    print(f"others join with: arbiter lobby join {reply.table.table_id} --name NAME")
    return 0


def cmd_join(args: argparse.Namespace, client: ArbiterClient) -> int:
    lobby = Lobby(client)
    reply = lobby.join(args.table_id, args.name, None if args.seat is None else args.seat - 1)
    _print_seat(lobby, client.address, reply.table, reply.seat)
    return 0


def cmd_leave(args: argparse.Namespace, client: ArbiterClient) -> int:
    held = load_secrets().get(args.table_id, {})
    secret = held.get("host") if args.seat is not None else held.get("secret") or held.get("host")
    table = Lobby(client).leave(args.table_id, None if args.seat is None else args.seat - 1,
                                secret=secret or None)
    for line in table_lines(table):
        print(line)
    return 0


def cmd_start(args: argparse.Namespace, client: ArbiterClient) -> int:
    secret = load_secrets().get(args.table_id, {}).get("host")
    table = Lobby(client).start(args.table_id, secret=secret or None)
    _saved_game(client.address, table)
    for line in table_lines(table):
        print(line)
    return 0


def cmd_again(args: argparse.Namespace, client: ArbiterClient) -> int:
    secret = load_secrets().get(args.table_id, {}).get("secret")
    lobby = Lobby(client)
    reply = lobby.play_again(args.table_id, secret=secret or None)
    _print_seat(lobby, client.address, reply.table, reply.seat)
    return 0


def cmd_quick(args: argparse.Namespace, client: ArbiterClient) -> int:
    lobby = Lobby(client)
    reply = lobby.quick_match(args.game, args.players, args.name)
    print("opened a new table" if reply.opened else "joined a waiting table")
    _print_seat(lobby, client.address, reply.table, reply.seat)
    return 0


def cmd_wait(args: argparse.Namespace, client: ArbiterClient) -> int:
    """The table once its game starts; a table that closes instead (no one
    joined or left it for the server's idle time) is printed, then said
    closed as an error (``TABLE_CLOSED``, exit 1): no game will come."""
    try:
        table = Lobby(client).wait_started(args.table_id)
    except TableClosed as closed:
        for line in table_lines(closed.table):
            print(line)
        raise
    _saved_game(client.address, table)
    for line in table_lines(table):
        print(line)
    return 0


def register(add: Add, make_client: Callable[[argparse.Namespace], ArbiterClient],
             options: argparse.ArgumentParser) -> None:
    """``arbiter lobby ACTION ...`` on the CLI's parser (``clients.cli.build_parser``);
    each action takes the client's ``options`` (``--address``, ``--token``...)."""

    def run(action: Callable[[argparse.Namespace, ArbiterClient], int]
            ) -> Callable[[argparse.Namespace], int]:
        def call(args: argparse.Namespace) -> int:
            with make_client(args) as client:
                return action(args, client)
        return call

    lobby = add("lobby", run(cmd_list), "find players: tables with open seats "
                "(list, open, join, leave, start, again, quick, wait)",
                parent=argparse.ArgumentParser(add_help=False))
    sub = lobby.add_subparsers(dest="lobby_command", metavar="ACTION", required=True)

    def action(name: str, func: Callable[[argparse.Namespace, ArbiterClient], int],
               text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[options], help=text, description=text)
        p.set_defaults(func=run(func))
        return p

    p = action("list", cmd_list, "the tables gathering players, oldest first")
    p.add_argument("--rules", default="", help="only tables of these rules")
    p.add_argument("--players", type=player_count, default=0,
                   help="only tables of this many seats")
    p = action("open", cmd_open, "open a table")
    p.add_argument("game", metavar="GAME", help="rules id, e.g. ethnos")
    p.add_argument("--seat", action="append", metavar="open[:LEVEL]|bot[:LEVEL]|NAME",
                   help="a seat, in seat order: open, bot, or a player's name (repeat per "
                        "seat); LEVEL: random (the default), greedy or ismcts, the level "
                        "of the server's bot that plays it")
    p.add_argument("--bot-budget", type=float, default=0.0, metavar="S",
                   help="seconds the server's greedy or ismcts bots think per move "
                        "(default and most: the server's bound, 0.2 unless set)")
    p.add_argument("--options", metavar="JSON", help="game options as a JSON object")
    p = action("join", cmd_join, "sit down at a table by name")
    p.add_argument("table_id", metavar="TABLE_ID")
    p.add_argument("--name", required=True, help="your name at the table")
    p.add_argument("--seat", type=seat_number, default=None, metavar="N",
                   help="the seat wanted, counted from 1 (default: the first open one)")
    p = action("leave", cmd_leave, "leave your seat (before the start it opens again; "
               "during the game a bot takes it)")
    p.add_argument("table_id", metavar="TABLE_ID")
    p.add_argument("--seat", type=seat_number, default=None, metavar="N",
                   help="as the host: the seat to empty, counted from 1")
    p = action("start", cmd_start, "start your table now: bots take the open seats")
    p.add_argument("table_id", metavar="TABLE_ID")
    p = action("again", cmd_again, "after the game: the next round with the same players")
    p.add_argument("table_id", metavar="TABLE_ID")
    p = action("quick", cmd_quick, "join the oldest waiting table of these rules and size, "
               "or open one")
    p.add_argument("game", metavar="GAME")
    p.add_argument("--players", type=player_count, default=0, metavar="N",
                   help="seats at the table (default: the game's fewest)")
    p.add_argument("--name", required=True, help="your name at the table")
    p = action("wait", cmd_wait, "wait until the table's game starts; print it (exit 1, "
               "TABLE_CLOSED, when the table closes instead)")
    p.add_argument("table_id", metavar="TABLE_ID")
