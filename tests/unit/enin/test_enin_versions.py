"""Rules versions of The Land of Enin (docs/rules-versions.md): each later
version records less of the engine's progress and otherwise plays exactly as
the one before. 1.1.0 no longer records the Imp waiting on its choice
(``ImpStruck``, after the Imp's trap: Lost Wastes, trap 4) or the quest
attempt on offer after the action (``QuestAttemptOffered``: Quest Items, "once
you have completed the action for that location"), which 1.0.0 did; 1.2.0 no
longer records the choice of a magic item again after the treasure roll that
found it (``MagicItemFound``: Treasure, "place a cube on the box next to the
item of your choice"), which 1.1.0 and 1.0.0 did. Each pair decides the same:
the same seed and the same choices give the same legal lists, the same facts
otherwise and the same public view.

``data/record_1_0_0.jsonl.gz`` was recorded by the 1.0.0 code itself (not this
one's ``EninV1``): a game that met the Imp and was offered quest attempts,
stopped with an attempt on offer. ``data/record_1_1_0.jsonl.gz`` was recorded
by the 1.1.0 code itself: a game that found two magic items, stopped with the
second to choose. Each must re-execute by its version, and go on to its end by
that version when the served class loads it (as the server loads a stored
game, by its events' topic), still auditing clean. Never regenerate them to
make a test pass: they prove that games recorded before a change survive it
only because the old code wrote them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aggregates import catalog
from aggregates.enin import Enin
from aggregates.enin import state as s
from aggregates.enin.v1 import EninV1, EninV1_1
from aggregates.kernel import event_type, payload_of
from aggregates.kernel.record.audit import Record
from aggregates.kernel.record.verify import verify_records
from tests import rules_versions as rv

DATA = Path(__file__).parent / "data"
OLD_RECORD = DATA / "record_1_0_0.jsonl.gz"
RECORD_1_1_0 = DATA / "record_1_1_0.jsonl.gz"
ALL = catalog.registry((EninV1, EninV1_1, Enin))
#: What rules 1.0.0 recorded of the engine's progress, and 1.1.0 does not.
PROGRESS = frozenset({"ImpStruck", "QuestAttemptOffered"})
#: What rules 1.1.0 (and 1.0.0) recorded of it, and 1.2.0 does not.
FIND = frozenset({"MagicItemFound"})


def old_record(path: Path = OLD_RECORD) -> list[Record]:
    return rv.stored_record(path)


def play_both(seed: int, old: type[Enin] = EninV1,
              new: type[Enin] = EninV1_1) -> tuple[list[Any], list[Any], Any, Enin]:
    """One solo game played by two versions with the same seed and choices."""
    return rv.play_both(old, new, ["solo"], seed)


@pytest.mark.parametrize("seed", [162, 3, 41, 77])
def test_rules_1_1_0_play_as_1_0_0_without_the_engine_progress__rulebook_quest_items(
        seed: int) -> None:
    """Questing Phase, Traps (the Imp) and Quest Items decide the same by both
    versions; only 1.0.0 records its progress."""
    old_events, new_events, old, new = play_both(seed)
    rv.check_played_alike(old_events, new_events, old, new, PROGRESS, ALL)
    assert payload_of(new_events[0])["rules_version"] == "1.1.0"
    assert payload_of(old_events[0])["rules_version"] == "1.0.0"


def test_seed_162_meets_the_imp_and_offers_an_attempt__rulebook_traps() -> None:
    """The compared game above is not vacuous: 1.0.0 records both kinds of progress."""
    old_events, _new_events, _old, _new = play_both(162)
    assert {event_type(e) for e in old_events} >= PROGRESS


@pytest.mark.parametrize("seed", [2, 162, 41])
def test_rules_1_2_0_play_as_1_1_0_without_the_magic_find__rulebook_treasure(
        seed: int) -> None:
    """The Treasure Card's magic find is chosen the same by both versions (the
    same choices offered, the same view while choosing); only 1.1.0 records
    the find again after the roll that found it."""
    old_events, new_events, old, new = play_both(seed, EninV1_1, Enin)
    rv.check_played_alike(old_events, new_events, old, new, FIND, ALL)
    assert payload_of(new_events[0])["rules_version"] == "1.2.0"
    assert payload_of(old_events[0])["rules_version"] == "1.1.0"
    if seed == 2:  # not vacuous: the game finds magic items
        assert [event_type(e) for e in old_events].count("MagicItemFound") >= 2


def test_a_1_0_0_record_by_the_old_code_re_executes_by_1_0_0() -> None:
    records = old_record()
    types = [r.type for r in records]
    assert records[0].payload["rules_version"] == "1.0.0"
    assert "ImpStruck" in types and types.count("QuestAttemptOffered") >= 2
    verdict = verify_records({}, records, ALL)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands > 50 and not verdict.not_loadable
    assert catalog.rules_class("enin", "1.0.0") is EninV1
    game = rv.loaded(records, Enin)
    assert game.stage == s.QUEST_ATTEMPT
    assert game.earlier == {s.PROGRESS_RECORDED, s.FIND_RECORDED}


def test_a_1_0_0_game_goes_on_by_1_0_0_when_the_served_class_loads_it() -> None:
    """After an upgrade the stored game is loaded by the served class: it plays on
    by 1.0.0 (its attempts still offered on the record) and audits clean by 1.0.0."""
    records = old_record()
    game, more = rv.goes_on_after_upgrade(records, Enin, 11, 2000)
    assert game.ended
    assert "QuestAttemptOffered" in [r.type for r in more]
    verdict = verify_records({}, records + more, ALL)
    assert verdict.ok and verdict.complete, verdict.report.problems


def test_a_1_1_0_record_by_the_old_code_re_executes_by_1_1_0() -> None:
    """Stopped on the second magic item to choose: the served class loads it
    in that choice, offering what the record's find named."""
    records = old_record(RECORD_1_1_0)
    types = [r.type for r in records]
    assert records[0].payload["rules_version"] == "1.1.0"
    assert types.count("MagicItemFound") == 2 and types[-1] == "MagicItemFound"
    assert not PROGRESS & set(types)
    verdict = verify_records({}, records, ALL)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands > 40 and not verdict.not_loadable
    assert catalog.rules_class("enin", "1.1.0") is EninV1_1
    game = rv.loaded(records, Enin)
    assert game.stage == s.CHOOSE_TREASURE and game.earlier == {s.FIND_RECORDED}
    assert game.treasure_choices == records[-1].payload["choices"]


def test_a_1_1_0_game_goes_on_by_1_1_0_when_the_served_class_loads_it() -> None:
    """It plays on by 1.1.0 (its magic finds still recorded) and audits clean."""
    records = old_record(RECORD_1_1_0)
    game, more = rv.goes_on_after_upgrade(records, Enin, 5, 2000)
    assert game.ended and game.rules_version == "1.1.0"
    assert "MagicItemFound" in [r.type for r in more]
    verdict = verify_records({}, records + more, ALL)
    assert verdict.ok and verdict.complete, verdict.report.problems


@pytest.mark.parametrize(("path", "version"), [(OLD_RECORD, "1.0.0"), (RECORD_1_1_0, "1.1.0")])
def test_without_its_version_a_record_is_not_loadable_and_not_a_failure(
        path: Path, version: str) -> None:
    verdict = rv.not_loadable_without(old_record(path), Enin)
    assert verdict.ok and verdict.not_loadable.startswith(f"recorded by rules enin v{version}")
