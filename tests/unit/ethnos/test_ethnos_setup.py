"""Setup, options, and Beginning A New Age (rulebook "Setup", "Beginning A New Age",
"Playing With 2 Or 3 Players")."""

from __future__ import annotations

import pytest

from aggregates.ethnos import Ethnos
from aggregates.ethnos.ages import deal_order, first_player
from aggregates.ethnos.data import CARDS, TABLES, TRIBES
from aggregates.ethnos.testing import all_cards
from aggregates.kernel import Reason, RuleError
from aggregates.kernel.game import DiceTray


def seats(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


@pytest.mark.parametrize("players,want", [(2, 5), (3, 5), (4, 6), (5, 6), (6, 6)])
def test_random_tribes_six_or_five__rulebook_Setup_and_2_3_players(players: int, want: int) -> None:
    for s in range(5):
        g = Ethnos.start(seats(players), seed=f"{s + 1:064x}")
        assert len(g.tribes) == want and set(g.tribes) <= set(TRIBES)
        assert sorted(set(CARDS[c].tribe for c in all_cards(g))) == sorted([*g.tribes, "dragon"])


def test_random_tribes_vary_with_the_seed__rulebook_Setup() -> None:
    chosen = {tuple(Ethnos.start(seats(4), seed=f"{s + 1:064x}").tribes) for s in range(10)}
    assert len(chosen) > 1


def test_chosen_tribes_option__rulebook_Setup() -> None:
    g = Ethnos.start(seats(4), {"tribes": ["wizards", "orcs", "elves", "giants", "trolls",
                                           "merfolk"]}, seed="1" * 64)
    assert g.tribes == ["elves", "giants", "merfolk", "orcs", "trolls", "wizards"]
    assert g.options == {"tribes": g.tribes}


@pytest.mark.parametrize("players,options", [
    (4, {"tribes": ["orcs"] * 6}),
    (4, {"tribes": ["orcs", "elves", "giants", "trolls", "merfolk"]}),
    (3, {"tribes": ["orcs", "elves", "giants", "trolls", "merfolk", "wizards"]}),
    (4, {"tribes": ["orcs", "elves", "giants", "trolls", "merfolk", "dragons"]}),
    (4, {"tribes": "orcs"}),
    (4, {"tribes": [1, 2, 3, 4, 5, 6]}),
    (4, {"tribes": ["orcs", "elves", "giants", "trolls"]}),
    (4, {"colours": 3}),
])
def test_bad_options_refused__rulebook_Setup(players: int, options: dict) -> None:
    with pytest.raises(RuleError) as e:
        Ethnos.start(seats(players), options)
    assert e.value.reason == Reason.BAD_OPTIONS


@pytest.mark.parametrize("players", [1, 7])
def test_two_to_six_seats(players: int) -> None:
    with pytest.raises(RuleError) as e:
        Ethnos.start(seats(players))
    assert e.value.reason == Reason.BAD_SEATS


def test_glory_tokens_three_per_kingdom_ascending__rulebook_Setup() -> None:
    g = Ethnos.start(seats(4), seed="2" * 64)
    tokens = [v for k in TABLES.kingdom_keys for v in g.glory_tokens[k]]
    assert sorted(tokens) == sorted(v for v, _ in TABLES.glory_tokens)
    assert all(len(t) == 3 and t == sorted(t) for t in g.glory_tokens.values())


def test_glory_tokens_two_per_kingdom_without_4plus__rulebook_2_3_players_Setup() -> None:
    for players in (2, 3):
        g = Ethnos.start(seats(players), seed="3" * 64)
        tokens = [v for k in TABLES.kingdom_keys for v in g.glory_tokens[k]]
        assert sorted(tokens) == sorted(v for v, plus in TABLES.glory_tokens if not plus)
        assert all(len(t) == 2 and t == sorted(t) for t in g.glory_tokens.values())
        assert g.ages == 2


def test_boards_and_tokens__rulebook_Setup_a_to_d() -> None:
    g = Ethnos.start(seats(5), {"tribes": ["merfolk", "trolls", "giants", "orcs", "elves",
                                           "dwarves"]}, seed="4" * 64)
    assert g.merfolk == [0] * 5 and g.trolls_free == [1, 2, 3, 4, 5, 6]
    assert g.giant is None and g.orc_boards == [[]] * 5
    v = g.view(0)
    assert v["merfolk_track"] == [0] * 5 and v["troll_tokens_free"] == [1, 2, 3, 4, 5, 6]
    assert v["giant_token"] is None and v["orc_horde_boards"] == [[]] * 5
    g2 = Ethnos.start(seats(5), {"tribes": ["wizards", "wingfolk", "halflings", "centaurs",
                                            "elves", "dwarves"]}, seed="4" * 64)
    assert g2.trolls_free == []
    optional = {"merfolk_track", "troll_tokens", "giant_token", "orc_horde_boards"}
    assert not optional & set(g2.view(0))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_new_age_deal__rulebook_Beginning_A_New_Age(players: int) -> None:
    """One card each, a row of 2x players, Dragons all in the bottom half of the deck."""
    g = Ethnos.start(seats(players), seed="5" * 64)
    assert [len(h) for h in g.hands] == [1] * players
    assert len(g.row) == 2 * players
    allies = len(TABLES.allies(g.tribes))
    assert len(g.deck) == allies - 3 * players + 3
    rest = allies - 3 * players
    top = g.deck[: rest // 2]
    assert not any(CARDS[c].dragon for c in top)
    assert sum(CARDS[c].dragon for c in g.deck) == 3
    assert g.age == 1 and g.dragons == []


def test_deal_order_puts_dragons_in_the_bottom_half__rulebook_Beginning_A_New_Age() -> None:
    for s in range(20):
        tray = DiceTray(f"{s + 7:064x}", 0)
        deck = deal_order(tray.shuffled, ["dwarves", "elves", "orcs", "giants", "trolls"], 3)
        rest = deck[9:]
        positions = [i for i, c in enumerate(rest) if CARDS[c].dragon]
        assert len(positions) == 3 and min(positions) >= (len(rest) - 3) // 2


def test_first_player_of_age_one_is_random__rulebook_Beginning_A_New_Age() -> None:
    firsts = {Ethnos.start(seats(4), seed=f"{s + 1:064x}").current for s in range(24)}
    assert len(firsts) > 1


def test_first_player_least_glory_ties_clockwise_from_third_dragon__rulebook_Beginning_A_New_Age(
) -> None:
    assert first_player([10, 4, 7, 9], third_dragon_seat=0) == 1
    assert first_player([10, 4, 7, 4], third_dragon_seat=2) == 3
    assert first_player([10, 4, 7, 4], third_dragon_seat=0) == 1
    assert first_player([4, 4, 7, 4], third_dragon_seat=3) == 3
    assert first_player([4, 9, 7, 4], third_dragon_seat=1) == 3
