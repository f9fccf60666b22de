"""Ettin's rules versions (docs/rules-versions.md): rules "3" record no engine
progress (``BattleStep``, ``DraftOrderShortened``, ``InitiativeChoices``) and otherwise play exactly
as "2" did: the same seed and the same choices give the same legal lists, the
same rulebook facts and the same table. A stored "2" game goes on by its own
rules and re-verifies by ``EttinV2``."""

from __future__ import annotations

from typing import Any

import pytest

from aggregates.ettin import Ettin
from aggregates.ettin.v1 import EttinV2
from aggregates.kernel import event_type, payload_of
from aggregates.kernel.record.audit import audit
from tests import rules_versions as rv

#: What rules "2" recorded of the engine's progress, and "3" does not.
PROGRESS = frozenset({"BattleStep", "DraftOrderShortened", "InitiativeChoices"})


def facts(events: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    """The rulebook's facts, the draft's beginning aside (rules "3" state it
    once its Lineups are dealt, with the order they allow)."""
    return rv.facts(events, PROGRESS | {"DraftBegan"})


def play_both(players: int, seed: int) -> tuple[list[Any], list[Any], Any, Ettin]:
    """One random game of ``players`` seats played by both versions alike."""
    return rv.play_both(EttinV2, Ettin, [f"p{i}" for i in range(players)], seed)


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
    assert audit(new_events, Ettin).ok, audit(new_events, Ettin).problems
    assert audit(old_events, EttinV2).ok


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
