"""What a lobby listing reads (docs/playing.md, "The lobby"): the tables it
lists in one pass, and each table as it is now, whoever changed it; the
waiting tables it looks at, however many were listed after them and after a
restart (``service.lobby_index``).

Before: ``ListTables`` read each gathering table's new events with a query of
its own (and copied each table three times), so 500 waiting tables cost about
100 ms of CPU a listing; now the newest version of every listed table comes
from one query, and the new events of the tables that changed since this
process last read them from another.

Before the waiting index: a listing walked the lobby's log from the oldest
table still waiting, so one waiting table held every entry listed after it
(up to 50,000) in every listing; a restarted server looked at the newest 500
entries alone; past 4,096 tables kept, a listing read its tables one by one
(every table kept was dropped at once); a listing finishing after another
had dropped a finished table remembered it again, for the process's life.
The tests run on SQLite and on PostgreSQL (the index's and the batch reads'
statements are each engine's own).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arbiter.v1 import lobby_pb2

from aggregates.lobby import OPEN, PLAYER, Lobby
from tests.spies import calls_to

pytestmark = pytest.mark.integration

TABLES = 30


class _Context:
    """A call's context as the lobby reads it: an address, no token."""

    def peer(self) -> str:
        return "ipv4:10.0.0.3:4242"

    def invocation_metadata(self) -> list[tuple[str, str]]:
        return []

    def is_active(self) -> bool:
        return True


class _Hub:
    """The feeds' hub as the lobby uses it (no Redis here)."""

    def __init__(self) -> None:
        self.stopping = threading.Event()

    def committed(self, game_id: str, version: int) -> None:
        pass


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path,
          monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The server's application on SQLite, then on a PostgreSQL schema of its own."""
    from service.application import ArbiterApp
    from service.config import Settings

    settings = Settings(data_dir=tmp_path)
    if request.param == "postgres":
        url, schema = request.getfixturevalue("postgres_schema")
        monkeypatch.setenv("ARBITER_POSTGRES_SCHEMA", schema)
        settings = Settings(data_dir=tmp_path, database_url=url)
    application = ArbiterApp(settings.store_env())
    yield application
    application.close()


def listed_directly(lobby: Any, count: int, started: bool) -> list[uuid.UUID]:
    """``count`` tables of two seats saved with their entries in the lobby's
    log as ``Tables.open`` saves them (at the log's next positions), started
    (a game id named, none created: a listing reads the table alone) or
    waiting with a seat open: the store as many callers' tables leave it,
    without a game created for each."""
    tables = lobby.tables
    head = tables.listing().head
    made = []
    for n in range(count):
        seats = [{"kind": PLAYER, "name": "Eve"},
                 {"kind": PLAYER, "name": "Mal"} if started else {"kind": OPEN}]
        table = Lobby.open(uuid.uuid4(), "ettin", seats, "", 2, 9)
        if started:
            table.start("a-game-never-read", 2)
        tables.app.save(table, tables.log.trigger_event(
            next_originator_version=head + n + 1, table_id=table.id, opener=""))
        made.append(table.id)
    return made


