"""The flow of Titans as data: the steps a seat can be asked (each with the
moves that answer it) and the phases the kernel runs.

Steps: every decision ``Titans.pending`` returns names one (``state.py``); the
kernel routes a command to the seat's decision whose step lists it (else
``WRONG_PHASE``, naming the move in the rulebook's words), runs the move's
check, the legal list as the last guard, then its run, then settles the flow.

Phases, in the rulebook's order:

- ``setup`` (Game Setup 5-7): entered by the creation event; the deals and the
  row; then the opening purchases revealed and the draft passed (automatic
  steps) until both are done;
- ``round`` (Gameplay): opened by ``RoundBegan``, the Starting Player's
  Pools and his first ``TurnBegan``; automatic steps run the turn (a
  Battle's dice and outcome, the turn's end, the Pool sliding down, the next
  turn) until the Round is over;
- ``round_end`` (End of the Round): opened by ``RoundScored``; after the last
  Round the game is over, else the Starting Player passes, the Reinforcements
  are asked, the cards are prepared, and the next ``round`` begins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aggregates.kernel import Command, Flow, Move, Phase, Step
from aggregates.titans import (
    battle_outcome,
    battle_stages,
    battles,
    deployment,
    movement,
    objectives,
    order_pool,
    purchase,
    reinforcements,
    scoring,
    setup,
    state,
    support,
    turns,
)
from aggregates.titans import commands as c
from aggregates.titans.state import EARLIER_FIRST_TURN

#: Each command's rules: its check, its run, its legal lister, the rulebook's words.
Rule = tuple[Callable[[Any, int, Any], None], Callable[[Any, int, Any], None],
             Callable[[Any, int], list[Command]], str]

RULES: dict[type[Command], Rule] = {
    c.OpeningPurchase: (purchase.check_opening_purchase, purchase.run_opening_purchase,
                        purchase.legal_opening_purchase, "Purchasing the first Nation Card"),
    c.KeepObjective: (objectives.check_keep_objective, objectives.run_keep_objective,
                      objectives.legal_keep_objective, "Keeping a Secret Objective"),
    c.TakeOrder: (order_pool.check_take_order, order_pool.run_take_order,
                  order_pool.legal_take_order, "Choosing an Order Card"),
    c.MoveUnit: (movement.check_move_unit, movement.run_move_unit, movement.legal_move_unit,
                 "A Movement Action"),
    c.GroupMove: (movement.check_group_move, movement.run_group_move,
                  movement.legal_group_move, "Moving 1 to 4 Units"),
    c.DeployUnit: (deployment.check_deploy_unit, deployment.run_deploy_unit,
                   deployment.legal_deploy_unit, "A Unit Deployment Action"),
    c.PurchaseNationCard: (purchase.check_purchase_nation_card,
                           purchase.run_purchase_nation_card,
                           purchase.legal_purchase_nation_card, "Purchasing a Nation Card"),
    c.BuildStronghold: (deployment.check_build_stronghold, deployment.run_build_stronghold,
                        deployment.legal_build_stronghold, "Stronghold Construction"),
    c.EndOrders: (turns.check_end_orders, turns.run_end_orders, turns.legal_end_orders,
                  "Ending the Order Phase"),
    c.AccomplishObjective: (objectives.check_accomplish_objective,
                            objectives.run_accomplish_objective,
                            objectives.legal_accomplish_objective,
                            "Accomplishing a Secret Objective"),
    c.ChooseBattle: (battles.check_choose_battle, battles.run_choose_battle,
                     battles.legal_choose_battle, "Choosing the next Battle"),
    c.PlaySupport: (battle_stages.check_play_support, battle_stages.run_play_support,
                    battle_stages.legal_play_support, "Playing Support Cards"),
    c.PlayMoveUnit: (battle_stages.check_play_move_unit, battle_stages.run_play_move_unit,
                     battle_stages.legal_play_move_unit, "Playing a Move 1 Unit Support Card"),
    c.DiscardToReroll: (battle_stages.check_discard_to_reroll, battle_stages.run_discard_to_reroll,
                        battle_stages.legal_discard_to_reroll,
                        "Discarding a Support Card to re-roll"),
    c.RerollDice: (battle_stages.check_reroll_dice, battle_stages.run_reroll_dice,
                   battle_stages.legal_reroll_dice, "Re-rolling dice"),
    c.UseNationCard: (battle_stages.check_use_nation_card, battle_stages.run_use_nation_card,
                      battle_stages.legal_use_nation_card, "Using a Nation Card"),
    c.UseTitanAbility: (battle_stages.check_use_titan_ability, battle_stages.run_use_titan_ability,
                        battle_stages.legal_use_titan_ability, "Using the Titan Special Ability"),
    c.UseNationAbility: (battle_stages.check_use_nation_ability,
                         battle_stages.run_use_nation_ability,
                         battle_stages.legal_use_nation_ability,
                         "Using the Nation Starting Ability"),
    c.EndStage: (battle_stages.check_end_stage, battle_stages.run_end_stage,
                 battle_stages.legal_end_stage, "Ending a Battle Stage"),
    c.Decline: (battle_stages.check_decline, battle_stages.run_decline,
                battle_stages.legal_decline, "Declining a Nation Card"),
    c.DestroyUnits: (battle_outcome.check_destroy_units, battle_outcome.run_destroy_units,
                     battle_outcome.legal_destroy_units, "Destroying Units"),
    c.Withdraw: (battle_outcome.check_withdraw, battle_outcome.run_withdraw,
                 battle_outcome.legal_withdraw, "Withdrawing the Defender's Units"),
    c.DrawSupport: (support.check_draw_support, support.run_draw_support,
                    support.legal_draw_support, "Drawing 1 Support Card"),
    c.DiscardSupport: (turns.check_discard_support, turns.run_discard_support,
                       turns.legal_discard_support, "Discarding to the Hand Limit"),
    c.DeployTitan: (turns.check_deploy_titan, turns.run_deploy_titan, turns.legal_deploy_titan,
                    "Deploying the Titan"),
    c.ReinforceSupport: (reinforcements.check_reinforce_support,
                         reinforcements.run_reinforce_support,
                         reinforcements.legal_reinforce_support,
                         "The 1st Reinforcement: 2 Support Cards"),
    c.ReinforceObjectives: (reinforcements.check_reinforce_objectives,
                            reinforcements.run_reinforce_objectives,
                            reinforcements.legal_reinforce_objectives,
                            "The 1st Reinforcement: 2 Secret Objectives"),
    c.ReinforcePurchase: (reinforcements.check_reinforce_purchase,
                          reinforcements.run_reinforce_purchase,
                          reinforcements.legal_reinforce_purchase,
                          "The 2nd Reinforcement: a Nation Card"),
    c.ReinforceUnit: (reinforcements.check_reinforce_unit, reinforcements.run_reinforce_unit,
                      reinforcements.legal_reinforce_unit, "The 2nd Reinforcement: a Unit"),
}

#: The commands that answer each step, in the order their legal lists are given.
STEPS: dict[str, tuple[type[Command], ...]] = {
    state.OPENING: (c.OpeningPurchase,),
    state.DRAFT: (c.KeepObjective,),
    state.ORDER: (c.TakeOrder, c.AccomplishObjective),
    state.ACTIONS: (c.MoveUnit, c.GroupMove, c.DeployUnit, c.PurchaseNationCard,
                    c.BuildStronghold, c.AccomplishObjective, c.EndOrders),
    state.BATTLE_ORDER: (c.ChooseBattle, c.AccomplishObjective),
    state.BATTLE_STAGE: (c.PlaySupport, c.PlayMoveUnit, c.DiscardToReroll, c.UseNationCard,
                         c.UseTitanAbility, c.UseNationAbility, c.EndStage),
    state.REROLL: (c.RerollDice,),
    state.REACTION: (c.UseNationCard, c.Decline),
    state.DESTROY: (c.DestroyUnits,),
    state.WITHDRAW: (c.Withdraw,),
    state.SUPPORT: (c.DrawSupport, c.AccomplishObjective),
    state.DISCARD: (c.DiscardSupport, c.AccomplishObjective),
    state.TITAN: (c.DeployTitan, c.AccomplishObjective),
    state.FIRST: (c.ReinforceSupport, c.ReinforceObjectives),
    state.KEEP: (c.KeepObjective,),
    state.SECOND: (c.ReinforcePurchase, c.ReinforceUnit),
}



def _move(command: Any) -> Move:
    check, run, legal, what = RULES[command]
    return Move(command, check, run, legal, what=what)


def begin_round(game: Any) -> None:
    """Decide: the Round begins (Round 1 after the Setup), with its Pools, and
    the Starting Player takes its first turn ("Managing the Order Cards"),
    recorded as every other turn is (rules 1.0.0 began it with the Pool drawn)."""
    game.emit("RoundBegan", round=max(1, game.round), start_player=game.start_player)
    order_pool.begin_round(game)
    if EARLIER_FIRST_TURN not in game.earlier:
        game.emit("TurnBegan", seat=game.start_player)


def play_turns(game: Any) -> bool:
    """One automatic step of a Round: inside a turn, or between two turns."""
    return turns.settle(game) or (game.turn is None and turns.between_turns(game))


def round_over(game: Any) -> bool:
    return game.turn is None and order_pool.round_over(game)


def after_round_end(game: Any) -> str | None:
    return None if game.over else "round"


FLOW = Flow(
    [Step(name, state.PROMPTS[name], tuple(_move(c) for c in STEPS[name]))
     for name in STEPS],
    [
        Phase("setup", begin=setup.begin, auto=setup.settle, end_if=setup.done,
              next="round"),
        Phase("round", begin=begin_round, auto=play_turns, end_if=round_over,
              next="round_end"),
        Phase("round_end", begin=scoring.end_round, auto=reinforcements.settle,
              end_if=reinforcements.done, next=after_round_end),
    ],
    start="setup",
)
