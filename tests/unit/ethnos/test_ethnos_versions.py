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

from pathlib import Path
from typing import Any

import pytest

from aggregates import catalog
from aggregates.ethnos import Ethnos
from aggregates.ethnos import state as r
from aggregates.ethnos.v1 import EthnosV1
from aggregates.kernel import event_type, payload_of
from aggregates.kernel.record.audit import Record
from aggregates.kernel.record.verify import verify_records
from tests import rules_versions as rv

OLD_RECORD = Path(__file__).parent / "data" / "record_1_0_0.jsonl.gz"
BOTH = catalog.registry((EthnosV1, Ethnos))
#: What rules 1.0.0 recorded of the engine's progress, and 1.1.0 does not.
PROGRESS = frozenset({"WizardsOffered"})


def old_record() -> list[Record]:
    return rv.stored_record(OLD_RECORD)


def play_both(players: int, seed: int) -> tuple[list[Any], list[Any], Any, Ethnos]:
    """One random game of ``players`` seats played by both versions alike."""
    return rv.play_both(EthnosV1, Ethnos, [f"p{i}" for i in range(players)], seed)


@pytest.mark.parametrize(("players", "seed"), [(3, 23), (2, 1), (5, 1)])
def test_rules_1_1_0_play_as_1_0_0_without_the_wizards_offer__rulebook_Wizards(
        players: int, seed: int) -> None:
    """Playing a Band's abilities (the Wizards' draw after the discard) decide the
    same by both versions; only 1.0.0 records the offer."""
    old_events, new_events, old, new = play_both(players, seed)
    rv.check_played_alike(old_events, new_events, old, new, PROGRESS, BOTH)
    assert payload_of(new_events[0])["rules_version"] == "1.1.0"
    assert payload_of(old_events[0])["rules_version"] == "1.0.0"
    assert "WizardsOffered" in {event_type(e) for e in old_events}   # not vacuous


def test_a_1_0_0_record_by_the_old_code_re_executes_by_1_0_0() -> None:
    records = old_record()
    types = [r.type for r in records]
    assert records[0].payload["rules_version"] == "1.0.0"
    assert types.count("WizardsOffered") >= 2 and "AgeEnded" in types
    verdict = verify_records({}, records, BOTH)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands > 50 and not verdict.not_loadable
    assert catalog.rules_class("ethnos", "1.0.0") is EthnosV1
    game = rv.loaded(records, Ethnos)
    assert game.stage == r.WIZARDS and game.earlier == {r.PROGRESS_RECORDED}


def test_a_1_0_0_game_goes_on_by_1_0_0_when_the_served_class_loads_it() -> None:
    """After an upgrade the stored game is loaded by the served class: it plays on
    by 1.0.0 (its Wizards still offered on the record) and audits clean by 1.0.0."""
    records = old_record()
    game, more = rv.goes_on_after_upgrade(records, Ethnos, 11, 3000)
    assert game.ended
    whole = records + more
    types = [r.type for r in whole]
    assert "WizardsOffered" in [r.type for r in more]
    assert types.count("WizardsOffered") == types.count("WizardsAnswered")
    verdict = verify_records({}, whole, BOTH)
    assert verdict.ok and verdict.complete, verdict.report.problems


def test_without_1_0_0_the_record_is_not_loadable_and_not_a_failure() -> None:
    verdict = rv.not_loadable_without(old_record(), Ethnos)
    assert verdict.ok and verdict.not_loadable.startswith("recorded by rules ethnos v1.0.0")
