"""Rules versions of Titans (docs/rules-versions.md): 1.3.0 passes a turn's
Support step with nothing to draw (the deck, its discards and the row empty:
"Draw 1 Support Card" cannot be done) in the apply of the fact that enters it,
where 1.2.0 and before recorded it as ``SupportUnavailable``; 1.2.0 records the Secret
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
``data/record_1_2_0.jsonl.gz`` was recorded by the 1.2.0 code itself: a 3-seat
game through Round 1, stopped in Round 2's second turn. It must re-execute by
1.2.0 and go on to its end by 1.2.0 when the served class loads it.
Never regenerate them to make a test pass: they prove that games recorded before
a change survive it only because the old code wrote them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aggregates import catalog
from aggregates.kernel.record.audit import Record, records_of
from aggregates.kernel.record.verify import verify_records
from aggregates.titans import Titans, testing
from aggregates.titans.abilities import hand_limit
from aggregates.titans.commands import DiscardSupport, EndOrders
from aggregates.titans.state import EARLIER_SUPPORT_UNAVAILABLE
from aggregates.titans.v1 import TitansV1, TitansV1_1, TitansV1_2
from tests import rules_versions as rv
from tests.unit.titans.test_titans_battles import ATTACK

OLD_RECORD = Path(__file__).parent / "data" / "record_1_0_0.jsonl.gz"
RECORD_1_1_0 = Path(__file__).parent / "data" / "record_1_1_0.jsonl.gz"
RECORD_1_2_0 = Path(__file__).parent / "data" / "record_1_2_0.jsonl.gz"
BOTH = catalog.registry((TitansV1, TitansV1_1, TitansV1_2, Titans))
DRAFT_PACE = ("DraftPassed", "DraftEnded")
#: What rules 1.2.0 (and before) recorded of the engine's progress, and 1.3.0 does not.
UNAVAILABLE = frozenset({"SupportUnavailable"})


def old_record(path: Path = OLD_RECORD) -> list[Record]:
    return rv.stored_record(path)


def first_turns_recorded(types: list[str]) -> list[bool]:
    """For each Round, whether its first turn has a ``TurnBegan``: the event
    after the Upcoming Pool is drawn."""
    return [types[i + 1] == "TurnBegan" for i, t in enumerate(types) if t == "UpcomingPoolDrawn"]


def test_the_served_rules_record_every_rounds_first_turn_and_no_draft_pace() -> None:
    """A new game records the Starting Player's first turn of each Round, and its
    draft (Game Setup 7: keep 1, pass the rest right, three times) by the
    players' facts alone: each pick's passes and keeps, no pace of its own."""
    game = Titans.start(["p0", "p1"], {}, seed="5a" * 32)
    records = records_of(game.collect_events()) + rv.play_on(game, 5, 400)
    types = [r.type for r in records]
    assert records[0].payload["rules_version"] == "1.3.0"
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


def test_a_1_2_0_record_by_its_own_code_re_executes_by_1_2_0() -> None:
    records = old_record(RECORD_1_2_0)
    assert records[0].payload["rules_version"] == "1.2.0"
    verdict = verify_records({}, records, BOTH)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands > 50 and not verdict.not_loadable
    assert catalog.rules_class("titans", "1.2.0") is TitansV1_2
    game = rv.loaded(records, Titans)
    assert game.round == 2 and game.turn is not None
    assert game.earlier == {EARLIER_SUPPORT_UNAVAILABLE}


def test_a_1_2_0_game_goes_on_by_1_2_0_when_the_served_class_loads_it() -> None:
    records = old_record(RECORD_1_2_0)
    game, more = rv.goes_on_after_upgrade(records, Titans, 9, 1500)
    assert game.ended and game.rules_version == "1.2.0"
    verdict = verify_records({}, records + more, BOTH)
    assert verdict.ok and verdict.complete, verdict.report.problems


@pytest.mark.parametrize("version", ["1.0.0", "1.1.0", "1.2.0"])
def test_without_its_version_a_record_is_not_loadable_and_not_a_failure(version: str) -> None:
    path = {"1.0.0": OLD_RECORD, "1.1.0": RECORD_1_1_0, "1.2.0": RECORD_1_2_0}[version]
    verdict = rv.not_loadable_without(old_record(path), Titans)
    assert verdict.ok and verdict.not_loadable.startswith(f"recorded by rules titans v{version}")


@pytest.mark.parametrize(("players", "seed"), [(2, 4), (3, 11)])
def test_rules_1_3_0_play_as_1_2_0__rulebook_draw_1_support_card(players: int,
                                                                 seed: int) -> None:
    """The same seed and choices give the same waiting seats, legal lists, public
    views and screens after every command, the same facts and the same outcome;
    each record re-executes by its own version."""
    old_events, new_events, old, new = rv.play_both(
        TitansV1_2, Titans, [f"P{i}" for i in range(players)], seed)
    rv.check_played_alike(old_events, new_events, old, new, UNAVAILABLE, BOTH)
    assert new.rules_version == "1.3.0" and old.rules_version == "1.2.0"


def exhausted(rules: type[Titans], hand: int) -> Titans:
    """Round 1, Poland's turn on the 2-player map: no Support Card left to draw
    (the deck, its discards and the row empty), ``hand`` cards in Poland's hand."""
    game = testing.arranged(ATTACK, rules=rules)
    cards = game.support_deck + game.support_row + game.support_discard
    game.support_deck, game.support_row, game.support_discard = [], [], []
    game.hands[0] = cards[:hand]
    return game


