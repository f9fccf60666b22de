"""A world guessed from one seat's record of Ethnos (``kernel.unseen``'s
``complete``; the setup hides nothing, so the public one is whole).

What a seat reads in public form is a new Age's deck and a card dealt or
drawn by another seat. A guess draws the deck as the rules build one
("Beginning a New Age": the Dragons shuffled into its bottom half) and gives
another seat the guess's top card that is no Dragon (a Dragon drawn is
revealed at once). Cards the seat saw are first brought where the event
takes them from: its own deals and draws and the row from the deck's top,
another seat's band, discard and scattered hand from that hand.
"""

from __future__ import annotations

from typing import Any

from aggregates.ethnos import ages, zones
from aggregates.ethnos.data import CARDS
from aggregates.kernel.unseen import Guessing, Unseen, bring


def complete(table: Unseen, g: Any, guess: Guessing, kind: str,
             payload: dict[str, Any]) -> dict[str, Any]:
    """An event of a seat's record made whole in the guessed world (see the module)."""
    seat = guess.seat
    if kind == "AgeBegan" and guess.redacted:
        shuffle = lambda items: guess.rng.sample(items, len(items))  # noqa: E731
        deck = ages.deal_order(shuffle, g.tribes, len(g.seats))
        rest = {k: v for k, v in payload.items() if k != "deck_size"}
        return {**rest, "deck": deck}
    if kind in ("CardDealt", "DrewFromDeck"):
        # The card drawn is the deck's top once its Dragons are revealed: the
        # guess's first card that is no Dragon.
        top = next(i for i, c in enumerate(g.deck) if not CARDS[c].dragon)
        if guess.redacted:
            return {**payload, "card": g.deck[top]}
        bring(table, g, seat, payload["card"], zones.DECK, top)
    elif kind == "RowTurned":
        for i, card in enumerate(payload["cards"]):
            bring(table, g, seat, card, zones.DECK, i)
    elif kind in ("BandPlayed", "HandDiscarded") and payload["seat"] != seat:
        for card in payload["cards"]:
            bring(table, g, seat, card, zones.hand(payload["seat"]), keep=payload["cards"])
    elif kind == "AgeEnded":
        # Each hand is scattered into the row in its order.
        for other, hand in enumerate(payload["scattered"]):
            for i, card in enumerate(hand if other != seat else ()):
                bring(table, g, seat, card, zones.hand(other), i)
    return payload
