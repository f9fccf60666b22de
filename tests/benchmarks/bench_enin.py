"""Speed goals, measured by `make bench` (never by timed tests).

- deciding and applying an Enin command in memory;
- a command through the application and the SQLite store (load, decide, save);
- loading a long game from the store (snapshots + newer events).
"""

from __future__ import annotations

import random
from pathlib import Path

from pytest_benchmark.fixture import BenchmarkFixture

from aggregates.enin import Enin
from service.application import ArbiterApp
from service.config import Settings


def random_game(seed: int) -> int:
    game = Enin.start(["solo"])
    chooser = random.Random(seed)
    commands = 0
    while not game.ended and commands < 3000:
        actions = game.legal_actions(0)
        name = chooser.choice(sorted({a.NAME for a in actions}))
        game.act(0, chooser.choice([a for a in actions if name == a.NAME]))
        commands += 1
    return commands


def test_bench_enin_game_in_memory(benchmark: BenchmarkFixture) -> None:
    seeds = iter(range(10**6))
    commands = benchmark(lambda: random_game(next(seeds)))
    assert commands > 0


def test_bench_command_through_sqlite_store(benchmark: BenchmarkFixture, tmp_path: Path) -> None:
    app = ArbiterApp(Settings(data_dir=tmp_path).store_env())
    state = {"game": str(app.create_game("enin", ["solo"]).id)}
    chooser = random.Random(1)

    def one_command() -> None:
        game = app.game(state["game"])
        if game.ended:
            state["game"] = str(app.create_game("enin", ["solo"]).id)
            game = app.game(state["game"])
        action = chooser.choice(game.legal_actions(0))
        app.act(state["game"], 0, action.to_json())

    benchmark(one_command)
    app.close()


def test_bench_load_long_game(benchmark: BenchmarkFixture, tmp_path: Path) -> None:
    env = Settings(data_dir=tmp_path).store_env()
    app = ArbiterApp(env)
    best, chooser = "", random.Random(2)
    for _ in range(20):
        gid = str(app.create_game("enin", ["solo"]).id)
        game = app.game(gid)
        while not game.ended:
            app.act(gid, 0, chooser.choice(game.legal_actions(0)).to_json())
            game = app.game(gid)
        if not best or game.version > app.game(best).version:
            best = gid
    cold = {k: v for k, v in env.items() if not k.startswith("AGGREGATE_CACHE")}
    reader = ArbiterApp(cold)
    version = benchmark(lambda: reader.game(best).version)
    assert version == app.game(best).version
