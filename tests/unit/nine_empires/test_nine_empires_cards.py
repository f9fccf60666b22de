"""Card texts the random playouts rarely reach, each played once (the designed
data, Romance of the Nine Empires rulebook: More on Using Abilities; Battles;
Quests)."""

from __future__ import annotations

from aggregates.nine_empires import cards as t
from aggregates.nine_empires import frequency
from aggregates.nine_empires.commands import Absorb, Engage, Pass, PlayCard, UseAbility
from aggregates.nine_empires.testing import (
    in_play,
    new_table,
    put_in_play,
    set_hand,
    start_battle,
    winter_now,
)


def test_skafla_buries_an_opposing_cohort_in_the_battle() -> None:
    table = new_table(["ixhasa", "malchior"])
    set_hand(table, 0, ["the_oracles_answer"])
    set_hand(table, 1, ["zahir"])
    skafla = put_in_play(table, 0, "skafla")
    beknine = put_in_play(table, 1, "beknine")
    guard = put_in_play(table, 1, "malchian_guard", attach_to=beknine)
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {skafla: castle}, {beknine: castle}, castle)
    table.act(1, Pass())
    table.act(0, UseAbility(source=skafla, targets=(guard,)))
    assert guard in table.zones["buried:1"] and t.bowed(table, skafla)


def test_peasant_archers_weaken_an_opposing_cohort() -> None:
    table = new_table(["holden", "malchior"])
    set_hand(table, 0, ["library"])
    set_hand(table, 1, ["zahir"])
    vanguard = put_in_play(table, 0, "vanguard_of_guild_10_42")
    archers = put_in_play(table, 0, "peasant_archers", attach_to=vanguard)
    beknine = put_in_play(table, 1, "beknine")
    phalanx = put_in_play(table, 1, "malchian_phalanx", attach_to=beknine)
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {vanguard: castle}, {beknine: castle}, castle)
    table.act(1, Pass())
    table.act(0, UseAbility(source=archers, targets=(phalanx,)))
    assert frequency.stat(table, phalanx, "S") == 1


def test_that_which_does_not_kill_us_strengthens_a_defender_as_damage_comes() -> None:
    table = new_table(["malchior", "ixhasa"])
    set_hand(table, 0, ["zahir"])
    card = set_hand(table, 1, ["that_which_does_not_kill_us"])[0]
    beknine = put_in_play(table, 0, "beknine")
    scourge = put_in_play(table, 1, "scourge")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {beknine: castle}, {scourge: castle}, castle)
    table.act(1, Pass())
    table.act(0, Engage(cards=(beknine,)))
    table.act(1, UseAbility(source=card, targets=(scourge,)))
    assert frequency.stat(table, scourge, "S") == 5
    table.act(1, Absorb(card=scourge))
    assert table.last("DamageAbsorbed")["absorbed"] == 5


def test_the_airlift_moves_its_hero_into_the_battle() -> None:
    table = new_table(["ord", "malchior"])
    set_hand(table, 0, ["bazaar"])
    set_hand(table, 1, ["zahir"])
    keshie = put_in_play(table, 0, "keshie")
    torin = put_in_play(table, 0, "torin_quickhand")
    airlift = put_in_play(table, 0, "major_moffetts_airlift", attach_to=torin)
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {keshie: castle}, {}, castle)
    table.act(0, UseAbility(source=airlift))
    assert t.location(table, torin) == castle and t.side(table, torin) == "attack"


def test_the_flaming_hand_kills_a_one_will_hero_with_its_marker() -> None:
    table = new_table(["ord", "malchior"])
    set_hand(table, 0, ["bazaar"])
    set_hand(table, 1, ["beknine"])
    ecehatl = put_in_play(table, 0, "ecehatl")
    hand = put_in_play(table, 0, "flaming_hand_of_fiery_doom", attach_to=ecehatl)
    zahir = put_in_play(table, 1, "zahir")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {ecehatl: castle}, {zahir: castle}, castle)
    table.act(1, Pass())
    table.act(0, UseAbility(source=hand, targets=(zahir,),
                            food_from=(t.castles(table, 0)[0],)))
    assert table.last("HeroBuried") ["why"] == "will" and zahir in table.zones["buried:1"]


def test_fortified_market_town_buys_food_when_it_has_room() -> None:
    table = new_table(["malchior", "holden"], castles=[["fortified_market_town"],
                                                      ["border_keep"]])
    town = in_play(table, 0, "fortified_market_town")
    table.instances[town]["food"] = 1
    table.act(0, UseAbility(source=town, gold_from=(t.stronghold(table, 0),)))
    assert t.food(table, town) == 2 and t.bowed(table, town)


def test_the_temple_and_the_throne_answer_a_completed_quest() -> None:
    table = new_table(["holden", "malchior"], castles=[
        ["temple_of_the_snail_spirit", "border_keep"], ["border_keep"]])
    temple = in_play(table, 0, "temple_of_the_snail_spirit")
    table.instances[temple]["food"] = 0
    coeli = put_in_play(table, 0, "coeli_quando")
    for key in ("library", "valiant_squire", "training_grounds"):
        put_in_play(table, 0, key)
    journey, = set_hand(table, 0, ["journey"])
    hand = len(t.hand(table, 0))
    table.act(0, PlayCard(card=journey, glory_from=(coeli,)))
    assert t.food(table, temple) == 1                      # the Temple's trigger
    assert len(t.hand(table, 0)) == hand                   # Journey played, one card drawn
    assert [p["key"] for p in table.named("AbilityTriggered")] == [
        "throne_of_holden", "temple_of_the_snail_spirit"]


def test_salt_mine_adds_food_in_spring() -> None:
    table = new_table(["malchior", "holden"])
    put_in_play(table, 0, "salt_mine")
    castle = t.castles(table, 0)[0]
    table.instances[castle]["food"] = 0
    winter_now(table)
    while table.phase == "winter":
        seat, _ = table.pending()[0]
        table.act(seat, table.legal(seat)[0])
    assert table.turn == 2 and t.food(table, castle) == 1
