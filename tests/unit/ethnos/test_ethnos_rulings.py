"""Rulings where the rulebook is silent (docs/rulings.md, section "Ethnos")."""

from __future__ import annotations

from aggregates.ethnos.commands import KeepCards, PlayBand, TakeTrollToken
from aggregates.ethnos.scoring import kingdom_awards, merfolk_awards, outcome
from aggregates.ethnos.testing import act, end_age, new_game, pick, set_hand

T6 = ["giants", "dwarves", "elves", "trolls", "merfolk", "orcs"]


def test_marker_is_placed_whenever_the_band_is_large_enough__ruling_marker_automatic() -> None:
    g = new_game(4, T6, current=0)
    d = pick("dwarves", "red", 1)
    set_hand(g, 0, d)
    assert act(g, 0, PlayBand(cards=tuple(d), leader=d[0]))[1] == "MarkerPlaced"
    assert not any(a.NAME == "end_band" for a in g.legal_actions(1))


def test_card_lists_in_any_order__ruling_card_order() -> None:
    g = new_game(4, T6, current=0)
    d = sorted(pick("dwarves", "red", 2))
    set_hand(g, 0, d + pick("elves", "blue", 2))
    act(g, 0, PlayBand(cards=(d[1], d[0]), leader=d[1]))
    assert g.bands[0][0]["cards"] == d
    e = pick("elves", "green", 2)
    set_hand(g, 1, e + pick("dwarves", "gray", 2))
    act(g, 1, PlayBand(cards=tuple(e), leader=e[0]))
    rest = sorted(g.hands[1])
    act(g, 1, KeepCards(cards=(rest[1], rest[0])))
    assert sorted(g.hands[1]) == rest


def test_giant_holder_retaking_scores_again__ruling_Giants() -> None:
    g = new_game(4, T6, current=0)
    small, big = pick("giants", "red", 1), pick("giants", "blue", 2)
    set_hand(g, 0, small)
    act(g, 0, PlayBand(cards=tuple(small), leader=small[0]))
    g.current = 0
    set_hand(g, 0, big)
    assert "GiantTokenTaken" in act(g, 0, PlayBand(cards=tuple(big), leader=big[0]))
    assert g.glory[0] == 4 and g.giant == 0


def test_merfolk_nobody_moved_nobody_scores__ruling_Merfolk() -> None:
    g = new_game(4, T6)
    assert merfolk_awards(g) == [0, 0, 0, 0]
    g.merfolk = [0, 4, 4, 4]
    assert merfolk_awards(g) == [0, 0, 0, 0]  # 1 Glory split three ways, rounded down


def test_troll_tiebreak_applies_to_every_place__ruling_Trolls() -> None:
    g = new_game(4, T6, age=3)
    g.glory_tokens["rhea"] = [2, 4, 8]
    g.markers["rhea"] = [3, 1, 1, 0]
    g.troll_tokens = [[], [], [2], []]
    assert kingdom_awards(g, "rhea") == [8, 2, 4, 0]


def test_end_tiebreak_counts_kingdom_markers_only__ruling_game_end() -> None:
    g = new_game(4, T6)
    g.markers = {k: [0] * 4 for k in g.markers}
    g.markers["ithys"] = [1, 1, 0, 0]
    g.merfolk = [0, 18, 0, 0]
    g.orc_boards = [[], ["red"], [], []]
    g.glory = [5, 5, 0, 0]
    g.last_bands = [[3], [2], [], []]
    g.over = True
    assert outcome(g)["winners"] == [0]


def test_band_size_for_the_last_age_tiebreak_includes_skeletons__ruling_game_end() -> None:
    g = new_game(4, ["skeletons", "dwarves", "elves", "trolls", "merfolk", "orcs"],
                 current=0, age=3)
    s = pick("skeletons", count=2)
    d = pick("dwarves", "red", 1)
    set_hand(g, 0, s + d)
    act(g, 0, PlayBand(cards=tuple(s + d), leader=d[0]))
    end_age(g)
    assert g.ended and g.outcome is not None
    assert g.outcome["last_age_bands"][0] == [3]
    assert g.glory[0] >= 1  # scored as 1 Dwarf (+1): 2 cards -> 1 Glory (+ Kingdom Glory)


def test_abilities_that_can_only_help_are_not_declined__ruling_abilities_automatic() -> None:
    """Rulebook "Playing A Band": "You may use the ability on your Leader's card". The
    Troll token (when one of value <= X is free) and a Merfolk free marker are taken
    without an option to decline: declining could never gain anything."""
    g = new_game(4, T6, current=0)
    t = pick("trolls", "red", 2)
    set_hand(g, 0, t)
    act(g, 0, PlayBand(cards=tuple(t), leader=t[0]))
    assert {a.NAME for a in g.legal_actions(0)} == {"take_troll_token"}
    act(g, 0, TakeTrollToken(value=2))
    m = pick("merfolk", "blue", 2) + pick("merfolk", "red", 1)
    set_hand(g, 1, m)
    names = act(g, 1, PlayBand(cards=tuple(m), leader=m[0]))
    assert "MerfolkAdvanced" in names and g.merfolk[1] == 3
    assert {a.NAME for a in g.legal_actions(1)} == {"choose_kingdom"}
