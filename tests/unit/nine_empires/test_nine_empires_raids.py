"""Raids (Romance of the Nine Empires rulebook, Raids: Flow of a Raid; Special
Keywords: Raid, Carry X): raids won and lost, against a defender or the Might."""

from __future__ import annotations

import pytest

from aggregates.kernel import RuleError
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import frequency
from aggregates.nine_empires.commands import AssignRaid, DeclareRaid, Pass, UseAbility
from aggregates.nine_empires.testing import Table, new_table, put_in_play, set_hand


def _to_autumn(table: Table) -> None:
    while table.phase == "summer":
        seat, _ = table.pending()[0]
        table.act(seat, Pass())


def _raid(stealth_raider: str, stealth_defender: str | None, raider: str = "young_mike",
          defender: str = "keshie") -> tuple[Table, str, str]:
    # Without Camp Defiance (whose text gives raiding heroes Carry 1).
    table = new_table(["displaced", "ord"], castles=[
        ["protected_farmland", "border_keep", "sanctuary"], ["wizards_tower", "sanctuary"]])
    r_card = set_hand(table, 0, [stealth_raider])[0]
    hand = [stealth_defender] if stealth_defender else ["bazaar"]
    d_card = set_hand(table, 1, hand)[0]
    hero = put_in_play(table, 0, raider)
    guard = put_in_play(table, 1, defender)
    _to_autumn(table)
    castle = t.castles(table, 1)[0]
    table.act(0, DeclareRaid(defender=1))
    table.act(0, AssignRaid(heroes=(hero,), castles=(castle,), stealth=(r_card,)))
    if stealth_defender:
        table.act(1, AssignRaid(heroes=(guard,), castles=(castle,), stealth=(d_card,)))
    else:
        table.act(1, AssignRaid())
    _finish(table)
    return table, hero, castle


def _finish(table: Table) -> None:
    """Both pass their raid actions (the Encampment's Raid ability unused)."""
    while table.conflict is not None:
        seat, kind = table.pending()[0]
        assert kind == "raid"
        table.act(seat, Pass())


def test_a_raid_won_against_the_castles_might_steals_food() -> None:
    # Fate 1 (Blight) + Raid +1 (Young Mike) = 2 > Might 1.
    table, hero, castle = _raid("blight", None)
    resolved = table.last("RaidResolved")
    assert resolved["against_might"] and resolved["success"] and resolved["stolen"] == 1
    assert t.food(table, castle) == t.storage(table, castle) - 1 and t.food(table, hero) == 1
    assert t.bowed(table, hero) and t.location(table, hero) == "home"


def test_a_raid_against_the_might_must_exceed_it() -> None:
    # Fate 0 (... Raid +1) = 1: not more than Might 1: the raid fails.
    table = new_table(["malchior", "ord"])
    stealth = set_hand(table, 0, ["at_your_command"])[0]
    set_hand(table, 1, ["bazaar"])
    hektor = put_in_play(table, 0, "hektor")          # no Raid bonus
    _to_autumn(table)
    castle = t.castles(table, 1)[0]
    table.act(0, DeclareRaid(defender=1))
    table.act(0, AssignRaid(heroes=(hektor,), castles=(castle,), stealth=(stealth,)))
    assert table.pending() != [(1, "assign_raid")]      # no unbowed hero: no defence
    resolved = table.last("RaidResolved")
    assert resolved["raider_total"] == 0 and not resolved["success"]
    assert resolved["stolen"] == 0 and t.food(table, hektor) == 0


def test_a_raid_lost_when_the_defender_is_equal_or_greater() -> None:
    # Raider: Blight 1 + Raid +1 = 2; defender: Keshie Raid +1 + Bazaar 1 = 2: fails.
    table, hero, castle = _raid("blight", "bazaar")
    resolved = table.last("RaidResolved")
    assert (resolved["raider_total"], resolved["against"]) == (2, 2)
    assert not resolved["success"] and t.food(table, hero) == 0
    guard = resolved["defending_hero"]
    assert not t.bowed(table, guard) and t.location(table, guard) == "home"
    assert resolved["defender_stealth"] in table.zones["discard:1"]


def test_carry_takes_more_food_up_to_what_is_there() -> None:
    # Siter'Ath Jones: Raid +2, Carry 1: 2 food from a castle holding 3.
    table, hero, castle = _raid("blight", None, raider="siterath_jones")
    assert table.last("RaidResolved")["stolen"] == 2 and t.food(table, hero) == 2


def test_stealth_cards_are_hidden_until_revealed() -> None:
    table = new_table(["displaced", "ord"])
    card = set_hand(table, 0, ["blight"])[0]
    set_hand(table, 1, ["bazaar"])
    hero = put_in_play(table, 0, "young_mike")
    _to_autumn(table)
    castle = t.castles(table, 1)[0]
    table.act(0, DeclareRaid(defender=1))
    with pytest.raises(RuleError):
        table.act(0, AssignRaid(heroes=(hero,), castles=(castle,), stealth=()))
    table.act(0, AssignRaid(heroes=(hero,), castles=(castle,), stealth=(card,)))
    assert table.instances[card]["zone"] == "stealth"


def test_caught_needs_a_defending_hero_in_the_raid() -> None:
    table = new_table(["displaced", "malchior"])
    stealth = set_hand(table, 0, ["blight"])[0]
    caught, spare = set_hand(table, 1, ["caught", "malchian_guard"])
    raider = put_in_play(table, 0, "young_mike")
    guard = put_in_play(table, 1, "beknine")
    _to_autumn(table)
    castle = t.castles(table, 1)[0]
    table.act(0, DeclareRaid(defender=1))
    table.act(0, AssignRaid(heroes=(raider,), castles=(castle,), stealth=(stealth,)))
    table.act(1, AssignRaid(heroes=(guard,), castles=(castle,), stealth=(spare,)))
    assert table.pending() == [(1, "raid")]
    table.act(1, UseAbility(source=caught, targets=(raider,)))
    assert frequency.stat(table, raider, "raid") == 0                 # Raid +1, -2: floored at 0
    _finish(table)
    resolved = table.last("RaidResolved")
    assert (resolved["raider_total"], resolved["against"]) == (1, 1)
    assert not resolved["success"]
