"""Ettin's rules versions (docs/rules-versions.md): rules "3" record no engine
progress (``BattleStep``, ``DraftOrderShortened``, ``InitiativeChoices``) and otherwise play exactly
as "2" did: the same seed and the same choices give the same legal lists, the
same rulebook facts and the same table. Rules "4" record no step of the War
being entered nor a turn moving on (``TURNS``), and otherwise play exactly as
"3" did, command by command. A stored "2" game goes on by its own rules and
re-verifies by ``EttinV2``.

``data/record_3.jsonl.gz`` was recorded by the rules "3" code itself (before
rules "4"): a 4-seat game stopped in Age II's Spoils. It must re-execute by
"3", and loaded by the served class go on to its end by "3" (its
``SpoilsPassed``, ``AdventureDefenseBegan``... recorded) and still verify.
Never regenerate it to make a test pass: it proves that games recorded before
the change survive it only because the old code wrote them."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from aggregates import catalog
from aggregates.ettin import Ettin
from aggregates.ettin.commands import EndSpoils
from aggregates.ettin.v1 import EttinV1, EttinV2, EttinV3
from aggregates.kernel import event_type, payload_of
from aggregates.kernel.record.audit import audit, records_of
from aggregates.kernel.record.verify import verify_records
from tests import rules_versions as rv

#: What rules "2" recorded of the engine's progress, and "3" does not.
PROGRESS = frozenset({"BattleStep", "DraftOrderShortened", "InitiativeChoices"})
#: What rules "3" recorded of the War's steps and turns, and "4" does not
#: (``SpoilsPassed`` only when a taker chooses to stop: ``EndSpoils``).
TURNS = frozenset({"DraftPassed", "DeployBegan", "DeployPassed", "SpoilsBegan", "SpoilsPassed",
                   "AdventureDefenseBegan", "RetireBegan", "ProduceBegan"})
RECORD_3 = Path(__file__).parent / "data" / "record_3.jsonl.gz"
EVERY = catalog.registry((EttinV1, EttinV2, EttinV3, Ettin))


def facts(events: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    """The rulebook's facts, the draft's beginning aside (rules "3" state it
    once its Lineups are dealt, with the order they allow)."""
    return rv.facts(events, PROGRESS | {"DraftBegan"})


def play_both(players: int, seed: int) -> tuple[list[Any], list[Any], Any, Any]:
    """One random game of ``players`` seats played by rules "2" and "3" alike."""
    return rv.play_both(EttinV2, EttinV3, [f"p{i}" for i in range(players)], seed)


@pytest.mark.parametrize(("players", "seed"), [(2, 31), (4, 33), (5, 37), (16, 35)])
def test_rules_3_play_as_rules_2_without_the_engine_progress__rulebook_War(
        players: int, seed: int) -> None:
    """Phase 3: War (start-of-battle abilities, the Adventure) and Phase 2's Empty
    Decks decide the same by both versions; only "2" records its progress."""
    old_events, new_events, old, new = play_both(players, seed)
    assert new.ended and new.outcome == old.outcome
    assert payload_of(new_events[0])["setup"] == payload_of(old_events[0])["setup"]
    assert facts(new_events) == facts(old_events)
    assert {event_type(e) for e in new_events} & PROGRESS == set()
    assert {event_type(e) for e in old_events} >= {"BattleStep", "InitiativeChoices"}
    assert new.view(None) == old.view(None)
    assert new.rules_version == "3" and old.rules_version == "2"
    assert audit(new_events, EttinV3).ok, audit(new_events, EttinV3).problems
    assert audit(old_events, EttinV2).ok


def without_turns(events: Sequence[Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(event_type(e), payload_of(e)) for e in events if event_type(e) not in TURNS]


#: Rules "4"'s notes of a fact in a step's work: the Adventure attempted (the
#: battles end after it), the paying Produce abilities paid.
NOTES = ("attempted", "paid")


def comparable(game: Ettin) -> tuple[Any, ...]:
    """What a game's rules read, but rules "4"'s ``NOTES``."""
    work = {k: v for k, v in game.work.items() if k not in NOTES}
    if "pairs" in work:
        work["pairs"] = [{k: v for k, v in w.items() if k not in NOTES} for w in work["pairs"]]
    return (game.phase, game.step, work, game.zones, game.gold, game.tokens,
            game.initiative, game.sieges)


@pytest.mark.parametrize(("players", "seed"), [(2, 41), (3, 43), (4, 47), (6, 45), (16, 49)])
def test_rules_4_play_as_rules_3_without_the_turns__rulebook_War(players: int,
                                                                  seed: int) -> None:
    """Every command of one random game decides the same by "3" and "4": the
    same seats waited on and legal lists, the same facts less the War's steps
    and turns, the same table, rules and public view after it; "4" records a
    ``SpoilsPassed`` only for a taker who stops taking Spoils, as "3" did first."""
    rng = random.Random(seed)
    seats = [f"p{i}" for i in range(players)]
    old, new = EttinV3.start(seats, seed=f"{seed:064x}"), Ettin.start(seats, seed=f"{seed:064x}")
    old_events, new_events = list(old.collect_events()), list(new.collect_events())
    kinds_3: set[str] = set()
    while not old.ended:
        assert new.waiting_on() == old.waiting_on()
        seat = rv.seat_to_play(rng, old)
        legal = old.legal_actions(seat)
        assert new.legal_actions(seat) == legal
        command = rng.choice(legal)
        old.act(seat, command)
        new.act(seat, command)
        before, after = old.collect_events(), new.collect_events()
        kinds_3 |= {event_type(e) for e in before}
        assert without_turns(after) == without_turns(before)
        chosen = [payload_of(e) for e in after if event_type(e) == "SpoilsPassed"]
        assert chosen == ([payload_of(before[0])] if isinstance(command, EndSpoils) else [])
        assert comparable(new) == comparable(old)
        assert new.view(None) == old.view(None) and new.present(None) == old.present(None)
        old_events += before
        new_events += after
    assert new.ended and new.outcome == old.outcome
    assert {event_type(e) for e in new_events} & (TURNS - {"SpoilsPassed"}) == set()
    assert kinds_3 >= {"DraftPassed", "DeployBegan", "DeployPassed", "SpoilsBegan",
                       "RetireBegan", "ProduceBegan"}
    for events in (new_events, old_events):
        verdict = verify_records({}, records_of(events), EVERY)
        assert verdict.ok, verdict.report.problems


def test_a_rules_3_record_by_its_own_code_re_executes_by_3() -> None:
    records = rv.stored_record(RECORD_3)
    assert records[0].payload["rules_version"] == "3"
    assert {r.type for r in records} >= {"DeployPassed", "SpoilsBegan", "SpoilsPassed",
                                         "RetireBegan", "ProduceBegan", "DraftPassed"}
    verdict = verify_records({}, records, EVERY)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands > 100 and not verdict.not_loadable
    assert catalog.rules_class("ettin", "3") is EttinV3
    game = rv.loaded(records, Ettin)
    assert game.age == 2 and game.phase == "spoils" and game.pending()


def test_a_rules_3_game_goes_on_by_3_when_the_served_class_loads_it() -> None:
    """After an upgrade the stored game is loaded by the served class: it plays
    on to its end by "3" (its War's steps and turns recorded) and verifies clean."""
    records = rv.stored_record(RECORD_3)
    game, more = rv.goes_on_after_upgrade(records, Ettin, 5, 3000)
    assert game.ended
    kinds = {r.type for r in more}
    assert kinds >= {"SpoilsPassed", "RetireBegan", "ProduceBegan", "DeployBegan",
                     "DeployPassed", "DraftPassed"}
    verdict = verify_records({}, records + more, EVERY)
    assert verdict.ok and verdict.complete, verdict.report.problems


def test_without_3_the_record_is_not_loadable_and_not_a_failure() -> None:
    verdict = rv.not_loadable_without(rv.stored_record(RECORD_3), Ettin)
    assert verdict.ok and verdict.not_loadable.startswith("recorded by rules ettin v3")


def short_skirmish(cls: type[Ettin]) -> tuple[Ettin, list[Any]]:
    """Age I's first Skirmish from a mercenary deck of three cards (Empty Decks)."""
    from aggregates.ettin import ages
    from aggregates.ettin import zones as zn

    g = cls.start(["a", "b"], seed="c" * 64)
    deck = zn.merc(0, 1)
    g.zones[zn.LOST] += g.zones[deck][3:]
    g.zones[deck] = g.zones[deck][:3]
    g.age = 1
    g.collect_events()
    ages.open_draft(g, 0)
    return g, list(g.collect_events())


def test_a_short_lineup_states_its_order_once__rulebook_Empty_Decks() -> None:
    """Empty Decks: three mercenaries make a Lineup of three picks (the Initiative
    holder's fourth is paid in gold). Rules "3" state the order once the Lineup
    is dealt; "2" stated four picks, then shortened them."""
    new, new_events = short_skirmish(Ettin)
    old, old_events = short_skirmish(EttinV2)
    first = new.initiative[0]
    other = 1 - first
    kinds = [event_type(e) for e in new_events]
    assert kinds == ["SkirmishLineupDealt", "EmptyDecksGold", "DraftBegan"]
    assert payload_of(new_events[-1])["lineups"][0]["order"] == [first, other, other]
    assert [event_type(e) for e in old_events] == [
        "DraftBegan", "SkirmishLineupDealt", "EmptyDecksGold", "DraftOrderShortened"]
    assert payload_of(old_events[0])["lineups"][0]["order"] == [first, other, other, first]
    assert new.work == old.work and new.zones == old.zones and new.gold == old.gold


def empty_third_draft(cls: type[Ettin]) -> tuple[Ettin, list[Any]]:
    """Age III's third draft (a Skirmish) from an empty mercenary deck, nothing
    drafted before it: the flow settles from the second draft's end."""
    from aggregates.ettin import zones as zn

    g = cls.start(["a", "b"], seed="d" * 64)
    deck = zn.merc(0, 3)
    g.zones[zn.LOST] += g.zones[deck]
    g.zones[deck] = []
    g.zones[zn.camp(0)] = g.zones[zn.deck(0)][:2]
    g.zones[zn.deck(0)] = g.zones[zn.deck(0)][2:]
    g.age, g.step, g.phase = 3, 1, "draft"
    g.work = {"kind": "peacetime", "groups": [
        {"members": [0], "order": [], "lineup": zn.lineup(0), "at": 0},
        {"members": [1], "order": [], "lineup": zn.lineup(1), "at": 0}]}
    g.collect_events()
    g.FLOW.settle(g)
    return g, list(g.collect_events())


def test_a_draft_dealt_only_gold_goes_on_to_the_deploy__rulebook_Empty_Decks() -> None:
    """Empty Decks: a Skirmish Lineup with no mercenary to deal pays each pick in
    gold, and nothing is drafted. Rules "4" enter the Deploy with the draft's
    ``DraftBegan`` (its facts close it at once); "3" recorded ``DeployBegan``."""
    new, new_events = empty_third_draft(Ettin)
    old, old_events = empty_third_draft(EttinV3)
    assert [event_type(e) for e in new_events] == ["EmptyDecksGold"] * 4 + ["DraftBegan"]
    assert [event_type(e) for e in old_events] == ["EmptyDecksGold"] * 4 + [
        "DraftBegan", "DeployBegan"]
    assert new.phase == old.phase == "deploy" and new.work == old.work
    assert new.waiting_on() == old.waiting_on() == [new.initiative[0]]



def adventure_won_with_nothing_to_spoil(cls: type[Ettin]) -> tuple[Ettin, int]:
    """Age I, 2 players: the only battle is the Adventure, won by position 0
    (three adventurers against none) on the Goblin Trading Post, an Adventure
    that becomes a Defense; the Enemy's Nation Deck is empty, so the Spoil it
    owes has nothing to take. The flow settles from the battles."""
    from aggregates.ettin import zones as zn
    from aggregates.ettin.data import COMPONENTS as C
    from aggregates.ettin.testing import card, put

    g = cls.start(["a", "b"], seed="a" * 64, options={"nations": ["giants", "dwarves"]})
    g.age = 1
    for zone in g.zones:
        if zone.startswith(("field:", "loc:")):
            g.zones[zone] = []
    put(g, zn.adventure(0), ["Goblin Trading Post"])
    adventurers = sorted((u.id for u in C.units.values()
                          if u.troop and u.adventure >= 3 and not u.abilities),
                         key=lambda c: -C.units[c].adventure)[:3]
    for cards in g.zones.values():
        cards[:] = [c for c in cards if c not in adventurers]
    g.zones[zn.field(0, zn.ADVENTURE)] = adventurers
    g.zones[zn.nation_deck(g, 1)] = []
    g.phase, g.flipped, g.results = "battle", True, [[]]
    g.work = {"pairs": [{"b": zn.BATTLE_ORDER.index(zn.ADVENTURE), "queue": None,
                         "chosen": [], "lose": -1}]}
    g.collect_events()
    g.FLOW.settle(g)
    return g, card("Goblin Trading Post")


def test_a_defense_won_on_the_last_adventure_is_placed__rulebook_Adventure_Defense() -> None:
    """Adventure Defense: "After you take Spoils, you may place a Defense card you
    may have earned from the Adventure." A completed Adventure's card is set
    aside by the last fact of its attempt (``AdventureCompleted``): rules "4"
    leave the battles only then, or, with no Spoil to take anywhere, they would
    pass the Adventure Defense by before the Defense is won."""
    from aggregates.ettin import zones as zn

    for cls in (EttinV3, Ettin):
        g, post = adventure_won_with_nothing_to_spoil(cls)
        assert g.phase == "adventure_defense", cls.RULES_VERSION
        assert g.zones[zn.won(0)] == [post] and g.due(0) == "place", cls.RULES_VERSION
