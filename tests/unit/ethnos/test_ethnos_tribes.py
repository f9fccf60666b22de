"""The Tribes' abilities (rulings "Tribe abilities"; only the Leader's ability applies)."""

from __future__ import annotations

import pytest

from aggregates.ethnos import state as r
from aggregates.ethnos.commands import (
    ChooseKingdom,
    EndBand,
    KeepCards,
    PlayBand,
    RecruitFromDeck,
    ScoreOrcHorde,
    TakeTrollToken,
    WizardsDraw,
)
from aggregates.ethnos.reasons import EthnosReason
from aggregates.ethnos.testing import (
    act,
    all_cards,
    dragons_in_deck,
    end_age,
    new_game,
    pick,
    set_hand,
    stack,
)
from aggregates.kernel import Reason, RuleError


def refused(game, seat, command) -> Reason:  # type: ignore[no-untyped-def]
    version = game.version
    with pytest.raises(RuleError) as e:
        game.act(seat, command)
    assert game.version == version
    return e.value.reason


def band(*cards: int, leader: int | None = None) -> PlayBand:
    return PlayBand(cards=tuple(cards), leader=cards[0] if leader is None else leader)


# ------------------------------------------------------------------ Centaurs

CENT = ["centaurs", "dwarves", "elves", "wizards", "wingfolk", "skeletons"]


def test_centaurs_chain_another_band_after_placing_a_marker__ruling_Centaurs() -> None:
    g = new_game(4, CENT, current=0)
    c = pick("centaurs", "red", 1)
    d = pick("dwarves", "blue", 2)
    extra = pick("elves", "green", 1)
    set_hand(g, 0, c + d + extra)
    names = act(g, 0, band(*c))
    assert names == ["BandPlayed", "MarkerPlaced"]
    assert g.stage == r.CENTAUR and g.current == 0 and len(g.hands[0]) == 3
    legal = g.legal_actions(0)
    assert EndBand() in legal and band(*sorted(d), leader=d[0]) in legal
    names = act(g, 0, PlayBand(cards=tuple(d), leader=d[1]))
    assert names == ["BandPlayed", "MarkerPlaced", "HandDiscarded", "TurnEnded"]
    assert g.markers["rhea"][0] == 1 and g.markers["straton"][0] == 1
    assert g.hands[0] == [] and extra[0] in g.row and len(g.bands[0]) == 2


def test_centaur_chain_of_centaurs__ruling_Centaurs() -> None:
    g = new_game(4, CENT, current=0)
    c1, c2 = pick("centaurs", "red", 1), pick("centaurs", "blue", 1)
    d = pick("dwarves", "green", 1)
    set_hand(g, 0, c1 + c2 + d)
    act(g, 0, band(*c1))
    act(g, 0, band(*c2))
    assert g.stage == r.CENTAUR
    act(g, 0, band(*d))
    assert g.current == 1 and len(g.bands[0]) == 3


def test_centaurs_no_chain_without_a_marker__ruling_Centaurs() -> None:
    g = new_game(4, CENT, current=0)
    g.markers["rhea"][0] = 1
    c = pick("centaurs", "red", 1)
    set_hand(g, 0, c + pick("dwarves", "blue", 1))
    names = act(g, 0, band(*c))
    assert names == ["BandPlayed", "HandDiscarded", "TurnEnded"]


def test_centaurs_stop_discards__ruling_Centaurs() -> None:
    g = new_game(4, CENT, current=0)
    c = pick("centaurs", "red", 1)
    rest = pick("dwarves", "blue", 1)
    set_hand(g, 0, c + rest)
    act(g, 0, band(*c))
    assert refused(g, 0, RecruitFromDeck()) == Reason.WRONG_PHASE
    assert act(g, 0, EndBand()) == ["HandDiscarded", "TurnEnded"]
    assert rest[0] in g.row
    assert refused(g, 1, EndBand()) == Reason.WRONG_PHASE


def test_centaurs_no_chain_with_only_skeletons_left__ruling_Centaurs() -> None:
    g = new_game(4, CENT, current=0)
    c = pick("centaurs", "red", 1)
    set_hand(g, 0, c + pick("skeletons", count=1))
    assert act(g, 0, band(*c))[-1] == "TurnEnded"


# ------------------------------------------------------------------- Dwarves

