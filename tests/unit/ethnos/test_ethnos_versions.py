"""Rules versions of Ethnos (docs/rules-versions.md): 1.1.0 records no engine
progress, where 1.0.0 also recorded the Wizards' offer (``WizardsOffered``)
after a Wizards band's discard (Playing a Band: "you may use the ability on
your Leader's card"; Wizards: draw X cards after discarding). Both decide the
same: the same seed and the same choices give the same legal lists, the same
facts otherwise and the same public view.

``data/record_1_0_0.jsonl.gz`` was recorded by the 1.0.0 code itself (not this
one's ``EthnosV1``): a 3-seat game into its second Age with Wizards offered,
stopped on a Wizards answer. It must re-execute by 1.0.0, and go on to its end
by 1.0.0 when the served class loads it (as the server loads a stored game, by
its events' topic), still auditing clean. Never regenerate it to make a test
pass: it proves that games recorded before the change survive it only because
the old code wrote it.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest

from aggregates import catalog
from aggregates.ethnos import Ethnos
from aggregates.ethnos import state as r
from aggregates.ethnos.v1 import EthnosV1
from aggregates.kernel import event_type, payload_of
from aggregates.kernel.audit import Record, records_of
from aggregates.kernel.verify import fold, verify_records

OLD_RECORD = Path(__file__).parent / "data" / "record_1_0_0.jsonl.gz"
BOTH = catalog.registry((EthnosV1, Ethnos))
#: What rules 1.0.0 recorded of the engine's progress, and 1.1.0 does not.
PROGRESS = frozenset({"WizardsOffered"})


def old_record() -> list[Record]:
    with gzip.open(OLD_RECORD, "rt") as f:
        return [Record(**json.loads(line)) for line in f]


def loaded(records: list[Record]) -> Ethnos:
    """The game its records make, folded by the served class."""
    game = fold(records, Ethnos)
    assert isinstance(game, Ethnos)
    return game


def play_on(game: Ethnos, seed: int, moves: int) -> list[Record]:
    """Random legal moves (at most ``moves``); the records they add."""
    rng = random.Random(seed)
    added: list[Any] = []
    for n in range(moves):
        if game.ended:
            break
        seat = rng.choice(game.waiting_on())
        game.act(seat, rng.choice(game.legal_actions(seat)), f"more{n}")
        added += game.collect_events()
    return records_of(added)


def facts(events: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    """The rulebook's facts in order after the creation (which names its version)."""
    return [(event_type(e), payload_of(e)) for e in events[1:]
            if event_type(e) not in PROGRESS]


def play_both(players: int, seed: int) -> tuple[list[Any], list[Any], Ethnos, Ethnos]:
    """One random game played by both versions with the same seed and choices,
    their legal lists and public views compared after every command."""
    rng = random.Random(seed)
    seats = [f"p{i}" for i in range(players)]
    old = EthnosV1.start(seats, seed=f"{seed:064x}")
    new = Ethnos.start(seats, seed=f"{seed:064x}")
    old_events, new_events = list(old.collect_events()), list(new.collect_events())
    while not old.ended:
        assert new.waiting_on() == old.waiting_on()
        seat = rng.choice(old.waiting_on())
        legal = old.legal_actions(seat)
        assert new.legal_actions(seat) == legal
        command = rng.choice(legal)
        old.act(seat, command)
        new.act(seat, command)
        old_events += old.collect_events()
        new_events += new.collect_events()
        assert new.view(None) == old.view(None)
    return old_events, new_events, old, new


@pytest.mark.parametrize(("players", "seed"), [(3, 23), (2, 1), (5, 1)])
def test_rules_1_1_0_play_as_1_0_0_without_the_wizards_offer__rulebook_Wizards(
        players: int, seed: int) -> None:
    """Playing a Band's abilities (the Wizards' draw after the discard) decide the
    same by both versions; only 1.0.0 records the offer."""
    old_events, new_events, old, new = play_both(players, seed)
    assert new.ended and new.outcome == old.outcome
    assert payload_of(new_events[0])["rules_version"] == "1.1.0"
    assert payload_of(old_events[0])["rules_version"] == "1.0.0"
    assert facts(new_events) == facts(old_events)
    assert "WizardsOffered" in {event_type(e) for e in old_events}   # not vacuous
    assert not PROGRESS & {event_type(e) for e in new_events}
    assert verify_records({}, records_of(new_events), BOTH).ok
    assert verify_records({}, records_of(old_events), BOTH).ok


def test_a_1_0_0_record_by_the_old_code_re_executes_by_1_0_0() -> None:
    records = old_record()
    types = [r.type for r in records]
    assert records[0].payload["rules_version"] == "1.0.0"
    assert types.count("WizardsOffered") >= 2 and "AgeEnded" in types
    verdict = verify_records({}, records, BOTH)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands > 50 and not verdict.not_loadable
    assert catalog.rules_class("ethnos", "1.0.0") is EthnosV1
    game = loaded(records)
    assert game.stage == r.WIZARDS and game.earlier == {r.PROGRESS_RECORDED}


def test_a_1_0_0_game_goes_on_by_1_0_0_when_the_served_class_loads_it() -> None:
    """After an upgrade the stored game is loaded by the served class: it plays on
    by 1.0.0 (its Wizards still offered on the record) and audits clean by 1.0.0."""
    records = old_record()
    game = loaded(records)
    game.collect_events()
    more = play_on(game, 11, 3000)
    assert game.ended
    whole = records + more
    types = [r.type for r in whole]
    assert "WizardsOffered" in [r.type for r in more]
    assert types.count("WizardsOffered") == types.count("WizardsAnswered")
    verdict = verify_records({}, whole, BOTH)
    assert verdict.ok and verdict.complete, verdict.report.problems


def test_without_1_0_0_the_record_is_not_loadable_and_not_a_failure() -> None:
    verdict = verify_records({}, old_record(), catalog.registry((Ethnos,)))
    assert verdict.ok and verdict.not_loadable.startswith("recorded by rules ethnos v1.0.0")
