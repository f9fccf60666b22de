"""Ettin's words (issue 23 item 2): the screen, the menus and the log speak as
the Ettin rulebook does, and deploying is "pick a card, then a place".

Sections cited: Phase 3: War (Deploy, Deploy Abilities: Scouting; Battle: the
Locations farthest from, in the middle and closest to the Adventure; Battle
Scores; Winning the War), the Abilities Summary (keyword spelling), Setup and
Phase 1: New Age (Age I, II, III).
"""

from __future__ import annotations

from typing import Any

from aggregates.ettin import Ettin, present
from aggregates.ettin import seating as sg
from aggregates.ettin import zones as zn
from aggregates.ettin.commands import Deploy, Recruit
from aggregates.ettin.testing import act, due, put
from aggregates.ettin.war import legal_deploy
from aggregates.kernel import Branch, PickPath


def paths(branches: tuple[Branch, ...], head: tuple[Any, ...] = ()) -> set[tuple[Any, ...]]:
    out: set[tuple[Any, ...]] = set()
    for b in branches:
        out |= paths(b.then, (*head, b.value)) if b.then else {(*head, b.value)}
    return out


def at_deploy(players: int = 4) -> Ettin:
    """A game at its first War's Deploy, every drafted card recruited when it can be."""
    g = Ettin.start([f"P{i}" for i in range(players)], seed="cd" * 32)
    while g.phase != "deploy" and not g.ended:
        p = due(g)[0]
        legal = g.legal_actions(g.seating().controller[p])
        act(g, p, next((c for c in legal if isinstance(c, Recruit)), legal[0]))
    assert g.phase == "deploy"
    return g


def test_deploy_is_a_card_then_a_place_and_its_paths_are_the_legal_list__Deploy() -> None:
    g = at_deploy()
    p = next(q for q in range(len(g.nations)) if g.due(q) == "deploy")
    put(g, zn.camp(p), ["Cutthroats I-23"])  # a Scouting unit: one question more
    decision = next(d for d in g.pending() if d.position == p)
    path = next(c for c in decision.choices if isinstance(c, PickPath))
    assert path.questions[:2] == ("Which card?", "Where?")
    built = {Deploy(**path.build(list(x))["args"]) for x in paths(path.options)}
    assert built == set(legal_deploy(g, p))
    # A card, then four places named by where they stand; only Scouting asks on.
    first = path.options[0]
    assert [b.label.split(" (")[0].split(":")[0] for b in first.then] == [
        "the near Location", "the middle Location", "the far Location", "the Adventure"]
    assert any(len(x) == 3 for x in paths(path.options))
    assert len(path.options) == len(g.zones[zn.camp(p)])  # not cards x places


def test_battle_names_the_winner_first_and_the_location_by_where_it_stands__Battle() -> None:
    seats = ["Ada", "Bo", "Cy", "Di"]
    pairs = sg.enemy_pairs(4)  # pair 0 is positions 1 and 2
    won_by_second = {"pair": 0, "slot": 2, "scores": [1, 6], "result": "win",
                     "winner": pairs[0][1], "why": None}
    assert Ettin.describe("BattleResolved", won_by_second, seats) == (
        "The battle at the far Location between Bo and Cy: Cy wins, Battle Score 6 to 1, "
        "and takes a Battle Won Token")
    war = {"age": 2, "wars": [{"pair": 0, "winner": pairs[0][0], "wins": [3, 1]},
                              {"pair": 1, "winner": None, "wins": [2, 2]}]}
    assert Ettin.describe("AgeEnded", war, seats) == (
        "The War of Age II is over: Bo wins the War, 3 Battle Won Tokens to 1; "
        "a tie between Di and Ada")


def test_keywords_lists_and_no_filler_in_the_log__Abilities_Summary() -> None:
    seats = ["Ada", "Bo", "Cy", "Di"]
    gate = Ettin.describe("GateUsed", {"position": 0, "ability": "gate_to_ally", "cards": [1],
                                       "source": "retired:0", "target": "camp:1"}, seats)
    assert "(Gate to Ally)" in gate and "Bo's War Camp" in gate and ":" not in gate
    dealt = Ettin.describe("SkirmishLineupDealt", {"cards": [1, 2, 3], "source": "merc:0:1",
                                                   "target": "lineup:1"}, seats)
    assert dealt.startswith("Skirmish: ") and " and " in dealt and dealt.endswith("Lineup 2")
    old = Ettin.describe("BattleStep", {"pair": None, "slot": None, "step": None,
                                        "position": None, "unit": None, "keyword": None}, seats)
    assert old != "The battle goes on"
    assert Ettin.describe("DraftPassed", {"lineup": "lineup:0", "to": 1}, seats) == (
        "Lineup 1: Bo's turn to draft")


def test_the_screen_counts_ages_from_I_and_names_your_ally_and_enemy__Setup() -> None:
    g = Ettin.start(["Ada", "Bo", "Cy", "Di"], seed="cd" * 32)
    title = g.present(0).to_json()["sections"][0]["title"]
    assert "Age 0" not in title and title.startswith("Ettin — Setup")
    g = at_deploy()
    screen = g.present(0).to_json()
    assert screen["sections"][0]["title"].startswith("Ettin — Age I, War: Deploy")
    items: list[dict[str, Any]] = [dict(i) for i in screen["sections"][0]["items"]]
    totals = next(i for i in items if i.get("label") == "Totals")
    roles = [row[1] for row in totals["rows"]]
    assert roles[0] == "you" and roles[1] == "your Ally" and roles[3] == "your Enemy"
    assert any(str(i.get("text", "")).startswith("Your VP so far: ") for i in items)
    titles = [s["title"] for s in screen["sections"]]
    assert any(x.endswith("— your Ally") for x in titles)
    labels = [i.get("label", "") for s in screen["sections"] for i in s["items"]]
    assert any(str(x).startswith("Near Location (") for x in labels)
    assert present.location_labels(g.nations[0])[2].startswith("Far Location (")
