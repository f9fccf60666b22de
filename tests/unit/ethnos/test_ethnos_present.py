"""Ethnos in its own words: screens (Kernel 2 vocabulary), menu labels, event
sentences, choices; no screen shows another seat's hand."""

from __future__ import annotations

import json
import random

import pytest

from aggregates.ethnos import Ethnos
from aggregates.ethnos import state as r
from aggregates.ethnos.commands import (
    ChooseKingdom,
    EndBand,
    KeepCards,
    PlayBand,
    RecruitFaceUp,
    RecruitFromDeck,
    ScoreOrcHorde,
    TakeTrollToken,
    WizardsDraw,
)
from aggregates.ethnos.flow import LIST_LIMIT
from aggregates.ethnos.testing import new_game, pick, set_hand
from aggregates.kernel import PickCards, PickOne, Reason, RuleError, event_type, payload_of
from aggregates.kernel.present import validate_screen


def _played(seed: int, players: int, moves: int) -> tuple[Ethnos, list]:  # type: ignore[type-arg]
    bot = random.Random(seed)
    g = Ethnos.start([f"P{i}" for i in range(players)], seed=f"{seed + 300:064x}")
    evs = list(g.collect_events())
    for _ in range(moves):
        if g.ended:
            break
        seat = bot.choice(g.pending()).seat
        legal = g.legal_actions(seat)
        name = bot.choice(sorted({a.NAME for a in legal}))
        g.act(seat, bot.choice([a for a in legal if name == a.NAME]))
        evs += g.collect_events()
    return g, evs


def _shown_cards(screen: dict) -> set[int]:  # type: ignore[type-arg]
    return {c["id"] for s in screen["sections"] for i in s["items"] if i["kind"] == "cards"
            for c in i.get("cards", [])}


def test_screens_are_well_formed_and_never_show_another_hand() -> None:
    for seed in range(6):
        g, _ = _played(seed, 2 + seed % 5, 60 + 40 * seed)
        for seat in [None, *range(len(g.seats))]:
            screen = g.present(seat).to_json()
            assert validate_screen(screen) == []
            json.dumps(screen)
            others = {c for s, h in enumerate(g.hands) if s != seat for c in h}
            assert not _shown_cards(screen) & others
            assert not _shown_cards(screen) & set(g.deck)
            zones = {i.get("zone") for s in screen["sections"] for i in s["items"]}
            if not g.ended:
                assert "row" in zones and "deck" in zones
                assert ("hand" in zones) == (seat is not None)


def test_screen_shows_kingdoms_tracks_row_hand_and_turn() -> None:
    g = new_game(4, ["giants", "merfolk", "orcs", "trolls", "skeletons", "elves"], current=2)
    screen = g.present(2).to_json()
    titles = [s["title"] for s in screen["sections"]]
    assert titles == ["Ethnos", "Kingdoms", "Tracks", "The row", "Your hand", "Bands",
                      "Allies Deck"]
    items = {i.get("label"): i for s in screen["sections"] for i in s["items"]}
    kingdoms = items["Kingdoms (Glory tokens I/II/III; Control markers per player)"]
    assert kingdoms["columns"][3:] == g.seats and len(kingdoms["rows"]) == 6
    for label in ("Glory", "Merfolk track", "Orc Horde board", "Troll tokens"):
        assert len(items[label]["per_seat"]) == 4
    assert items["Turn"]["value"] == "P2"
    assert items["Allies Deck"] == {"kind": "cards", "label": "Allies Deck",
                                    "count": len(g.deck), "zone": "deck"}
    hand = next(i for i in items.values() if i.get("zone") == "hand")
    assert sorted(c["id"] for c in hand["cards"]) == sorted(g.hands[2]) and hand["numbered"]


