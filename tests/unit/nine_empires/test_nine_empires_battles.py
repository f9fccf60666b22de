"""Battles (Romance of the Nine Empires rulebook, Battles: Flow of a Battle;
Engaging and Damage; Burying a Hero with Attached Cards), including the
damage absorption example figure."""

from __future__ import annotations

import pytest

from aggregates.kernel import RuleError
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import frequency, turn_order
from aggregates.nine_empires.commands import (
    Absorb,
    ChooseAlly,
    DeclareImmune,
    Engage,
    Pass,
    ReturnHome,
    UseAbility,
)
from aggregates.nine_empires.testing import (
    in_play,
    make_tokens,
    new_table,
    put_in_play,
    set_hand,
    start_battle,
    storm_castle,
)

#: Hands with no React in them, per deck.
QUIET = {"displaced": ["spice_mine"], "ixhasa": ["the_oracles_answer"]}


def _castle(table, seat, key):  # type: ignore[no-untyped-def]
    return in_play(table, seat, key)


def test_absorption_example_first_zombie_tokens_absorb_and_leave_the_game() -> None:
    # "Skeeter" Malloy engages for 3; 3 Zombie tokens absorb the damage.
    table = new_table(["displaced", "ixhasa"])
    set_hand(table, 0, QUIET["displaced"])
    set_hand(table, 1, QUIET["ixhasa"])
    skeeter = put_in_play(table, 0, "skeeter_malloy")
    nomhopet = put_in_play(table, 1, "nomhopet")
    zombies = make_tokens(table, 1, "zombie", nomhopet, 3)
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {skeeter: castle}, {nomhopet: castle}, castle)
    table.act(1, Pass())
    table.act(0, Engage(cards=(skeeter,)))
    assert table.last("Engaged")["damage"] == 3
    for z in zombies:
        table.act(1, Absorb(card=z))
    assert [p["absorbed"] for p in table.named("DamageAbsorbed")] == [1, 1, 1]
    assert all(table.instances[z]["zone"] == "" for z in zombies)   # removed from the game
    assert t.in_play(table, nomhopet)


def test_absorption_example_second_food_then_the_castle_saves_skeeter() -> None:
    # Nomhopet's unit engages for 4: 1 food and the castle absorb; the battle
    # ends and "Skeeter" is saved from being buried.
    table = new_table(["ixhasa", "displaced"])
    set_hand(table, 0, QUIET["ixhasa"])
    set_hand(table, 1, QUIET["displaced"])
    nomhopet = put_in_play(table, 0, "nomhopet")
    zombies = make_tokens(table, 0, "zombie", nomhopet, 2)
    skeeter = put_in_play(table, 1, "skeeter_malloy")
    castle = t.castles(table, 1)[0]
    table.instances[castle]["food"] = 1
    start_battle(table, 0, 1, {nomhopet: castle}, {skeeter: castle}, castle)
    table.act(1, Pass())
    table.act(0, Engage(cards=(nomhopet, *zombies)))
    assert table.last("Engaged")["damage"] == 4
    assert {c.card for c in table.legal(1) if isinstance(c, Absorb)} >= {f"food:{castle}",
                                                                         skeeter}
    table.act(1, Absorb(card=f"food:{castle}"))
    assert castle in [c.card for c in table.legal(1) if isinstance(c, Absorb)]  # no food
    table.act(1, Absorb(card=castle))
    assert table.last("DamageAbsorbed")["absorbed"] == 3
    assert castle in table.zones["buried:1"]
    assert t.in_play(table, skeeter) and not t.bowed(table, skeeter)
    assert t.location(table, skeeter) == "home"
    assert t.bowed(table, nomhopet) and t.location(table, nomhopet) == "home"


def test_absorption_example_third_a_hero_and_a_discarded_cards_fate() -> None:
    # Colonel Baker engages for 5; Nomhopet absorbs 2 and is buried, and the
    # player discards a card (Fate 3) to absorb the other 3.
    table = new_table(["displaced", "ixhasa"])
    set_hand(table, 0, QUIET["displaced"])
    oracle = set_hand(table, 1, QUIET["ixhasa"])[0]
    baker = put_in_play(table, 0, "colonel_baker")
    nomhopet = put_in_play(table, 1, "nomhopet")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {baker: castle}, {nomhopet: castle}, castle)
    table.act(1, Pass())
    table.act(0, Engage(cards=(baker,)))
    assert table.last("Engaged")["damage"] == 5
    table.act(1, Absorb(card=nomhopet, discard=oracle))
    absorbed = table.last("DamageAbsorbed")
    assert (absorbed["absorbed"], absorbed["fate"], absorbed["remaining"]) == (5, 3, 0)
    assert nomhopet in table.zones["buried:1"] and oracle in table.zones["discard:1"]
    assert t.food(table, castle) == t.storage(table, castle)   # nothing more to absorb


