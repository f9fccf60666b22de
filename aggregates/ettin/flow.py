"""Ettin's flow as data: each decision it asks (a step), the moves that answer
it, and the rulebook's order of play as phases the kernel runs.

Every pair of Enemies (and each Alliance, in Peacetime) plays at once: a
position's decision is due when its group has reached it (``Ettin.due``);
a phase ends when no position has a decision due in it, after its automatic
steps (the battles resolving, the Spoils and Produce queues moving on).
"""

from __future__ import annotations

from aggregates.ettin import aftermath, ages, scoring, war
from aggregates.ettin.commands import (
    Deploy,
    Draft,
    EndSpoils,
    Initiative,
    Lose,
    PlaceDefense,
    Produce,
    Recruit,
    Sell,
    Siege,
    Spoil,
    Target,
)
from aggregates.kernel import Flow, Move, Phase, Step

#: The rulebook's name of each phase (``g.phase``), under Phase 3: War where
#: it is one of its steps.
PHASES = {"setup": "Setup", "initiative": "Setup: the Initiative Token", "new_age": "New Age",
          "deploy": "War: Deploy", "battle": "War: Battle", "spoils": "War: Spoil",
          "adventure_defense": "War: Adventure Defense", "retire": "War: Retire",
          "produce": "War: Produce", "over": "Winning the Game"}

FLOW = Flow(
    [
        Step("initiative", "take the Initiative Token or give it to your Enemy", (
            Move(Initiative, None, ages.run_initiative, ages.legal_initiative),)),
        Step("draft", "draft a card from your Lineup", (
            Move.of(Draft, ages),)),
        Step("recruit", "recruit or sell each card you drafted", (
            Move(Recruit, ages.check_recruit, ages.run_recruit, ages.legal_recruit_sell),
            Move(Sell, ages.check_sell, ages.run_sell))),
        Step("deploy", "deploy: place a card of your War Camp face down at a Location or "
                       "the Adventure", (
            Move.of(Deploy, war),)),
        Step("target", "choose a start-of-battle target", (
            Move.of(Target, war),)),
        Step("lose", "choose the adventuring Troop that is Lost", (
            Move.of(Lose, war),)),
        Step("spoil", "take a Spoil, or stop taking Spoils here", (
            Move.of(Spoil, aftermath),
            Move(EndSpoils, aftermath.check_end, aftermath.run_end),
            Move(Siege, aftermath.check_siege, aftermath.run_siege))),
        Step("place", "place the Defense won from the Adventure", (
            Move.of(PlaceDefense, aftermath, "", "place"),)),
        Step("produce", "use a Produce ability, or not (it is optional)", (
            Move.of(Produce, aftermath),)),
    ],
    # The rulebook's order of play (Setup's initiative, then each Age: New Age,
    # Skirmish and Peacetime, War), every pair of Enemies at once: a phase ends
    # when no position has a decision due in it.
    [
        Phase("initiative", begin=ages.open_initiative, next=ages.after_initiative,
              entered_before=True),
        Phase("new_age", begin=ages.new_age, next="draft"),
        Phase("draft", begin=ages.open_next_draft, end_if=ages.draft_done,
              next=ages.after_draft),
        # Rules "4" enter the War's steps but the Battle with the facts before
        # them (``apply.enter_steps``); rules "1"-"3" recorded their beginning.
        Phase("deploy", begin=war.open_deploy, next="battle", entered_before=True),
        Phase("battle", begin=war.open_battles, auto=war.step_battles,
              end_if=war.battles_done, next="spoils"),
        Phase("spoils", begin=aftermath.open_spoils, auto=aftermath.step_spoils,
              end_if=aftermath.spoils_done, next="adventure_defense", entered_before=True),
        Phase("adventure_defense", begin=aftermath.open_adventure_defense, next="retire",
              entered_before=True),
        Phase("retire", begin=aftermath.open_retire, auto=aftermath.retire, next="produce",
              entered_before=True),
        Phase("produce", begin=aftermath.open_produce, auto=aftermath.step_produce,
              end_if=aftermath.produce_done, end=aftermath.end_war, next=ages.after_war,
              entered_before=True),
        Phase("over", begin=scoring.game_over),
    ],
    start="initiative",
)
