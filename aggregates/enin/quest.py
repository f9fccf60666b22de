"""Quest Items: the attempt at a location once you hold what it needs, and the
end of the action ("if you do not have the item you do nothing further").

Key (Nigh Towns, see ``market``) and Watchword (Wood of Wyr) -> Maiden (Iron
Hills) -> Lodestone (Darkling Crags) -> Lost Book (Lost Wastes): the game is won.
"""

from __future__ import annotations

from aggregates.enin import state as s
from aggregates.enin.commands import AttemptQuest, EndTurn
from aggregates.enin.data import TABLES, QuestAttempt
from aggregates.enin.reasons import EninReason
from aggregates.enin.state import PROGRESS_RECORDED, EninState
from aggregates.kernel import Command, Reason, RuleError


def here(state: EninState) -> QuestAttempt | None:
    if state.location is None:
        return None
    return TABLES.location(state.location).quest


def attempt_possible(state: EninState) -> str:
    """The quest item that can be attempted here after the action, or ''."""
    q = here(state)
    if q is None or state.location == TABLES.market_location:
        return ""
    if q.item in state.quest_items or not all(i in state.quest_items for i in q.requires):
        return ""
    return q.item


def after_action(state: EninState) -> None:
    """The action is done: the quest attempt waits if you hold what it needs
    (the action's last fact entered it), else "you do nothing further and your
    Questing Phase is done"."""
    item = attempt_possible(state)
    if item:
        if PROGRESS_RECORDED in state.earlier:
            state.emit("QuestAttemptOffered", item=item)
    else:
        end_of_turn(state)


def end_of_turn(state: EninState) -> None:
    state.emit("TurnEnded", turn=state.turn + 1)


def roll_for(state: EninState, q: QuestAttempt) -> tuple[int, int, int, bool]:
    """Roll 1D10 and match it to the range printed for your level."""
    roll = state.roll(10)
    rng = q.ranges[state.level]
    return roll, rng.low, rng.high, roll in rng


def check_attempt(state: EninState, seat: int, command: AttemptQuest) -> None:
    """Sent during the Questing Phase, the attempt is refused for what it lacks
    first (the item it needs, or the item already held), then for its timing:
    it comes after the action."""
    q = here(state)
    if q is not None:
        missing = [i for i in q.requires if i not in state.quest_items]
        if missing:
            raise RuleError(EninReason.MISSING_QUEST_ITEM,
                            f"to {q.text} you need: {', '.join(missing)}")
        if q.item in state.quest_items:
            raise RuleError(EninReason.ALREADY_HELD, f"you already hold the {q.item}")
    if state.stage != s.QUEST_ATTEMPT:
        raise RuleError(Reason.WRONG_PHASE,
                        "the quest attempt comes after the location's action: "
                        + s.PROMPTS[state.stage])


def attempt(state: EninState, seat: int, command: AttemptQuest) -> None:
    q = here(state)
    assert q is not None
    roll, low, high, success = roll_for(state, q)
    state.emit("QuestAttempted", item=q.item, roll=roll, low=low, high=high, success=success)
    if success:
        state.emit("QuestItemGained", item=q.item)
        if state.won:
            return
    end_of_turn(state)


def check_end_turn(state: EninState, seat: int, command: EndTurn) -> None:
    """Only when a quest attempt is on offer (the flow checks it)."""


def end_turn(state: EninState, seat: int, command: EndTurn) -> None:
    end_of_turn(state)


def legal_attempt(state: EninState, seat: int) -> list[Command]:
    return [AttemptQuest()] if state.stage == s.QUEST_ATTEMPT else []


def legal_end_turn(state: EninState, seat: int) -> list[Command]:
    return [EndTurn()]
