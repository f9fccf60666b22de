"""A store sharded by game (issue 22, item 2): three PostgreSQL databases, two
servers, every game in the shard its id names.

Against real databases and real server processes: games are spread over the
shards and each lives, whole, in the database its id says; either server
plays any game; exactly-once commands, request ids, audit, history and time
travel hold per shard; ``ListGames`` and the all-games feed merge the shards;
and a shard's database going away holds only its own games, with
``UNAVAILABLE``/``STORE_UNAVAILABLE``, until it is back, with nothing lost.
"""

from __future__ import annotations

import functools
import random
import secrets
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import grpc
import pytest
from arbiter.client import ArbiterClient
from arbiter.v1 import game_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.ids import shard_of
from tests.conftest import postgres_url
from tests.integration.conftest import ROOT, ServerProcess
from tests.integration.helpers import FeedCollector, new_game, play, until
from tests.integration.test_metrics import scrape

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("sharded-store"),
              pytest.mark.heavy(60)]

SHARDS = 3
GAMES = 60


@pytest.fixture(scope="module")
def databases() -> Iterator[list[str]]:
    """Three fresh databases (the shards, in order), dropped afterwards."""
    url = postgres_url()
    if url is None:
        pytest.skip("PostgreSQL is not reachable at ARBITER_TEST_POSTGRES_URL / 127.0.0.1:5432")
    import psycopg

    names = [f"arbiter_shard_{uuid.uuid4().hex[:8]}_{n}" for n in range(SHARDS)]
    with psycopg.connect(url, autocommit=True) as conn:
        for name in names:
            conn.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(url)
    try:
        yield [urlunsplit(parts._replace(path=f"/{name}")) for name in names]
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            for name in names:
                conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def servers(databases: list[str], redis_url: str,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    """Two servers on the three shards: one secret, one admin token, one prefix."""
    env = {"ARBITER_DATABASE_URLS": ",".join(databases), "ARBITER_DATABASE_URL": "",
           "DATABASE_URL": "", "ARBITER_SECRET": secrets.token_hex(32),
           "ARBITER_REDIS_PREFIX": f"sharded-{secrets.token_hex(4)}:",
           "ARBITER_HEALTH_INTERVAL": "1"}
    first = ServerProcess(tmp_path_factory.mktemp("a") / "data", redis_url,
                          {**env, "ARBITER_METRICS_ADDRESS": "127.0.0.1:0"})
    second = ServerProcess(tmp_path_factory.mktemp("b") / "data", redis_url, env)
    second.admin_token = first.admin_token
    second.extra_env["ARBITER_ADMIN_TOKEN"] = first.admin_token
    first.start()
    second.start()
    try:
        yield [first, second]
    finally:
        second.stop()
        first.stop()


def stored_games(database: str) -> set[str]:
    """The game ids with a creation event in one database."""
    import psycopg

    with psycopg.connect(database) as conn:
        rows = conn.execute("SELECT DISTINCT originator_id FROM arbiter_events "
                            "WHERE topic LIKE %s", ("%Created",)).fetchall()
    return {str(row[0]) for row in rows}


def every_page(stub: object, newest_first: bool, size: int) -> list[str]:
    """Every game id ``ListGames`` gives, page by page."""
    ids: list[str] = []
    token = ""
    while True:
        page = stub.ListGames(game_pb2.ListGamesRequest(  # type: ignore[attr-defined]
            page_size=size, page_token=token, newest_first=newest_first))
        ids.extend(game.game_id for game in page.games)
        token = page.next_page_token
        if not token:
            return ids


@pytest.fixture(scope="module")
def games(servers: list[ServerProcess]) -> list[str]:
    stub = servers[0].stub()
    return [new_game(stub) for _ in range(GAMES)]


def test_each_game_lives_in_the_shard_its_id_names(
        games: list[str], databases: list[str], servers: list[ServerProcess]) -> None:
    shards = [shard_of(uuid.UUID(g)) for g in games]
    assert set(shards) == set(range(SHARDS)), "new games go to every shard"
    for n, database in enumerate(databases):
        held = stored_games(database)
        assert {g for g, s in zip(games, shards, strict=True) if s == n} <= held
        assert not {g for g, s in zip(games, shards, strict=True) if s != n} & held
    # Either server plays any game: moves through one, read through the other.
    for game_id in games[:6]:
        state = play(servers[1].stub(), game_id, 3, random.Random(game_id))
        seen = servers[0].stub().GetState(game_pb2.GetStateRequest(game_id=game_id))
        assert seen.version == state.version


def test_listing_merges_the_shards_in_creation_order(
        games: list[str], servers: list[ServerProcess]) -> None:
    """Pages of 7 over three catalogues: every game once, in the order created,
    and newest first that order reversed."""
    stub = servers[1].stub()
    ours = set(games)
    oldest = every_page(stub, newest_first=False, size=7)
    assert len(oldest) == len(set(oldest)), "no game twice"
    assert [g for g in oldest if g in ours] == games
    newest = every_page(stub, newest_first=True, size=7)
    assert newest == oldest[::-1]
    with ArbiterClient(servers[0].address) as client:  # the SDK pages by token
        listed = [g.game_id for g in client.iter_games(page=9, token=servers[0].admin_token)]
    assert listed == oldest
    for one_log in (game_pb2.ListGamesRequest(after=3),
                    game_pb2.ListGamesRequest(changed_after=0)):  # audit --since
        with pytest.raises(grpc.RpcError) as refused:
            stub.ListGames(one_log)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "SHARDED_STORE" in str(refused.value.trailing_metadata())


def test_metrics_are_per_shard(games: list[str], servers: list[ServerProcess]) -> None:
    """What an operator watches per shard: its events, relay lag and commits."""
    samples = scrape(servers[0])
    for shard in range(SHARDS):
        label = (("shard", str(shard)),)
        assert samples[("arbiter_events_appended_total", label)] > 0
        assert ("arbiter_relay_lag_events", label) in samples
        assert ("arbiter_group_commit_seconds_total", label) in samples
        assert samples[("arbiter_store_up", label)] == 1
    created = sum(v for (name, labels), v in samples.items()
                  if name == "arbiter_games_created_total")
    assert created >= GAMES


def test_exactly_once_request_ids_audit_and_time_travel_hold_per_shard(
        games: list[str], servers: list[ServerProcess]) -> None:
    first, second = (server.stub() for server in servers)
    for shard in range(SHARDS):
        game_id = next(g for g in games[6:] if shard_of(uuid.UUID(g)) == shard)
        state = first.GetState(game_pb2.GetStateRequest(game_id=game_id))
        legal = first.LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=0))
        act = game_pb2.ActRequest(game_id=game_id, seat=0, command=legal.actions[0].command,
                                  command_id=f"once-{shard}")
        made = first.Act(act)
        again = second.Act(act)  # the same command id through the other server
        assert again.replayed and again.version == made.version > state.version
        past = second.GetState(game_pb2.GetStateRequest(game_id=game_id, version=1))
        assert past.version == 1
        history = list(second.History(game_pb2.HistoryRequest(game_id=game_id)))
        assert [e.version for e in history] == list(range(1, made.version + 1))
        assert {e.shard for e in history} == {shard}
        audit = second.Audit(game_pb2.AuditRequest(game_id=game_id))
        assert audit.chain_ok and audit.dice_ok and audit.replay_ok
    request = game_pb2.CreateGameRequest(rules="enin", seats=["solo"], request_id="shard-retry")
    made_once = first.CreateGame(request)
    assert second.CreateGame(request).game_id == made_once.game_id, "a retry finds its game"


