"""A world guessed from one seat's record of Titans (``kernel.unseen``'s
``setup`` and ``complete``): what the seat read in public form drawn at
random, and the cards it saw brought where the rules take them from.

The creation hides the order of the Support Deck, of each Nation Deck and of
the Secret Objectives (Game Setup 3-5: each shuffled face down); a guess
shuffles them afresh. Events a seat reads in public form are completed from
the guessed world: a Support or Objective draw takes the guess's top cards,
a new Support Deck or Order Deck is the guess's discards or the round's Order
Cards shuffled, an Objective kept is one of those the guess holds for that
seat, and an opening purchase chosen in secret is guessed as none until the
reveal names it. Events read whole (or public) that name cards lying where
the seat cannot see them (the Support row turned from the Deck, Support
Cards played or paid from a hand, an Objective accomplished) first bring
those cards there in the guess.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from aggregates.kernel.unseen import Guessing, Unseen, bring
from aggregates.titans import objectives
from aggregates.titans.commands import NONE
from aggregates.titans.data import NATIONS, OBJECTIVES, SUPPORTS, order_deck


def setup(cls: Any, created: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """The public setup with every face-down deck shuffled afresh."""
    public = dict(created["setup"])
    return {**public,
            "support_deck": rng.sample([s.id for s in SUPPORTS], len(SUPPORTS)),
            "nation_decks": [rng.sample(list(NATIONS[n].cards), len(NATIONS[n].cards))
                             for n in public["nations"]],
            "objective_deck": ([] if not public["objective_deck"]
                               else rng.sample([o.id for o in OBJECTIVES], len(OBJECTIVES)))}


def without(payload: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if k not in keys}


def shuffled(cards: list[Any], rng: random.Random) -> list[Any]:
    return rng.sample(cards, len(cards))


def redacted(g: Any, guess: Guessing, kind: str, payload: dict[str, Any]
             ) -> dict[str, Any] | None:
    """An event read in public form, completed (None: not one of Titans' secrets)."""
    rng = guess.rng
    if kind == "SupportDeckReshuffled":
        return {"deck": shuffled(sorted(g.support_discard), rng)}
    if kind == "SupportDrawn":
        count = int(payload["count"])
        return {**without(payload, "count"), "cards": list(g.support_deck[:count])}
    if kind in ("ObjectivesDealt", "ObjectivesDrawn"):
        count = int(payload["count"])
        return {**without(payload, "count"), "cards": list(g.objective_deck[:count])}
    if kind == "ObjectiveKept":
        held = objectives.holding(g, int(payload["seat"]))
        card = rng.choice(held)
        returned = [c for c in held if c != card] if payload["count"] else []
        return {"seat": payload["seat"], "card": card, "returned": returned}
    if kind == "ObjectivesPassed":
        cards = list(g.draft["holding"][int(payload["seat"])])
        return {**without(payload, "count"), "cards": cards}
    if kind == "OrderDeckShuffled":
        return {"round": payload["round"],
                "deck": shuffled(order_deck(len(g.seats)), rng)}
    if kind == "NationCardPurchased":
        return {**payload, "bottom": NONE}
    if kind == "NationDeckTopSeen":
        seat = int(payload["seat"])
        return {"seat": seat, "cards": list(g.nation_decks[seat][:3])}
    if kind == "OpeningPurchaseChosen":
        return {"seat": payload["seat"], "card": None, "pay": [], "bottom": NONE}
    return None


def passed_on(g: Any, seat: int, cards: list[Any], giver: int) -> None:
    """Objectives the guess already passed on to another seat in this pass
    (its incoming pile, which the seat cannot see) are traded back into the
    giver's hand for cards it still holds ("Secret Objectives": the draft
    passes every hand at once)."""
    holding = g.draft["holding"][giver]
    for card in cards:
        if card in holding:
            continue
        pile = next((inc for t, inc in enumerate(g.draft["incoming"])
                     if t != seat and card in inc), None)
        free = [i for i, c in enumerate(holding) if c not in cards]
        if pile is None or not free:
            continue
        j, k = pile.index(card), free[-1]
        pile[j], holding[k] = holding[k], pile[j]


def complete(table: Unseen, g: Any, guess: Guessing, kind: str,
             payload: dict[str, Any]) -> dict[str, Any]:
    """An event of a seat's record made whole in the guessed world (see the module)."""
    if guess.redacted:
        whole = redacted(g, guess, kind, payload)
        if whole is not None:
            payload = whole
    seat = guess.seat

    def bring_all(cards: list[Any], zone: str, ordered: bool = False) -> None:
        for i, card in enumerate(cards):
            bring(table, g, seat, card, zone, i if ordered else None, keep=cards)

    from_deck = kind == "SupportDrawn" and payload.get("source") == "deck"
    if from_deck or kind == "SupportRowRefilled":
        bring_all(payload["cards"], "support_deck", ordered=True)
    elif kind in ("ObjectivesDealt", "ObjectivesDrawn"):
        bring_all(payload["cards"], "objective_deck", ordered=True)
    elif kind in ("OrderPoolDrawn", "UpcomingPoolDrawn", "OrderPoolSlid"):
        bring_all(payload["cards"], "order_deck", ordered=True)
    elif kind == "ObjectivesPassed":
        passed_on(g, seat, payload["cards"], int(payload["seat"]))
        bring_all(payload["cards"], f"choosing:{payload['seat']}")
    elif kind == "NationDeckTopSeen":
        bring_all(payload["cards"], f"nation_deck:{payload['seat']}", ordered=True)
    elif kind in ("SupportPlayed", "SupportDiscarded"):
        bring_all(payload["cards"], f"hand:{payload['seat']}")
    elif kind == "NationCardPurchased":
        bring_all(payload["paid"], f"hand:{payload['seat']}")
    elif kind == "OpeningPurchasesRevealed":
        for p in payload["purchases"]:
            bring_all(p["paid"], f"hand:{p['seat']}")
    elif kind == "ObjectiveAccomplished":
        bring_all([payload["card"]], f"objectives:{payload['seat']}")
    return payload
