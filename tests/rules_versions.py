"""Shared steps of the rules-versions tests (docs/rules-versions.md): load a
record stored by an earlier release, re-execute it by its version, play it on
with the served class (as the server loads a stored game, by its events'
topic) and compare two versions played with the same seed and choices.

Each game's test keeps its own assertions; these only do the steps, so that
the way a stored game is read, folded and played on is the same for every
game and written once.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from aggregates import catalog
from aggregates.kernel import event_type, payload_of
from aggregates.kernel.game import Game
from aggregates.kernel.record.audit import Record, records_of
from aggregates.kernel.record.verify import Verdict, fold, verify_records

G = TypeVar("G", bound=Game)


def stored_record(path: Path) -> list[Record]:
    """The records of a game stored as gzipped JSON lines, one record a line."""
    with gzip.open(path, "rt") as f:
        return [Record(**json.loads(line)) for line in f]


def loaded(records: Sequence[Record], served: type[G]) -> G:
    """The game ``records`` make, folded by the served class ``served``."""
    game = fold(records, served)
    assert isinstance(game, served)
    return game


def seat_to_play(rng: random.Random, game: Game) -> int:
    """A waiting seat drawn at random; a solo game's one seat is not drawn (so
    a solo game's choices are the commands' draws alone)."""
    waiting = game.waiting_on()
    return waiting[0] if len(game.seats) == 1 else rng.choice(waiting)


def play_on(game: Game, seed: int, moves: int) -> list[Record]:
    """Random legal moves (at most ``moves``) by any waiting seat; the records they add."""
    rng = random.Random(seed)
    added: list[Any] = []
    for n in range(moves):
        if game.ended:
            break
        seat = seat_to_play(rng, game)
        game.act(seat, rng.choice(game.legal_actions(seat)), f"more{n}")
        added += game.collect_events()
    return records_of(added)


def goes_on_after_upgrade(records: Sequence[Record], served: type[G], seed: int,
                          moves: int) -> tuple[G, list[Record]]:
    """The stored game loaded by the served class and played on: the game and
    the records its further moves add (what an upgraded server does with it)."""
    game = loaded(records, served)
    game.collect_events()
    return game, play_on(game, seed, moves)


def not_loadable_without(records: Sequence[Record], served: type[Game]) -> Verdict:
    """The verdict on ``records`` when only the served class is registered."""
    return verify_records({}, records, catalog.registry((served,)))


def facts(events: Iterable[Any], progress: frozenset[str]) -> list[tuple[str, dict[str, Any]]]:
    """The rulebook's facts in order after the creation (which names its
    version), the ``progress`` kinds left out."""
    return [(event_type(e), payload_of(e)) for e in list(events)[1:]
            if event_type(e) not in progress]


def play_both(old_cls: type[Game], new_cls: type[G], seats: list[str],
              seed: int) -> tuple[list[Any], list[Any], Game, G]:
    """One random game played by both versions with the same seed and choices,
    their waiting seats, legal lists and public views compared after every
    command; the events of each and both games."""
    rng = random.Random(seed)
    old = old_cls.start(seats, seed=f"{seed:064x}")
    new = new_cls.start(seats, seed=f"{seed:064x}")
    old_events, new_events = list(old.collect_events()), list(new.collect_events())
    while not old.ended:
        assert new.waiting_on() == old.waiting_on()
        seat = seat_to_play(rng, old)
        legal = old.legal_actions(seat)
        assert new.legal_actions(seat) == legal
        command = rng.choice(legal)
        old.act(seat, command)
        new.act(seat, command)
        old_events += old.collect_events()
        new_events += new.collect_events()
        assert new.view(None) == old.view(None)
        assert new.present(None) == old.present(None)
    return old_events, new_events, old, new


def check_played_alike(old_events: list[Any], new_events: list[Any], old: Game, new: Game,
                       progress: frozenset[str], registry: Mapping[Any, type[Game]]) -> None:
    """Two versions' play of one game (``play_both``) decided the same: both
    ended with one outcome, the same facts apart from ``progress`` (which the
    new version never records), and each record re-executes by its own version."""
    assert new.ended and new.outcome == old.outcome
    assert facts(new_events, progress) == facts(old_events, progress)
    assert not progress & {event_type(e) for e in new_events}
    for events in (new_events, old_events):
        verdict = verify_records({}, records_of(events), registry)
        assert verdict.ok, verdict.report.problems