def test_dwarves_score_as_x_plus_one__ruling_Dwarves() -> None:
    g = new_game(4, CENT, current=0)
    d = pick("dwarves", "red", 2) + pick("dwarves", "blue", 1)
    e = pick("elves", "red", 2) + pick("elves", "blue", 1)
    set_hand(g, 0, d)
    act(g, 0, band(*d))
    assert g.markers["rhea"][0] == 1  # marker test uses X=3 (no +1)
    set_hand(g, 1, e)
    act(g, 1, band(*e))
    g.markers = {k: [0, 0, 0, 0] for k in g.markers}
    end_age(g)
    assert g.glory[0] == 6 and g.glory[1] == 3  # 3 Dwarves count 4 -> 6; 3 Elves -> 3


# --------------------------------------------------------------------- Elves

def test_elves_keep_up_to_x_cards__ruling_Elves() -> None:
    g = new_game(4, CENT, current=0)
    e = pick("elves", "red", 2)
    rest = pick("dwarves", "blue", 2) + pick("wizards", "gray", 1)
    set_hand(g, 0, e + rest)
    assert act(g, 0, band(*e)) == ["BandPlayed", "MarkerPlaced"]
    assert g.stage == r.ELVES
    legal = g.legal_actions(0)
    assert len(legal) == 1 + 3 + 3  # keep 0, 1 or 2 of 3
    assert refused(g, 0, KeepCards(cards=tuple(rest))) == Reason.ILLEGAL_MOVE
    assert refused(g, 0, KeepCards(cards=(e[0],))) == EthnosReason.NOT_HELD
    names = act(g, 0, KeepCards(cards=(rest[0], rest[2])))
    assert names == ["HandDiscarded", "TurnEnded"]
    assert sorted(g.hands[0]) == sorted([rest[0], rest[2]]) and rest[1] in g.row


def test_elves_with_empty_hand_ask_nothing__ruling_Elves() -> None:
    g = new_game(4, CENT, current=0)
    e = pick("elves", "red", 2)
    set_hand(g, 0, e)
    assert act(g, 0, band(*e))[-1] == "TurnEnded"


# -------------------------------------------------------------------- Giants

GIANTS = ["giants", "dwarves", "elves", "trolls", "merfolk", "orcs"]


def test_giants_take_the_token_and_score_2__ruling_Giants() -> None:
    g = new_game(4, GIANTS, current=0)
    g1 = pick("giants", "red", 2)
    set_hand(g, 0, g1)
    assert "GiantTokenTaken" in act(g, 0, band(*g1))
    assert g.giant == 0 and g.glory[0] == 2
    g2 = pick("giants", "blue", 2)
    set_hand(g, 1, g2)
    assert "GiantTokenTaken" not in act(g, 1, band(*g2))  # equal, not larger
    assert g.giant == 0 and g.glory[1] == 0
    g3 = pick("giants", "green", 2) + pick("giants", "gray", 1)
    set_hand(g, 2, g3)
    assert "GiantTokenTaken" in act(g, 2, band(*g3))
    assert g.giant == 2 and g.glory == [2, 0, 2, 0]


def test_giant_token_scores_at_end_of_age_and_returns__ruling_Giants() -> None:
    for players, per_age in ((4, [2, 4, 6]), (3, [2, 5])):
        tribes = GIANTS if players == 4 else GIANTS[:5]
        g = new_game(players, tribes, current=0)
        for age, value in enumerate(per_age, start=1):
            assert g.age == age
            card = pick("giants", "red", 1)
            set_hand(g, g.current, card)
            seat = g.current
            act(g, seat, band(*card))
            g.markers = {k: [0] * players for k in g.markers}
            before = g.glory[seat]
            names = end_age(g)
            assert "GiantScored" in names
            assert g.glory[seat] - before == value
            assert g.giant is None


# ----------------------------------------------------------------- Halflings

def test_halflings_place_no_marker__ruling_Halflings() -> None:
    g = new_game(4, ["halflings", "dwarves", "elves", "trolls", "merfolk", "orcs"], current=0)
    h = pick("halflings", "red", 3)
    set_hand(g, 0, h)
    assert "MarkerPlaced" not in act(g, 0, band(*h))
    assert g.markers["rhea"] == [0, 0, 0, 0]


