"""The capacity model's arithmetic (bench.capacity), on made-up figures: no server.

Why: the model is what a million games are sized by; its sums (creations by
game length, deliveries by following processes, the harmonic shard ceiling,
the fixed point of M) are checked here where a slip shows, not only by the
end-to-end run on a noisy shared machine.
"""

from __future__ import annotations

import math

import pytest

from bench.capacity import (
    Calibration,
    Mix,
    RulesFigures,
    followers_per_game,
    parse_shares,
    predict,
    relative_error,
    shard_events_per_second,
    size,
)


def calibration() -> Calibration:
    return Calibration(
        rules={
            "enin": RulesFigures(cpu_per_move=0.004, events_per_move=1.5, cpu_per_create=0.005,
                                 events_per_create=1.0, moves_per_game=50.0,
                                 saturated_events_per_second=400.0),
            "ettin": RulesFigures(cpu_per_move=0.005, events_per_move=3.0, cpu_per_create=0.006,
                                  events_per_create=2.0, moves_per_game=200.0,
                                  saturated_events_per_second=600.0),
        },
        base_cpu=0.01, active_overhead=0.02, cpu_per_stream_second=0.0,
        cpu_per_stream_event=0.0005, bytes_per_event=500.0, game_messages_per_commit=1.0,
        batch_messages_per_commit=0.5, redis_cpu_per_message=2e-5, process_cores=1.0,
        pg_cpu_per_event=2e-4,
    )


def test_one_type_sums_moves_creations_and_streams() -> None:
    mix = Mix(moves_per_game_minute=6.0, spectators_per_game=1.0, shares={"enin": 1.0})
    load = predict(calibration(), mix, games=100, processes=1)
    assert load.moves == pytest.approx(10.0)  # 100 games x 6/min
    assert load.creates == pytest.approx(0.2)  # 10 moves/s over 50 moves a game
    assert load.events == pytest.approx(10 * 1.5 + 0.2 * 1.0)
    assert load.bytes == pytest.approx(load.events * 500)
    # A message per move or creation on its game's channel, one per two on the
    # all-games channel (a relay batch); only the game's channel is followed.
    commits = 10.0 + 0.2
    assert load.publishes == pytest.approx(1.5 * commits)
    assert load.deliveries == pytest.approx(commits)  # one hub follows each game
    cpu = 0.02 + 10 * 0.004 + 0.2 * 0.005 + load.events * 0.0005
    assert load.server_cores == pytest.approx(cpu)
    assert load.redis_cores == pytest.approx(2.5 * commits * 2e-5)


def test_no_spectators_no_deliveries() -> None:
    mix = Mix(2.0, 0.0, {"enin": 1.0})
    load = predict(calibration(), mix, games=1000)
    assert load.deliveries == 0 and load.streams == 0


def test_followers_spread_over_processes() -> None:
    assert followers_per_game(1, 1) == pytest.approx(1.0)
    assert followers_per_game(5, 1) == pytest.approx(1.0)  # one hub per process
    assert followers_per_game(2, 2) == pytest.approx(1.5)
    assert followers_per_game(3, 1000) == pytest.approx(3.0, rel=0.01)
    assert followers_per_game(0, 10) == 0.0


def test_shard_ceiling_is_harmonic_over_event_shares() -> None:
    cal = calibration()
    assert shard_events_per_second(cal, Mix(2, 0, {"enin": 1.0})) == pytest.approx(400.0)
    both = shard_events_per_second(cal, Mix(2, 0, {"enin": 0.5, "ettin": 0.5}))
    assert 400.0 < both < 600.0


def test_sizing_scales_and_meets_utilisation() -> None:
    cal = calibration()
    mix = Mix(2.0, 1.0, {"enin": 0.5, "ettin": 0.5})
    small, big = size(cal, mix, 10_000, 0.7), size(cal, mix, 1_000_000, 0.7)
    assert big.processes > small.processes and big.shards > small.shards
    assert big.load.server_cores <= 0.7 * cal.process_cores * big.processes
    assert big.load.events <= 0.7 * big.shard_events_per_second * big.shards
    assert big.load.redis_cores <= 0.7 * big.redis_primaries
    assert big.processes >= big.shards  # each shard's relay runs in a process


def test_scaled_mix_and_helpers() -> None:
    mix = Mix(2.0, 1.0, {"enin": 1.0}).scaled(15)
    assert mix.moves_per_game_minute == 30.0
    assert parse_shares("enin=1,ettin=3") == {"enin": 0.25, "ettin": 0.75}
    assert relative_error(110, 100) == pytest.approx(0.1)
    assert relative_error(0, 0) == 0.0 and math.isinf(relative_error(1, 0))
    with pytest.raises(SystemExit):
        parse_shares("chess=1")
