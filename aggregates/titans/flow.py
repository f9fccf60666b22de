"""The flow of Titans as data: the steps a seat can be asked (each with the
moves that answer it) and the phases the kernel runs.

Steps: every decision ``Titans.pending`` returns names one (``state.py``), as
``asked`` here finds them from the state, with their ``choices``; the kernel
routes a command to the seat's decision whose step lists it (else
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

from aggregates.kernel import Choice, Command, Flow, Move, Phase, PickCards, PickOne, Step
from aggregates.titans import (
    battle_outcome,
    battle_stages,
    battles,
    deployment,
    dice,
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
from aggregates.titans.state import EARLIER_FIRST_TURN, State

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


def asked(game: State) -> list[tuple[int, str]]:
    """Who is asked what now, from the state alone: the opening purchases
    and the draft (all at once), else the turn's decision or the
    Reinforcements' (``Decision.kind``: a step of ``FLOW``)."""
    asked = [(s, state.OPENING) for s in setup.opening_waiting(game)] or [
        (s, state.DRAFT) for s in objectives.draft_waiting(game)]
    if not asked:
        found = turn_decision(game) or reinforcement_decision(game)
        asked = [found] if found else []
    return asked


def choices(game: State, seat: int, kind: str) -> tuple[Choice, ...]:
    """How an answer is built: one of the legal list, and for the picks of
    dice or cards the structured choice too (re-roll these dice, discard these
    cards, lose these units)."""
    one = PickOne(state.PROMPTS[kind])
    if kind == state.REROLL and game.battle is not None and game.battle.get("reroll"):
        pool = game.battle["sides"][game.battle["reroll"]]["pool"]
        return one, dice.reroll_choice("reroll_dice", "dice", pool, state.PROMPTS[kind])
    if kind == state.DISCARD:
        need = turns.excess(game, seat)
        return one, PickCards(command="discard_support", arg="cards",
                              options=tuple(sorted(game.hands[seat])), low=need, high=need,
                              zone="hand", prompt=state.PROMPTS[kind])
    if kind == state.DESTROY and game.battle is not None and game.battle.get("result"):
        troops = game.battle["sides"][battle_outcome.loser_role(game.battle)]["troops"]
        need = int(game.battle["result"]["destroy"])
        return one, PickCards(command="destroy_units", arg="troops",
                              options=tuple(range(len(troops))), low=need, high=need,
                              zone="battle", prompt=state.PROMPTS[kind])
    return (one,)


def turn_decision(game: State) -> tuple[int, str] | None:
    if game.turn is None:
        return None
    seat = int(game.turn["seat"])
    now = turns.step(game)
    if now == turns.ORDERS:
        return seat, state.ORDER if game.turn["order"] is None else state.ACTIONS
    if now == turns.BATTLES:
        if game.battle is None:
            return (seat, state.BATTLE_ORDER) if len(game.turn["battles"]) > 1 else None
        acting = battles.acting(game)
        if acting is not None:
            kind = (state.REROLL if game.battle.get("reroll") else
                    state.REACTION if game.battle.get("reaction") else state.BATTLE_STAGE)
            return acting[1], kind
        deciding = battle_outcome.deciding(game)
        return (deciding[1], deciding[0]) if deciding else None
    if now == turns.SUPPORT:
        return (seat, state.SUPPORT) if support.can_draw(game) else None
    cleanup = turns.cleanup_decision(game, seat)
    if cleanup == "discard":
        return seat, state.DISCARD
    if cleanup == "titan":
        return seat, state.TITAN
    return None


def reinforcement_decision(game: State) -> tuple[int, str] | None:
    seat = reinforcements.reinforcing_seat(game)
    if seat is None:
        return None
    return seat, {"first": state.FIRST, "keep": state.KEEP,
                  "second": state.SECOND}[str(reinforcements.stage(game))]


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