def test_the_attacker_declares_immunity_against_the_defenders_engagement() -> None:
    table = new_table(["malchior", "ord"])
    set_hand(table, 0, ["beknine"])
    set_hand(table, 1, ["bazaar"])
    beknine = put_in_play(table, 0, "beknine")        # 3S
    zahir = put_in_play(table, 0, "zahir")            # 0S
    keshie = put_in_play(table, 1, "keshie")          # 2S
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {beknine: castle, zahir: castle}, {keshie: castle}, castle)
    table.act(1, Engage(cards=(keshie,)))
    assert table.pending() == [(0, "immunity")]
    with pytest.raises(RuleError):
        table.act(0, DeclareImmune(cards=(zahir,)))   # 0S is not greater than 2
    table.act(0, DeclareImmune(cards=(beknine,)))
    # Beknine is immune: Zahir, not immune, must absorb; the rest is lost.
    assert {c.card for c in table.legal(0) if isinstance(c, Absorb)} == {beknine, zahir}
    table.act(0, Absorb(card=zahir))
    assert zahir in table.zones["buried:0"] and t.in_play(table, beknine)
    # Nothing that must absorb is left: the engagement is over with Zahir's
    # burial (rules 1.6.0 record no EngagementResolved), 2 damage unabsorbed.
    assert table.last("DamageAbsorbed")["remaining"] == 2 and not table.stack
    assert table.pending() == [(0, "battle")]


def test_brutal_refuses_the_discard() -> None:
    table = new_table(["ixhasa", "ord"])
    set_hand(table, 0, QUIET["ixhasa"])
    card = set_hand(table, 1, ["bazaar"])[0]
    scourge = put_in_play(table, 0, "scourge")        # Brutal, 3S
    keshie = put_in_play(table, 1, "keshie")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {scourge: castle}, {keshie: castle}, castle)
    table.act(1, Pass())
    table.act(0, Engage(cards=(scourge,)))
    assert table.last("Engaged")["brutal"]
    assert not [c for c in table.legal(1) if isinstance(c, Absorb) and c.discard]
    with pytest.raises(RuleError, match="Brutal"):
        table.act(1, Absorb(card=keshie, discard=card))


def test_a_buried_hero_takes_strength_items_with_it_and_discards_the_rest() -> None:
    table = new_table(["malchior", "ord"])
    set_hand(table, 0, ["zahir"])
    set_hand(table, 1, ["bazaar"])
    beknine = put_in_play(table, 0, "beknine")
    actuacte = put_in_play(table, 1, "actuacte_ixit")
    sword = put_in_play(table, 1, "excel_r8", attach_to=actuacte)       # +2S
    amulet = put_in_play(table, 1, "xalfian_amulet", attach_to=actuacte)  # +2W, no S
    archers = put_in_play(table, 1, "peasant_archers", attach_to=actuacte)
    assert frequency.stat(table, actuacte, "S") == 5 and frequency.stat(table, actuacte, "W") == 5
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {beknine: castle}, {actuacte: castle}, castle)
    table.act(1, Pass())
    table.act(0, Engage(cards=(beknine,)))
    table.act(1, Absorb(card=actuacte))
    buried = table.last("HeroBuried")
    assert buried["buried"] == [sword] and set(buried["discarded"]) == {amulet, archers}
    assert sword in table.zones["buried:1"] and amulet in table.zones["discard:1"]


def test_items_engage_with_their_hero_and_add_strength() -> None:
    table = new_table(["ord", "malchior"])
    set_hand(table, 0, ["bazaar"])
    set_hand(table, 1, ["zahir"])
    torin = put_in_play(table, 0, "torin_quickhand")
    sword = put_in_play(table, 0, "excel_r8", attach_to=torin)
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {torin: castle}, {}, castle)
    table.act(0, Engage(cards=(torin,)))
    engaged = table.last("Engaged")
    assert engaged["damage"] == 4 and set(engaged["cards"]) == {torin, sword}
    assert t.bowed(table, sword)


