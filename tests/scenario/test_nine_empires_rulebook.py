"""Romance of the Nine Empires rulebook, section by section, from Object to the
Quick Reference (Battles, Raids and Quests are in
``test_nine_empires_rulebook_battles.py``; the Example of Play, move by move,
in ``tests/unit/nine_empires/test_nine_empires_example_of_play.py``). Each test
names the section whose words it holds (``__rulebook_<Section>``) and quotes them.

Played on the rules' own table (``testing.Table``), arranged with the
rulebook's cards; a game through the aggregate where the options are the rule.
"""

from __future__ import annotations

import pytest

from aggregates.kernel import Reason, RuleError
from aggregates.nine_empires import NineEmpires, abilities, card_effects, frequency, winter
from aggregates.nine_empires import cards as t
from aggregates.nine_empires.commands import (
    DeclareAttack,
    DeclareRaid,
    Mulligan,
    Pass,
    PlayCard,
    UseAbility,
)
from aggregates.nine_empires.data import ALL, CARDS, DECKS, Deck, deck_problems
from aggregates.nine_empires.flow import FLOW
from aggregates.nine_empires.testing import (
    Table,
    in_play,
    make_tokens,
    new_table,
    put_in_play,
    set_hand,
    storm_castle,
    winter_begins,
    winter_now,
)


def _pass_phase(table: Table) -> None:
    """Every player passes, in turn, until the phase ends."""
    phase = table.phase
    while table.phase == phase and not table.over:
        table.act(table.pending()[0][0], Pass())


def _to_winter_end(table: Table) -> None:
    """Answer Winter's choices with the first legal one until Spring."""
    while table.phase == "winter" and not table.over:
        seat, _ = table.pending()[0]
        table.act(seat, table.legal(seat)[0])


def _starve(table: Table, seat: int) -> None:
    for castle in t.castles(table, seat):
        table.instances[castle]["food"] = 0


# ------------------------------------------------------------------ Object


def test_dominance_the_only_player_with_food__rulebook_Object() -> None:
    """"You win a dominance victory if you are the only player to have castles
    with food at the end of a turn"."""
    table = new_table(["holden", "malchior", "ord"])
    _starve(table, 1)
    _starve(table, 2)
    winter_now(table)
    assert table.result == {"result": "Player 1 wins by a Dominance Victory.", "winner": 0,
                            "how": "dominance", "winners": [0]}


def test_popular_fifty_renown_three_quests_seating_breaks_ties__rulebook_Object() -> None:
    """"You win a popular victory if you have 50 Renown and have at least three
    quests in play at the end of a turn"; Winter: "Starting with the Ordained
    and proceeding clockwise ... (thus if two players both reach the levels
    needed for a popular victory, player seating is the tiebreaker)"."""
    table = new_table(["holden", "holden"], ordained=1)
    for seat in (0, 1):
        for key in ("the_biggest_turnip", "journey", "a_desperate_offer"):
            quest = put_in_play(table, seat, key)
            table.instances[quest]["memory"]["completed"] = True
        table.renown[seat] = 50
    winter_now(table)
    assert table.result is not None and table.result["how"] == "popular"
    assert table.result["winner"] == 1                    # the Ordained is first


def test_conquest_the_instant_the_last_other_castle_falls__rulebook_Object() -> None:
    """"You win a conquest victory the instant you destroy the last castle
    (other than your own) in the game": the game ends at the castle's burial,
    in the middle of the Attack Phase."""
    table = new_table(["malchior", "holden"], castles=[["border_keep"], ["outpost"]])
    set_hand(table, 0, ["zahir"])
    set_hand(table, 1, ["library"])
    storm_castle(table)
    assert table.over and table.result is not None
    assert (table.result["how"], table.result["winner"]) == ("conquest", 0)


# -------------------------------------------------- Preparing to Play


def test_castles_food_motte_and_bailey_and_hands__rulebook_Preparing_to_Play() -> None:
    """"Each player can start with castles with a total Point Cost up to ... the
    Castle Points listed on his or her stronghold card ... Each castle starts
    with food tokens equal to its storage. Each player also starts with one
    Motte and Bailey property card in play. Each player ... draws 4 cards plus 1
    additional card for each castle"."""
    table = new_table(["holden", "malchior", "ord", "ixhasa", "displaced"], keep=False)
    for seat, name in enumerate(["holden", "malchior", "ord", "ixhasa", "displaced"]):
        castles = t.castles(table, seat)
        points = sum(t.printed(table, c).points for c in castles)
        assert points <= t.printed(table, t.stronghold(table, seat)).points
        assert all(t.food(table, c) == t.storage(table, c) for c in castles)
        assert t.printed(table, in_play(table, seat, "motte_and_bailey")).type == "property"
        assert len(t.hand(table, seat)) == 4 + len(castles)
        assert table.renown[seat] == CARDS[DECKS[name].stronghold].renown


