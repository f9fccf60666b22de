"""Playing A Band Of Allies (rulebook "Playing A Band Of Allies", "Playing A Band Of
Allies For 2-player Games"; rulings "Skeletons")."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from aggregates.ethnos import state as r
from aggregates.ethnos.bands import is_band, legal_bands
from aggregates.ethnos.commands import PlayBand, RecruitFromDeck
from aggregates.ethnos.data import CARDS, TABLES
from aggregates.ethnos.reasons import EthnosReason
from aggregates.ethnos.testing import act, new_game, pick, set_hand
from aggregates.kernel import Reason, RuleError

ALL6 = ["dwarves", "elves", "halflings", "skeletons", "trolls", "minotaurs"]


def refused(game, seat, command) -> Reason:  # type: ignore[no-untyped-def]
    version = game.version
    with pytest.raises(RuleError) as e:
        game.act(seat, command)
    assert game.version == version
    return e.value.reason


def test_same_tribe_band_places_marker_in_leader_colour__rulebook_Playing_A_Band() -> None:
    g = new_game(4, ALL6, current=0)
    red, blue = pick("dwarves", "red")[0], pick("dwarves", "blue")[0]
    set_hand(g, 0, [red, blue])
    names = act(g, 0, PlayBand(cards=(red, blue), leader=blue))
    assert names[:2] == ["BandPlayed", "MarkerPlaced"]
    assert g.markers["straton"] == [1, 0, 0, 0] and g.markers["rhea"] == [0, 0, 0, 0]
    assert g.bands[0] == [{"cards": sorted([red, blue]), "leader": blue, "size": 2}]


def test_same_colour_band_of_mixed_tribes__rulebook_Playing_A_Band() -> None:
    g = new_game(4, ALL6, current=0)
    cards = (pick("dwarves", "green")[0], pick("elves", "green")[0], pick("trolls", "green")[0])
    set_hand(g, 0, list(cards))
    act(g, 0, PlayBand(cards=cards, leader=cards[0]))
    assert g.markers["althea"][0] == 1


def test_mixed_band_refused__rulebook_Playing_A_Band() -> None:
    g = new_game(4, ALL6, current=0)
    a, b = pick("dwarves", "green")[0], pick("elves", "red")[0]
    set_hand(g, 0, [a, b])
    assert refused(g, 0, PlayBand(cards=(a, b), leader=a)) == Reason.ILLEGAL_MOVE


def test_band_refusals() -> None:
    g = new_game(4, ALL6, current=0)
    a, b = pick("dwarves", "green", 2)
    set_hand(g, 0, [a])
    assert refused(g, 0, PlayBand(cards=(), leader=a)) == Reason.BAD_ARGUMENT
    assert refused(g, 0, PlayBand(cards=(a, a), leader=a)) == Reason.BAD_ARGUMENT
    assert refused(g, 0, PlayBand(cards=(a, b), leader=a)) == EthnosReason.NOT_HELD
    assert refused(g, 0, PlayBand(cards=(a,), leader=b)) == Reason.BAD_ARGUMENT
    assert refused(g, 0, PlayBand(cards=(9999,), leader=9999)) == EthnosReason.NOT_HELD


def test_marker_needs_fewer_markers_than_band_size__rulebook_Playing_A_Band() -> None:
    g = new_game(4, ALL6, current=0)
    g.markers["rhea"] = [2, 5, 0, 0]
    two = pick("elves", "red", 2)
    set_hand(g, 0, two)
    names = act(g, 0, PlayBand(cards=tuple(two), leader=two[0]))
    assert "MarkerPlaced" not in names and g.markers["rhea"] == [2, 5, 0, 0]
    three = pick("dwarves", "red", 2) + pick("trolls", "red", 1)
    set_hand(g, 1, three)
    names = act(g, 1, PlayBand(cards=tuple(three), leader=three[0]))
    assert "MarkerPlaced" not in names  # seat 1 has 5 there: needs 6 cards
    g.trolls_free = []
    set_hand(g, 2, pick("trolls", "red", 2)[1:])
    act(g, 2, PlayBand(cards=tuple(g.hands[2]), leader=g.hands[2][0]))
    assert g.markers["rhea"] == [2, 5, 1, 0]


def test_two_player_band_must_exceed_all_markers__rulebook_2_player_Band() -> None:
    """2 of your markers and 1 of your opponent's: at least 4 cards."""
    tribes = ["dwarves", "elves", "halflings", "trolls", "minotaurs"]
    g = new_game(2, tribes, current=0)
    g.markers["duris"] = [2, 1]
    three = pick("dwarves", "purple", 2) + pick("elves", "purple", 1)
    set_hand(g, 0, three)
    assert "MarkerPlaced" not in act(g, 0, PlayBand(cards=tuple(three), leader=three[0]))
    four = pick("trolls", "purple", 2) + pick("halflings", "purple", 2)
    set_hand(g, 1, four)
    names = act(g, 1, PlayBand(cards=tuple(four), leader=four[0]))
    assert "MarkerPlaced" in names and g.markers["duris"] == [2, 2]


