"""The Land of Enin's flow: every command, the stages it may be sent in, its
rules and its legal instances, as data (``aggregates.kernel.flow``).

The kernel routes each command: a command sent in a stage it does not belong to
is refused with ``WRONG_PHASE`` and the stage's prompt; then the move's check
(the rules), the legal list as a last guard, then its run (dice and events).
Moves are declared in menu order: within a stage, the legal list follows it.
"""

from __future__ import annotations

from typing import Any

from aggregates.enin import combat, market, quest, questing, travel, treasure
from aggregates.enin import stages as s
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
from aggregates.kernel import Command, Flow, Move
from aggregates.kernel.flow import Check


def guarded(check: Check) -> Check:
    """The move's rules, then the legal list as the last guard (a command the
    rules accept must also be listed, so a bot never meets a surprise)."""

    def run(state: Any, seat: int, command: Command) -> None:
        check(state, seat, command)
        state.require_legal(seat, command)

    run.__doc__ = check.__doc__
    return run


FLOW = Flow(s.PROMPTS, [
    Move(RollStart, (s.START,), guarded(travel.check_roll_start), travel.roll_start,
         travel.legal_start),
    Move(Travel, (s.TRAVEL,), guarded(travel.check_travel), travel.travel,
         travel.legal_travel),
    Move(Quest, (s.QUESTING,), guarded(questing.check_quest), questing.quest,
         questing.legal_quest),
    Move(Buy, (s.TOWN,), guarded(market.check_buy), market.buy, market.legal_buy),
    Move(StealKey, (s.TOWN,), guarded(market.check_steal_key), market.steal_key,
         market.legal_steal_key),
    Move(LeaveTown, (s.TOWN,), guarded(market.check_leave_town), market.leave_town,
         market.legal_leave_town),
    Move(Attack, (s.COMBAT, s.FIGHT_OR_FLEE), guarded(combat.check_attack), combat.attack,
         combat.legal_attack),
    Move(Flee, (s.FIGHT_OR_FLEE,), guarded(combat.check_flee), combat.flee,
         combat.legal_flee),
    Move(AcceptRoll, s.ROLL_STAGES, guarded(combat.check_accept_roll), combat.accept_roll,
         combat.legal_accept_roll),
    Move(Reroll, s.ROLL_STAGES, guarded(combat.check_reroll), combat.reroll,
         combat.legal_reroll),
    Move(SpendLuck, s.ROLL_STAGES, guarded(combat.check_spend_luck), combat.spend_luck,
         combat.legal_spend_luck),
    Move(ChooseTreasure, (s.CHOOSE_TREASURE,), guarded(treasure.check_choose),
         treasure.choose, treasure.legal_choose),
    Move(LoseItem, (s.LOSE_ITEM,), guarded(questing.check_lose_item), questing.lose_item,
         questing.legal_lose_item),
    # Sent during the Questing Phase, an attempt is refused for the item it lacks
    # before its timing (it comes after the action): so it belongs to both stages,
    # and is listed only once the attempt is on offer.
    Move(AttemptQuest, (s.QUESTING, s.QUEST_ATTEMPT), guarded(quest.check_attempt),
         quest.attempt, quest.legal_attempt),
    Move(EndTurn, (s.QUEST_ATTEMPT,), guarded(quest.check_end_turn), quest.end_turn,
         quest.legal_end_turn),
])
