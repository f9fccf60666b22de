"""Seating, options, simultaneity and decisions: the table's shape for each
player count, nation choice, the game waiting on exactly the due seats across
all pairs at once, per-seat decision ids, refusals with reasons, views.

Rulebook sections (Ettin): Setup (Ally to the left, Enemy to the right;
Nation Deck and mat), "2, 3, 5, 7 Players" (the Mercenary Mat, two Enemies
without Allies), "9+ Players" (a box per group), Recruit or Sell (gold from a
sale usable at once), Deploy (face down, one then two at a time); the
simultaneity and the allies' shared view are rulings of the project's Ettin
rulings document."""

from __future__ import annotations

import copy
import random

import pytest

from aggregates.ettin import Ettin
from aggregates.ettin import seating as sg
from aggregates.ettin import zones as zn
from aggregates.ettin.commands import Deploy, Draft, Initiative, Recruit, Sell
from aggregates.ettin.testing import due
from aggregates.kernel import RuleError
from aggregates.kernel.present import validate_screen


def seats(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def test_four_players_alliances_and_enemies() -> None:
    s = sg.seating_for(4)
    assert s.controller == (0, 1, 2, 3) and s.teams == ((0, 1), (2, 3))
    assert sg.enemy_pairs(4) == [[1, 2], [3, 0]]


def test_odd_players_run_the_mercenary_mat() -> None:
    g = Ettin.start(seats(3), seed="1" * 64)
    assert g.nations[-1] == "mercenaries" and len(g.nations) == 4
    s = g.seating()
    assert s.controller == (0, 1, 2, 2) and s.teams == ((0, 1), (2,))
    assert g.pairs == [[1, 2], [3, 0]]  # the mat faces an Enemy of its own
    assert sg.ally_of(3, 4) == 2          # allied to its nation


def test_two_players_are_enemies_without_allies() -> None:
    g = Ettin.start(seats(2), seed="1" * 64)
    assert g.pairs == [[0, 1]] and g.seating().teams == ((0,), (1,))
    assert sg.ally_of(0, 2) is None


def test_nine_plus_players_use_a_box_per_eight_positions() -> None:
    g = Ettin.start(seats(16), seed="1" * 64)
    assert len(set(g.nations[:8])) == 8 and len(set(g.nations[8:])) == 8
    assert zn.merc(1, 1) in g.zones and min(g.zones[zn.merc(1, 1)]) > 1000


def test_nation_option_and_its_refusals() -> None:
    g = Ettin.start(seats(2), seed="1" * 64, options={"nations": ["risen", "elves"]})
    assert g.nations == ["risen", "elves"]
    for bad in ({"nations": ["atlantis", "elves"]}, {"nations": ["risen"]},
                {"nations": ["risen", "risen"]}, {"colour": 1}):
        with pytest.raises(RuleError, match="BAD_OPTIONS"):
            Ettin.start(seats(2), seed="1" * 64, options=bad)
    assert "nations" in Ettin.metadata()["options_schema"]["properties"]


def test_all_pairs_decide_at_once_and_never_make_each_other_stale() -> None:
    g = Ettin.start(seats(4), seed="2" * 64,
                    options={"nations": ["joymore", "giants", "dwarves", "orcs"]})
    decisions = {d.seat: d.id for d in g.pending_decisions()}
    assert set(decisions) == {0, 2}   # the higher Initiative of each pair
    g.act(2, Initiative(True), decision_id=decisions[2])
    g.act(0, Initiative(True), decision_id=decisions[0])  # still valid
    with pytest.raises(RuleError, match="NOT_YOUR_TURN|STALE"):
        g.act(0, Initiative(True), decision_id=decisions[0])
    # Skirmish in both pairs at once: the Initiative holders draft first
    assert set(due(g)) == {0, 2}


def test_refusals_carry_reasons() -> None:
    g = Ettin.start(seats(2), seed="3" * 64)
    chooser = g.waiting_on()[0]
    with pytest.raises(RuleError, match="WRONG_PHASE"):
        g.act(chooser, Draft(1))
    g.act(chooser, Initiative(True))
    drafter = g.waiting_on()[0]
    with pytest.raises(RuleError, match="NOT_IN_LINEUP"):
        g.act(drafter, Draft(99999))
    other = 1 - drafter
    with pytest.raises(RuleError, match="NOT_YOUR_TURN"):
        g.act(other, Draft(g.zones[zn.lineup(0)][0]))


def test_recruit_needs_the_gold_and_a_sale_pays_at_once() -> None:
    g = Ettin.start(seats(2), seed="4" * 64)
    g.act(g.waiting_on()[0], Initiative(True))
    while g.phase == "draft" and not any(g.due(p) == "recruit" for p in (0, 1)):
        s = g.waiting_on()[0]
        g.act(s, g.legal_actions(s)[0])
    p = next(p for p in (0, 1) if g.due(p) == "recruit")
    g.gold[p] = 0
    expensive = [c for c in g.zones[zn.drafted(p)] if Recruit(c) not in g.legal_actions(p)]
    for c in expensive:
        with pytest.raises(RuleError, match="CANNOT_AFFORD"):
            g.act(p, Recruit(c))
    card = g.zones[zn.drafted(p)][0]
    g.act(p, Sell(card))
    assert g.gold[p] > 0 and card in g.zones[zn.LOST]


def test_every_legal_command_is_accepted_and_screens_are_valid() -> None:
    rng = random.Random(5)
    g = Ettin.start(seats(3), seed="5" * 64)
    g.collect_events()
    for _ in range(150):
        if g.ended:
            break
        seat = rng.choice(g.waiting_on())
        legal = g.legal_actions(seat)
        for command in rng.sample(legal, min(3, len(legal))):
            trial = copy.deepcopy(g)
            trial.act(seat, command)  # never refused
        g.act(seat, rng.choice(legal))
        g.collect_events()
        for reader in (None, 0, 1, 2):
            assert validate_screen(g.present(reader).to_json()) == []


def test_deploy_is_one_card_at_a_time_and_face_down_to_the_enemy() -> None:
    rng = random.Random(6)
    g = Ettin.start(seats(4), seed="6" * 64)
    while g.phase != "deploy":
        seat = rng.choice(g.waiting_on())
        g.act(seat, rng.choice(g.legal_actions(seat)))
    p = next(p for p in range(4) if g.due(p) == "deploy")
    card = g.zones[zn.camp(p)][0]
    g.act(p, Deploy(card, 3, 0))
    enemy = sg.enemy_pairs(4)[[p in pair for pair in sg.enemy_pairs(4)].index(True)]
    foe = enemy[0] if enemy[1] == p else enemy[1]
    assert "cards" not in g.view(foe)["zones"][zn.field(p, 3)]
    assert g.view(foe)["zones"][zn.field(p, 3)]["count"] == 1
    assert g.view(p ^ 1)["zones"][zn.field(p, 3)]["cards"] == [card]  # the Ally sees it
    assert all(d.hidden for d in g.pending() if d.kind == "deploy")


def test_clocked_decisions_have_deadlines_and_a_recorded_random_default() -> None:
    g = Ettin.start(seats(2), seed="7" * 64, options={"clock": True})
    decision = g.pending()[0]
    assert decision.deadline is not None and decision.default == "random"
    g.act_default(decision.seat)
    assert g.phase == "draft"


def test_every_event_is_told_to_every_reader_and_every_action_labelled() -> None:
    from aggregates.kernel import event_type, payload_of
    from service.envelope import SPECTATOR, Reader, visible_payload

    rng = random.Random(8)
    g = Ettin.start(seats(3), seed="8" * 64)
    events = list(g.collect_events())
    while not g.ended:
        seat = rng.choice(g.waiting_on())
        legal = g.legal_actions(seat)
        assert all(g.action_label(c) for c in legal)
        g.act(seat, rng.choice(legal))
        events += g.collect_events()
    for ev in events:
        for reader in (SPECTATOR, Reader(0), Reader(2)):
            payload, _, _ = visible_payload(Ettin, ev, reader)
            assert Ettin.describe(event_type(ev), payload, g.seats)
        assert payload_of(ev) is not None
    assert "win" in Ettin.describe("Ended", {"outcome": g.outcome}, g.seats)
