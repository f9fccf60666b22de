"""Reacts (Romance of the Nine Empires rulebook, More on Using Abilities:
Timing; Targeting and Legality): a React to a React, precedence, presence."""

from __future__ import annotations

from aggregates.nine_empires import cards as t
from aggregates.nine_empires.commands import Absorb, Engage, Pass, UseAbility
from aggregates.nine_empires.testing import new_table, put_in_play, set_hand, start_battle


def test_a_react_to_a_react_thwart_cancels_blight() -> None:
    # Displaced attacks Holden; Holden's Blight answers the engagement, and the
    # Displaced Thwart answers the Blight: a window pushed over a window.
    table = new_table(["displaced", "holden"])
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
    # Thwart resolved first (the top of the stack) and cancelled the Blight.
    cancelled = table.last("AbilityCancelled")
    assert cancelled["source"] == blight
    resolved = table.named("AbilityResolved")
    assert [r["key"] for r in resolved] == ["thwart", "blight"]
    assert resolved[1]["cancelled"]
    assert not table.named("DamageReduced")
    assert table.stack[-1]["damage"] == 3 and table.pending() == [(1, "absorb")]
    table.act(1, Absorb(card=coeli))
    assert coeli in table.zones["buried:1"]


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
    assert t.stat(table, beknine, "S") == 3                    # no +2S
    assert table.named("AbilityResolved")[-1]["cancelled"]
    assert command in table.zones["discard:0"]                  # the tactic is spent anyway