def test_one_mulligan_for_two_food__rulebook_Preparing_to_Play() -> None:
    """"If desired, each player can take one mulligan: discard his or her hand,
    discard two food tokens, and draw a new hand"."""
    table = new_table(["holden", "malchior"], keep=False)
    hand = list(t.hand(table, 1))
    castle = t.castles(table, 1)[0]
    food = t.food(table, castle)
    table.act(1, Mulligan(food_from=(castle, castle)))
    assert t.food(table, castle) == food - 2 and set(hand) <= set(table.zones["discard:1"])
    assert len(t.hand(table, 1)) == len(hand)
    with pytest.raises(RuleError):
        table.act(1, Mulligan(food_from=(castle, castle)))


def test_starting_castles_over_the_points_are_refused__rulebook_Preparing_to_Play() -> None:
    """A custom deck starting with more Castle Points than its stronghold gives
    is refused at creation with every rule it breaks."""
    deck = DECKS["malchior"]
    over = {"stronghold": deck.stronghold, "cards": dict(deck.cards),
            "castles": ["border_keep", "sanctuary", "fortified_market_town",
                        "hammerdooms_roost"],
            "starting_castles": ["border_keep", "sanctuary", "fortified_market_town",
                                 "hammerdooms_roost"]}
    with pytest.raises(RuleError, match="castle points") as refused:
        NineEmpires.check_options({"decks": [over, "holden"]})
    assert refused.value.reason == Reason.BAD_OPTIONS


# ------------------------------------------------------------ Key Concepts


def test_an_empty_deck_reshuffles_the_discard_pile_not_the_buried__rulebook_Decks(
) -> None:
    """Decks, Discard Piles, and Hands: "The instant you need to draw or reveal
    cards from an empty deck, shuffle your discard pile (but not your buried
    pile) to create a new deck"."""
    table = new_table(["holden", "malchior"])
    library = put_in_play(table, 0, "library")
    cards = t.table(table)
    deck = list(t.deck(table, 0))
    for iid in deck[:3]:
        cards.move(iid, "buried:0")
    for iid in deck[3:]:
        cards.move(iid, "discard:0")
    table.act(0, UseAbility(source=library))
    assert table.named("DeckReshuffled") and len(table.last("CardsDrawn")["cards"]) == 1
    assert table.zones["discard:0"] == [] and table.zones["buried:0"] == deck[:3]


def test_a_bowed_card_uses_no_ability_but_its_text_works__rulebook_Bowing_and_Straightening(
) -> None:
    """"A bowed card cannot be used to perform any ability printed on it ... spells
    and items attached to a bowed hero cannot use their abilities. Keywords and
    non-ability game text ... continue to function even if the card is bowed.
    Cohorts attached to a bowed hero may bow to use abilities."""
    table = new_table(["ord", "holden"])
    cao = put_in_play(table, 0, "cao_covah", bowed=True)
    divination = put_in_play(table, 0, "divination", attach_to=cao)
    with pytest.raises(RuleError, match="bowed"):
        table.act(0, UseAbility(source=cao))
    with pytest.raises(RuleError, match="bowed hero"):
        table.act(0, UseAbility(source=divination))
    vanguard = put_in_play(table, 1, "vanguard_of_guild_10_42", bowed=True)
    archers = put_in_play(table, 1, "peasant_archers", attach_to=vanguard)
    assert frequency.stat(table, archers, "S") == 1 + 1            # "Cohorts attached ... +1S"
    assert "bowed" not in abilities.why_not(table, 1, archers, 0, False)


