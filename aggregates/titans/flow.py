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

#: Each command's rules (the chapter's check, run and legal lister) and its
#: words in the rulebook.
MOVES = {move.command: move for move in (
    Move.of(c.OpeningPurchase, purchase, "Purchasing the first Nation Card"),
    Move.of(c.KeepObjective, objectives, "Keeping a Secret Objective"),
    Move.of(c.TakeOrder, order_pool, "Choosing an Order Card"),
    Move.of(c.MoveUnit, movement, "A Movement Action"),
    Move.of(c.GroupMove, movement, "Moving 1 to 4 Units"),
    Move.of(c.DeployUnit, deployment, "A Unit Deployment Action"),
    Move.of(c.PurchaseNationCard, purchase, "Purchasing a Nation Card"),
    Move.of(c.BuildStronghold, deployment, "Stronghold Construction"),
    Move.of(c.EndOrders, turns, "Ending the Order Phase"),
    Move.of(c.AccomplishObjective, objectives, "Accomplishing a Secret Objective"),
    Move.of(c.ChooseBattle, battles, "Choosing the next Battle"),
    Move.of(c.PlaySupport, battle_stages, "Playing Support Cards"),
    Move.of(c.PlayMoveUnit, battle_stages, "Playing a Move 1 Unit Support Card"),
    Move.of(c.DiscardToReroll, battle_stages, "Discarding a Support Card to re-roll"),
    Move.of(c.RerollDice, battle_stages, "Re-rolling dice"),
    Move.of(c.UseNationCard, battle_stages, "Using a Nation Card"),
    *(Move(once.command, once.check, once.run, once.legal, what) for once, what in (
        (battle_stages.TITAN_ABILITY, "Using the Titan Special Ability"),
        (battle_stages.STARTING_ABILITY, "Using the Nation Starting Ability"))),
    Move.of(c.EndStage, battle_stages, "Ending a Battle Stage"),
    Move.of(c.Decline, battle_stages, "Declining a Nation Card"),
    Move.of(c.DestroyUnits, battle_outcome, "Destroying Units"),
    Move.of(c.Withdraw, battle_outcome, "Withdrawing the Defender's Units"),
    Move.of(c.DrawSupport, support, "Drawing 1 Support Card"),
    Move.of(c.DiscardSupport, turns, "Discarding to the Hand Limit"),
    Move.of(c.DeployTitan, turns, "Deploying the Titan"),
    Move.of(c.ReinforceSupport, reinforcements, "The 1st Reinforcement: 2 Support Cards"),
    Move.of(c.ReinforceObjectives, reinforcements, "The 1st Reinforcement: 2 Secret Objectives"),
    Move.of(c.ReinforcePurchase, reinforcements, "The 2nd Reinforcement: a Nation Card"),
    Move.of(c.ReinforceUnit, reinforcements, "The 2nd Reinforcement: a Unit"),
)}

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
    [Step(name, state.PROMPTS[name], tuple(MOVES[c] for c in STEPS[name]))
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