# ------------------------------------------------------------------- Merfolk

def test_merfolk_advance_and_free_markers__ruling_Merfolk() -> None:
    g = new_game(4, GIANTS, current=0)
    m = pick("merfolk", "red", 2) + pick("merfolk", "blue", 2)
    set_hand(g, 0, m)
    g.merfolk[0] = 2
    names = act(g, 0, band(*m))  # 2 -> 6 passes space 3
    assert names == ["BandPlayed", "MarkerPlaced", "MerfolkAdvanced"]
    assert g.merfolk[0] == 6 and g.stage == r.MERFOLK
    assert len(g.legal_actions(0)) == 6
    g.markers["pelagon"] = [9, 9, 9, 9]  # no band-size test
    assert act(g, 0, ChooseKingdom(kingdom="pelagon")) == ["MarkerPlaced", "HandDiscarded",
                                                           "TurnEnded"]
    assert g.markers["pelagon"][0] == 10


def test_merfolk_several_spaces_at_once_and_track_end__ruling_Merfolk() -> None:
    g = new_game(4, GIANTS, current=0)
    colours = ("red", "blue", "green", "gray")
    set_hand(g, 0, [c for col in colours for c in pick("merfolk", col, 2)]
             + pick("merfolk", "orange", 1))
    m = list(g.hands[0])
    g.merfolk[0] = 10
    act(g, 0, PlayBand(cards=tuple(m), leader=pick("merfolk", "red")[0]))
    assert g.merfolk[0] == 18 and g.steps == [r.MERFOLK, r.MERFOLK]  # spaces 12 and 18
    assert refused(g, 0, ChooseKingdom(kingdom="atlantis")) == Reason.BAD_ARGUMENT
    act(g, 0, ChooseKingdom(kingdom="ithys"))
    act(g, 0, ChooseKingdom(kingdom="ithys"))
    assert g.markers["ithys"][0] == 2 and g.current == 1
    card = pick("merfolk", "purple", 1)
    set_hand(g, 1, card)
    g.merfolk[1] = 18
    assert "MerfolkAdvanced" not in act(g, 1, band(*card))


def test_merfolk_end_of_age_scoring_with_troll_tiebreak__ruling_Merfolk() -> None:
    g = new_game(4, GIANTS, current=0)
    g.merfolk = [5, 5, 3, 0]
    g.troll_tokens = [[], [2], [6], []]
    g.trolls_free = [1, 3, 4, 5]
    g.markers = {k: [0] * 4 for k in g.markers}
    names = end_age(g)
    assert "MerfolkScored" in names and g.glory == [0, 1, 0, 0]
    assert g.merfolk == [5, 5, 3, 0]  # kept between Ages
    g.merfolk = [5, 5, 3, 0]
    g.markers = {k: [0] * 4 for k in g.markers}
    end_age(g)  # Age II: 2 Glory split between the tied leaders
    assert g.glory == [1, 2, 0, 0]


# ----------------------------------------------------------------- Minotaurs

def test_minotaurs_count_x_plus_one_for_markers__ruling_Minotaurs() -> None:
    g = new_game(4, ["minotaurs", "dwarves", "elves", "trolls", "merfolk", "orcs"], current=0)
    g.markers["rhea"] = [2, 2, 0, 0]
    mi = pick("minotaurs", "red", 2)
    set_hand(g, 0, mi)
    assert "MarkerPlaced" in act(g, 0, band(*mi))
    d = pick("dwarves", "red", 2)
    set_hand(g, 1, d)
    assert "MarkerPlaced" not in act(g, 1, band(*d))
    assert g.markers["rhea"] == [3, 2, 0, 0]


# ---------------------------------------------------------------------- Orcs

def test_orc_horde_board_marks_each_colour_once__ruling_Orcs() -> None:
    g = new_game(4, GIANTS, current=0)
    o = pick("orcs", "red", 2)
    set_hand(g, 0, o[:1])
    assert "OrcMarkerPlaced" in act(g, 0, band(o[0]))
    g.current = 0
    set_hand(g, 0, o[1:])
    assert "OrcMarkerPlaced" not in act(g, 0, band(o[1]))
    assert g.orc_boards[0] == ["red"]


