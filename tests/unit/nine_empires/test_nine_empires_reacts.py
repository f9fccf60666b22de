"""Reacts (Romance of the Nine Empires rulebook, More on Using Abilities:
Timing; Targeting and Legality): a React to a React, precedence, presence."""

from __future__ import annotations

from aggregates.nine_empires import cards as t
from aggregates.nine_empires import frequency
from aggregates.nine_empires.commands import Absorb, Engage, Pass, UseAbility
from aggregates.nine_empires.state import EARLIER_BY_VERSION
from aggregates.nine_empires.testing import (
    Table,
    new_table,
    put_in_play,
    set_hand,
    start_battle,
)


def _thwart_on_blight(earlier: frozenset[str] = frozenset()) -> tuple[Table, str, str]:
    """Displaced attacks Holden; Holden's Blight answers the engagement, and the
    Displaced Thwart answers the Blight: a window pushed over a window. The
    table, the Blight and the defending Coeli Quando."""
    table = new_table(["displaced", "holden"])
    table.EARLIER = earlier
    thwart, spice = set_hand(table, 0, ["thwart", "spice_mine"])
    blight, library = set_hand(table, 1, ["blight", "library"])
    jerrin = put_in_play(table, 0, "jerrin_strongblade")        # 3S
    coeli = put_in_play(table, 1, "coeli_quando")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {jerrin: castle}, {coeli: castle}, castle)
    table.act(1, Pass())
    table.act(0, Engage(cards=(jerrin,)))
    assert table.pending() == [(1, "react")]                    # the defender first
    table.act(1, UseAbility(source=blight, discard=(library,)))
    assert [f["what"] for f in table.stack] == ["engagement", "ability"]
    assert [f["kind"] for f in table.frames][-2:] == ["window", "window"]
    assert table.pending() == [(0, "react")]
    food_castle = t.castles(table, 0)[0]
    table.act(0, UseAbility(source=thwart, food_from=(food_castle,)))
    assert table.last("ReactPlayed")["key"] == "thwart"
    return table, blight, coeli


def test_a_react_to_a_react_thwart_cancels_blight() -> None:
    table, blight, coeli = _thwart_on_blight()
    # Nobody can answer the Thwart: its window closes with it, and Thwart
    # resolves first (the top of the stack), cancelling the Blight. By rules
    # 1.7.0 the Blight's window is then asked again from its precedence: Mark can
    # no longer React to a cancelled Blight (passed over, forced), so it closes
    # and the Blight is spent without effect; the engagement's window is asked
    # again too, and Shawn, with nothing left to React with, is passed over.
    cancelled = table.last("AbilityCancelled")
    assert cancelled["source"] == blight and cancelled["frame"] == 1
    names = [n for n, _ in table.events]
    assert names[names.index("AbilityCancelled"):] == ["AbilityCancelled", "ReactPassed",
                                                      "ReactPassed"]
    assert [(p["seat"], p["source"], p["forced"]) for p in table.named("ReactPassed")] == \
        [(0, blight, True), (1, "", True)]
    assert [f["what"] for f in table.stack] == ["engagement"]
    assert not table.named("DamageReduced") and not table.named("AbilityResolved")
    assert table.stack[-1]["damage"] == 3 and table.pending() == [(1, "absorb")]
    table.act(1, Absorb(card=coeli))
    assert coeli in table.zones["buried:1"]


def test_rules_1_6_0_closed_both_windows_with_the_thwart() -> None:
    """The earlier rules, kept for the games they recorded: each seat of a
    window was asked once, so the Thwart, the Blight's last answer, closed the
    Blight's window with its own, and the Blight's own React was the
    engagement's last answer: all three closed with the ``ReactPlayed``."""
    table, blight, coeli = _thwart_on_blight(EARLIER_BY_VERSION["1.6.0"])
    cancelled = table.last("AbilityCancelled")
    assert cancelled["source"] == blight and cancelled["frame"] == 1
    assert table.events[-1][0] == "AbilityCancelled"
    assert [f["what"] for f in table.stack] == ["engagement"]
    assert not table.named("DamageReduced") and not table.named("AbilityResolved")
    assert table.stack[-1]["damage"] == 3 and table.pending() == [(1, "absorb")]
    table.act(1, Absorb(card=coeli))
    assert coeli in table.zones["buried:1"]


