"""Rules versions of Titans (docs/rules-versions.md): 1.2.0 records the Secret
Objective draft by the players' passes and keeps alone (Game Setup 7), where
1.1.0 and 1.0.0 also recorded its pace (``DraftPassed``, ``DraftEnded``); 1.1.0
records a ``TurnBegan`` for a Round's first turn, as for every other turn
("Managing the Order Cards": the Starting Player takes the first Turn in the
Round); 1.0.0 began it with the Order Pool drawn and recorded none.

``data/record_1_0_0.jsonl.gz`` was recorded by the release before 1.1.0 (its
own code, not this one's ``TitansV1``): a 2-seat game through Round 1 into
Round 2, stopped in Round 2's second turn. It must fold, re-execute by 1.0.0,
and go on to its end by 1.0.0 even when the served class loads it (as the
server loads a stored game, by its events' topic), still auditing clean.
``data/record_1_1_0.jsonl.gz`` was recorded by the 1.1.0 code itself: a 3-seat
game stopped in the draft's second pick (one player has kept). It must
re-execute by 1.1.0 and go on by 1.1.0 (its ``DraftPassed`` and ``DraftEnded``)
when the served class loads it.
Never regenerate them to make a test pass: they prove that games recorded before
a change survive it only because the old code wrote them.
"""

from __future__ import annotations

from pathlib import Path

from aggregates import catalog
from aggregates.kernel.record.audit import Record, records_of
from aggregates.kernel.record.verify import verify_records
from aggregates.titans import Titans
from aggregates.titans.v1 import TitansV1, TitansV1_1
from tests import rules_versions as rv

OLD_RECORD = Path(__file__).parent / "data" / "record_1_0_0.jsonl.gz"
RECORD_1_1_0 = Path(__file__).parent / "data" / "record_1_1_0.jsonl.gz"
BOTH = catalog.registry((TitansV1, TitansV1_1, Titans))
DRAFT_PACE = ("DraftPassed", "DraftEnded")


def old_record(path: Path = OLD_RECORD) -> list[Record]:
    return rv.stored_record(path)


def first_turns_recorded(types: list[str]) -> list[bool]:
    """For each Round, whether its first turn has a ``TurnBegan``: the event
    after the Upcoming Pool is drawn."""
    return [types[i + 1] == "TurnBegan" for i, t in enumerate(types) if t == "UpcomingPoolDrawn"]


def test_rules_1_2_0_record_every_rounds_first_turn_and_no_draft_pace() -> None:
    """A new game records the Starting Player's first turn of each Round, and its
    draft (Game Setup 7: keep 1, pass the rest right, three times) by the
    players' facts alone: each pick's passes and keeps, no pace of its own."""
    game = Titans.start(["p0", "p1"], {}, seed="5a" * 32)
    records = records_of(game.collect_events()) + rv.play_on(game, 5, 400)
    types = [r.type for r in records]
    assert records[0].payload["rules_version"] == "1.2.0"
    assert first_turns_recorded(types) == [True, True, True]   # three Rounds
    assert not set(DRAFT_PACE) & set(types)
    drafted = types[:types.index("OrderDeckShuffled")]
    assert drafted.count("ObjectiveKept") == 3 * 2 and drafted.count("ObjectivesPassed") == 2 * 2
    keepers = [r.payload["seat"] for r in records[:len(drafted)] if r.type == "ObjectiveKept"]
    assert keepers.count(0) == keepers.count(1) == 3               # each keeps 3 in all
    began = [r.payload["seat"] for r in records if r.type == "TurnBegan"]
    ended = [r.payload["seat"] for r in records if r.type == "TurnEnded"]
    assert began == ended                  # every turn begins and ends on the record
    assert verify_records({}, records, BOTH).ok


def test_a_1_0_0_record_by_the_old_code_replays_and_re_executes_by_1_0_0() -> None:
    records = old_record()
    types = [r.type for r in records]
    assert records[0].payload["rules_version"] == "1.0.0"
    assert first_turns_recorded(types) == [False, False]      # as 1.0.0 recorded them
    verdict = verify_records({}, records, BOTH)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands > 50 and not verdict.not_loadable
    assert catalog.rules_class("titans", "1.0.0") is TitansV1
    game = rv.loaded(records, Titans)
    assert game.round == 2 and game.turn is not None and game.turn["seat"] == game.current


def test_a_1_0_0_game_goes_on_by_1_0_0_when_the_served_class_loads_it() -> None:
    """After an upgrade the stored game is loaded by the served class: it plays
    its next Round by 1.0.0 (no first ``TurnBegan``) and audits clean by 1.0.0."""
    records = old_record()
    game, more = rv.goes_on_after_upgrade(records, Titans, 7, 600)
    assert game.ended
    whole = records + more
    assert first_turns_recorded([r.type for r in whole]) == [False, False, False]
    verdict = verify_records({}, whole, BOTH)
    assert verdict.ok and verdict.complete, verdict.report.problems


def test_without_1_0_0_the_record_is_not_loadable_and_not_a_failure() -> None:
    verdict = rv.not_loadable_without(old_record(), Titans)
    assert verdict.ok and verdict.not_loadable.startswith("recorded by rules titans v1.0.0")


def test_a_1_1_0_record_by_its_own_code_re_executes_by_1_1_0() -> None:
    records = old_record(RECORD_1_1_0)
    types = [r.type for r in records]
    assert records[0].payload["rules_version"] == "1.1.0"
    assert types.count("DraftPassed") == 1                    # as 1.1.0 recorded it
    verdict = verify_records({}, records, BOTH)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands > 5 and not verdict.not_loadable
    assert catalog.rules_class("titans", "1.1.0") is TitansV1_1
    game = rv.loaded(records, Titans)
    assert game.draft is not None and game.draft["pick"] == 2 and len(game.draft["kept"]) == 1


def test_a_1_1_0_game_goes_on_by_1_1_0_when_the_served_class_loads_it() -> None:
    """Loaded by the served class, the stored 1.1.0 game finishes its draft by
    1.1.0 (a ``DraftPassed`` for its last pick, then ``DraftEnded``) and audits
    clean by 1.1.0."""
    records = old_record(RECORD_1_1_0)
    game, more = rv.goes_on_after_upgrade(records, Titans, 3, 120)
    types = [r.type for r in more]
    assert types.count("DraftPassed") == 1 and types.count("DraftEnded") == 1
    ended = next(r for r in more if r.type == "DraftEnded")
    assert game.draft is None and ended.payload["kept"] == [3, 3, 3]
    verdict = verify_records({}, records + more, BOTH)
    assert verdict.ok, verdict.report.problems