def test_gold_from_bowed_producers_excess_lost__rulebook_Paying_Gold_Costs() -> None:
    """"Select a combination of your stronghold and/or property cards with a total
    gold production greater than or equal to the gold cost ... Bow all the
    selected cards ... Any excess gold produced ... is lost": Hektor costs 5; the
    stronghold (4) and Motte and Bailey (2) pay 6."""
    table = new_table(["malchior", "holden"])
    hektor, = set_hand(table, 0, ["hektor"])
    strong, motte = t.stronghold(table, 0), in_play(table, 0, "motte_and_bailey")
    castle = t.castles(table, 0)[0]
    with pytest.raises(RuleError, match="gold"):
        table.act(0, PlayCard(card=hektor, gold_from=(strong,), food_from=(castle,)))
    table.act(0, PlayCard(card=hektor, gold_from=(strong, motte), food_from=(castle,)))
    assert t.bowed(table, strong) and t.bowed(table, motte) and t.in_play(table, hektor)
    assert not t.bowed(table, hektor) and t.location(table, hektor) == "home"


def test_food_from_castles_never_from_heroes__rulebook_Paying_Food_Costs() -> None:
    """"Destroy one food token from any of your castles for each point of food
    cost ... If you do not have enough food on your castles, you cannot play that
    card ... You cannot pay food costs with food on a hero"."""
    table = new_table(["malchior", "holden"])
    zahir, = set_hand(table, 0, ["zahir"])                # 1 food, 0 gold
    beknine = put_in_play(table, 0, "beknine")
    table.instances[beknine]["food"] = 2
    _starve(table, 0)
    with pytest.raises(RuleError):
        table.act(0, PlayCard(card=zahir, food_from=(beknine,)))
    castle = t.castles(table, 0)[0]
    table.instances[castle]["food"] = 1
    table.act(0, PlayCard(card=zahir, food_from=(castle,)))
    assert t.food(table, castle) == 0 and t.food(table, beknine) == 2


# --------------------------------------------------------------- Turn Order


def test_phases_in_order_actions_from_the_ordained__rulebook_Turn_Order() -> None:
    """"Spring Phase, Summer Phase, Autumn Phase, and Winter Phase ... each player
    may take one action at a time or pass, beginning with the Ordained and
    proceeding clockwise ... If a player passes, he or she can still take
    another action later in that phase. When all players pass consecutively,
    the current phase immediately ends"."""
    table = new_table(["holden", "malchior", "ord"], ordained=1)
    assert table.phase == "summer" and table.pending() == [(1, "summer")]
    table.act(1, Pass())
    table.act(2, Pass())
    library, = set_hand(table, 0, ["library"])
    table.act(0, PlayCard(card=library, gold_from=(t.stronghold(table, 0),)))
    assert table.phase == "summer" and table.pending() == [(1, "summer")]
    _pass_phase(table)
    assert table.phase == "autumn" and table.pending() == [(1, "autumn")]
    _pass_phase(table)
    assert table.phase == "winter"
    assert [p["phase"] for p in table.named("PhaseEnded")][:2] == ["summer", "autumn"]


# ------------------------------------------------------------------ Phases


def test_spring_straightens_all_and_applies_spring_effects__rulebook_Spring_Phase(
) -> None:
    """"Each player straightens all of his or her cards and applies any effects
    that may or must be done in the Spring Phase" (the Salt Mine's food)."""
    table = new_table(["malchior", "holden"])
    beknine = put_in_play(table, 0, "beknine", bowed=True)
    put_in_play(table, 0, "salt_mine", bowed=True)
    roomiest = t.castles(table, 0)[0]
    table.instances[roomiest]["food"] = 0
    _pass_phase(table)
    _pass_phase(table)
    _to_winter_end(table)
    assert table.turn == 2 and beknine in table.last("SpringBegan")["straightened"]
    assert not t.bowed(table, beknine) and t.food(table, roomiest) == 1


def test_attach_to_your_unbowed_hero_wizards_one_item_per_keyword__rulebook_Attach(
) -> None:
    """Attach a Cohort, Item, or Spell: "you must attach the card to one of your
    unbowed heroes ... Spells can only attach to a hero with the "Wizard" keyword
    ... Cohorts have their own Strength values. They do not add to the hero's
    Strength ... a hero can only have one card with the "Weapon" keyword"."""
    table = new_table(["ord", "holden"])
    keshie = put_in_play(table, 0, "keshie")
    bowed = put_in_play(table, 0, "torin_quickhand", bowed=True)
    archers, excel, revenge, divination = set_hand(
        table, 0, ["peasant_archers", "excel_r8", "stephs_revenge", "divination"])
    strong, motte = t.stronghold(table, 0), in_play(table, 0, "motte_and_bailey")
    with pytest.raises(RuleError):
        table.act(0, PlayCard(card=archers, gold_from=(strong,), attach_to=bowed))
    with pytest.raises(RuleError):
        table.act(0, PlayCard(card=divination, gold_from=(strong,), attach_to=keshie))
    table.act(0, PlayCard(card=archers, gold_from=(motte,), attach_to=keshie))
    assert frequency.stat(table, keshie, "S") == 2 and frequency.stat(table, archers, "S") == 1
    table.act(1, Pass())
    table.act(0, PlayCard(card=excel, gold_from=(strong,), attach_to=keshie))
    assert frequency.stat(table, keshie, "S") == 2 + 2             # an item adds to its hero
    from aggregates.nine_empires import playing

    assert keshie not in playing.hosts(table, 0, t.printed(table, revenge))


