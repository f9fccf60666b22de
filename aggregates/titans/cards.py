"""The Support Deck, its face-up row and its discard pile (rulebook, "C) Draw 1
Support Card": replenishing the pool; "Whenever the Support Cards Deck is empty,
the discard pile is shuffled to form a new Deck").

Decide-side helpers: each records the events of one draw. A card drawn from
the Deck is seen by its drawer only (the others learn how many); a card taken
from the face-up row, a refill of the row and a discard are public.
"""

from __future__ import annotations

from collections.abc import Sequence

from aggregates.kernel import NOBODY, Audience
from aggregates.titans.data import TABLES
from aggregates.titans.state import State


def private(seat: int) -> Audience:
    return Audience(frozenset({seat}))


def reshuffle_if_empty(game: State) -> None:
    """Decide: an empty Deck is the discard pile shuffled (its order is nobody's to read)."""
    if game.support_deck or not game.support_discard:
        return
    order = game.shuffled(sorted(game.support_discard))
    game.emit("SupportDeckReshuffled", audience=NOBODY, public={"count": len(order)},
              deck=order)


def available(game: State) -> int:
    """How many cards the Deck can still give (the discard pile counted)."""
    return len(game.support_deck) + len(game.support_discard)


def draw(game: State, seat: int, count: int, why: str) -> list[int]:
    """Decide: ``seat`` draws ``count`` cards from the top of the Deck (fewer if
    the Deck and the discard pile run out); returns the cards."""
    drawn: list[int] = []
    while len(drawn) < count:
        reshuffle_if_empty(game)
        if not game.support_deck:
            break
        take = list(game.support_deck[:count - len(drawn)])
        game.emit("SupportDrawn", audience=private(seat),
                  public={"seat": seat, "count": len(take), "source": "deck", "why": why},
                  seat=seat, cards=take, source="deck", why=why)
        drawn.extend(take)
    reshuffle_if_empty(game)
    return drawn


def refill_row(game: State) -> None:
    """Decide: turn cards face up from the Deck until the row holds 4 again."""
    while len(game.support_row) < TABLES.support_row:
        reshuffle_if_empty(game)
        if not game.support_deck:
            return
        need = TABLES.support_row - len(game.support_row)
        game.emit("SupportRowRefilled", cards=list(game.support_deck[:need]))
    reshuffle_if_empty(game)


def take_from_row(game: State, seat: int, card: int, why: str) -> None:
    """Decide: ``seat`` takes a face-up card; the row is replenished."""
    game.emit("SupportDrawn", seat=seat, cards=[card], source="row", why=why)
    refill_row(game)


def discard(game: State, seat: int, cards: list[int], why: str) -> None:
    """Decide: cards from ``seat``'s hand onto the Support discard pile (face up)."""
    game.emit("SupportDiscarded", seat=seat, cards=sorted(cards), why=why)


def pay(game: State, seat: int, paid: Sequence[int]) -> None:
    """Support Cards leave the seat's hand for the discards."""
    for c in paid:
        game.hands[seat].remove(c)
    game.support_discard.extend(paid)
