"""Ethnos speed goals, measured by `make bench` (never by timed tests).

- a whole random 4-player game in memory (decide + evolve every command);
- listing the legal actions of the worst hand (10 cards of one tribe: 5,120 bands);
- the leak-proof redaction of a game's events for one seat;
- a seat's screen and choices (what every client asks after every move).
"""

from __future__ import annotations

import random

from pytest_benchmark.fixture import BenchmarkFixture

from aggregates.ethnos import Ethnos
from aggregates.ethnos.data import CARDS
from aggregates.kernel import event_type, payload_of


def random_game(seed: int, players: int = 4) -> Ethnos:
    game = Ethnos.start([f"p{n}" for n in range(players)])
    chooser = random.Random(seed)
    while not game.ended:
        seat = game.waiting_on()[0]
        actions = game.legal_actions(seat)
        name = chooser.choice(sorted({a.NAME for a in actions}))
        game.act(seat, chooser.choice([a for a in actions if name == a.NAME]))
    return game


def test_bench_ethnos_game_in_memory(benchmark: BenchmarkFixture) -> None:
    seeds = iter(range(10**6))
    game = benchmark(lambda: random_game(next(seeds)))
    assert game.ended


def test_bench_ethnos_worst_hand_legal_actions(benchmark: BenchmarkFixture) -> None:
    game = Ethnos.start(["a", "b"], {"tribes": ["dwarves", "elves", "giants", "orcs", "trolls"]})
    tribe = [c.id for c in CARDS if c.tribe == "dwarves"][:10]
    seat = game.current
    game.hands[seat] = tribe
    actions = benchmark(lambda: game.legal_actions(seat))
    assert len(actions) >= 5120


def test_bench_ethnos_redaction_for_a_seat(benchmark: BenchmarkFixture) -> None:
    game = Ethnos.start(["a", "b", "c", "d"])
    events = list(game.collect_events())
    chooser = random.Random(1)
    for _ in range(200):
        if game.ended:
            break
        seat = game.waiting_on()[0]
        game.act(seat, chooser.choice(game.legal_actions(seat)))
        events += game.collect_events()

    def redact() -> int:
        shown = 0
        for ev in events:
            kind, payload = event_type(ev), payload_of(ev)
            if Ethnos.audience(kind, payload).includes(1):
                shown += len(payload)
            else:
                shown += len(Ethnos.public_form(kind, payload))
        return shown

    assert benchmark(redact) > 0


def test_bench_ethnos_screen_and_choices(benchmark: BenchmarkFixture) -> None:
    game = Ethnos.start(["a", "b", "c", "d"], seed="b" * 64)
    chooser = random.Random(2)
    for _ in range(120):
        seat = game.waiting_on()[0]
        game.act(seat, chooser.choice(game.legal_actions(seat)))
    seat = game.waiting_on()[0]

    def ask() -> int:
        return len(game.present(seat).to_json()["sections"]) + len(game.choices(seat))

    assert benchmark(ask) > 0
