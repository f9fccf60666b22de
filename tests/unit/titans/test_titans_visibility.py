"""Hidden information in Titans never leaks: Support hands, Secret Objectives
(held, drafted, drawn), the top 3 of a Nation Deck, the deck orders, a card put
at the bottom of a Nation Deck and an opening purchase before the reveal are
their owner's (or nobody's) alone, in every view and in every event's public form."""

from __future__ import annotations

import random

from aggregates.kernel import event_type, payload_of, recorded_audience
from aggregates.titans import Titans
from aggregates.titans.data import OBJECTIVES

#: What the others may read of each event with a private form.
PUBLIC_KEYS = {
    "SupportDrawn": {"seat", "count", "source", "why"},
    "SupportDeckReshuffled": {"count"},
    "OrderDeckShuffled": {"round", "count"},
    "ObjectivesDealt": {"seat", "count"},
    "ObjectiveKept": {"seat", "count"},
    "ObjectivesPassed": {"seat", "to", "count"},
    "ObjectivesDrawn": {"seat", "count"},
    "OpeningPurchaseChosen": {"seat"},
    "NationCardPurchased": {"seat", "card", "paid", "why", "cost"},
    "NationDeckTopSeen": {"seat"},
    "Created": None,  # the kernel's: the seed and the deck orders left out
}


def test_events_private_forms_and_views_hide_what_they_must() -> None:
    rng = random.Random(11)
    game = Titans.start(["a", "b", "c"], seed="b" * 64)
    seen: set[str] = set()
    for step in range(400):
        for ev in game.collect_events():
            kind, payload = event_type(ev), payload_of(ev)
            audience, public = recorded_audience(Titans, kind, payload, ev.meta)  # type: ignore[attr-defined]
            if audience.everyone:
                continue
            seen.add(kind)
            assert kind in PUBLIC_KEYS, f"{kind} is private: say what its public form shows"
            allowed = PUBLIC_KEYS[kind]
            if allowed is not None:
                assert set(public) <= allowed, (kind, public)
            if kind == "ObjectiveKept":
                assert isinstance(public["count"], int)
            if kind == "Created":
                assert "seed" not in public
                assert all(isinstance(v, int) for v in public["setup"]["nation_decks"])
        if step % 10 == 0:
            check_views(game)
        if game.ended:
            break
        seat = rng.choice(game.waiting_on())
        game.act(seat, rng.choice(game.legal_actions(seat)))
    assert {"SupportDrawn", "ObjectivesDealt", "ObjectiveKept", "OpeningPurchaseChosen",
            "OrderDeckShuffled"} <= seen


def check_views(game: Titans) -> None:
    players = len(game.seats)
    spectator = game.view(None)
    for hidden in ("hand", "objectives", "nation_deck_top", "choosing_objectives",
                   "opening_choice"):
        assert hidden not in spectator
    for reader in range(players):
        seen = game.view(reader)
        assert seen["hand"] == sorted(game.hands[reader])
        assert seen["objectives"] == sorted(game.objectives[reader])
        assert seen["nation_deck_top"] == game.nation_decks[reader][:3]
        text = repr(seen)
        for other in range(players):
            if other == reader:
                continue
            assert seen["nations"][other]["hand_count"] == len(game.hands[other])
            for card in game.objectives[other]:
                # another player's Secret Objective is not named anywhere in the view
                assert OBJECTIVES[card].name not in repr(game.present(reader).to_json())
        assert "nation_deck:" not in text
