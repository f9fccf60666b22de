"""Turn Order, bringing cards into play, abilities, quests, Winter, victory and
the special keywords (Romance of the Nine Empires rulebook)."""

from __future__ import annotations

import pytest

from aggregates.kernel import RuleError
from aggregates.nine_empires import card_effects, frequency, victory, winter
from aggregates.nine_empires import cards as t
from aggregates.nine_empires.commands import (
    DeclareAttack,
    DiscardDown,
    Mulligan,
    Pass,
    PlayCard,
    UseAbility,
)
from aggregates.nine_empires.testing import (
    Table,
    in_play,
    new_table,
    put_in_play,
    set_hand,
    winter_begins,
    winter_now,
)


def _pass_round(table: Table) -> None:
    for _ in range(len(table.seats) - len(table.out)):
        seat, _ = table.pending()[0]
        table.act(seat, Pass())


# ------------------------------------------------------------- Turn Order

def test_a_phase_ends_only_when_all_pass_in_a_row() -> None:
    table = new_table(["malchior", "holden"])
    table.act(0, Pass())
    library = set_hand(table, 1, ["library"])[0]
    table.act(1, PlayCard(card=library, gold_from=(t.stronghold(table, 1),)))
    assert table.phase == "summer" and table.pending() == [(0, "summer")]
    table.act(0, Pass())                 # a player who passed may act again; here passes
    table.act(1, Pass())
    assert table.phase == "autumn" and table.pending() == [(0, "autumn")]


def test_spring_straightens_every_card() -> None:
    table = new_table(["malchior", "holden"])
    zahir = put_in_play(table, 0, "zahir", bowed=True)
    for _ in range(2):
        _pass_round(table)                                   # summer, autumn
    while table.phase == "winter":
        seat, _ = table.pending()[0]
        table.act(seat, table.legal(seat)[0])
    assert table.turn == 2 and zahir in table.last("SpringBegan")["straightened"]
    assert not t.bowed(table, zahir)


def test_the_mulligan_discards_the_hand_and_two_food() -> None:
    table = new_table(["malchior", "holden"], keep=False)
    hand = list(t.hand(table, 0))
    castle = t.castles(table, 0)[0]
    food = t.food(table, castle)
    table.act(0, Mulligan(food_from=(castle, castle)))
    assert t.food(table, castle) == food - 2
    assert set(hand) <= set(table.zones["discard:0"])
    assert len(t.hand(table, 0)) == len(hand) and not set(hand) & set(t.hand(table, 0))
    with pytest.raises(RuleError):
        table.act(0, Mulligan(food_from=(castle, castle)))   # one mulligan only


def test_opening_hands_are_four_plus_one_per_castle() -> None:
    table = new_table(["malchior", "holden"], castles=[["outpost"], ["border_keep",
                                                                     "outpost"]])
    assert (len(t.hand(table, 0)), len(t.hand(table, 1))) == (5, 6)


def test_one_attack_per_turn() -> None:
    table = new_table(["malchior", "holden"], castles=[["outpost"], ["outpost"]])
    table.act(0, DeclareAttack(defender=1))
    while table.conflict is not None:
        seat, _ = table.pending()[0]
        table.act(seat, table.legal(seat)[0])
    table.act(1, Pass())
    with pytest.raises(RuleError, match="one attack per turn"):
        table.act(0, DeclareAttack(defender=1))


# ------------------------------------------------------ bringing into play

def test_heroes_share_a_keyword_with_the_stronghold_unaligned_is_no_wildcard() -> None:
    table = new_table(["holden", "malchior"])
    tuatha, = set_hand(table, 0, ["tuatha_dundareel"])     # Unaligned, Renowned
    strong = t.stronghold(table, 0)
    table.act(0, PlayCard(card=tuatha, gold_from=(strong,), food_from=(t.castles(table,
                                                                                  0)[0],)))
    assert t.in_play(table, tuatha)                          # Renowned matches Holden's
    from aggregates.nine_empires import playing

    # Cards made for the test only, in hands they could not come from.
    t.table(table).create("x1", "beknine", 0, "hand:0")
    t.table(table).create("x2", "tuatha_dundareel", 1, "hand:1")
    assert "shares no keyword" in playing.why_not(table, 0, "x1")
    assert "shares no keyword" in playing.why_not(table, 1, "x2")   # Unaligned: no wildcard


