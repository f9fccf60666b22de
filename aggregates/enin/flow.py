"""The Land of Enin's flow: every decision it can ask (a step), the moves that answer it,
their rules and their legal instances, as data (``aggregates.kernel.flow``).

Each step is a kind of decision the game waits on (``Enin.pending``: the
stage the last event left). The kernel routes each command to it: a command
its step does not list is refused with ``WRONG_PHASE`` and the step's prompt;
then the move's check (the rules), the legal list as a last guard, then its
run (dice and events). Moves are declared in menu order: within a step, the
legal list follows it.
"""

from __future__ import annotations

from aggregates.enin import combat, market, quest, questing, travel, treasure
from aggregates.enin import state as s
from aggregates.enin.commands import (
    AcceptRoll,
    Attack,
    AttemptQuest,
    Buy,
    ChooseTreasure,
    EndTurn,
    Flee,
    LeaveTown,
    LoseItem,
    Quest,
    Reroll,
    RollStart,
    SpendLuck,
    StealKey,
    Travel,
)
from aggregates.kernel import Flow, Move, Step


def moves(*declared: Move) -> tuple[Move, ...]:
    return declared


ATTACK = Move(Attack, combat.check_attack, combat.attack, combat.legal_attack)
ROLL_MOVES = moves(
    Move(AcceptRoll, combat.check_accept_roll, combat.accept_roll, combat.legal_accept_roll),
    Move(Reroll, combat.check_reroll, combat.reroll, combat.legal_reroll),
    Move(SpendLuck, combat.check_spend_luck, combat.spend_luck, combat.legal_spend_luck),
)
# Sent during the Questing Phase, an attempt is refused for the item it lacks
# before its timing (it comes after the action): so both steps list it, and
# its lister offers it only once the attempt is on offer.
ATTEMPT = Move(AttemptQuest, quest.check_attempt, quest.attempt, quest.legal_attempt)

FLOW = Flow([
    Step(s.START, s.PROMPTS[s.START], moves(
        Move(RollStart, travel.check_roll_start, travel.roll_start, travel.legal_start))),
    Step(s.TRAVEL, s.PROMPTS[s.TRAVEL], moves(
        Move(Travel, travel.check_travel, travel.travel, travel.legal_travel))),
    Step(s.QUESTING, s.PROMPTS[s.QUESTING], moves(
        Move(Quest, questing.check_quest, questing.quest, questing.legal_quest), ATTEMPT)),
    Step(s.TOWN, s.PROMPTS[s.TOWN], moves(
        Move(Buy, market.check_buy, market.buy, market.legal_buy),
        Move(StealKey, market.check_steal_key, market.steal_key, market.legal_steal_key),
        Move(LeaveTown, market.check_leave_town, market.leave_town, market.legal_leave_town))),
    Step(s.COMBAT, s.PROMPTS[s.COMBAT], moves(ATTACK)),
    Step(s.ATTACK_ROLL, s.PROMPTS[s.ATTACK_ROLL], ROLL_MOVES),
    Step(s.FIGHT_OR_FLEE, s.PROMPTS[s.FIGHT_OR_FLEE], moves(
        ATTACK, Move(Flee, combat.check_flee, combat.flee, combat.legal_flee))),
    Step(s.XP_ROLL, s.PROMPTS[s.XP_ROLL], ROLL_MOVES),
    Step(s.CHOOSE_TREASURE, s.PROMPTS[s.CHOOSE_TREASURE], moves(
        Move(ChooseTreasure, treasure.check_choose, treasure.choose, treasure.legal_choose))),
    Step(s.LOSE_ITEM, s.PROMPTS[s.LOSE_ITEM], moves(
        Move(LoseItem, questing.check_lose_item, questing.lose_item, questing.legal_lose_item))),
    Step(s.QUEST_ATTEMPT, s.PROMPTS[s.QUEST_ATTEMPT], moves(
        ATTEMPT, Move(EndTurn, quest.check_end_turn, quest.end_turn, quest.legal_end_turn))),
])
