"""The lobby from Python: open a table, list them, join a seat by name, leave,
start, play again, quick match (``LobbyService``).

A seat's secret (``SeatSecret.secret``) is that seat's token in the game once
the table starts: ``Lobby`` remembers it on the ``ArbiterClient`` it wraps
(``add_tokens``) as soon as the game id is known, so ``client.play(game_id,
[seat])`` and every other call of that game carry it without being told.

>>> with ArbiterClient() as client:
...     lobby = Lobby(client)
...     seat = lobby.quick_match("ettin", 2, "Ada")
...     table = lobby.wait_started(seat.table.table_id)
...     with client.play(table.game_id, [seat.seat.seat]) as stream: ...

A table gathering players that no one joins or leaves for the server's idle
time closes (status ``closed``): no game starts there, and ``wait_started``
raises ``TableClosed`` rather than return it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import grpc

from arbiter.client import ArbiterClient, ArbiterError
from arbiter.v1 import lobby_pb2, lobby_pb2_grpc

#: The kinds of a seat at a table.
OPEN, PLAYER, BOT = "open", "player", "bot"
#: Where a table is (``Table.status``): gathering players, its game on, or
#: closed (no one joined or left it for the server's idle time; no game).
WAITING, STARTED, CLOSED = "waiting", "started", "closed"


class TableClosed(ArbiterError):
    """The table closed before its game started (``Lobby.wait_started``): no
    one joined or left it for the server's idle time, so no game will start
    there. An ``ArbiterError`` of reason ``TABLE_CLOSED`` (as the server
    refuses a closed table's seats); ``table`` is the closed table."""

    def __init__(self, table: lobby_pb2.Table) -> None:
        super().__init__(
            grpc.StatusCode.FAILED_PRECONDITION, "TABLE_CLOSED",
            f"table {table.table_id} closed before its game started: no one joined or "
            "left it for the server's idle time, so no game will start there; open "
            "another table or quick-match")
        self.table = table


class Lobby:
    """``LobbyService`` on an ``ArbiterClient``'s channel; refusals raise ``ArbiterError``."""

    def __init__(self, client: ArbiterClient) -> None:
        self.client = client
        self.stub = lobby_pb2_grpc.LobbyServiceStub(client._channel)
        #: The secrets this client holds, by table id: the seat's, and the host's.
        self.secrets: dict[str, lobby_pb2.SeatSecret] = {}
        self.host_secrets: dict[str, str] = {}

    def _call(self, name: str, request: Any, token: str | None = None) -> Any:
        metadata = (("authorization", f"Bearer {token}"),) if token else ()
        try:
            return getattr(self.stub, name)(request, metadata=metadata,
                                            timeout=self.client.timeout)
        except grpc.RpcError as exc:
            raise ArbiterError.from_rpc_error(exc) from None

    def _held(self, table: lobby_pb2.Table, seat: lobby_pb2.SeatSecret) -> None:
        """Remember a seat's secret, and, once the game exists, hand it to the client."""
        self.secrets[table.table_id] = seat
        self._remember_game(table)

    def _remember_game(self, table: lobby_pb2.Table) -> None:
        held = self.secrets.get(table.table_id)
        if held is not None and table.game_id:
            self.client.add_tokens(table.game_id, {held.seat: held.secret})

    def open_table(self, rules: str,
                   seats: Sequence[tuple[str, str] | str | lobby_pb2.SeatSpec],
                   options_json: str = "") -> lobby_pb2.OpenTableResponse:
        """A new table. ``seats``: ``"open"``, ``"bot"``, or ``("player", name)``
        (``("bot", name)`` names a bot), or a ``SeatSpec`` as it is (a bot's
        ``level`` and ``budget_seconds``, an open seat's level for the bot that
        may take it)."""
        specs = [s if isinstance(s, lobby_pb2.SeatSpec)
                 else lobby_pb2.SeatSpec(kind=s) if isinstance(s, str)
                 else lobby_pb2.SeatSpec(kind=s[0], name=s[1]) for s in seats]
        reply: lobby_pb2.OpenTableResponse = self._call("OpenTable", lobby_pb2.OpenTableRequest(
            rules=rules, seats=specs, options_json=options_json))
        self.host_secrets[reply.table.table_id] = reply.host_secret
        if reply.table.game_id:  # every seat given: started at once
            self.client.add_tokens(reply.table.game_id,
                                   {s.seat: s.secret for s in reply.seat_secrets})
        return reply

    def list_tables(self, rules: str = "", players: int = 0,
                    limit: int = 0) -> list[lobby_pb2.Table]:
        """Tables gathering players, oldest first."""
        reply = self._call("ListTables", lobby_pb2.ListTablesRequest(
            rules=rules, players=players, limit=limit))
        return list(reply.tables)

    def table(self, table_id: str) -> lobby_pb2.Table:
        """The table as anyone reads it (``GetTable``): its seats' names and
        kinds, its game once started, never a secret."""
        reply = self._call("GetTable", lobby_pb2.GetTableRequest(table_id=table_id))
        self._remember_game(reply.table)
        return reply.table  # type: ignore[no-any-return]

    def join(self, table_id: str, name: str,
             seat: int | None = None) -> lobby_pb2.JoinTableResponse:
        """Sit down by name (in ``seat``, else the first open one)."""
        request = lobby_pb2.JoinTableRequest(table_id=table_id, name=name)
        if seat is not None:
            request.seat = seat
        reply: lobby_pb2.JoinTableResponse = self._call("JoinTable", request)
        self._held(reply.table, reply.seat)
        return reply

    def leave(self, table_id: str, seat: int | None = None,
              secret: str | None = None) -> lobby_pb2.Table:
        """Leave the seat held here (or ``seat``, with the host secret).
        Before the start the seat opens again; during the game a bot plays
        it on, and the seat's secret no longer plays the game (refused
        ``PERMISSION_DENIED`` / ``SEAT_REVOKED``)."""
        token = secret or self._secret(table_id, host=seat is not None)
        request = lobby_pb2.LeaveTableRequest(table_id=table_id)
        if seat is not None:
            request.seat = seat
        return self._call("LeaveTable", request, token).table  # type: ignore[no-any-return]

    def start(self, table_id: str, secret: str | None = None) -> lobby_pb2.Table:
        """Start a table early (the host secret): bots take its open seats."""
        token = secret or self.host_secrets.get(table_id, "")
        table = self._call("StartTable", lobby_pb2.StartTableRequest(table_id=table_id),
                           token).table
        self._remember_game(table)
        return table  # type: ignore[no-any-return]

    def play_again(self, table_id: str, secret: str | None = None
                   ) -> lobby_pb2.PlayAgainResponse:
        """The next round's table and this player's seat at it."""
        reply: lobby_pb2.PlayAgainResponse = self._call(
            "PlayAgain", lobby_pb2.PlayAgainRequest(table_id=table_id),
            secret or self._secret(table_id))
        self._held(reply.table, reply.seat)
        return reply

    def quick_match(self, rules: str, players: int, name: str) -> lobby_pb2.QuickMatchResponse:
        """Join the oldest table gathering players of these rules and size, or open one."""
        reply: lobby_pb2.QuickMatchResponse = self._call(
            "QuickMatch", lobby_pb2.QuickMatchRequest(rules=rules, players=players, name=name))
        self._held(reply.table, reply.seat)
        return reply

    def watch(self, table_id: str, after_version: int = 0) -> Iterator[lobby_pb2.Table]:
        """The table, then again at every change (``WatchTable``)."""
        try:
            for message in self.stub.WatchTable(lobby_pb2.WatchTableRequest(
                    table_id=table_id, after_version=after_version)):
                self._remember_game(message.table)
                yield message.table
        except grpc.RpcError as exc:
            raise ArbiterError.from_rpc_error(exc) from None

    def wait_started(self, table_id: str) -> lobby_pb2.Table:
        """The table once its game has started (its ``game_id`` set).

        Raises ``TableClosed`` when the table closes instead (no game will
        start there), and ``ArbiterError`` when the watch is refused. A watch
        the server ends while the table still waits (the server stopping) is
        opened again."""
        after = 0
        while True:
            for table in self.watch(table_id, after):
                if _started_or_closed(table):
                    return table
                after = table.version
            table = self.table(table_id)
            if _started_or_closed(table):
                return table

    def _secret(self, table_id: str, host: bool = False) -> str:
        if host and table_id in self.host_secrets:
            return self.host_secrets[table_id]
        held = self.secrets.get(table_id)
        if held is not None:
            return held.secret
        return self.host_secrets.get(table_id, "")


def _started_or_closed(table: lobby_pb2.Table) -> bool:
    """Whether ``table``'s game has started (``wait_started`` is done);
    ``TableClosed`` when it closed instead."""
    if table.status == CLOSED:
        raise TableClosed(table)
    return bool(table.game_id)
