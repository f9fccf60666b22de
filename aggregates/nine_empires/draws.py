"""Decks, Discard Piles, and Hands: drawing, and the discard pile reshuffled.

The instant a player must draw from an empty deck, the discard pile (not the
buried pile) is shuffled into a new deck. Draws are decided in the command
path (the cards drawn and any shuffle are in the events), never on replay.
Hands and decks are private: the drawer alone reads which cards were drawn;
nobody reads a new deck's order.
"""

from __future__ import annotations

from aggregates.kernel import Audience
from aggregates.nine_empires import cards as t
from aggregates.nine_empires.cards import zone_name
from aggregates.nine_empires.state import State

NOBODY = Audience(frozenset())


def draw(state: State, seat: int, count: int, why: str) -> list[str]:
    """Draw ``count`` cards (fewer if deck and discard pile run out)."""
    drawn: list[str] = []
    while len(drawn) < count:
        deck = t.deck(state, seat)
        if not deck:
            pile = list(state.zones.get(zone_name("discard", seat), []))
            if not pile:
                break
            order = state.shuffled(pile)
            state.emit("DeckReshuffled", audience=NOBODY,
                       public={"seat": seat, "count": len(order)},
                       seat=seat, order=order, count=len(order))
            continue
        take = deck[:count - len(drawn)]
        state.emit("CardsDrawn", audience=Audience(frozenset({seat})),
                   public={"seat": seat, "count": len(take), "why": why},
                   seat=seat, cards=take, count=len(take), why=why)
        drawn.extend(take)
    return drawn