def test_properties_come_into_play_bowed_heroes_unbowed() -> None:
    table = new_table(["holden", "malchior"])
    library, = set_hand(table, 0, ["library"])
    table.act(0, PlayCard(card=library, gold_from=(t.stronghold(table, 0),)))
    assert t.bowed(table, library)


def test_not_enough_gold_or_food_refuses_the_card() -> None:
    table = new_table(["malchior", "holden"])
    ranon, = set_hand(table, 0, ["prince_ranon"])              # 6 gold
    with pytest.raises(RuleError, match="gold"):
        table.act(0, PlayCard(card=ranon, gold_from=(t.stronghold(table, 0),),
                              food_from=(t.castles(table, 0)[0],)))
    with pytest.raises(RuleError):
        table.act(0, PlayCard(card=ranon, gold_from=(t.stronghold(table, 0),
                                                      in_play(table, 0, "motte_and_bailey")),
                              food_from=()))


def test_unique_one_copy_in_play_but_usable_as_a_stealth_card() -> None:
    table = new_table(["malchior", "holden"])
    put_in_play(table, 0, "prince_ranon")
    ranon, = set_hand(table, 0, ["prince_ranon"])
    with pytest.raises(RuleError, match="Unique"):
        table.act(0, PlayCard(card=ranon, gold_from=(t.stronghold(table, 0),
                                                      in_play(table, 0, "motte_and_bailey")),
                              food_from=(t.castles(table, 0)[0],)))


def test_spells_attach_only_to_wizards_and_items_one_per_keyword() -> None:
    table = new_table(["ord", "malchior"])
    keshie = put_in_play(table, 0, "keshie")
    ecehatl = put_in_play(table, 0, "ecehatl")                # a Wizard
    divination, sword, revenge = set_hand(table, 0, ["divination", "excel_r8",
                                                     "stephs_revenge"])
    strong = t.stronghold(table, 0)
    with pytest.raises(RuleError):
        table.act(0, PlayCard(card=divination, gold_from=(strong,), attach_to=keshie))
    table.act(0, PlayCard(card=divination, gold_from=(strong,), attach_to=ecehatl))
    table.act(1, Pass())
    motte = in_play(table, 0, "motte_and_bailey")
    table.act(0, PlayCard(card=sword, gold_from=(motte,), attach_to=keshie))
    from aggregates.nine_empires import playing

    assert keshie not in playing.hosts(table, 0, t.printed(table, revenge))  # both Weapons
    assert ecehatl in playing.hosts(table, 0, t.printed(table, revenge))


# ---------------------------------------------------------------- abilities

def test_abilities_once_per_turn_per_card_and_never_bowed() -> None:
    table = new_table(["holden", "malchior"])
    library = put_in_play(table, 0, "library")
    table.act(0, UseAbility(source=library))
    assert table.last("CardsDrawn")["count"] == 1 and t.bowed(table, library)
    table.act(1, Pass())
    t.table(table).straighten(library)
    with pytest.raises(RuleError, match="once per turn"):
        table.act(0, UseAbility(source=library))


def test_items_on_a_bowed_hero_cannot_use_their_abilities() -> None:
    table = new_table(["ord", "malchior"])
    cao = put_in_play(table, 0, "cao_covah", bowed=True)
    spell = put_in_play(table, 0, "divination", attach_to=cao)
    with pytest.raises(RuleError, match="bowed hero"):
        table.act(0, UseAbility(source=spell))