def test_audit_all_audits_every_shards_games(
        games: list[str], servers: list[ServerProcess]) -> None:
    """``arbiter audit --all`` pages the merged catalogue: every game, each
    audited by its own shard."""
    done = subprocess.run(
        [sys.executable, "-m", "clients.cli", "audit", "--all", "--address",
         servers[1].address, "--admin-token", servers[1].admin_token],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    audited = {line.split()[0] for line in done.stdout.splitlines()[1:] if line[:1].isalnum()}
    assert set(games) <= audited
    assert " 0 failed" in done.stdout.splitlines()[-1]


def test_the_all_games_feed_merges_the_shards_and_resumes_per_shard(
        games: list[str], servers: list[ServerProcess]) -> None:
    stub = servers[0].stub()
    feed = FeedCollector(stub, game_pb2.SubscribeRequest())
    try:
        assert feed.wait_for(lambda f: bool(f.statuses), timeout=30)
        with feed.changed:
            events = list(feed.events)
        assert {e.game_id for e in events} >= set(games)
        last: dict[int, int] = {}
        for event in events:
            assert event.shard == shard_of(uuid.UUID(event.game_id))
            assert event.position > last.get(event.shard, 0), "each shard's log in order"
            last[event.shard] = event.position
    finally:
        feed.close()
    after = [last.get(n, 0) for n in range(SHARDS)]
    moved = play(servers[1].stub(), games[10], 1, random.Random(1))
    resumed = FeedCollector(stub, game_pb2.SubscribeRequest(after_shards=after))
    try:
        assert resumed.wait_for(lambda f: any(e.game_id == games[10] and
                                              e.version == moved.version for e in f.events))
        with resumed.changed:
            assert all((e.position > after[e.shard]) for e in resumed.events), "nothing again"
    finally:
        resumed.close()
    # ``after`` alone is shard 0's position (the SDK sends it until it has seen
    # another shard's event): shard 0's later events, every other shard's all.
    zero = FeedCollector(stub, game_pb2.SubscribeRequest(after=after[0]))
    try:
        assert zero.wait_for(lambda f: bool(f.statuses), timeout=30)
        with zero.changed:
            assert all(e.position > after[0] for e in zero.events if e.shard == 0)
            assert {e.shard for e in zero.events} >= {1, 2}
    finally:
        zero.close()


def _allow_connections(databases: list[str], shard: int, allowed: bool) -> None:
    """Stop (or restart) one shard's database as its clients see it: no new
    connection accepted, and every open one ended."""
    import psycopg

    name = urlsplit(databases[shard]).path.lstrip("/")
    with psycopg.connect(postgres_url() or "", autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {str(allowed).lower()}')
        if not allowed:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                         "WHERE datname = %s AND pid <> pg_backend_pid()", (name,))


def test_a_shard_down_holds_only_its_games_and_loses_nothing(
        games: list[str], databases: list[str], servers: list[ServerProcess]) -> None:
    """One shard's database stops taking connections: once the server's probe
    of it has failed, its games are refused at once with
    ``UNAVAILABLE``/``STORE_UNAVAILABLE`` (their feeds end so, to be opened
    again), the other shards' games play on and their feeds stay open; when
    it is back, its games play again and every feed has every event once."""
    stub = servers[0].stub()
    down = 1
    held = [g for g in games[20:] if shard_of(uuid.UUID(g)) == down][:2]
    free = [g for g in games[20:] if shard_of(uuid.UUID(g)) != down][:4]
    followed = {g: FeedCollector(stub, game_pb2.SubscribeRequest(game_id=g)) for g in free}
    health = health_pb2_grpc.HealthStub(servers[0].channel())

    def shard_health(server: ServerProcess = servers[0]) -> int:
        """What a server's probe of the shard last found (each probes its own)."""
        checks = health_pb2_grpc.HealthStub(server.channel())
        return int(checks.Check(health_pb2.HealthCheckRequest(service=f"shard-{down}")).status)

    def shard_serving(server: ServerProcess) -> bool:
        return shard_health(server) == health_pb2.HealthCheckResponse.SERVING

    try:
        assert all(f.wait_for(lambda f: bool(f.statuses)) for f in followed.values())
        _allow_connections(databases, down, False)
        try:
            assert until(lambda: shard_health() == health_pb2.HealthCheckResponse.NOT_SERVING)
            for game_id in held:
                started = time.monotonic()
                with pytest.raises(grpc.RpcError) as refused:
                    play(stub, game_id, 1, random.Random(2))
                assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
                assert "STORE_UNAVAILABLE" in str(refused.value.trailing_metadata())
                # At once, not after the pool's waits and the library's retries (a minute).
                assert time.monotonic() - started < 10, "refused at once"
            for game_id in free:
                before = stub.GetState(game_pb2.GetStateRequest(game_id=game_id)).version
                assert play(stub, game_id, 2, random.Random(3)).version > before, \
                    "the other shards' games play on"
            assert health.Check(health_pb2.HealthCheckRequest()).status == \
                health_pb2.HealthCheckResponse.SERVING, "the server serves the other shards"
        finally:
            _allow_connections(databases, down, True)
        for server in servers:  # each server's next probe finds it back
            assert until(functools.partial(shard_serving, server))
        finals = {}
        for game_id in held + free:
            assert until(functools.partial(_plays, stub, game_id), step=0.2), \
                f"{game_id} plays again"
            finals[game_id] = stub.GetState(game_pb2.GetStateRequest(game_id=game_id)).version
        for game_id, feed in followed.items():
            assert feed.error is None, "a game of another shard: its feed never ended"
            assert feed.wait_for(lambda f, g=game_id: len(f.events) >= finals[g], timeout=30)
            with feed.changed:
                assert [e.version for e in feed.events] == list(range(1, finals[game_id] + 1))
        for game_id in held:  # nothing lost: the whole record, from either server
            history = list(servers[1].stub().History(game_pb2.HistoryRequest(game_id=game_id)))
            assert [e.version for e in history] == list(range(1, finals[game_id] + 1))
    finally:
        for feed in followed.values():
            feed.close()


def _plays(stub: object, game_id: str) -> bool:
    try:
        play(stub, game_id, 1, random.Random(4))  # type: ignore[arg-type]
        return True
    except grpc.RpcError:
        return False


def test_a_reordered_list_is_refused(databases: list[str], servers: list[ServerProcess],
                                     redis_url: str, tmp_path: Path) -> None:
    """A database records its shard number: listed elsewhere, the start is refused.
    The numbers are recorded by the first server started on the list (``servers``)."""
    server = ServerProcess(tmp_path / "data", redis_url, {
        "ARBITER_DATABASE_URLS": ",".join(reversed(databases)), "ARBITER_DATABASE_URL": "",
        "DATABASE_URL": "", "ARBITER_SECRET": secrets.token_hex(32)})
    with pytest.raises(RuntimeError, match="the list's order must never change"):
        server.start()
