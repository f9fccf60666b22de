"""The End Of An Age and End of the Game (rulebook "Allies Scatter", "Glory For The
Kingdoms", "Glory For The Band Of Allies", "A New Age Dawns", "End of the Game",
"Special Scoring For 2-player Games")."""

from __future__ import annotations

from aggregates.ethnos import state as r
from aggregates.ethnos.commands import PlayBand, RecruitFromDeck
from aggregates.ethnos.scoring import band_points, kingdom_awards, outcome, place_awards
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

T5 = ["dwarves", "elves", "halflings", "trolls", "minotaurs"]
T6 = [*T5, "skeletons"]


def zero_markers(g) -> None:  # type: ignore[no-untyped-def]
    g.markers = {k: [0] * len(g.seats) for k in g.markers}


def test_allies_scatter_hands_discarded__rulebook_Allies_Scatter() -> None:
    g = new_game(4, T6, current=0)
    hands = [list(h) for h in g.hands]
    assert all(hands)
    stack(g, dragons_in_deck(g))
    g.act(0, RecruitFromDeck())
    ended = next(e for e in g.collect_events() if type(e).__name__ == "AgeEnded")
    assert ended.scattered == hands and ended.seat == 0


def test_age_one_first_place_gets_token_I__rulebook_Glory_For_The_Kingdoms() -> None:
    g = new_game(4, T6)
    g.glory_tokens["duris"] = [2, 4, 8]
    g.markers["duris"] = [3, 2, 1, 0]
    assert kingdom_awards(g, "duris") == [2, 0, 0, 0]
    g.age = 2
    assert kingdom_awards(g, "duris") == [4, 2, 0, 0]
    g.age = 3
    assert kingdom_awards(g, "duris") == [8, 4, 2, 0]


def test_ties_combine_and_split_rounded_down__rulebook_Glory_For_The_Kingdoms() -> None:
    g = new_game(4, T6, age=3)
    g.glory_tokens["rhea"] = [0, 4, 10]
    g.markers["rhea"] = [2, 2, 2, 1]
    assert kingdom_awards(g, "rhea") == [4, 4, 4, 0]  # (10+4+0)/3
    g.markers["rhea"] = [1, 3, 1, 1]
    assert kingdom_awards(g, "rhea") == [1, 10, 1, 1]  # (4+0)/3 = 1
    g.age = 1
    g.markers["rhea"] = [2, 2, 0, 0]
    assert kingdom_awards(g, "rhea") == [0, 0, 0, 0]  # (0)/2
    g.glory_tokens["rhea"] = [5, 6, 10]
    assert kingdom_awards(g, "rhea") == [2, 2, 0, 0]  # 5/2 rounded down


def test_no_markers_no_glory__rulebook_Glory_For_The_Kingdoms() -> None:
    g = new_game(4, T6, age=3)
    g.markers["rhea"] = [0, 1, 0, 0]
    g.glory_tokens["rhea"] = [2, 4, 6]
    assert kingdom_awards(g, "rhea") == [0, 6, 0, 0]


def test_troll_totals_break_ties__ruling_Trolls() -> None:
    g = new_game(4, T6, age=2)
    g.glory_tokens["rhea"] = [2, 4, 8]
    g.markers["rhea"] = [2, 2, 2, 0]
    g.troll_tokens = [[1], [3], [], []]
    assert kingdom_awards(g, "rhea") == [2, 4, 0, 0]
    g.troll_tokens = [[1, 2], [3], [], []]
    assert kingdom_awards(g, "rhea") == [3, 3, 0, 0]  # troll totals tie: split II+I


def test_place_awards_pool_places_beyond_the_tokens() -> None:
    assert place_awards({0: (1, 0), 1: (1, 0)}, [6], 3) == [3, 3, 0]
    assert place_awards({0: (2, 0), 1: (1, 0), 2: (1, 0)}, [6, 3], 3) == [6, 1, 1]