def test_targets_must_be_defined_before_use() -> None:
    table = new_table(["holden", "malchior"])
    tree, = set_hand(table, 0, ["the_tree_of_life_blooms"])
    # Every castle is full: no target with room, so the Tree cannot be used.
    with pytest.raises(RuleError, match="target"):
        table.act(0, UseAbility(source=tree, targets=(t.castles(table, 0)[0],)))
    castle = t.castles(table, 0)[0]
    table.instances[castle]["food"] = 0
    table.act(0, UseAbility(source=tree, targets=(castle,)))
    assert t.food(table, castle) == 2                     # up to storage, never over it


def test_zero_net_changes_then_floor() -> None:
    # A 1S hero with -2S then +3S has 2S.
    table = new_table(["holden", "malchior"])
    jack = put_in_play(table, 0, "jack_newcomer")
    table.emit("EffectApplied", source="x", target=jack, verb="modify",
               params={"stat": "S", "amount": -2}, duration="end_of_turn", id="a")
    assert frequency.stat(table, jack, "S") == 0
    table.emit("EffectApplied", source="x", target=jack, verb="modify",
               params={"stat": "S", "amount": 3}, duration="end_of_turn", id="b")
    assert frequency.stat(table, jack, "S") == 2


def test_card_memory_a_card_leaving_play_loses_markers_and_effects() -> None:
    table = new_table(["malchior", "holden"])
    hektor = put_in_play(table, 0, "hektor")
    table.emit("MarkerPlaced", source="x", target=hektor, stat="W", amount=-1)
    table.emit("EffectApplied", source="x", target=hektor, verb="modify",
               params={"stat": "S", "amount": 2}, duration="end_of_turn", id="a")

    card_effects.bury(table, hektor, why="effect")
    assert table.instances[hektor]["markers"] == {} and table.lasting == []


def test_static_text_cohorts_attached_to_this_hero_gain_strength() -> None:
    table = new_table(["holden", "malchior"])
    vanguard = put_in_play(table, 0, "vanguard_of_guild_10_42")
    archers = put_in_play(table, 0, "peasant_archers", attach_to=vanguard)
    assert frequency.stat(table, archers, "S") == 2
    t.table(table).bow(vanguard)
    assert frequency.stat(table, archers, "S") == 2               # always on, bowed or not


# ------------------------------------------------------------------ quests

def test_quests_glory_questors_one_incomplete_no_copy_buried() -> None:
    table = new_table(["holden", "malchior"])
    vanguard = put_in_play(table, 0, "vanguard_of_guild_10_42")   # 1G, not a Questor
    offer, lamp = set_hand(table, 0, ["a_desperate_offer", "a_most_peculiar_lamp"])
    with pytest.raises(RuleError, match="Glory"):
        table.act(0, PlayCard(card=offer, glory_from=(vanguard,)))
    coeli = put_in_play(table, 0, "coeli_quando")                 # 2G, a Questor
    table.act(0, PlayCard(card=offer, glory_from=(coeli,)))
    assert not t.bowed(table, coeli) and table.renown[0] == 5 + 2
    table.act(1, Pass())
    with pytest.raises(RuleError, match="incomplete"):
        table.act(0, PlayCard(card=lamp, glory_from=(coeli, vanguard)))


def test_state_completion_and_winter_burial_of_incomplete_quests() -> None:
    table = new_table(["holden", "malchior"])
    coeli = put_in_play(table, 0, "coeli_quando")
    for key in ("library", "valiant_squire", "training_grounds"):
        put_in_play(table, 0, key)
    journey, = set_hand(table, 0, ["journey"])
    table.act(0, PlayCard(card=journey, glory_from=(coeli,)))
    # Journey? completes with 4 or more properties (Motte and Bailey counts).
    assert table.last("QuestCompleted")["quest"] == journey
    assert table.renown[0] == 5 + 1 + 3
    assert in_play(table, 0, "journey") == journey


# ------------------------------------------------------------ Winter, victory