def test_action_labels_in_the_rulebooks_words() -> None:
    g = new_game(4, current=0)
    elf = pick("elves", "red")[0]
    g.row[0] = elf
    assert g.action_label(RecruitFaceUp(card=elf)) == "Recruit the Elf (red) from the row"
    assert g.action_label(RecruitFromDeck()).startswith("Recruit the top card of the Allies")
    dwarves = pick("dwarves", "blue", 2)
    sk = pick("skeletons")[0]
    label = g.action_label(PlayBand(cards=(*dwarves, sk), leader=dwarves[0]))
    assert label == ("Play a band of 3 led by the Dwarf (blue) with the Dwarf (blue) and "
                     "the Skeleton")
    assert g.action_label(ChooseKingdom(kingdom="rhea")) == (
        "Place the Control marker in Rhea (red)")
    assert g.action_label(TakeTrollToken(value=3)) == "Take the Troll token of value 3"
    assert g.action_label(KeepCards(cards=())) == "Keep no cards: discard your whole hand"
    assert g.action_label(EndBand()).startswith("Stop")
    assert g.action_label(WizardsDraw(draw=False)) == "Do not draw (Wizards)"
    assert g.action_label(ScoreOrcHorde(score=False)) == (
        "Keep the Orc Horde board for the next Age")


def test_every_event_has_a_sentence_in_both_forms() -> None:
    g, evs = _played(3, 4, 2000)
    assert g.ended
    seen = set()
    for ev in evs:
        name, payload = event_type(ev), payload_of(ev)
        audience, public = g.kernel_audience(name, payload, ev.meta)
        text = Ethnos.describe(name, payload, g.seats)
        assert text and "=" not in text, (name, text)
        if not audience.everyone:
            hidden = Ethnos.describe(name, public, g.seats)
            assert hidden and "=" not in hidden
            if name == "DrewFromDeck":
                assert hidden == f"{g.seats[payload['seat']]} draws a card from the deck."
        seen.add(name)
    assert {"BandPlayed", "DrewFromDeck", "KingdomScored", "Ended"} <= seen


def test_choices_pick_cards_for_a_band_and_pick_one_for_the_rest() -> None:
    g = new_game(4, current=0)
    dwarves = pick("dwarves", count=3)
    set_hand(g, 0, dwarves)
    choices = g.choices(0)
    assert isinstance(choices[0], PickOne)
    band = choices[1]
    assert isinstance(band, PickCards)
    assert (band.command, band.arg, band.zone, band.mark, band.low, band.high) == (
        "play_band", "cards", "hand", "leader", 1, 3)
    assert sorted(band.options) == sorted(dwarves)
    built = band.build(dwarves[:2], dwarves[0])
    assert g.COMMANDS.parse(built["name"], built["args"]) in g.legal_actions(0)
    assert g.pending()[0].choices == tuple(choices)
    assert g.legal_list_complete(0)
    assert g.choices(1) and isinstance(g.choices(1)[0], PickOne)


def test_legal_list_is_marked_incomplete_for_huge_hands() -> None:
    g = new_game(4, current=0)
    set_hand(g, 0, pick("dwarves", count=10))
    assert len(g.legal_actions(0)) > LIST_LIMIT
    assert not g.legal_list_complete(0)
    assert [type(c) for c in g.choices(0)] == [PickCards]  # ten cards: no recruiting
    assert g.stage == r.TURN


def test_choices_agree_with_the_legal_list_in_random_play() -> None:
    for seed in range(5):
        bot = random.Random(seed)
        g = Ethnos.start([f"P{i}" for i in range(2 + seed)], seed=f"{seed + 700:064x}")
        while not g.ended:
            for d in g.pending():
                legal = g.legal_actions(d.seat)
                kinds = [type(c) for c in g.choices(d.seat)]
                bands = [a for a in legal if isinstance(a, PlayBand)]
                assert (PickCards in kinds) == bool(bands)
                assert (PickOne in kinds) == (len(bands) < len(legal))
                for c in g.choices(d.seat):
                    if isinstance(c, PickCards):
                        assert sorted(c.options) == sorted(g.hands[d.seat])
                        assert {x for a in bands for x in a.cards} <= set(c.options)
            seat = bot.choice(g.pending()).seat
            legal = g.legal_actions(seat)
            name = bot.choice(sorted({a.NAME for a in legal}))
            g.act(seat, bot.choice([a for a in legal if name == a.NAME]))


def test_wrong_phase_names_the_move_and_what_is_awaited() -> None:
    g = new_game(4, current=0)
    with pytest.raises(RuleError) as e:
        g.act(0, TakeTrollToken(value=1))
    assert e.value.reason == Reason.WRONG_PHASE
    assert e.value.message == ("Taking a Troll token (take_troll_token) is not possible now: "
                               + r.PROMPTS[r.TURN])