def test_orc_horde_optional_at_end_of_age_any_order__ruling_Orcs() -> None:
    g = new_game(4, GIANTS, current=0)
    g.orc_boards = [["red", "blue", "green"], [], ["gray"], []]
    g.markers = {k: [0] * 4 for k in g.markers}
    names = end_age(g)
    assert names[-1] == "AgeEnded" and g.stage == r.ORC_HORDE
    assert sorted(d.seat for d in g.pending()) == [0, 2]
    assert g.legal_actions(1) == [] and len(g.legal_actions(2)) == 2
    assert act(g, 2, ScoreOrcHorde(score=False)) == ["OrcHordeChosen"]
    names = act(g, 0, ScoreOrcHorde(score=True))
    assert "OrcHordeScored" in names and g.age == 2
    assert g.glory[0] == 6 and g.orc_boards[0] == [] and g.orc_boards[2] == ["gray"]


def test_orc_horde_scored_automatically_at_the_last_age__ruling_Orcs() -> None:
    g = new_game(3, ["orcs", "dwarves", "elves", "trolls", "merfolk"], current=0, age=2)
    g.orc_boards = [["red", "blue", "green", "gray", "orange", "purple"], ["red"], []]
    g.markers = {k: [0] * 3 for k in g.markers}
    names = end_age(g)
    assert names.count("OrcHordeScored") == 2 and g.ended
    assert g.glory == [20, 1, 0]


# ----------------------------------------------------------------- Skeletons

def test_skeletons_removed_before_band_scoring__ruling_Skeletons() -> None:
    g = new_game(4, CENT, current=0)
    s = pick("skeletons", count=2)
    d = pick("dwarves", "red", 1) + pick("elves", "red", 1)
    set_hand(g, 0, s + d)
    act(g, 0, band(*(s + d), leader=d[1]))
    assert g.bands[0][0]["size"] == 4
    g.markers = {k: [0] * 4 for k in g.markers}
    names = end_age(g)
    assert "SkeletonsRemoved" in names
    assert g.glory[0] == 1  # 2 cards left -> 1 Glory (not 6 for 4)


# -------------------------------------------------------------------- Trolls

def test_trolls_take_a_token_at_most_x__ruling_Trolls() -> None:
    g = new_game(4, GIANTS, current=0)
    t = pick("trolls", "red", 2) + pick("trolls", "blue", 1)
    set_hand(g, 0, t)
    act(g, 0, band(*t))
    assert g.stage == r.TROLL
    assert [a.value for a in g.legal_actions(0)] == [1, 2, 3]  # type: ignore[attr-defined]
    assert refused(g, 0, TakeTrollToken(value=4)) == Reason.ILLEGAL_MOVE
    assert act(g, 0, TakeTrollToken(value=3)) == ["TrollTokenTaken", "HandDiscarded", "TurnEnded"]
    assert g.troll_tokens[0] == [3] and 3 not in g.trolls_free
    t2 = pick("trolls", "green", 2) + pick("trolls", "gray", 1)
    set_hand(g, 1, t2)
    act(g, 1, band(*t2))
    assert refused(g, 1, TakeTrollToken(value=3)) == Reason.ILLEGAL_MOVE  # claimed


def test_trolls_nothing_to_take__ruling_Trolls() -> None:
    g = new_game(4, GIANTS, current=0)
    g.trolls_free = [4, 5]
    t = pick("trolls", "red", 2)
    set_hand(g, 0, t)
    assert act(g, 0, band(*t))[-1] == "TurnEnded"


def test_troll_tokens_break_kingdom_ties_and_return__ruling_Trolls() -> None:
    g = new_game(4, GIANTS, current=0)
    g.glory_tokens["rhea"] = [2, 4, 8]
    g.markers = {k: [0] * 4 for k in g.markers}
    g.markers["rhea"] = [2, 2, 0, 0]
    g.troll_tokens = [[1], [], [], [5]]
    g.trolls_free = [2, 3, 4, 6]
    end_age(g)
    assert g.glory[:2] == [2, 0]
    assert g.troll_tokens == [[], [], [], []] and g.trolls_free == [1, 2, 3, 4, 5, 6]


# ------------------------------------------------------------------ Wingfolk

WING = ["wingfolk", "dwarves", "elves", "trolls", "merfolk", "orcs"]


