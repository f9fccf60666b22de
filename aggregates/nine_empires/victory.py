"""Object: the three victories, and players eliminated.

- Conquest: the instant you destroy the last castle (other than your own) in
  the game.
- Dominance: the only player with castles holding food at the end of a turn.
- Popular: 50 Renown and at least three quests in play at the end of a turn
  (checked from the Ordained clockwise; seating breaks a tie).
A player eliminated (no castles at the end of an Attack Phase; no food in
Winter) leaves the game and the rest go on (``elimination``); when one
player is left, that player has won.
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel.outcome import Outcome, headline, rank
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import quests
from aggregates.nine_empires.elimination import last_standing
from aggregates.nine_empires.state import EARLIER_SEAT_RESULT, State

POPULAR_RENOWN = 50
POPULAR_QUESTS = 3
#: The outcome's headline, by how the game was won (the rulebook's Object).
VICTORY = {"conquest": "a Conquest Victory", "dominance": "a Dominance Victory",
           "popular": "a Popular Victory", "last standing": "being the last player left"}


def standings(state: State) -> Outcome:
    """The shared outcome: the rulebook names a winner and no places after
    it, so every other seat shares second place; Renown is each seat's score.
    Before the end nobody has won yet, and each seat's score is where it
    stands at the next Winter Phase, were it now (``standing``): the
    rulebook's checks at the end of a turn are the food on a player's castles
    first (a Dominance Victory, and elimination) and Renown after (a Popular
    Victory), so the seats are ranked by food, then Renown, those out last."""
    recorded = state.result or {}
    if "winner" not in recorded:
        scores = tuple(standing(state, s) for s in range(len(state.seats)))
        ranking = rank(len(state.seats), lambda s: scores[s])
        return Outcome(winners=(), ranking=ranking, scores=scores,
                       breakdown={}, summary="The game is not over.")
    winner = int(recorded["winner"])
    rest = tuple(s for s in range(len(state.seats)) if s != winner)
    return Outcome(winners=(winner,), ranking=((winner,), rest) if rest else ((winner,),),
                   scores=tuple(state.renown), breakdown=recorded,
                   summary=headline((winner,), None, f"by {VICTORY[str(recorded['how'])]}"))


def standing(state: State, seat: int) -> float:
    """A seat's score before the end: the food it would hold at a Winter
    Phase now (the food on its castles and on its heroes, which the Winter
    Phase moves onto its castles: "Winter Phase"; a castle's capacity is not
    applied), plus its Renown as a share of a Popular Victory's 50, which
    weighs less than one food token. A seat eliminated scores -1, below any
    seat still in."""
    if seat in state.out:
        return -1.0
    food = sum(t.food(state, iid) for iid in t.cards_in_play(state, seat)
               if t.ALL[state.instances[iid]["card"]].type in ("castle", "hero"))
    return food + min(state.renown[seat], POPULAR_RENOWN) / (POPULAR_RENOWN + 1)


def win(state: State, seat: int, how: str) -> None:
    state.emit("GameWon", winner=seat, how=how, renown=list(state.renown))


def conquest(state: State, attacker: int) -> bool:
    """Whether the attacker just destroyed the last castle other than their own."""
    if any(t.castles(state, s) for s in t.seats_in(state) if s != attacker):
        return False
    win(state, attacker, "conquest")
    return True


def eliminate(state: State, seat: int, why: str) -> None:
    if state.over or seat in state.out:
        return
    state.emit("PlayerEliminated", seat=seat, why=why)
    left = last_standing(len(state.seats), state.out)
    if left is not None:
        win(state, left, "last standing")


def dominance(state: State) -> bool:
    """Only one player has castles with food: that player wins."""
    fed = [s for s in t.seats_in(state) if t.castle_food(state, s) > 0]
    if len(fed) == 1 and len(t.seats_in(state)) > 1:
        win(state, fed[0], "dominance")
        return True
    return False


def popular(state: State) -> bool:
    for seat in t.order_from(state, state.ordained):
        if state.renown[seat] >= POPULAR_RENOWN and \
                len(quests.completed(state, seat)) >= POPULAR_QUESTS:
            win(state, seat, "popular")
            return True
    return False


def result(state: State, winner: int, how: str) -> dict[str, Any]:
    """The result as every reader is told it ("Player 1 wins by a Dominance
    Victory."; rules 1.0.0 and 1.1.0 counted seats from 0: ``EARLIER_SEAT_RESULT``)."""
    said = (f"seat {winner} wins by {VICTORY[how]}" if EARLIER_SEAT_RESULT in state.EARLIER
            else headline((winner,), None, f"by {VICTORY[how]}"))
    return {"result": said, "winner": winner, "how": how, "winners": [winner]}