def alike(old: Titans, new: Titans) -> list[str]:
    """Both versions' tables compared (waiting seats, each seat's legal list and
    view, the public view and screen); the event names 1.2.0 recorded since the
    last call, less ``SupportUnavailable``, which must be 1.3.0's."""
    assert new.waiting_on() == old.waiting_on()
    for seat in range(len(old.seats)):
        assert new.legal_actions(seat) == old.legal_actions(seat)
        assert new.view(seat) == old.view(seat)
    assert new.view(None) == old.view(None) and new.present(None) == old.present(None)
    old_names = [n for n, _p in testing.events(old)]
    new_names = [n for n, _p in testing.events(new)]
    assert "SupportUnavailable" not in new_names
    assert [n for n in old_names if n != "SupportUnavailable"] == new_names
    return old_names


def both(build: Any) -> tuple[Titans, Titans]:
    return build(TitansV1_2), build(Titans)


def test_orders_ended_with_nothing_to_draw_pass_the_support_step__rulebook_draw_1() -> None:
    """C) Draw 1 Support Card, with none left: 1.2.0 recorded the step passed,
    1.3.0's ``OrdersEnded`` passes it. A Clean-Up discard then refills the
    discard pile: the step stays passed (the turn goes on to its end)."""
    old, new = both(lambda rules: exhausted(rules, hand_limit(testing.new_game(), 0) + 1))
    for game in (old, new):
        testing.give_order(game, 1)
    alike(old, new)
    for game in (old, new):
        testing.play(game, 0, EndOrders())
    assert alike(old, new)[:2] == ["OrdersEnded", "SupportUnavailable"]
    assert new.pending()[0].kind == "discard_support" and new.turn is not None
    assert new.turn["support_drawn"] and not new.support_discard
    extra = (min(new.hands[0]),)
    for game in (old, new):
        testing.play(game, 0, DiscardSupport(cards=extra))
    assert alike(old, new) == ["SupportDiscarded"] and new.support_discard == list(extra)
    assert new.turn is not None and new.turn["seat"] == 0 and new.turn["support_drawn"]
    for game in (old, new):
        testing.finish_turn(game)  # the Titan onto a controlled region: no draw asked
    names = alike(old, new)
    assert "TurnEnded" in names and "SupportDrawn" not in names


def test_a_last_battle_with_nothing_to_draw_passes_the_support_step__rulebook_draw_1() -> None:
    """C) Draw 1 Support Card, "after resolving Battles": the loser of a tie draws
    nothing from the empty supply, and 1.3.0's ``BattleResolved`` passes the step."""
    old, new = both(lambda rules: exhausted(rules, 0))
    for game in (old, new):
        testing.attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    alike(old, new)
    for game in (old, new):
        testing.fight(game, [("infantry", 1), ("infantry", 1), ("cavalry", 0)],
                      [("infantry", 1), ("infantry", 1)])
    names = alike(old, new)
    resolved = names.index("BattleResolved")
    assert names[resolved + 1] == "SupportUnavailable" and "SupportDrawn" not in names
    assert new.turn is not None and new.turn["support_drawn"]
    assert new.pending()[0].kind == "deploy_titan"   # Clean-Up: no draw asked
    for game in (old, new):
        testing.finish_turn(game)
    assert "TurnEnded" in alike(old, new)
