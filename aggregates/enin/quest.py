"""Quest Items: the attempt at a location once you hold what it needs.

Key (Nigh Towns, see ``market``) and Watchword (Wood of Wyr) -> Maiden (Iron
Hills) -> Lodestone (Darkling Crags) -> Lost Book (Lost Wastes): the game is won.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aggregates.enin import rules as r
from aggregates.enin.commands import AttemptQuest, EndTurn
from aggregates.enin.data import TABLES, QuestAttempt
from aggregates.kernel import Command, Reason

if TYPE_CHECKING:
    from aggregates.enin.game import Enin


def here(game: Enin) -> QuestAttempt | None:
    if game.location is None:
        return None
    return TABLES.location(game.location).quest


def attempt_possible(game: Enin) -> str:
    """The quest item that can be attempted here after the action, or ''."""
    q = here(game)
    if q is None or game.location == TABLES.market_location:
        return ""
    if q.item in game.quest_items or not all(i in game.quest_items for i in q.requires):
        return ""
    return q.item


def roll_for(game: Enin, q: QuestAttempt) -> tuple[int, int, int, bool]:
    """Roll 1D10 and match it to the range printed for your level."""
    roll = game.roll(10)
    rng = q.ranges[game.level]
    return roll, rng.low, rng.high, roll in rng


def check_attempt(game: Enin, command: AttemptQuest) -> None:
    q = here(game)
    if q is not None and game.stage in (r.QUESTING, r.QUEST_ATTEMPT):
        missing = [i for i in q.requires if i not in game.quest_items]
        if missing:
            r.refuse(Reason.MISSING_QUEST_ITEM,
                     f"to {q.text} you need: {', '.join(missing)}")
        if q.item in game.quest_items:
            r.refuse(Reason.ALREADY_HELD, f"you already hold the {q.item}")
    if game.stage == r.TOWN:
        r.refuse(Reason.WRONG_PHASE, "in the Nigh Towns the quest attempt is steal_key")
    r.require_stage(game.stage, (r.QUEST_ATTEMPT,), "a quest attempt")


def attempt(game: Enin, command: AttemptQuest) -> None:
    q = here(game)
    assert q is not None
    roll, low, high, success = roll_for(game, q)
    game._quest_attempted(item=q.item, roll=roll, low=low, high=high, success=success)
    if success:
        game._quest_item_gained(item=q.item)
        if game.won:
            return
    game._turn_ended(turn=game.turn + 1)


def check_end_turn(game: Enin, command: EndTurn) -> None:
    r.require_stage(game.stage, (r.QUEST_ATTEMPT,), "ending the Questing Phase")


def end_turn(game: Enin, command: EndTurn) -> None:
    game._turn_ended(turn=game.turn + 1)


def legal_attempt(game: Enin) -> list[Command]:
    return [AttemptQuest(), EndTurn()]