def test_rules_1_5_0_recorded_each_ability_resolved() -> None:
    """The earlier rules, kept for the games they recorded: each ability was
    recorded resolved after its effects (``AbilityResolved``), the Thwart's
    first, then the cancelled Blight's, each closing its window."""
    table, blight, coeli = _thwart_on_blight(EARLIER_BY_VERSION["1.5.0"])
    names = [n for n, _ in table.events]
    at = names.index("AbilityCancelled")
    assert names[at:] == ["AbilityCancelled", "AbilityResolved", "AbilityResolved"]
    resolved = table.named("AbilityResolved")
    assert [r["key"] for r in resolved] == ["thwart", "blight"]
    assert resolved[1]["cancelled"] and not resolved[0]["cancelled"]
    assert table.stack[-1]["damage"] == 3 and table.pending() == [(1, "absorb")]


def test_precedence_outside_a_battle_goes_to_the_ordained() -> None:
    from aggregates.nine_empires import abilities

    table = new_table(["holden", "displaced", "ixhasa"], ordained=2)
    assert abilities.window_order(table) == [2, 0, 1]


def test_a_react_in_battle_needs_a_hero_there() -> None:
    # Shawn's Blight with no hero at the battle: he is never asked.
    table = new_table(["malchior", "holden"])
    set_hand(table, 0, ["zahir"])
    set_hand(table, 1, ["blight", "library"])
    beknine = put_in_play(table, 0, "beknine")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {beknine: castle}, {}, castle)
    table.act(0, Engage(cards=(beknine,)))
    assert table.pending() == [(1, "absorb")]


def test_training_grounds_unbowed_lowers_damage_by_one() -> None:
    table = new_table(["malchior", "holden"])
    set_hand(table, 0, ["zahir"])
    set_hand(table, 1, ["library"])
    grounds = put_in_play(table, 1, "training_grounds")
    beknine = put_in_play(table, 0, "beknine")
    coeli = put_in_play(table, 1, "coeli_quando")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {beknine: castle}, {coeli: castle}, castle)
    table.act(1, Pass())
    table.act(0, Engage(cards=(beknine,)))
    table.act(1, UseAbility(source=grounds))
    assert table.last("DamageReduced") ["damage"] == 2 and t.bowed(table, grounds)
    # Once per turn: the Training Grounds is bowed and spent.
    assert not [c for c in table.legal(1) if isinstance(c, UseAbility)]


def test_tactical_acumen_cancels_a_battle_ability() -> None:
    table = new_table(["malchior", "holden"])
    command = set_hand(table, 0, ["at_your_command"])[0]
    acumen = set_hand(table, 1, ["tactical_acumen"])[0]
    beknine = put_in_play(table, 0, "beknine")
    coeli = put_in_play(table, 1, "coeli_quando")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {beknine: castle}, {coeli: castle}, castle)
    table.act(1, Pass())
    table.act(0, UseAbility(source=command, targets=(beknine,)))
    assert table.pending() == [(1, "react")]
    strong = t.stronghold(table, 1)
    table.act(1, UseAbility(source=acumen, gold_from=(strong,)))
    assert frequency.stat(table, beknine, "S") == 3                    # no +2S
    assert table.last("AbilityCancelled")["source"] == command and not table.stack
    assert command in table.zones["discard:0"]                  # the tactic is spent anyway


def test_negotiation_reducing_the_damage_to_nothing_ends_the_engagement() -> None:
    """Engaging and Damage: the damage is absorbed "until all damage is
    absorbed"; Negotiation takes the whole 2 away, so nothing is left to absorb
    and the engagement is over once its window closes (rules 1.6.0 and after
    record no ``EngagementResolved``; 1.7.0 asks the window again after the React,
    and Shawn, with no React left, is passed over): the battle's actions go on."""
    table = new_table(["ord", "holden"])
    set_hand(table, 0, ["bazaar"])
    negotiation = set_hand(table, 1, ["negotiation"])[0]
    keshie = put_in_play(table, 0, "keshie")            # 2S
    coeli = put_in_play(table, 1, "coeli_quando")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {keshie: castle}, {coeli: castle}, castle)
    table.act(1, Pass())
    table.act(0, Engage(cards=(keshie,)))
    assert table.pending() == [(1, "react")]
    react = next(c for c in table.legal(1)
                 if isinstance(c, UseAbility) and c.source == negotiation)
    table.act(1, react)
    assert table.last("DamageReduced") == {"source": negotiation, "seat": 1, "engagement": 0,
                                           "amount": 2, "damage": 0}
    # Rules 1.7.0: the engagement's window goes on after the React, and Shawn,
    # with no React left, is passed over (forced): nothing is left to absorb.
    assert table.events[-1] == ("ReactPassed", {"seat": 1, "source": "", "forced": True})
    assert not table.stack
    assert table.pending() == [(1, "battle")] and t.in_play(table, coeli)
