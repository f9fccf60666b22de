"""9+ Players, Setup: "Make sure neighbors play different nations" — where two
boxes meet and where the circle closes too (issue 17, item 7), and the games
dealt by rules version 1, which dealt each box apart, still re-verify by it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from aggregates.catalog import RULES
from aggregates.ettin import Ettin
from aggregates.ettin import seating as sg
from aggregates.ettin.v1 import EttinV1
from aggregates.kernel import RuleError
from aggregates.kernel.record.audit import record_of
from aggregates.kernel.record.verify import verify_records

SEEDS = 150


def neighbours_alike(nations: list[str]) -> list[int]:
    """The positions whose right-hand neighbour plays their nation."""
    count = len(nations)
    return [p for p in range(count) if nations[p] == nations[(p + 1) % count]]


@pytest.mark.parametrize("players", range(9, 17))
def test_no_two_neighbours_play_one_nation__rulebook_9_plus_players_setup(players: int) -> None:
    """Every count from 9 to 16, many seeds: no neighbour alike, across box seams
    (7-8) and the closing of the circle (last-0); still one copy of a nation per
    box; the Mercenary mat (odd counts) last."""
    for seed in range(SEEDS):
        game = Ettin.start([f"p{i}" for i in range(players)], seed=f"{seed + 1:064x}")
        nations = game.nations
        assert len(nations) == sg.positions_for(players)
        assert neighbours_alike(nations) == [], (seed, nations)
        for b in range(sg.boxes(len(nations))):
            in_box = [n for n in nations[b * sg.PER_BOX:(b + 1) * sg.PER_BOX] if n != "mercenaries"]
            assert len(set(in_box)) == len(in_box)
        assert (nations[-1] == "mercenaries") == (players % 2 == 1)


def test_version_1_dealt_neighbours_alike_where_boxes_meet() -> None:
    """The rule the bump fixes: version 1's seams matched in about one 16-player
    game in four and one 9-player game in eight."""
    alike = {players: sum(bool(neighbours_alike(EttinV1.start(
        [f"p{i}" for i in range(players)], seed=f"{seed + 1:064x}").nations))
        for seed in range(200)) for players in (9, 16)}
    assert 10 <= alike[9] <= 45 and 25 <= alike[16] <= 75, alike


def test_chosen_nations_alike_across_a_seam_are_refused() -> None:
    """The ``nations`` option too: distinct in each box, yet alike where boxes meet."""
    first = ["cannites", "daemons", "elves", "orcs", "dwarves", "giants", "joymore", "risen"]
    with pytest.raises(RuleError) as refused:
        Ettin.start([f"p{i}" for i in range(10)], {"nations": [*first, "risen", "elves"]},
                    seed="1" * 64)
    assert "neighbours" in refused.value.message
    game = Ettin.start([f"p{i}" for i in range(10)], {"nations": [*first, "elves", "orcs"]},
                       seed="1" * 64)
    assert neighbours_alike(game.nations) == []


def played(cls: type[Any], players: int, seed: int) -> list[Any]:
    rnd = random.Random(seed)
    game = cls.start([f"p{i}" for i in range(players)], seed=f"{seed:064x}")
    events = list(game.collect_events())
    while not game.ended:
        seat = rnd.choice(game.waiting_on())
        game.act(seat, rnd.choice(game.legal_actions(seat)))
        events.extend(game.collect_events())
    return [record_of(ev) for ev in events]


def test_a_version_1_table_with_alike_neighbours_reverifies_by_version_1() -> None:
    """docs/rules-versions.md: recorded by version 1, verified by version 1 (the
    release keeps it), and reported not loadable (no failure) without it."""
    seed = next(s for s in range(1, 200) if neighbours_alike(EttinV1.start(
        [f"p{i}" for i in range(9)], seed=f"{s:064x}").nations))
    records = played(EttinV1, 9, seed)
    assert records[0].payload["rules_version"] == "1"
    verdict = verify_records({}, records, RULES)
    assert verdict.ok and verdict.complete, verdict.report.problems
    without = {k: v for k, v in RULES.items() if k != ("ettin", "1")}
    verdict = verify_records({}, records, without)
    assert verdict.ok and verdict.not_loadable