def test_wingfolk_marker_in_any_kingdom_size_test_there__ruling_Wingfolk() -> None:
    g = new_game(4, WING, current=0)
    g.markers["duris"] = [2, 0, 0, 0]
    g.markers["rhea"] = [2, 0, 0, 0]
    w = pick("wingfolk", "purple", 2)
    set_hand(g, 0, w)
    assert act(g, 0, band(*w)) == ["BandPlayed"]
    assert g.stage == r.WINGFOLK
    kingdoms = [a.kingdom for a in g.legal_actions(0)]  # type: ignore[attr-defined]
    assert kingdoms == ["ithys", "straton", "althea", "pelagon"]
    assert refused(g, 0, ChooseKingdom(kingdom="duris")) == Reason.ILLEGAL_MOVE
    act(g, 0, ChooseKingdom(kingdom="pelagon"))
    assert g.markers["pelagon"][0] == 1 and g.current == 1


def test_wingfolk_without_any_kingdom_asks_nothing__ruling_Wingfolk() -> None:
    g = new_game(4, WING, current=0)
    g.markers = {k: [1, 0, 0, 0] for k in g.markers}
    w = pick("wingfolk", "purple", 1)
    set_hand(g, 0, w)
    assert act(g, 0, band(*w)) == ["BandPlayed", "HandDiscarded", "TurnEnded"]


# ------------------------------------------------------------------- Wizards

def test_wizards_draw_x_after_discarding__ruling_Wizards() -> None:
    g = new_game(4, CENT, current=0)
    wz = pick("wizards", "red", 2)
    rest = pick("dwarves", "blue", 1)
    set_hand(g, 0, wz + rest)
    top = g.deck[:2]
    names = act(g, 0, band(*wz))
    assert names == ["BandPlayed", "MarkerPlaced", "HandDiscarded"]  # the discard leaves it
    assert g.wizards_x == 2
    assert g.stage == "wizards" and g.legal_actions(0) == [WizardsDraw(True), WizardsDraw(False)]
    names = act(g, 0, WizardsDraw(draw=True))
    assert names == ["WizardsAnswered", "DrewFromDeck", "DrewFromDeck", "TurnEnded"]
    assert sorted(g.hands[0]) == sorted(top) and rest[0] in g.row


def test_wizards_draw_is_optional__rulebook_Playing_A_Band_you_may_use_the_ability() -> None:
    """"You may use the ability on your Leader's card": a Wizards player who fears the
    third Dragon may decline the draw."""
    g = new_game(4, CENT, current=0)
    wz = pick("wizards", "red", 2)
    set_hand(g, 0, wz)
    deck = list(g.deck)
    act(g, 0, band(*wz))
    assert act(g, 0, WizardsDraw(draw=False)) == ["WizardsAnswered", "TurnEnded"]
    assert g.hands[0] == [] and g.deck == deck and g.current == 1


def test_wizard_dragon_is_replaced__ruling_Wizards() -> None:
    g = new_game(4, CENT, current=0)
    wz = pick("wizards", "red", 1)
    set_hand(g, 0, wz)
    dragon = dragons_in_deck(g)[0]
    ally = pick("elves", "gray", 1)
    stack(g, [dragon, *ally])
    act(g, 0, band(*wz))
    names = act(g, 0, WizardsDraw(draw=True))
    assert names[-3:] == ["DragonRevealed", "DrewFromDeck", "TurnEnded"]
    assert g.hands[0] == ally


def test_wizard_drawing_the_third_dragon_ends_the_age__ruling_Wizards() -> None:
    g = new_game(4, CENT, current=0)
    wz = pick("wizards", "red", 2) + pick("wizards", "blue", 1)
    set_hand(g, 0, wz)
    before = all_cards(g)
    d = dragons_in_deck(g)
    ally = pick("elves", "gray", 1)
    stack(g, [*ally, *d])
    names = act(g, 0, band(*wz)) + act(g, 0, WizardsDraw(draw=True))
    assert names[:8] == ["BandPlayed", "MarkerPlaced", "HandDiscarded",
                         "WizardsAnswered", "DrewFromDeck",
                         "DragonRevealed", "DragonRevealed", "DragonRevealed"]
    assert names[8] == "AgeEnded"
    assert "TurnEnded" not in names and g.age == 2 and g.third_dragon_seat == 0
    assert all_cards(g) == before