def test_heroes_unbowed_properties_bowed_unique_once__rulebook_Summer_Phase() -> None:
    """Bring a Hero, Property, or Quest into Play: "Heroes come into play
    unbowed ... properties come into play bowed ... Each given player can only
    have one copy of a given card with the "Unique" keyword in play"."""
    table = new_table(["holden", "malchior"])
    library, = set_hand(table, 0, ["library"])
    table.act(0, PlayCard(card=library, gold_from=(t.stronghold(table, 0),)))
    assert t.bowed(table, library)
    put_in_play(table, 1, "prince_ranon")
    ranon, = set_hand(table, 1, ["prince_ranon"])
    with pytest.raises(RuleError, match="Unique"):
        table.act(1, PlayCard(card=ranon, gold_from=(t.stronghold(table, 1),
                                                     in_play(table, 1, "motte_and_bailey")),
                              food_from=(t.castles(table, 1)[0],)))


def test_one_attack_in_summer_one_raid_in_autumn__rulebook_Summer_and_Autumn() -> None:
    """"Attack another player (once per turn)" in Summer; "Raid another player
    (once per turn)" in Autumn, and not in Summer."""
    table = new_table(["malchior", "displaced"], castles=[["outpost"], ["border_keep"]])
    put_in_play(table, 1, "young_mike")
    assert DeclareRaid(defender=0) not in table.legal(0)
    table.act(0, DeclareAttack(defender=1))
    while table.conflict is not None:
        seat, _ = table.pending()[0]
        table.act(seat, table.legal(seat)[0])
    table.act(1, Pass())
    with pytest.raises(RuleError, match="one attack per turn"):
        table.act(0, DeclareAttack(defender=1))
    _pass_phase(table)
    assert table.phase == "autumn"
    table.act(0, Pass())
    assert DeclareRaid(defender=0) in table.legal(1)


def test_winter_in_its_printed_order__rulebook_Winter_Phase() -> None:
    """"Place food from heroes onto castles. Redistribute food tokens. Eliminate
    players without food tokens. Bury incomplete quests. Check for a popular
    victory. Draw four cards. Discard down to your hand size. Pass the Ordained
    marker one seat to the left" (Quick Reference); "All ability effects end at
    this time ... Effects from markers continue to apply"."""
    table = new_table(["holden", "malchior", "ord"], ordained=0,
                      castles=[["border_keep", "outpost"], ["border_keep"], ["border_keep"]])
    coeli = put_in_play(table, 0, "coeli_quando")
    table.instances[coeli]["food"] = 1
    table.instances[t.castles(table, 0)[0]]["food"] = 2
    lamp = put_in_play(table, 0, "a_most_peculiar_lamp")
    table.emit("MarkerPlaced", source="x", target=coeli, stat="W", amount=-1)
    table.emit("EffectApplied", source="x", target=coeli, verb="modify",
               params={"stat": "S", "amount": 2}, duration="end_of_turn", id="a")
    _starve(table, 2)
    winter_begins(table)
    FLOW.settle(table)
    _to_winter_end(table)
    names = [n for n, _ in table.events]
    order = ["PhaseEnded", "FoodStored", "EffectsEnded", "PlayerEliminated",
             "QuestBuried", "CardsDrawn", "OrdainedPassed"]
    at = [names.index(n, names.index("PhaseEnded")) for n in order]
    assert at == sorted(at)
    assert t.castle_food(table, 0) == 2 + 2 + 1 and t.food(table, coeli) == 0  # all stored
    assert lamp in table.zones["buried:0"] and table.out == [2]
    assert frequency.stat(table, coeli, "S") == 2 and frequency.stat(table, coeli, "W") == 3 - 1
    assert table.last("OrdainedPassed") == {"seat": 0, "to": 1}
    for seat in (0, 1):
        assert len(t.hand(table, seat)) <= winter.hand_size(table, seat)
    assert winter.hand_size(table, 0) == 4 + 2             # strongholds add nothing


