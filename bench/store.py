"""The figures measured in-process on a store: long games, replay, audit, memory,
and the eventsourcing library's own get+save rate.

A 10,000-event game is built in memory, not played over gRPC (that would take
minutes): random legal Enin moves, each with a client command id as the
client library sends, looking one move ahead so that the hero never dies
(when every tried move would end the game, a few moves are taken back). The
events are then saved through the application and snapshots taken at every
multiple of the snapshot interval: as often as a server saving move by move
takes them (it takes each at the end of the move that reaches a multiple,
which is the multiple itself or a few events past it).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import gc
import hashlib
import json
import os
import random
import secrets
import statistics
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from aggregates.catalog import GAMES
from aggregates.enin import Enin
from aggregates.kernel import Game
from service.application import ArbiterApp
from service.auditing import audit_stored
from service.auth import Credentials
from service.config import Settings

SNAPSHOT_INTERVAL = Settings.snapshot_interval
#: What ``long_games`` measures: cold loads and snapshot sizes, the replay
#: beside the trivial one, the audit beside the trivial one.
PHASES = ("load", "replay", "audit")
#: Pairs (turn about with the trivial replay) per ``repeat`` for the replay's
#: and the audit's figures: 13 at the bench's repeat of 3, each side's median
#: taken; a pair under a burst of the machine's other load moves a median of
#: 13 less than one of 7.
PAIRS_PER_REPEAT = 4


def sqlite_env(data_dir: Path) -> dict[str, str]:
    """The store environment a server on ``data_dir`` would use."""
    return Settings(data_dir=data_dir).store_env()


def uncached(env: dict[str, str]) -> dict[str, str]:
    """The same store without the aggregate cache: every read is a cold load."""
    return {k: v for k, v in env.items() if not k.startswith("AGGREGATE_CACHE")}


def _clone(game: Game) -> Game:
    """A copy to try a move on; the command ids (which only grow) are copied
    shallowly, the rest deeply."""
    ids = game.command_ids
    game.command_ids = {}
    try:
        clone = copy.deepcopy(game)
    finally:
        game.command_ids = ids
    clone.command_ids = dict(ids)
    return clone


def long_enin_game(events: int, seed: int) -> list[Any]:
    """The events of an Enin game of at least ``events`` events, still under way.

    Deterministic for a seed (the game's seed comes from it). When a game
    will not be kept going (the tries run out), it starts again on the next seed.
    """
    for attempt in range(20):
        found = _try_long_game(events, seed + 1000 * attempt)
        if found is not None:
            return found
    raise RuntimeError(f"no Enin game of {events} events was found")


def _try_long_game(events: int, seed: int) -> list[Any] | None:
    rng = random.Random(seed)
    game: Game = Enin.start(["solo"], seed=hashlib.sha256(f"bench {seed}".encode()).hexdigest())
    moves: list[list[Any]] = [list(game.collect_events())]
    behind: list[Game] = []  # the states before the latest moves, to step back to
    tries, stuck, furthest = 0, 0, 0
    while game.version < events:
        if tries > 20 * events:
            return None
        actions = game.legal_actions(0)
        rng.shuffle(actions)
        after = None
        for action in actions[:4]:
            tries += 1
            trial = _clone(game)
            trial.act(0, action, uuid.uuid4().hex)
            if not trial.ended:
                after = trial
                break
        if after is None:  # every move tried ends the game: take moves back,
            stuck += 1  # the more of them the more often this happens here
            if len(behind) < 2:
                return None
            back = rng.randint(1, min(len(behind) - 1, 4 * 2 ** min(stuck, 4)))
            for _ in range(back - 1):
                behind.pop()
                moves.pop()
            game = behind.pop()
            moves.pop()
            continue
        if after.version > furthest:
            furthest, stuck = after.version, 0
        behind.append(game)
        del behind[:-256]
        moves.append(list(after.collect_events()))
        game = after
    return [ev for move in moves for ev in move]


def store_events(app: ArbiterApp, events: list[Any]) -> uuid.UUID:
    """Save a game's events and take its snapshots where a server would have."""
    for start in range(0, len(events), 1000):
        app.save(*events[start:start + 1000])
    gid: uuid.UUID = events[0].originator_id
    last = events[-1].originator_version
    for version in range(SNAPSHOT_INTERVAL, last + 1, SNAPSHOT_INTERVAL):
        app.take_snapshot(gid, version)
    return gid


def alternately(first: Callable[[], Any], second: Callable[[], Any], repeat: int,
                clock: Callable[[], float] = time.perf_counter) -> tuple[float, float]:
    """The median seconds of each of two pieces of work, run turn about (after one
    untimed run of each) so that both meet the same background load; by
    ``clock`` (wall seconds unless told: ``time.process_time`` for CPU)."""
    first()
    second()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for work, into in ((first, times[0]), (second, times[1])):
            start = clock()
            work()
            into.append(clock() - start)
    return statistics.median(times[0]), statistics.median(times[1])


def replay(app: Application, gid: uuid.UUID) -> Any:
    """Read every event of an aggregate from the store and apply them all (no snapshot)."""
    events: Any = app.events.get(gid)
    return functools.reduce(lambda agg, ev: ev.mutate(agg), events, None)


class Counter(Aggregate):
    """The trivial aggregate: one integer, one event type."""

    def __init__(self) -> None:
        self.count = 0

    @event("Bumped")
    def bump(self, by: int) -> None:
        self.count += by


class TrivialApp(Application):
    """The library with nothing of Arbiter's: the floor of replay and of get+save."""

    name = "benchtrivial"


def trivial_store(data_dir: Path, events: int) -> tuple[TrivialApp, uuid.UUID]:
    """A trivial aggregate of ``events`` events in a store like Arbiter's."""
    app = TrivialApp(sqlite_env(data_dir))
    counter = Counter()
    for n in range(events - 1):
        counter.bump(1)
        if n % 1000 == 999:
            app.save(counter)
    app.save(counter)
    return app, counter.id


def snapshot_bytes(app: ArbiterApp, gid: uuid.UUID, upto: int | None = None) -> tuple[int, int]:
    """(version, stored bytes) of the game's newest snapshot at or before ``upto``."""
    assert app.snapshots is not None
    found = app.snapshots.recorder.select_events(gid, lte=upto, desc=True, limit=1)
    return found[0].originator_version, len(found[0].state)


@dataclasses.dataclass
class LongGames:
    """The stores ``long_games`` measures: the long and the short Enin game in a
    server's SQLite store (sealed with ``secret``), and the trivial aggregate of
    as many events as the long game in a store of its own."""

    env: dict[str, str]
    secret: str
    long_id: str
    short_id: str
    long_events: int
    short_events: int
    trivial_dir: str
    trivial_id: str
    built_in_seconds: float

    @property
    def credentials(self) -> Credentials:
        return Credentials(bytes.fromhex(self.secret), "")


def build_long_games(work: Path, events: int, seed: int) -> LongGames:
    """The long and short games and the trivial aggregate, saved under ``work``;
    read back when ``work`` already holds them for these ``events`` and
    ``seed`` (``python -m bench.store --keep``), so a profile of one phase need
    not build them again."""
    made = work / "long_games.json"
    asked = {"events": events, "seed": seed}
    if made.exists():
        kept = json.loads(made.read_text())
        if kept.pop("asked", None) == asked:
            return LongGames(**kept)
    env = sqlite_env(work / "games")
    # One secret for the writer and the reader, as every server on one store
    # shares it: otherwise every sealed snapshot fails its check and each
    # "cold load" is a full replay.
    secret = secrets.token_hex(32)
    writer = ArbiterApp(env, SNAPSHOT_INTERVAL, credentials=Credentials(bytes.fromhex(secret), ""))
    start = time.perf_counter()
    long_events = long_enin_game(events, seed)
    short_events = long_enin_game(SNAPSHOT_INTERVAL, seed + 1)
    built = time.perf_counter() - start
    long_id, short_id = store_events(writer, long_events), store_events(writer, short_events)
    writer.close()
    trivial, trivial_id = trivial_store(work / "trivial", len(long_events))
    trivial.close()
    found = LongGames(env, secret, str(long_id), str(short_id), len(long_events),
                      len(short_events), str(work / "trivial"), str(trivial_id), built)
    made.write_text(json.dumps({**dataclasses.asdict(found), "asked": asked}))
    return found


def long_games(work: Path, events: int, repeat: int, seed: int,
               phases: Sequence[str] = PHASES) -> dict[str, Any]:
    """Cold load, snapshot size, replay and audit of a long and a short Enin game,
    and the replay of a trivial aggregate of as many events (turn about with the
    long game's replay, and again with its audit in CPU seconds, so that each
    meets the same background load as its floor). ``phases``: which of
    ``PHASES`` to measure (all of them unless told)."""
    games = build_long_games(work, events, seed)
    reader = ArbiterApp(uncached(games.env), SNAPSHOT_INTERVAL, credentials=games.credentials)
    trivial = TrivialApp(sqlite_env(Path(games.trivial_dir)))
    long_id, short_id = uuid.UUID(games.long_id), uuid.UUID(games.short_id)
    trivial_id = uuid.UUID(games.trivial_id)
    count = games.long_events
    out: dict[str, Any] = {"built_in_seconds": games.built_in_seconds,
                           "long_events": count, "short_events": games.short_events}
    if "load" in phases:
        cold_long, cold_short = alternately(
            lambda: reader.game(str(long_id)), lambda: reader.game(str(short_id)), 10 * repeat)
        short_at, short_bytes = snapshot_bytes(reader, short_id, SNAPSHOT_INTERVAL)
        long_at, long_bytes = snapshot_bytes(reader, long_id)
        out.update({
            "cold_load_long_ms": cold_long * 1000, "cold_load_short_ms": cold_short * 1000,
            "snapshot_short": {"version": short_at, "bytes": short_bytes},
            "snapshot_long": {"version": long_at, "bytes": long_bytes},
        })
    if "replay" in phases:
        replay_seconds, trivial_seconds = alternately(
            lambda: replay(reader, long_id), lambda: replay(trivial, trivial_id),
            PAIRS_PER_REPEAT * repeat + 1, clock=time.process_time)
        out.update({
            "replay_seconds": replay_seconds, "replay_per_second": count / replay_seconds,
            "trivial_replay_seconds": trivial_seconds,
            "trivial_replay_per_second": count / trivial_seconds,
        })
    if "audit" in phases:
        reports: list[Any] = []
        # The audit turn about with the trivial replay, in CPU seconds: the
        # audit's goal is a ratio to that floor, so each meets the same load.
        audit_seconds, audit_trivial_seconds = alternately(
            lambda: reports.append(audit_stored(reader, str(long_id))),
            lambda: replay(trivial, trivial_id), PAIRS_PER_REPEAT * repeat + 1,
            clock=time.process_time)
        out.update({
            "audit_seconds": audit_seconds, "audit_per_second": count / audit_seconds,
            "audit_trivial_seconds": audit_trivial_seconds,
            "audit_ok": all(r.report.ok and not r.bad_snapshots for r in reports),
        })
    trivial.close()
    reader.close()
    return out


# ---------------------------------------------------------------------- memory

SEATS = {"enin": ["solo"], "ethnos": ["ann", "bob", "cyd", "dee"], "ettin": ["a", "b", "c", "d"]}
#: Moves played on each game before it is measured: about half a typical game.
MOVES = {"enin": 40, "ethnos": 150, "ettin": 80}


def make_games(env: dict[str, str], rules: str, count: int, seed: int,
               secret: str) -> list[str]:
    """``count`` games of ``rules`` half played (random legal moves), saved; their
    ids. ``secret`` (hex): the server secret, shared with the process that loads
    them, so their sealed snapshots are trusted there."""
    app = ArbiterApp(env, SNAPSHOT_INTERVAL, credentials=Credentials(bytes.fromhex(secret), ""))
    rng = random.Random(seed)
    ids = []
    for _ in range(count):
        game = app.create_game(rules, SEATS[rules])
        for _ in range(MOVES[rules]):
            if game.ended:
                break
            seat = game.waiting_on()[0]
            game.act(seat, rng.choice(game.legal_actions(seat)), uuid.uuid4().hex)
        app.save(game)
        ids.append(str(game.id))
    app.close()
    return ids


def resident_bytes() -> int:
    """This process's resident set size, from /proc."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def cached_game_bytes(env: dict[str, str], ids_by_rules: dict[str, list[str]],
                      secret: str) -> dict[str, Any]:
    """Run in a fresh process: the memory kept per game loaded into the cache.

    ``bytes_per_game`` is what the Python heap keeps (``tracemalloc``: exact,
    whatever the allocator does with freed pages); ``rss_per_game`` is the
    growth of the resident set, coarse (pages, arenas) unless many games load.
    """
    import tracemalloc

    app = ArbiterApp(env, SNAPSHOT_INTERVAL, credentials=Credentials(bytes.fromhex(secret), ""))
    for ids in ids_by_rules.values():  # one of each first: imports, codecs, pools
        app.game(ids[0])
    out: dict[str, Any] = {}
    for rules, ids in ids_by_rules.items():
        count = max(1, len(ids) - 1)
        gc.collect()
        rss = resident_bytes()
        tracemalloc.start()
        for gid in ids[1:]:
            app.game(gid)
        gc.collect()
        heap = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        out[rules] = {"games": count, "bytes_per_game": heap / count,
                      "rss_per_game": (resident_bytes() - rss) / count}
    cache = getattr(app.repository, "cache", None)
    out["cache_maxsize"] = getattr(cache, "maxsize", None)
    app.close()
    return out


# --------------------------------------------------------- the library's own rate


def library_get_save(env: dict[str, str], threads: int, seconds: float) -> dict[str, Any]:
    """Run in a fresh process: ``threads`` threads, each getting its own trivial
    aggregate, changing it and saving it (one aggregate per transaction), with
    the store settings Arbiter uses; saves per second."""
    app = TrivialApp(env)
    counters = [Counter() for _ in range(threads)]
    app.save(*counters)
    done = [0] * threads
    stop = threading.Event()

    def work(n: int) -> None:
        while not stop.is_set():
            counter: Any = app.repository.get(counters[n].id)
            counter.bump(1)
            app.save(counter)
            done[n] += 1

    workers = [threading.Thread(target=work, args=(n,)) for n in range(threads)]
    start = time.perf_counter()
    for worker in workers:
        worker.start()
    time.sleep(seconds)
    stop.set()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - start
    app.close()
    return {"threads": threads, "saves": sum(done), "seconds": elapsed,
            "per_second": sum(done) / elapsed}


def rules_measured() -> list[str]:
    """Every served game type (the memory figure covers them all)."""
    return [r for r in GAMES if r in SEATS]


def main() -> None:
    """``python -m bench.store``: the long games' figures alone (replay,
    cold load, audit against the trivial replay), without the rest of the bench."""
    import argparse
    import tempfile

    parser = argparse.ArgumentParser(prog="python -m bench.store", description=main.__doc__)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=PHASES, action="append",
                        help="measure this phase alone (again for several); default: all")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="build the games in DIR and keep them there, or reuse the ones "
                             "an earlier run kept there (a profile of one phase, say)")
    args = parser.parse_args()
    phases = args.only or PHASES
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        found = long_games(args.keep, args.events, args.repeat, args.seed, phases)
    else:
        with tempfile.TemporaryDirectory() as work:
            found = long_games(Path(work), args.events, args.repeat, args.seed, phases)
    if "audit" in phases:
        found["audit_vs_trivial"] = found["audit_seconds"] / found["audit_trivial_seconds"]
    if "replay" in phases:
        found["replay_vs_trivial"] = found["replay_per_second"] / found["trivial_replay_per_second"]
    print(json.dumps(found, indent=1))


if __name__ == "__main__":
    # Run from the module imported by its name, so that the trivial
    # aggregate's stored topic is ``bench.store:Counter`` whichever way the
    # store was made (a store kept by ``--keep`` is read by both).
    from bench.store import main as main_of_module

    main_of_module()