def test_rest_of_hand_discarded_face_up__rulebook_Playing_A_Band() -> None:
    g = new_game(4, ALL6, current=0)
    band = pick("dwarves", "red", 1)
    rest = pick("trolls", "blue", 2)
    set_hand(g, 0, band + rest)
    row = list(g.row)
    names = act(g, 0, PlayBand(cards=tuple(band), leader=band[0]))
    assert names[-2:] == ["HandDiscarded", "TurnEnded"]
    assert g.hands[0] == [] and g.row == row + rest and g.current == 1
    # discarded cards are available to recruit
    assert {a.card for a in g.legal_actions(1) if a.NAME == "recruit_face_up"} >= set(rest)  # type: ignore[attr-defined]


def test_band_of_one_card_places_first_marker__rulebook_Playing_A_Band() -> None:
    g = new_game(4, ALL6, current=0)
    one = pick("trolls", "orange", 1)
    set_hand(g, 0, one)
    g.trolls_free = []
    act(g, 0, PlayBand(cards=tuple(one), leader=one[0]))
    assert g.markers["ithys"][0] == 1


def test_skeletons_are_wild__ruling_Skeletons() -> None:
    g = new_game(4, ALL6, current=0)
    skel = pick("skeletons", count=2)
    dwarves = pick("dwarves", "red", 1) + pick("dwarves", "blue", 1)
    set_hand(g, 0, skel + dwarves)
    act(g, 0, PlayBand(cards=tuple(skel + dwarves), leader=dwarves[1]))
    assert g.bands[0][0]["size"] == 4 and g.markers["straton"][0] == 1
    assert is_band(skel + pick("elves", "green", 1) + pick("trolls", "green", 1))


def test_skeletons_cannot_lead__ruling_Skeletons() -> None:
    g = new_game(4, ALL6, current=0)
    skel = pick("skeletons", count=2)
    elf = pick("elves", "red", 1)
    set_hand(g, 0, skel + elf)
    assert refused(g, 0, PlayBand(cards=tuple(skel + elf), leader=skel[0])) == Reason.ILLEGAL_MOVE
    set_hand(g, 0, skel)
    assert refused(g, 0, PlayBand(cards=tuple(skel), leader=skel[0])) == Reason.ILLEGAL_MOVE
    assert not any(a.NAME == "play_band" for a in g.legal_actions(0))


def test_play_band_outside_the_turn_is_wrong_phase() -> None:
    g = new_game(4, ALL6, current=0)
    g.orc_pending = [0]
    assert refused(g, 0, RecruitFromDeck()) == Reason.WRONG_PHASE


def brute_force(hand: list[int]) -> set[tuple[tuple[int, ...], int]]:
    out = set()
    for k in range(1, min(len(hand), TABLES.band_max) + 1):
        for combo in combinations(sorted(hand), k):
            if is_band(combo):
                for leader in combo:
                    if not CARDS[leader].skeleton:
                        out.add((combo, leader))
    return out


def test_legal_bands_are_exactly_the_legal_sets__rulebook_Playing_A_Band() -> None:
    pool = TABLES.allies(["dwarves", "elves", "skeletons", "halflings", "trolls", "orcs"])
    rng = random.Random(7)
    for _ in range(150):
        hand = rng.sample(pool, rng.randint(1, 10))
        listed = [(b.cards, b.leader) for b in legal_bands(hand)]
        assert len(listed) == len(set(listed))
        assert set(listed) == brute_force(hand)


def test_legal_band_list_stays_tractable_for_ten_card_hands() -> None:
    worst = pick("halflings", count=10)
    assert len(legal_bands(worst)) == 10 * 2 ** 9
    mixed = pick("skeletons", count=5) + pick("halflings", "red", count=4) + pick("dwarves", "red")
    assert len(legal_bands(mixed)) <= 20_000


def test_every_listed_band_is_accepted__rulebook_Playing_A_Band() -> None:
    import copy
    g = new_game(4, ALL6, current=0)
    set_hand(g, 0, pick("skeletons", count=2) + pick("dwarves", "red", 2) + pick("elves", "red", 1))
    listed = [a for a in g.legal_actions(0) if a.NAME == "play_band"]
    assert listed
    for command in listed:
        trial = copy.deepcopy(g)
        trial.act(0, command)
        assert trial.stage in (r.TURN, r.ELVES)