def log_entries_read(monkeypatch: pytest.MonkeyPatch, lobby: Any) -> list[int]:
    """The lobby log's entries ``lobby`` reads from now on, one item each."""
    read: list[int] = []
    log, original = lobby.tables.log, lobby.tables.log.get

    def counted(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for entry in original(*args, **kwargs):
            read.append(entry.originator_version)
            yield entry

    monkeypatch.setattr(log, "get", counted)
    return read


def held_table_ids(lobby: Any) -> set[uuid.UUID]:
    """Every table id the lobby's tables hold in a container that is not a
    bounded cache (the tables read, the openers of finished ones): what
    grows with the tables a process ever listed, if anything does."""
    bounded = {"_kept", "_openers"}
    found: set[uuid.UUID] = set()
    for owner in (lobby.tables, getattr(lobby.tables, "index", None)):
        if owner is None:
            continue
        for name, value in vars(owner).items():
            if name in bounded or not isinstance(value, (set, dict, list)):
                continue
            for item in value:
                item = getattr(item, "table_id", item)
                if isinstance(item, uuid.UUID):
                    found.add(item)
    return found


def lobby_on(app: Any) -> Any:
    """A lobby servicer on ``app``'s store, as one server process has it: two
    on one store are two servers, each with tables of its own in memory."""
    from service.lobby import LobbyService

    return LobbyService(app, _Hub(), None, waiting_per_caller=TABLES + 1)  # type: ignore[arg-type]


def listed(lobby: Any) -> dict[str, lobby_pb2.Table]:
    found = lobby.ListTables(lobby_pb2.ListTablesRequest(limit=200), _Context()).tables
    return {table.table_id: table for table in found}


def test_a_listing_of_tables_that_did_not_change_reads_the_store_once(
        app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    lobby = lobby_on(app)
    for _ in range(TABLES):
        lobby.OpenTable(lobby_pb2.OpenTableRequest(
            rules="ethnos", seats=[lobby_pb2.SeatSpec(kind=OPEN)] * 3), _Context())
    assert len(listed(lobby)) == TABLES
    reads = calls_to(monkeypatch, app.events, "get")
    assert len(listed(lobby)) == TABLES
    # The lobby's log once (its new entries); no table's events: none changed.
    assert len(reads) <= 1, f"{len(reads)} reads of events for {TABLES} tables"


def test_a_listing_shows_each_table_as_another_server_left_it(app: Any) -> None:
    """Two servers on one store: a table joined through one is listed with
    its seat taken by the other (which had read it before), and a table
    filled through one leaves the other's listing."""
    here, there = lobby_on(app), lobby_on(app)
    opened = [here.OpenTable(lobby_pb2.OpenTableRequest(
        rules="ethnos", seats=[lobby_pb2.SeatSpec(kind=OPEN)] * 3), _Context()).table
        for _ in range(3)]
    before = listed(here)
    assert [s.kind for s in before[opened[0].table_id].seats] == [OPEN] * 3
    there.JoinTable(lobby_pb2.JoinTableRequest(table_id=opened[0].table_id, name="ana"),
                    _Context())
    for name in ("bo", "cy", "di"):
        there.JoinTable(lobby_pb2.JoinTableRequest(table_id=opened[1].table_id, name=name),
                        _Context())
    after = listed(here)
    assert [s.name for s in after[opened[0].table_id].seats] == ["ana", "", ""]
    assert opened[1].table_id not in after, "a full table is listed no more"
    assert after[opened[2].table_id].version == before[opened[2].table_id].version


def test_one_waiting_table_holds_no_entry_listed_after_it_in_a_listings_work(
        store: Any) -> None:
    """Attack: one table kept waiting, then table after table listed that
    starts at once. A listing looks at the tables that may gather players
    (the waiting index), not at every entry since the oldest waiting one."""
    lobby = lobby_on(store)
    waiting = listed_directly(lobby, 1, started=False)
    listed_directly(lobby, 120, started=True)
    assert list(listed(lobby)) == [str(waiting[0])]
    looked_at = [entry.table_id for entry in lobby.tables.listing().entries]
    assert looked_at == waiting, f"a listing looks at {len(looked_at)} entries for 1 table"


def test_a_restarted_server_lists_a_table_opened_before_more_than_it_once_scanned(
        store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A waiting table with more tables listed after it than a restart once
    read (the newest ``SCAN``, 5 here for 500) is listed and quick-matched by
    a server started afterwards; the restart reads the index's newest
    checkpoint and the log entries past it (at most twice the checkpoint's
    spacing, 10 here for 500), not the log."""
    import service.lobby
    import service.lobby_index

    monkeypatch.setattr(service.lobby, "SCAN", 5)
    monkeypatch.setattr(service.lobby_index, "CHECKPOINT_EVERY", 10)
    before = lobby_on(store)
    waiting = listed_directly(before, 1, started=False)
    for _ in range(7):  # followed as listings and opens follow it, checkpoint by checkpoint
        listed_directly(before, 9, started=True)
    restarted = lobby_on(store)
    read = log_entries_read(monkeypatch, restarted)
    assert list(listed(restarted)) == [str(waiting[0])]
    assert len(read) <= 2 * 10, f"a restart read {len(read)} of the log's 64 entries"
    matched = restarted.QuickMatch(lobby_pb2.QuickMatchRequest(
        rules="ettin", players=2, name="Bob"), _Context())
    assert not matched.opened and matched.table.table_id == str(waiting[0])


def test_a_store_without_a_checkpoint_is_followed_from_its_first_entry_page_by_page(
        store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store listed before the index wrote checkpoints: the first start reads
    the whole log, a page at a time (7 entries here), holding at most a page
    more than the waiting tables between pages, and finds its oldest table."""
    import service.lobby_index

    monkeypatch.setattr(service.lobby_index, "CHECKPOINT_EVERY", 10**6)  # none written
    monkeypatch.setattr(service.lobby_index, "PAGE", 7)
    before = lobby_on(store)
    waiting = listed_directly(before, 1, started=False)
    listed_directly(before, 30, started=True)
    waiting += listed_directly(before, 1, started=False)
    assert not list(before.tables.index.checkpoints.get())
    restarted = lobby_on(store)
    held: list[int] = []
    finished = restarted.tables.index.finished

    def counted(ids: list[uuid.UUID]) -> set[uuid.UUID]:
        held.append(len(ids))
        return finished(ids)  # type: ignore[no-any-return]

    monkeypatch.setattr(restarted.tables.index, "finished", counted)
    assert list(listed(restarted)) == [str(t) for t in waiting]
    assert held and max(held) <= 7 + 1, f"held {held} entries between pages"


def test_more_waiting_tables_than_it_keeps_are_listed_in_one_pass(
        store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """More waiting tables than ``TABLES_KEPT`` (4 here for 4,096): a listing
    of unchanged tables still reads the store once (the log's new entries),
    and one of tables another server changed reads their new events in one
    query, not each table's in two."""
    import service.lobby
    import service.lobby_index

    monkeypatch.setattr(service.lobby, "TABLES_KEPT", 4)
    here, there = lobby_on(store), lobby_on(store)
    made = listed_directly(here, 12, started=False)
    assert len(listed(here)) == 12
    reads = calls_to(monkeypatch, store.events, "get")
    assert len(listed(here)) == 12
    assert len(reads) <= 1, f"{len(reads)} reads of events for 12 unchanged tables"
    for n, table_id in enumerate(made):
        there.JoinTable(lobby_pb2.JoinTableRequest(table_id=str(table_id), name=f"p{n}"),
                        _Context())
    reads.clear()
    batches = calls_to(monkeypatch, service.lobby, "events_after")
    assert listed(here) == {}, "every table filled elsewhere leaves the listing"
    assert len(reads) <= 1 and len(batches) == 1, (
        f"{len(reads)} reads and {len(batches)} batches for 12 changed tables")


def test_a_finished_table_is_held_nowhere_whichever_listing_finishes_last(
        store: Any) -> None:
    """Two listings at once: the first read the entries while a table was
    waiting; the table starts; the second listing sees it started and the
    process forgets it. The first, finishing last, must not remember it
    again: each such table was held for the process's life (a set of the
    finished tables that only the front of the log's entries emptied)."""
    lobby = lobby_on(store)
    waiting = lobby.OpenTable(lobby_pb2.OpenTableRequest(rules="ettin", seats=[
        lobby_pb2.SeatSpec(kind=PLAYER, name="Ada"), lobby_pb2.SeatSpec(kind=OPEN)]),
        _Context()).table.table_id
    listed_directly(lobby, 2, started=True)
    first = lobby.tables.listing()
    lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=waiting, name="Bob"), _Context())
    assert listed(lobby) == {}  # the second listing: it started
    listed(lobby)
    assert lobby.tables.waiting("", 0, first) == []  # the first finishes last
    listed(lobby)
    assert uuid.UUID(waiting) not in held_table_ids(lobby)


def test_the_bots_of_a_table_older_than_a_restart_resumes_play_on_at_a_look(
        store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server's start resumes the bots of the newest ``SCAN`` tables (1 here
    for 500): a started table with a bot seat and tables listed after it had
    its bots idle for ever after a restart, its game waiting on them. The
    first look at it (``GetTable``, as its page polls; ``WatchTable``) sets
    them playing; a look at one whose bots play already sets none again."""
    import service.lobby

    monkeypatch.setattr(service.lobby, "SCAN", 1)
    lobby = lobby_on(store)
    monkeypatch.setattr(lobby.bots, "play", lambda table, host="": None)
    table = lobby.OpenTable(lobby_pb2.OpenTableRequest(rules="ettin", seats=[
        lobby_pb2.SeatSpec(kind=PLAYER, name="Ada"), lobby_pb2.SeatSpec(kind="bot")]),
        _Context()).table
    assert table.status == "started"
    listed_directly(lobby, 2, started=True)
    restarted = lobby_on(store)
    played: list[str] = []

    def play(table: Any, host: str = "") -> None:
        played.append(str(table.id))
        restarted.bots._running.add(table.game_id)  # as play marks it

    monkeypatch.setattr(restarted.bots, "play", play)
    restarted.bots._resume()
    assert played == [], "the resume reached past its newest tables"
    restarted.GetTable(lobby_pb2.GetTableRequest(table_id=table.table_id), _Context())
    restarted.GetTable(lobby_pb2.GetTableRequest(table_id=table.table_id), _Context())
    assert played == [table.table_id]


def test_a_listing_reads_as_many_waiting_tables_as_it_shows(
        store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A listing of 5 tables among 30 waiting reads the first pass of
    ``LOOK_AT_ONCE`` (8 here for 256), not all 30: a listing's work is its
    page's, however many tables wait (a quick match's too, which stops at
    the first table that seats its player)."""
    import service.lobby

    monkeypatch.setattr(service.lobby, "LOOK_AT_ONCE", 8)
    lobby = lobby_on(store)
    made = listed_directly(lobby, 30, started=False)
    looked = calls_to(monkeypatch, service.lobby, "newest_versions")
    shown = lobby.ListTables(lobby_pb2.ListTablesRequest(limit=5), _Context()).tables
    assert [t.table_id for t in shown] == [str(t) for t in made[:5]]
    assert sum(len(ids) for _, ids in looked) == 8, f"read {[len(i) for _, i in looked]}"
    matched = lobby.QuickMatch(lobby_pb2.QuickMatchRequest(
        rules="ettin", players=2, name="Bob"), _Context())
    assert matched.table.table_id == str(made[0])
    assert sum(len(ids) for _, ids in looked) == 16


def test_two_servers_checkpoint_one_index_and_a_restart_misses_no_waiting_table(
        store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two servers on one store follow the lobby's log and checkpoint their
    indexes (every 5 entries here for 500), each racing the other for the
    checkpoints' next position (the loser learns it and writes the next
    one); a server started after them lists every waiting table, whichever
    server listed it and whichever checkpoint it reads."""
    import service.lobby_index

    monkeypatch.setattr(service.lobby_index, "CHECKPOINT_EVERY", 5)
    here, there = lobby_on(store), lobby_on(store)
    raced = calls_to(monkeypatch, service.lobby_index, "newest_versions")
    waiting = []
    for _ in range(4):
        for lobby in (here, there):
            waiting += listed_directly(lobby, 1, started=False)
            listed_directly(lobby, 4, started=True)
            listed(lobby)
    assert any(ids == [service.lobby_index.INDEX_LOG_ID] for _, ids in raced), "no race lost"
    points = list(here.tables.index.checkpoints.get())
    assert len(points) >= 3 and [p.originator_version for p in points] == list(
        range(1, len(points) + 1))
    restarted = lobby_on(store)
    assert list(listed(restarted)) == [str(t) for t in waiting]
