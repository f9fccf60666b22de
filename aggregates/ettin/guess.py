"""A world guessed from one seat's record of Ettin (``kernel.unseen``'s
``setup`` and ``complete``).

The creation names the nations and hides each deck's order ("Setup": the
Nation, Mercenary and Adventure decks are shuffled face down): a guess rolls
them by the rules' own setup with its own dice. Every card that moves is one
fact naming its two zones (``zones.moved``): read in public form, its cards
are the guess's top cards of a face-down deck, or cards of the zone it left
at random (a War Camp's deploy); read whole, its cards are first brought to
the zone it takes them from. A Scouting reveal and the Battle's flip ("War:
Battle") name cards lying face down: they are brought where they lie.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from aggregates.ettin.data import COMPONENTS as C
from aggregates.kernel.record.entropy import DiceTray
from aggregates.kernel.unseen import Guessing, Unseen, bring, kind_of


def setup(cls: Any, created: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """The setup a seat may guess: the nations as dealt (public), each
    face-down deck shuffled afresh by the rules' own setup ("Setup": each
    Nation, Mercenary and Adventure deck is shuffled face down)."""
    seats = list(created["seats"])
    options = {**created.get("options", {}),
               "nations": list(created["setup"]["nations"])[:len(seats)]}
    tray = DiceTray(rng.getrandbits(256).to_bytes(32, "big").hex(), 0)
    return dict(cls.decide_setup(tray, seats, options))


def complete(table: Unseen, g: Any, guess: Guessing, kind: str,
             payload: dict[str, Any]) -> dict[str, Any]:
    """An event of a seat's record made whole in the guessed world (see the module)."""
    seat = guess.seat
    if "source" in payload and "target" in payload:
        source = payload["source"]
        ordered = g.table_zones().spec(source).ordered
        if guess.redacted:
            count = int(payload["count"])
            pile = g.zones[source]
            if not ordered and kind_of(payload["target"]) in ("camp", "field"):
                # Only units serve in a War Camp or on the field (an
                # Adventure completed lies in the Retired Pile for good).
                pile = [c for c in pile if not C.is_adventure(c)]
            cards = pile[:count] if ordered else guess.rng.sample(pile, count)
            payload = {k: v for k, v in payload.items() if k != "count"}
            payload["cards"] = list(cards)
        elif g.table_zones().seen_by(source, seat) is None:
            for i, card in enumerate(payload["cards"]):
                bring(table, g, seat, card, source, i if ordered else None,
                      keep=payload["cards"])
        guess.memo["target"] = payload["target"]
    elif kind == "Scouted":
        cards = list(payload["cards"])
        if cards and "target" in guess.memo:
            bring(table, g, seat, cards[0], guess.memo["target"])
        foe = f"field:{payload['enemy']}:{payload['slot']}"
        for card in cards[1:]:
            bring(table, g, seat, card, foe, keep=cards[1:])
    elif kind == "CardsFlipped":
        for p, slots in payload["cards"].items():
            for s, cards in slots.items():
                for i, card in enumerate(cards):
                    bring(table, g, seat, card, f"field:{p}:{s}", i)
    return payload
