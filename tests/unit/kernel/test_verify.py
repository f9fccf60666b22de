"""Offline verification over plain records (``aggregates.kernel.record.verify``): a
whole game passes; each kind of tampering is named by its first version; a
seedless, meta-less read checks only the links and says what it did not."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from aggregates.catalog import GAMES
from aggregates.enin import Enin
from aggregates.kernel.record.audit import Record, record_of
from aggregates.kernel.record.verify import fold, verify_records


def played(seed: int) -> tuple[Enin, list[Record]]:
    rnd = random.Random(seed)
    game = Enin.start(["solo"])
    events: list[Any] = list(game.collect_events())
    while not game.ended:
        seat = game.waiting_on()[0]
        game.act(seat, rnd.choice(game.legal_actions(seat)))
        events.extend(game.collect_events())
    return game, [record_of(ev) for ev in events]


def test_a_whole_game_verifies_and_folds_back() -> None:
    game, records = played(1)
    verdict = verify_records({}, records, GAMES)
    assert verdict.ok and verdict.complete, verdict.report.problems
    assert verdict.report.commands == game.commands_applied
    assert fold(records, Enin).view(0) == game.view(0)
    assert fold(records, Enin, 7).version == 7


def test_tampering_names_the_first_version() -> None:
    _, records = played(2)
    n = len(records) // 2
    changed = list(records)
    changed[n] = dataclasses.replace(records[n], payload={**records[n].payload, "x": 1})
    assert verify_records({}, changed, GAMES).first_failure == n + 1
    dropped = records[:n] + records[n + 1:]
    assert verify_records({}, dropped, GAMES).first_failure == n + 1
    swapped = list(records)
    swapped[n], swapped[n + 2] = swapped[n + 2], swapped[n]
    assert verify_records({}, swapped, GAMES).first_failure == n + 1
    seed = "11" * 32
    reseeded = [dataclasses.replace(records[0], payload={**records[0].payload, "seed": seed}),
                *records[1:]]
    verdict = verify_records({}, reseeded, GAMES)
    assert verdict.first_failure == 1
    assert verdict.report.problems[0] == "dice: the seed does not match its commitment"
    assert verify_records({"seed": seed}, records, GAMES).first_failure == 1


def test_a_read_without_the_seed_checks_the_links_only() -> None:
    _, records = played(3)
    blind = [dataclasses.replace(r, meta=None) for r in records]
    blind[0] = dataclasses.replace(
        blind[0], payload={k: v for k, v in blind[0].payload.items() if k != "seed"})
    running = blind[:-1]  # read before the end: what a seat's read holds
    verdict = verify_records({}, running, GAMES)
    assert verdict.ok and not verdict.complete
    assert len(verdict.not_checked) == 4  # digests, dice, re-execution, the rest of the game
    running[5] = dataclasses.replace(running[5], prev="0" * 64)
    assert verify_records({}, running, GAMES).first_failure == 6
    # A finished game's record is public in full: stripped of its seed, it fails.
    stripped = verify_records({}, blind, GAMES)
    assert not stripped.ok and stripped.first_failure == 1
    assert "says the game ended but lacks the revealed seed" in stripped.report.problems[0]
