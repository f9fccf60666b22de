"""Rules versions of The Land of Enin (docs/rules-versions.md): 1.1.0 records
no engine progress, where 1.0.0 also recorded the Imp waiting on its choice
(``ImpStruck``, after the Imp's trap: Lost Wastes, trap 4) and the quest
attempt on offer after the action (``QuestAttemptOffered``: Quest Items, "once
you have completed the action for that location"). Both decide the same:
the same seed and the same choices give the same legal lists, the same facts
otherwise and the same public view.

``data/record_1_0_0.jsonl.gz`` was recorded by the 1.0.0 code itself (not this
one's ``EninV1``): a game that met the Imp and was offered quest attempts,
stopped with an attempt on offer. It must re-execute by 1.0.0, and go on to
its end by 1.0.0 when the served class loads it (as the server loads a stored
game, by its events' topic), still auditing clean. Never regenerate it to make
a test pass: it proves that games recorded before the change survive it only
because the old code wrote it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aggregates import catalog
from aggregates.enin import Enin
from aggregates.enin import state as s
from aggregates.enin.v1 import EninV1
from aggregates.kernel import event_type, payload_of
from aggregates.kernel.record.audit import Record
from aggregates.kernel.record.verify import verify_records
from tests import rules_versions as rv

OLD_RECORD = Path(__file__).parent / "data" / "record_1_0_0.jsonl.gz"
BOTH = catalog.registry((EninV1, Enin))
#: What rules 1.0.0 recorded of the engine's progress, and 1.1.0 does not.
PROGRESS = frozenset({"ImpStruck", "QuestAttemptOffered"})


def old_record() -> list[Record]:
    return rv.stored_record(OLD_RECORD)


def play_both(seed: int) -> tuple[list[Any], list[Any], Any, Enin]:
    """One solo game played by both versions with the same seed and choices."""
    return rv.play_both(EninV1, Enin, ["solo"], seed)


@pytest.mark.parametrize("seed", [162, 3, 41, 77])
def test_rules_1_1_0_play_as_1_0_0_without_the_engine_progress__rulebook_quest_items(
        seed: int) -> None:
    """Questing Phase, Traps (the Imp) and Quest Items decide the same by both
    versions; only 1.0.0 records its progress."""
    old_events, new_events, old, new = play_both(seed)
    rv.check_played_alike(old_events, new_events, old, new, PROGRESS, BOTH)
    assert payload_of(new_events[0])["rules_version"] == "1.1.0"
    assert payload_of(old_events[0])["rules_version"] == "1.0.0"


def test_seed_162_meets_the_imp_and_offers_an_attempt__rulebook_traps() -> None:
    """The compared game above is not vacuous: 1.0.0 records both kinds of progress."""
    old_events, _new_events, _old, _new = play_both(162)
    assert {event_type(e) for e in old_events} >= PROGRESS


def test_a_1_0_0_record_by_the_old_code_re_executes_by_1_0_0() -> None:
    records = old_record()
    types = [r.type for r in records]
    assert records[0].payload["rules_version"] == "1.0.0"
    assert "ImpStruck" in types and types.count("QuestAttemptOffered") >= 2
    verdict = verify_records({}, records, BOTH)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands > 50 and not verdict.not_loadable
    assert catalog.rules_class("enin", "1.0.0") is EninV1
    game = rv.loaded(records, Enin)
    assert game.stage == s.QUEST_ATTEMPT and game.earlier == {s.PROGRESS_RECORDED}


def test_a_1_0_0_game_goes_on_by_1_0_0_when_the_served_class_loads_it() -> None:
    """After an upgrade the stored game is loaded by the served class: it plays on
    by 1.0.0 (its attempts still offered on the record) and audits clean by 1.0.0."""
    records = old_record()
    game, more = rv.goes_on_after_upgrade(records, Enin, 11, 2000)
    assert game.ended
    assert "QuestAttemptOffered" in [r.type for r in more]
    verdict = verify_records({}, records + more, BOTH)
    assert verdict.ok and verdict.complete, verdict.report.problems


def test_without_1_0_0_the_record_is_not_loadable_and_not_a_failure() -> None:
    verdict = rv.not_loadable_without(old_record(), Enin)
    assert verdict.ok and verdict.not_loadable.startswith("recorded by rules enin v1.0.0")