# --------------------------------------------------------- Additional Rules


def test_once_per_turn_unbowed_only__rulebook_Frequency() -> None:
    """"Unless otherwise noted, each ability can only be used once per turn, and
    only if the card is unbowed"."""
    table = new_table(["holden", "malchior"])
    library = put_in_play(table, 0, "library")
    table.act(0, UseAbility(source=library))
    table.act(1, Pass())
    t.table(table).straighten(library)
    with pytest.raises(RuleError, match="once per turn"):
        table.act(0, UseAbility(source=library))


def test_no_legal_target_no_ability__rulebook_Targeting_and_Legality() -> None:
    """"If you cannot define each target before using an ability, you cannot use
    that ability": The Tree of Life Blooms needs a castle of yours with room."""
    table = new_table(["holden", "malchior"])
    tree, = set_hand(table, 0, ["the_tree_of_life_blooms"])
    assert not [c for c in table.legal(0) if isinstance(c, UseAbility) and c.source == tree]
    castle = t.castles(table, 0)[0]
    table.instances[castle]["food"] = 0
    assert UseAbility(source=tree, targets=(castle,)) in table.legal(0)


def test_heroes_enter_play_at_home__rulebook_Locations() -> None:
    """"When heroes enter play, they are always at home. If there is no battle or
    raid currently taking place, all heroes are at home"."""
    table = new_table(["malchior", "holden"])
    zahir, = set_hand(table, 0, ["zahir"])
    table.act(0, PlayCard(card=zahir, food_from=(t.castles(table, 0)[0],)))
    assert t.location(table, zahir) == "home" and table.conflict is None


def test_tokens_leave_the_game_markers_leave_with_their_card__rulebook_Tokens_and_Markers(
) -> None:
    """"Any time that a token card would go to your deck, your hand, your discard
    pile, or your buried pile, remove it from the game instead"; "When an effect
    places a marker on a card, that marker remains on the card until the card
    leaves play"."""
    table = new_table(["ixhasa", "holden"])
    nomhopet = put_in_play(table, 0, "nomhopet")
    zombie, = make_tokens(table, 0, "zombie", nomhopet, 1)
    table.emit("MarkerPlaced", source="x", target=nomhopet, stat="W", amount=-1)
    assert frequency.stat(table, nomhopet, "W") == 3 - 1
    card_effects.bury(table, nomhopet, why="effect")
    assert table.instances[zombie]["zone"] == ""
    assert zombie not in table.zones.get("discard:0", [])
    assert table.instances[nomhopet]["markers"] == {}


@pytest.mark.parametrize(("hero", "keyword"), [
    ("scourge", "Brutal"), ("siterath_jones", "Carry 1"), ("jack_newcomer", "Questor"),
    ("jack_newcomer", "Raid +1"), ("prince_ranon", "Unique"), ("ecehatl", "Wizard")])
def test_the_special_keywords_are_on_the_cards__rulebook_Special_Keywords(
        hero: str, keyword: str) -> None:
    """Brutal, Carry X, Questor, Raid, Unique and Wizard are printed keywords the
    rules read (their effects: the battles, raids, quests and attaching tests);
    Holy "has not had special meaning since Second Edition" and no card has it."""
    assert keyword in ALL[hero].keywords
    assert not any("Holy" in card.keywords for card in ALL.values())


def test_net_change_before_the_floor__rulebook_Zero() -> None:
    """"If a 1 Strength hero gets a –2 Strength penalty, then gets a +3 Strength
    bonus afterward, his final Strength is 2"; "If a hero's Will is reduced to
    zero ... bury that hero immediately"."""
    table = new_table(["holden", "malchior"])
    jack = put_in_play(table, 0, "jack_newcomer")
    table.emit("EffectApplied", source="x", target=jack, verb="modify",
               params={"stat": "S", "amount": -2}, duration="end_of_turn", id="a")
    assert frequency.stat(table, jack, "S") == 0
    table.emit("EffectApplied", source="x", target=jack, verb="modify",
               params={"stat": "S", "amount": 3}, duration="end_of_turn", id="b")
    assert frequency.stat(table, jack, "S") == 2
    zahir = put_in_play(table, 1, "zahir")                # 1 Will
    table.emit("MarkerPlaced", source="x", target=zahir, stat="W", amount=-1)
    card_effects.settle_will(table)
    assert zahir in table.zones["buried:1"]


