"""Playing Through An Age: Recruiting Allies, the hand limit, Dragon cards
(rulebook "Recruiting Allies", "Dragon Cards", "Playing Through An Age")."""

from __future__ import annotations

import pytest

from aggregates.ethnos import state as r
from aggregates.ethnos.commands import PlayBand, RecruitFaceUp, RecruitFromDeck
from aggregates.ethnos.data import CARDS
from aggregates.ethnos.testing import (
    act,
    all_cards,
    dragons_in_deck,
    new_game,
    pick,
    set_hand,
    stack,
)
from aggregates.kernel import Reason, RuleError


def test_recruit_face_up_is_not_replaced__rulebook_Recruiting_Allies() -> None:
    g = new_game(4, current=0)
    card = g.row[3]
    deck = list(g.deck)
    assert act(g, 0, RecruitFaceUp(card=card)) == ["RecruitedFaceUp", "TurnEnded"]
    assert card in g.hands[0] and card not in g.row and len(g.row) == 7
    assert g.deck == deck


def test_recruit_from_deck_takes_the_top_card__rulebook_Recruiting_Allies() -> None:
    g = new_game(4, current=0)
    top = g.deck[0]
    assert act(g, 0, RecruitFromDeck()) == ["DrewFromDeck", "TurnEnded"]
    assert g.hands[0][-1] == top and g.deck[0] != top


def test_turns_go_to_the_left__rulebook_Playing_Through_An_Age() -> None:
    g = new_game(3, current=2)
    act(g, 2, RecruitFromDeck())
    assert g.current == 0
    act(g, 0, RecruitFromDeck())
    assert g.current == 1
    assert g.pending()[0].seat == 1 and g.pending()[0].kind == r.TURN


def test_not_your_turn() -> None:
    g = new_game(4, current=1)
    with pytest.raises(RuleError) as e:
        g.act(2, RecruitFromDeck())
    assert e.value.reason == Reason.NOT_YOUR_TURN
    assert g.legal_actions(2) == []


def test_face_up_card_must_be_in_the_row__rulebook_Recruiting_Allies() -> None:
    g = new_game(4, current=0)
    with pytest.raises(RuleError) as e:
        g.act(0, RecruitFaceUp(card=g.deck[0]))
    assert e.value.reason == Reason.ILLEGAL_MOVE


def test_hand_limit_ten_forces_a_band__rulebook_Hand_Limit() -> None:
    g = new_game(4, current=0)
    set_hand(g, 0, pick("dwarves", count=10))
    for command in (RecruitFromDeck(), RecruitFaceUp(card=g.row[0])):
        with pytest.raises(RuleError) as e:
            g.act(0, command)
        assert e.value.reason == Reason.ILLEGAL_MOVE
    assert {a.NAME for a in g.legal_actions(0)} == {"play_band"}
    set_hand(g, 0, pick("dwarves", count=9))
    assert "recruit_from_deck" in {a.NAME for a in g.legal_actions(0)}


def test_hand_of_only_skeletons_may_still_recruit__ruling_skeleton_hand() -> None:
    g = new_game(4, current=0)
    set_hand(g, 0, pick("skeletons", count=10))
    names = {a.NAME for a in g.legal_actions(0)}
    assert names == {"recruit_face_up", "recruit_from_deck"}
    act(g, 0, RecruitFromDeck())
    assert len(g.hands[0]) == 11


def test_dragon_is_revealed_and_replaced__rulebook_Dragon_Cards() -> None:
    g = new_game(4, current=0)
    dragon = dragons_in_deck(g)[0]
    ally = pick("elves", "red")[0]
    stack(g, [dragon, ally])
    names = act(g, 0, RecruitFromDeck())
    assert names == ["DragonRevealed", "DrewFromDeck", "TurnEnded"]
    assert g.dragons == [dragon] and ally in g.hands[0] and dragon not in g.hands[0]
    assert g.view(None)["dragons"] == [CARDS[dragon].as_view()]


def test_third_dragon_ends_the_age_at_once__rulebook_Dragon_Cards() -> None:
    g = new_game(4, current=2)
    d1, d2, d3 = dragons_in_deck(g)
    ally = pick("elves", "red")[0]
    stack(g, [d1, d2, d3, ally])
    names = act(g, 2, RecruitFromDeck())
    assert names[:4] == ["DragonRevealed", "DragonRevealed", "DragonRevealed", "AgeEnded"]
    assert "DrewFromDeck" not in names
    assert g.age == 2 and g.third_dragon_seat == 2
    assert "AgeBegan" in names and names[-1] == "RowTurned"
    assert [len(h) for h in g.hands] == [1, 1, 1, 1]


def test_cards_conserved_across_an_age_change__rulebook_A_New_Age_Dawns() -> None:
    g = new_game(4, current=0)
    before = all_cards(g)
    stack(g, dragons_in_deck(g))
    dwarf = pick("dwarves", "red")[0]
    set_hand(g, 0, [dwarf])
    act(g, 0, PlayBand(cards=(dwarf,), leader=dwarf))
    act(g, 1, RecruitFromDeck())
    assert g.age == 2 and all_cards(g) == before