def test_returning_a_unit_home_bows_it() -> None:
    table = new_table(["malchior", "ord"])
    set_hand(table, 0, ["zahir"])
    set_hand(table, 1, ["bazaar"])
    beknine = put_in_play(table, 0, "beknine")
    keshie = put_in_play(table, 1, "keshie")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {beknine: castle}, {keshie: castle}, castle)
    table.act(1, ReturnHome(hero=keshie))
    assert t.bowed(table, keshie) and t.location(table, keshie) == "home"
    with pytest.raises(RuleError):
        table.act(0, ReturnHome(hero=keshie))


def test_a_battle_ends_when_all_pass_attackers_home_bowed_defenders_stay() -> None:
    table = new_table(["malchior", "ord"])
    set_hand(table, 0, ["zahir"])
    set_hand(table, 1, ["bazaar"])
    beknine = put_in_play(table, 0, "beknine")
    keshie = put_in_play(table, 1, "keshie")
    castles = t.castles(table, 1)
    start_battle(table, 0, 1, {beknine: castles[0]}, {keshie: castles[0]}, castles[0])
    table.act(1, Pass())
    table.act(0, Pass())
    assert t.bowed(table, beknine) and t.location(table, beknine) == "home"
    assert t.location(table, keshie) == castles[0]      # until the Attack Phase ends
    assert table.pending() == [(0, "choose")]
    while table.conflict is not None:
        seat, _ = table.pending()[0]
        table.act(seat, table.legal(seat)[0])
    assert t.location(table, keshie) == "home" and not t.bowed(table, keshie)


def test_will_zero_buries_a_hero_at_once() -> None:
    # Touch of Shad-Hujem's -1W marker would kill Zahir (1 Will).
    table = new_table(["malchior", "ord"])
    touch = set_hand(table, 0, ["touch_of_shad_hujem"])[0]
    set_hand(table, 1, ["bazaar"])
    zahir = put_in_play(table, 0, "zahir")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {zahir: castle}, {}, castle)
    table.act(0, UseAbility(source=touch, targets=(zahir,)))
    assert table.last("HeroBuried")["why"] == "will"
    assert zahir in table.zones["buried:0"]


def test_no_castles_at_the_end_of_the_attack_phase_eliminates_and_conquest_wins() -> None:
    table = new_table(["malchior", "ord"], castles=[["hammerdooms_roost"], ["kaskad_slip"]])
    set_hand(table, 0, ["zahir"])
    set_hand(table, 1, ["bazaar"])
    storm_castle(table)
    assert table.last("GameWon") == {"winner": 0, "how": "conquest", "renown": table.renown}
    assert table.over


def test_multiplayer_allies_choose_sides_and_assign_after_their_leader() -> None:
    table = new_table(["malchior", "ord", "holden"])
    for s in range(3):
        set_hand(table, s, [["zahir"], ["bazaar"], ["library"]][s])
    beknine = put_in_play(table, 0, "beknine")
    keshie = put_in_play(table, 1, "keshie")
    coeli = put_in_play(table, 2, "coeli_quando")
    from aggregates.nine_empires.commands import AssignUnits, CallAllies, DeclareAttack

    table.act(0, DeclareAttack(defender=1))
    table.act(0, CallAllies(call=True))                 # the attacker calls; the defender
    table.act(1, CallAllies(call=False))                # does not
    assert table.pending() == [(2, "ally")]
    table.act(2, ChooseAlly(side="attack"))
    castle = t.castles(table, 1)[0]
    assert table.pending() == [(0, "assign")]
    table.act(0, AssignUnits(heroes=(beknine,), castles=(castle,)))
    assert table.pending() == [(2, "assign")]          # the attacking ally next
    table.act(2, AssignUnits(heroes=(coeli,), castles=(castle,)))
    table.act(1, AssignUnits(heroes=(keshie,), castles=(castle,)))
    table.act(0, table.legal(0)[0])                     # choose a battle
    # Beknine and Coeli are on one side: not opposing each other.
    assert not t.opposed(table, 0, 2) and t.opposed(table, 1, 2)
    passing = turn_order.passing(table)
    assert passing is not None
    order = passing["order"]
    assert order[0] == 1 and set(order) == {0, 1, 2}    # the defender first