def test_two_player_last_age_first_takes_highest_second_nothing__rulebook_2_player_Scoring(
) -> None:
    g = new_game(2, T5, age=2)
    g.glory_tokens["ithys"] = [2, 8]
    g.markers["ithys"] = [3, 1]
    assert kingdom_awards(g, "ithys") == [8, 0]
    g.markers["ithys"] = [2, 2]
    assert kingdom_awards(g, "ithys") == [4, 4]
    g.markers["ithys"] = [0, 1]
    assert kingdom_awards(g, "ithys") == [0, 10]  # the only player: both tokens
    g.age = 1
    g.markers["ithys"] = [3, 1]
    assert kingdom_awards(g, "ithys") == [2, 0]  # Age I as normal


def test_three_players_score_normally_over_two_ages__rulebook_2_3_players() -> None:
    g = new_game(3, T5, age=2)
    assert g.ages == 2
    g.glory_tokens["ithys"] = [2, 8]
    g.markers["ithys"] = [3, 1, 0]
    assert kingdom_awards(g, "ithys") == [8, 2, 0]
    g.markers["ithys"] = [0, 1, 0]
    assert kingdom_awards(g, "ithys") == [0, 8, 0]


def test_band_glory_table__rulebook_Glory_For_The_Band_Of_Allies() -> None:
    elf, dwarf = pick("elves")[0], pick("dwarves")[0]
    for size, points in zip(range(1, 9), [0, 1, 3, 6, 10, 15, 15, 15], strict=True):
        assert band_points({"cards": list(range(size)), "leader": elf}) == points
    assert band_points({"cards": [1, 2, 3], "leader": dwarf}) == 6  # Dwarves X+1


def test_end_of_age_discards_bands_returns_tokens_keeps_markers__rulebook_A_New_Age_Dawns(
) -> None:
    g = new_game(4, T6, current=0)
    before = all_cards(g)
    d = pick("dwarves", "red", 2)
    set_hand(g, 0, d)
    act(g, 0, PlayBand(cards=tuple(d), leader=d[0]))
    g.troll_tokens[2] = [4]
    g.trolls_free.remove(4)
    markers = {k: list(v) for k, v in g.markers.items()}
    names = end_age(g)
    assert "BandsScored" in names and "AgeClosed" in names and "AgeBegan" in names
    assert g.bands == [[], [], [], []] and g.markers == markers
    assert g.troll_tokens == [[]] * 4 and g.trolls_free == [1, 2, 3, 4, 5, 6]
    assert g.age == 2 and all_cards(g) == before and len(g.dragons) == 0


def test_next_age_first_player_is_least_glory__rulebook_Beginning_A_New_Age() -> None:
    g = new_game(4, T6, current=2)
    zero_markers(g)
    g.glory = [5, 3, 9, 3]
    end_age(g)  # drawn by seat 2: seats 1 and 3 tied -> closest clockwise from 2 is 3
    assert g.current == 3 and g.first_player == 3


def test_game_ends_after_third_age__rulebook_End_of_the_Game() -> None:
    g = new_game(4, T6, current=0)
    for age in (1, 2, 3):
        assert g.age == age and not g.ended
        end_age(g)
    assert g.ended and g.stage == r.OVER and g.pending() == [] and g.legal_actions(0) == []
    assert g.outcome is not None and g.outcome["result"] == "finished"


def test_two_and_three_players_end_after_two_ages__rulebook_2_3_players() -> None:
    for players in (2, 3):
        g = new_game(players, T5, current=0)
        end_age(g)
        assert not g.ended and g.age == 2
        end_age(g)
        assert g.ended


def test_winner_most_glory_then_markers_then_bands__rulebook_End_of_the_Game() -> None:
    g = new_game(4, T6)
    zero_markers(g)
    g.over = True
    g.glory = [10, 12, 12, 12]
    g.markers["rhea"] = [0, 1, 2, 2]
    g.last_bands = [[], [6], [3, 2, 2], [3, 2, 1]]
    result = outcome(g)
    assert result["winners"] == [2]
    g.last_bands = [[], [6], [3, 2, 1], [3, 2, 1]]
    assert outcome(g)["winners"] == [2, 3]  # still tied: shared
    g.glory = [10, 13, 12, 12]
    assert outcome(g)["winners"] == [1]
