"""Ethnos: the rulebook's worked examples, step by step.

Hands, the row and the deck are arranged with ``aggregates.ethnos.testing``
(cards are moved between zones, never created). Seats: Roderick 0, Alexis 1,
Wilfred 2 (and a fourth player where the example needs a 4-player game).
"""

from __future__ import annotations

import copy

from aggregates.ethnos import Ethnos
from aggregates.ethnos.commands import ChooseKingdom, PlayBand, RecruitFaceUp, RecruitFromDeck
from aggregates.ethnos.testing import act, dragons_in_deck, pick, set_hand, set_row, stack
from aggregates.kernel import event_type, payload_of

RODERICK, ALEXIS, WILFRED = 0, 1, 2
TRIBES = ["dwarves", "wingfolk", "elves", "halflings", "trolls", "minotaurs"]


def game(players: int = 4, **state: object) -> Ethnos:
    names = ["Roderick", "Alexis", "Wilfred", "Zoe"][:players]
    g = Ethnos.start(names, {"tribes": TRIBES if players > 3 else TRIBES[:5]}, seed="7" * 64)
    g.collect_events()
    g.current = RODERICK
    for k, v in state.items():
        setattr(g, k, v)
    return g


def test_roderick_takes_the_purple_dwarf_alexis_draws_blind__rulebook_Recruiting_Allies(
) -> None:
    """Roderick has a couple of Dwarves and takes the face-up purple Dwarf; Alexis draws
    the top card of the Allies deck, which the other players don't know."""
    g = game()
    dwarves = pick("dwarves", "red", 1) + pick("dwarves", "blue", 1)
    purple_dwarf = pick("dwarves", "purple", 1)[0]
    set_hand(g, RODERICK, dwarves)
    set_row(g, [purple_dwarf, *pick("halflings", "green", 2), *pick("elves", "red", 2),
                *pick("trolls", "gray", 2), *pick("trolls", "orange", 1)])
    assert act(g, RODERICK, RecruitFaceUp(card=purple_dwarf)) == ["RecruitedFaceUp", "TurnEnded"]
    assert purple_dwarf in g.hands[RODERICK] and purple_dwarf not in g.row
    assert len(g.row) == 7  # not replaced
    top = g.deck[0]
    g.act(ALEXIS, RecruitFromDeck())
    drew = next(e for e in g.collect_events() if event_type(e) == "DrewFromDeck")
    assert top in g.hands[ALEXIS] and payload_of(drew)["card"] == top
    for other in (RODERICK, WILFRED, None):
        assert not Ethnos.audience("DrewFromDeck", payload_of(drew)).includes(other)
        assert Ethnos.public_form("DrewFromDeck", payload_of(drew)) == {"seat": ALEXIS}
    assert g.view(RODERICK)["hand_counts"][ALEXIS] == 2
    assert top not in [c["id"] for c in g.view(RODERICK).get("hand", [])]


def test_band_example_1_three_dwarves_third_marker_in_duris__rulebook_Band_Example_1() -> None:
    """Roderick plays his 3 Dwarves, the purple one as Leader; he has 2 markers in Duris,
    so a band of 3 places his third; then he discards the rest of his hand face up."""
    g = game()
    g.markers["duris"] = [2, 0, 0, 0]
    dwarves = pick("dwarves", "red", 1) + pick("dwarves", "blue", 1) + pick("dwarves", "purple", 1)
    rest = pick("elves", "green", 1) + pick("trolls", "orange", 1)
    set_hand(g, RODERICK, dwarves + rest)
    row = list(g.row)
    names = act(g, RODERICK, PlayBand(cards=tuple(dwarves), leader=dwarves[2]))
    assert names == ["BandPlayed", "MarkerPlaced", "HandDiscarded", "TurnEnded"]
    assert g.markers["duris"] == [3, 0, 0, 0]
    assert g.bands[RODERICK][0]["leader"] == dwarves[2] and g.bands[RODERICK][0]["size"] == 3
    assert g.hands[RODERICK] == [] and g.row == row + rest


