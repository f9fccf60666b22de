"""The lobby's table (``aggregates.lobby``): each command decided, then one event
recorded, named as its fact; the table rebuilt from its events is the same
table (it replays as a game does). The model: boardgame.io's Lobby API
(create, join, leave, playAgain); docs/playing.md, "The lobby"."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest
from eventsourcing.application import project_aggregate

from aggregates.kernel import RuleError
from aggregates.lobby import BOT, OPEN, PLAYER, STARTED, WAITING, Lobby, LobbyReason


def table(*seats: dict[str, str], min_seats: int = 2, max_seats: int = 6) -> Lobby:
    return Lobby.open(uuid.uuid4(), "ethnos", list(seats), "", min_seats, max_seats)


def reason_of(call: object) -> LobbyReason:
    with pytest.raises(RuleError) as caught:
        call()  # type: ignore[operator]
    return caught.value.reason  # type: ignore[return-value]


def events_of(lobby: Lobby) -> list[str]:
    return [type(e).__name__ for e in lobby.collect_events()]


def test_a_table_opens_with_open_named_and_bot_seats() -> None:
    """TableOpened records each seat: open, a named player's, a bot's."""
    lobby = table({"kind": OPEN}, {"kind": PLAYER, "name": " Ada "}, {"kind": BOT})
    assert [s["kind"] for s in lobby.seats] == [OPEN, PLAYER, BOT]
    assert lobby.seats[1]["name"] == "Ada" and lobby.open_seats == [0]
    assert lobby.names() == ["Bot 1", "Ada", "Bot 3"]
    assert events_of(lobby) == ["TableOpened"]


@pytest.mark.parametrize(("seats", "reason"), [
    ([{"kind": OPEN}], LobbyReason.BAD_SEATS),  # under the rules' fewest
    ([{"kind": OPEN}] * 7, LobbyReason.BAD_SEATS),  # over the rules' most
    ([{"kind": "chair"}, {"kind": OPEN}], LobbyReason.BAD_SEATS),
    ([{"kind": PLAYER, "name": ""}, {"kind": OPEN}], LobbyReason.BAD_NAME),
    ([{"kind": PLAYER, "name": "x" * 33}, {"kind": OPEN}], LobbyReason.BAD_NAME),
    ([{"kind": PLAYER, "name": "Ada"}, {"kind": PLAYER, "name": "Ada"}], LobbyReason.NAME_TAKEN),
])
def test_a_table_is_refused_its_rules_would_not_seat(
        seats: list[dict[str, str]], reason: LobbyReason) -> None:
    assert reason_of(lambda: table(*seats)) == reason


def test_joining_takes_the_first_open_seat_or_the_one_named() -> None:
    """SeatTaken: by name, in the seat asked for or the first open one; each
    taking numbered anew (a holder's secret is keyed by it)."""
    lobby = table({"kind": OPEN}, {"kind": OPEN}, {"kind": OPEN})
    assert lobby.take("Ada", 2) == 2
    assert lobby.take("Bob") == 0
    assert lobby.seats[2]["taking"] != lobby.seats[0]["taking"]
    assert reason_of(lambda: lobby.take("Cy", 0)) == LobbyReason.SEAT_TAKEN
    assert reason_of(lambda: lobby.take("Ada")) == LobbyReason.NAME_TAKEN
    assert reason_of(lambda: lobby.take("Cy", 3)) == LobbyReason.UNKNOWN_SEAT
    assert lobby.take("Cy") == 1 and lobby.full
    assert reason_of(lambda: lobby.take("Di")) == LobbyReason.TABLE_FULL
    assert events_of(lobby) == ["TableOpened", "SeatTaken", "SeatTaken", "SeatTaken"]


def test_leaving_before_the_start_reopens_the_seat() -> None:
    """SeatLeft: open again; the next taking is a new one (a new secret)."""
    lobby = table({"kind": OPEN}, {"kind": OPEN})
    lobby.take("Ada")
    first = lobby.seats[0]["taking"]
    lobby.leave(0, game_over=False)
    assert lobby.seats[0]["kind"] == OPEN
    lobby.take("Bob")
    assert lobby.seats[0]["taking"] > first
    assert reason_of(lambda: lobby.leave(1, game_over=False)) == LobbyReason.NOT_SEATED


def test_starting_gives_the_open_seats_to_bots_and_closes_the_table() -> None:
    """TableStarted: the open seats are bots' (the host started early)."""
    lobby = table({"kind": PLAYER, "name": "Ada"}, {"kind": OPEN})
    lobby.start("g-1", min_seats=2)
    assert lobby.status == STARTED and lobby.game_id == "g-1"
    assert [s["kind"] for s in lobby.seats] == [PLAYER, BOT]
    assert reason_of(lambda: lobby.take("Bob")) == LobbyReason.TABLE_STARTED
    assert reason_of(lambda: lobby.start("g-2", 2)) == LobbyReason.TABLE_STARTED
    empty = table({"kind": OPEN}, {"kind": BOT})
    assert reason_of(lambda: empty.start("g", 2)) == LobbyReason.NOT_ENOUGH_PLAYERS


def test_leaving_a_started_game_hands_the_seat_to_a_bot() -> None:
    """BotTookSeat during the game (no served game has a rule for a leaving
    player); after the game there is no seat to leave."""
    lobby = table({"kind": PLAYER, "name": "Ada"}, {"kind": PLAYER, "name": "Bob"})
    lobby.start("g", 2)
    lobby.leave(1, game_over=False)
    assert lobby.seats[1]["kind"] == BOT and lobby.seats[1]["name"] == "Bob"
    assert reason_of(lambda: lobby.leave(0, game_over=True)) == LobbyReason.GAME_OVER
    assert events_of(lobby)[-2:] == ["TableStarted", "BotTookSeat"]


def test_play_again_names_one_next_table_with_every_seat_moved_on() -> None:
    """PlayAgainOffered once the game is over, once; the next round seats
    each player one seat on."""
    lobby = table({"kind": PLAYER, "name": "Ada"}, {"kind": BOT}, {"kind": PLAYER, "name": "Cy"})
    assert reason_of(lambda: lobby.offer_again("t2", True)) == LobbyReason.NOT_STARTED
    lobby.start("g", 2)
    assert reason_of(lambda: lobby.offer_again("t2", False)) == LobbyReason.GAME_NOT_OVER
    assert lobby.offer_again("t2", True) and not lobby.offer_again("t3", True)
    assert lobby.next_table == "t2"
    assert lobby.next_round_seats() == [
        {"kind": PLAYER, "name": "Cy"}, {"kind": PLAYER, "name": "Ada"}, {"kind": BOT, "name": ""}]


def test_a_table_rebuilt_from_its_events_is_the_same_table() -> None:
    """The events are the whole record: replayed, they make the same table."""
    lobby = table({"kind": OPEN}, {"kind": OPEN}, {"kind": OPEN})
    lobby.take("Ada")
    lobby.take("Bob")
    lobby.leave(0, game_over=False)
    lobby.start("g", 2)
    lobby.leave(1, game_over=False)
    events = lobby.collect_events()
    rebuilt = project_aggregate(None, events)
    assert isinstance(rebuilt, Lobby)
    assert (rebuilt.seats, rebuilt.status, rebuilt.game_id, rebuilt.takings) == (
        lobby.seats, lobby.status, lobby.game_id, lobby.takings)
    assert table({"kind": OPEN}, {"kind": OPEN}).status == WAITING


def test_a_revoked_seat_is_refused_by_every_server_of_the_store(tmp_path: Path) -> None:
    """A lobby game's seat changing holders (``SeatRevoked`` in its access
    record) is seen by another server process of the same store, whose cached
    record is caught up by version: the old token is refused with
    ``SEAT_REVOKED``; a game whose tokens are the server's own is never revoked."""
    from service.application import ArbiterApp
    from service.auth import Credentials, require
    from service.config import Settings
    from service.errors import ServiceError

    env = Settings(data_dir=tmp_path).store_env()
    credentials = Credentials(b"s" * 32, "")
    one, two = ArbiterApp(env, credentials=credentials), ArbiterApp(env, credentials=credentials)
    try:
        tokens = ["arb_ada_secret", "arb_bob_secret"]
        game = one.create_game("ethnos", ["Ada", "Bob"], seat_tokens=tokens)
        assert credentials.identify(tokens[0], two.access(game.id)).seat == 0  # cached on two
        one.revoke_seat(game.id, 0)
        one.revoke_seat(game.id, 0)  # once: nothing more to record
        principal = credentials.identify(tokens[0], two.access(game.id))
        assert principal.revoked == 0 and principal.seat is None
        with pytest.raises(ServiceError) as caught:
            require(principal, tokens[0])
        assert (caught.value.status, caught.value.reason) == ("PERMISSION_DENIED", "SEAT_REVOKED")
        assert credentials.identify(tokens[1], two.access(game.id)).seat == 1
        plain = one.create_game("ethnos", ["Ada", "Bob"])
        one.revoke_seat(plain.id, 0)
        access = two.access(plain.id)
        assert access is not None and access.seat_hashes[0] and not access.revoked
    finally:
        one.close()
        two.close()


def test_a_tables_bots_spend_their_hosts_share_of_the_server() -> None:
    """Every caller's share (docs/operations): a table's bots play on the
    server's threads, each move a call of the table's host and its CPU time
    the host's work. A host whose share is spent gets no more bot moves until
    it refills (here: until the server stops), while another host's bots
    still play; the admin's tables are free."""
    from types import SimpleNamespace

    from service.auth import Credentials
    from service.limits import CallerShares
    from service.lobby import UNKNOWN_HOST, TableBots

    shares = CallerShares(Credentials(b"s" * 32, ""), lambda _c, _e: None, 4, 2, 60)
    polls = {"n": 0}

    def stopping() -> bool:
        polls["n"] += 1
        return polls["n"] > 20

    bots = TableBots(SimpleNamespace(  # type: ignore[arg-type]
        shares=shares, hub=SimpleNamespace(stopping=SimpleNamespace(is_set=stopping))))
    table_id = uuid.uuid4()
    bots.hosts.keep(table_id, "ipv4:10.0.0.1")
    assert bots.hosts.of(table_id) == "ipv4:10.0.0.1"
    assert bots.hosts.of(uuid.uuid4()) == UNKNOWN_HOST

    def busy_move() -> bool:
        end = time.thread_time() + 0.05
        while time.thread_time() < end:
            pass
        return True

    moved: list[str] = []

    def counted_move() -> bool:
        moved.append("again")
        return True

    assert bots._charged("ipv4:10.0.0.1", busy_move)  # within its burst: played, charged
    assert bots._charged("ipv4:10.0.0.1", counted_move) is None
    assert not moved, "a bot moved on a spent share"
    polls["n"] = 0
    assert bots._charged("ipv4:10.0.0.2", lambda: True)  # another host's bots play
    assert bots._charged("", busy_move) and bots._charged("", busy_move)  # the admin's: free
    shares.idle.stopping.set()


@pytest.mark.parametrize("name", [
    "ada", " ADA ", "Ａda",  # the same name, in another case or width
    "Bot 2", "bot 2",  # the name the open seat's bot would play under
    "Rob",  # the named bot's
])
def test_a_name_that_reads_as_anothers_at_the_table_is_taken(name: str) -> None:
    """SeatTaken by name: a joiner cannot pass for someone at the table (a
    player, a named bot, or the bot an open seat becomes at the start): names
    are compared as players read them (case and width folded)."""
    lobby = table({"kind": PLAYER, "name": "Ada"}, {"kind": OPEN}, {"kind": BOT, "name": "Rob"},
                  {"kind": OPEN})
    assert reason_of(lambda: lobby.take(name, 3)) == LobbyReason.NAME_TAKEN


@pytest.mark.parametrize("name", [
    "x" * 33, "x" * 100_000, "a\nb", "a\x00b", "\x1b[31mred", "evil\u202egnp", "zero\u200bwidth",
    "\u3000", "a\u2028b",
])
def test_a_name_with_controls_or_invisible_characters_or_too_long_is_refused(name: str) -> None:
    """A player's name is 1 to 32 printable characters: no control, format
    (bidirectional overrides, zero-width) or line-separating character, so a
    name cannot rewrite the page or the terminal it is shown on."""
    lobby = table({"kind": OPEN}, {"kind": OPEN})
    assert reason_of(lambda: lobby.take(name)) == LobbyReason.BAD_NAME


def test_a_name_in_any_script_is_a_name() -> None:
    """Names are people's: any script, accents and emoji are kept as written."""
    lobby = table({"kind": OPEN}, {"kind": OPEN}, {"kind": OPEN})
    for name in ("Zoë", "Анна", "李雷"):
        lobby.take(name)
    assert [s["name"] for s in lobby.seats] == ["Zoë", "Анна", "李雷"]


def test_the_gateways_openapi_document_describes_every_lobby_call() -> None:
    """The JSON gateway's ``/openapi.json`` names every LobbyService method at
    ``/v1/lobby/<Method>``, described by its proto comment, with its request
    and response schemas; operation ids stay unique across both services."""
    from arbiter.v1 import lobby_pb2

    from service.web import openapi

    document = openapi.document()
    schemas = document["components"]["schemas"]
    for method in lobby_pb2.DESCRIPTOR.services_by_name["LobbyService"].methods:
        operation = document["paths"][f"/v1/lobby/{method.name}"]["post"]
        body = operation["requestBody"]["content"]["application/json"]["schema"]
        assert body["$ref"] == f"#/components/schemas/{method.input_type.name}"
        assert method.output_type.name in schemas and operation["description"], method.name
    assert "application/x-ndjson" in (
        document["paths"]["/v1/lobby/WatchTable"]["post"]["responses"]["200"]["content"])
    ids = [p["post"]["operationId"] for p in document["paths"].values()]
    assert len(ids) == len(set(ids))


def test_the_sdk_reference_has_a_page_for_the_lobby() -> None:
    """The client library's reference (docs/sdk/, from the docstrings) has
    ``Lobby``'s page, every public method on it with its own words, linked
    from the index."""
    import importlib.util
    import sys

    from arbiter.lobby import Lobby as ClientLobby

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("sdkdoc", root / "tools" / "sdkdoc.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("sdkdoc", tool)
    spec.loader.exec_module(tool)
    pages = tool.pages()
    page = pages["Lobby.md"]
    assert "from arbiter.lobby import Lobby" in page and "(undocumented)" not in page
    for name in (n for n in vars(ClientLobby) if not n.startswith("_")):
        assert f"`{name}(" in page, name
    assert "(Lobby.md)" in pages["index.md"]


def test_a_table_opened_elsewhere_has_its_bots_spend_their_openers_share() -> None:
    """Every caller's share: the bots of a table this server did not open (it
    filled on another server, or was opened before a restart) spend a share
    of their opener's own, named by the lobby log's keyed hash of it, not one
    share for every such table: one host's searching bots cannot stall the
    others'. The admin's and a play again's tables (no opener named) share
    ``UNKNOWN_HOST``'s, as does a table the log no longer holds."""
    from types import SimpleNamespace

    from service.lobby import UNKNOWN_HOST, opener_key

    ada, bo, admins = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    entries = [SimpleNamespace(table_id=ada, opener="h-ada"),
               SimpleNamespace(table_id=bo, opener="h-bo"),
               SimpleNamespace(table_id=admins, opener="")]
    keys = {table: opener_key(entries, table) for table in (ada, bo, admins)}  # type: ignore[arg-type]
    assert keys[ada] != keys[bo] and UNKNOWN_HOST not in (keys[ada], keys[bo])
    assert keys[ada] == opener_key(entries, ada)  # type: ignore[arg-type]
    assert keys[admins] == UNKNOWN_HOST
    assert opener_key(entries, uuid.uuid4()) == UNKNOWN_HOST  # type: ignore[arg-type]