def test_dominance_the_only_player_with_food() -> None:
    table = new_table(["holden", "malchior"])
    for c in t.castles(table, 1):
        table.instances[c]["food"] = 0
    winter_now(table)
    assert table.result == {"result": "Player 1 wins by a Dominance Victory.", "winner": 0,
                            "how": "dominance", "winners": [0]}


def test_no_food_eliminates_from_the_ordained_and_the_rest_go_on() -> None:
    table = new_table(["holden", "malchior", "ord"], ordained=0)
    for c in t.castles(table, 1):
        table.instances[c]["food"] = 0
    winter_now(table)
    assert table.out == [1] and not table.over
    assert table.last("PlayerEliminated") == {"seat": 1, "why": "no food"}
    assert 1 not in [s for s, _ in table.pending()]


def test_all_out_of_food_the_ordained_loses_first() -> None:
    table = new_table(["holden", "malchior"], ordained=1)
    for seat in (0, 1):
        for c in t.castles(table, seat):
            table.instances[c]["food"] = 0
    winter_now(table)
    assert table.out == [1] and table.result == {
        "result": "Player 1 wins by being the last player left.", "winner": 0,
        "how": "last standing", "winners": [0]}


def test_popular_victory_fifty_renown_and_three_quests() -> None:
    table = new_table(["holden", "malchior"])
    for key in ("the_biggest_turnip", "journey", "a_desperate_offer"):
        quest = put_in_play(table, 0, key)
        table.instances[quest]["memory"]["completed"] = True
    table.renown[0] = 49
    assert not victory.popular(table)
    table.renown[0] = 50
    winter_now(table)
    assert table.result == {"result": "Player 1 wins by a Popular Victory.", "winner": 0,
                            "how": "popular", "winners": [0]}


def test_hand_size_is_four_plus_castles_and_the_ordained_passes_left() -> None:
    table = new_table(["holden", "malchior", "ord"], ordained=2)
    winter_now(table)
    while table.phase == "winter":
        seat, kind = table.pending()[0]
        excess = len(t.hand(table, seat)) - winter.hand_size(table, seat)
        assert kind == "discard" and excess > 0
        with pytest.raises(RuleError):
            table.act(seat, DiscardDown(cards=()))
        table.act(seat, table.legal(seat)[0])
        assert len(t.hand(table, seat)) == winter.hand_size(table, seat)
    assert table.last("OrdainedPassed") == {"seat": 2, "to": 0}


def test_card_memory_a_card_back_in_play_may_use_its_abilities_again() -> None:
    table = new_table(["holden", "malchior"])
    library = put_in_play(table, 0, "library")
    table.act(0, UseAbility(source=library))
    table.act(1, Pass())

    card_effects.bury(table, library, why="effect")
    t.table(table).move(library, "play")                # returned to play: a new card
    table.act(0, UseAbility(source=library))
    assert len(table.named("AbilityUsed")) == 2


def test_winter_redistribution_moves_food_between_castles_within_storage() -> None:
    from aggregates.nine_empires.commands import Redistribute

    table = new_table(["holden", "malchior"], castles=[["border_keep", "outpost"],
                                                      ["border_keep"]])
    keep, outpost = t.castles(table, 0)
    table.instances[keep]["food"] = 1                  # Border Keep 1/3, Outpost 2/2
    winter_begins(table)
    assert table.pending() == [(0, "redistribute")]    # one castle: nothing to move
    with pytest.raises(RuleError, match="stores"):
        table.act(0, Redistribute(food=(0, 3)))        # the Outpost stores 2
    with pytest.raises(RuleError, match="no more, no less"):
        table.act(0, Redistribute(food=(3, 2)))
    table.act(0, Redistribute(food=(3, 0)))
    assert (t.food(table, keep), t.food(table, outpost)) == (3, 0)
    assert table.last("FoodRedistributed") == {"seat": 0, "food": {keep: 3, outpost: 0}}
    assert table.named("EffectsEnded")                  # the reckoning followed