def test_band_example_2_alexis_wingfolk_places_in_rhea__rulebook_Band_Example_2() -> None:
    """Alexis' purple band of 2 cannot add a third marker to Duris (she has 2 there);
    with a Wingfolk Leader she places her marker in Rhea instead, then discards."""
    g = game(current=ALEXIS)
    g.markers["duris"] = [3, 2, 0, 0]
    g.markers["rhea"] = [0, 0, 1, 0]
    purple = [pick("elves", "purple", 1)[0], pick("wingfolk", "purple", 1)[0]]
    rest = pick("halflings", "gray", 1)
    # without the Wingfolk: an Elf-led purple band of 2 places nothing in Duris
    set_hand(g, ALEXIS, purple + rest)
    trial = copy.deepcopy(g)
    assert "MarkerPlaced" not in act(trial, ALEXIS, PlayBand(cards=tuple(purple),
                                                             leader=purple[0]))
    assert trial.markers["duris"][ALEXIS] == 2
    # with the Wingfolk as Leader: any Kingdom, Rhea included; Duris is still too full
    assert act(g, ALEXIS, PlayBand(cards=tuple(purple), leader=purple[1])) == ["BandPlayed"]
    options = [a.kingdom for a in g.legal_actions(ALEXIS)]  # type: ignore[attr-defined]
    assert "rhea" in options and "duris" not in options
    names = act(g, ALEXIS, ChooseKingdom(kingdom="rhea"))
    assert names == ["MarkerPlaced", "HandDiscarded", "TurnEnded"]
    assert g.markers["rhea"] == [0, 1, 1, 0] and g.markers["duris"] == [3, 2, 0, 0]
    assert rest[0] in g.row and g.hands[ALEXIS] == []


def kingdom_event(names_events: list, kingdom: str) -> dict:  # type: ignore[type-arg]
    return next(payload_of(e) for e in names_events
                if event_type(e) == "KingdomScored" and payload_of(e)["kingdom"] == kingdom)


def finish_age_events(g: Ethnos) -> list:  # type: ignore[type-arg]
    stack(g, dragons_in_deck(g))
    g.act(g.current, RecruitFromDeck())
    return list(g.collect_events())


def test_age_two_kingdom_scoring_4_and_2_wilfred_nothing__rulebook_Glory_For_The_Kingdoms(
) -> None:
    """End of the Second Age: Roderick (most markers) earns the II token (4), Alexis the
    I token (2); Wilfred, third, gets nothing. Tie variant: 4 + 2 split, 3 each."""
    for tie in (False, True):
        for players in (3, 4):
            g = game(players, age=2)
            g.markers = {k: [0] * players for k in g.markers}
            g.glory_tokens["duris"] = [2, 4] if players == 3 else [2, 4, 8]
            g.markers["duris"][:3] = [3, 3 if tie else 2, 1]
            evs = finish_age_events(g)
            awards = kingdom_event(evs, "duris")["awards"]
            assert awards[:3] == ([3, 3, 0] if tie else [4, 2, 0])


def test_band_glory_example_13__rulebook_Glory_For_The_Band_Of_Allies() -> None:
    """Roderick's 3 bands: 2 green cards (1), 3 Dwarves (6: Dwarves count X+1), 4 red
    cards (6): 13 Glory."""
    g = game()
    green = pick("elves", "green", 1) + pick("halflings", "green", 1)
    dwarves = pick("dwarves", "red", 1) + pick("dwarves", "blue", 1) + pick("dwarves", "gray", 1)
    red = pick("halflings", "red", 2) + pick("elves", "red", 1) + pick("trolls", "red", 1)
    for cards, leader in ((green, green[0]), (dwarves, dwarves[0]), (red, red[2])):
        g.current = RODERICK
        set_hand(g, RODERICK, cards)
        act(g, RODERICK, PlayBand(cards=tuple(cards), leader=leader))
    assert [b["size"] for b in g.bands[RODERICK]] == [2, 3, 4]
    g.markers = {k: [0] * 4 for k in g.markers}
    g.current = ALEXIS
    evs = finish_age_events(g)
    scored = next(payload_of(e) for e in evs if event_type(e) == "BandsScored")
    assert scored["awards"][RODERICK] == 13