def test_attached_cards_discarded_strength_items_buried__rulebook_Burying_a_Hero(
) -> None:
    """Burying a Hero with Attached Cards: "discard those attached cards. Note
    that when a hero is buried due to absorbing damage, and an item on that hero
    added to the hero's Strength ... that item gets buried as well"."""
    table = new_table(["ord", "malchior"])
    keshie = put_in_play(table, 0, "keshie")
    excel = put_in_play(table, 0, "excel_r8", attach_to=keshie)      # +2S
    amulet = put_in_play(table, 0, "xalfian_amulet", attach_to=keshie)  # +2W only
    card_effects.bury(table, keshie, why="absorb", with_items=True)
    assert excel in table.zones["buried:0"] and amulet in table.zones["discard:0"]
    torin = put_in_play(table, 0, "torin_quickhand")
    other = put_in_play(table, 0, "excel_r8", attach_to=torin)
    card_effects.bury(table, torin, why="effect")
    assert other in table.zones["discard:0"]


def test_a_card_back_in_play_is_a_new_card__rulebook_Card_Memory() -> None:
    """"If a card leaves play for any reason ... all card effects affecting that
    card end. If the card returns to play, it is treated as a new card; it can
    use all its abilities"."""
    table = new_table(["holden", "malchior"])
    library = put_in_play(table, 0, "library")
    table.act(0, UseAbility(source=library))
    table.act(1, Pass())
    card_effects.bury(table, library, why="effect")
    t.table(table).move(library, "play")
    table.act(0, UseAbility(source=library))
    assert len(table.named("AbilityUsed")) == 2


# ----------------------------------------------------------------- Appendices


def test_customizing_your_decks__rulebook_Customizing_Your_Decks() -> None:
    """"Each deck must consist of 55 cards, with no more than 3 copies of an
    individual card. Epic cards can appear only once per deck ... You cannot
    include cards that have faction keywords unless those cards share a faction
    keyword with your stronghold"."""
    base = dict(DECKS["malchior"].cards)

    def deck(**cards: int) -> Deck:
        return Deck("custom", "iron_citadel_of_malchior", ("border_keep", "outpost"),
                    ("border_keep", "outpost"), cards)

    assert not deck_problems(deck(**base), CARDS)
    assert any("55" in p for p in deck_problems(deck(**dict(base, beknine=2)), CARDS))
    assert any("copies" in p for p in deck_problems(deck(**dict(base, beknine=4, zahir=2)),
                                                    CARDS))
    assert any("Epic" in p for p in deck_problems(deck(**dict(base, zahir=1, skafla=2)),
                                                  CARDS))
    assert any("faction" in p for p in deck_problems(
        deck(**dict(base, zahir=2, the_queens_chamber=1)), CARDS))


#: The Deck Lists' printed category counts (castles; the rest by type).
PRINTED = {
    "ixhasa": {"castle": 4, "hero": 13, "property": 13, "tactic": 30},
    "holden": {"castle": 5, "cohort": 2, "hero": 12, "property": 13, "quest": 10,
               "tactic": 19},
    "malchior": {"castle": 5, "cohort": 7, "hero": 16, "property": 13, "tactic": 20},
    "displaced": {"castle": 5, "cohort": 2, "hero": 15, "property": 14, "tactic": 25},
    "ord": {"castle": 5, "cohort": 1, "hero": 13, "item": 7, "property": 14, "spell": 7,
            "tactic": 14},
}


@pytest.mark.parametrize("name", sorted(PRINTED))
def test_each_deck_holds_its_printed_counts__rulebook_Deck_Lists(name: str) -> None:
    """Each heading of the printed deck lists gives a category's count ("Heroes
    (13)"); the properties count the Motte and Bailey the list names."""
    deck = DECKS[name]
    counts: dict[str, int] = {"castle": len(deck.castles), "property": 1}
    for key, n in deck.cards.items():
        kind = CARDS[key].type
        counts[kind] = counts.get(kind, 0) + n
    assert counts == PRINTED[name]
    assert not deck_problems(deck, CARDS)   # each printed list is a legal deck
