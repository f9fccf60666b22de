"""A world guessed from one seat's record of Romance of the Nine Empires
(``kernel.unseen``'s ``setup``, ``complete`` and ``align``).

The creation names each player's deck and hides its order ("Setup": each
deck shuffled); the setup gives the cards their instance ids in that order,
so a guess shuffles each deck afresh and its ids stand for other cards than
the real game's. Two things put that right as the seat learns more:

- an event that shows a card from a hand (a card played, a tactic used, a
  React, a discard, a mulligan) names its id and its card: the guess brings
  that id into the hand, and gives it that card by trading cards with
  another hidden instance of the same owner (``align_card``);
- the seat's view at each turn shows its own hand and every public zone with
  ids and cards: the guess is aligned to it (``align``). This is how a seat
  learns the cards it drew (the draw names only ids) and the stealth cards
  that a raid sends to the discard pile.

Events read in public form are completed from the guess: a draw takes the
guess's top cards of the deck, a new deck is the guess's discard pile
shuffled, stealth cards are cards of the guess's hand. The stealth cards of
a raid are named when it resolves (or a hero is sent home): the guess's
conflict is set to those.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from aggregates.kernel.unseen import Guessing, Inconsistent, Unseen, bring
from aggregates.nine_empires.cards import zone_name
from aggregates.nine_empires.data import DECKS
from aggregates.nine_empires.raids import STEALTH

#: Events that take cards from a hand: (their ids' field, their cards' field,
#: None where the event names only the id: a card discarded to absorb damage).
FROM_HAND: dict[str, tuple[str, str | None]] = {
    "CardPlayed": ("card", "key"), "CardsDiscarded": ("cards", "keys"),
    "Mulliganed": ("discarded", "keys"), "DamageAbsorbed": ("discard", None)}


def setup(cls: Any, created: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """The public setup with each player's deck (named in it) shuffled afresh."""
    public = created["setup"]
    players = []
    for p in public["players"]:
        cards = DECKS[p["deck"]].card_list()
        players.append({**{k: v for k, v in p.items() if k != "cards"},
                        "cards": rng.sample(cards, len(cards))})
    return {"players": players, "ordained": public["ordained"]}


def listed(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def faces_seen(guess: Guessing) -> set[str]:
    """The instances whose card the seat has been shown (by an event or its
    view), kept in the guess's memo: the others' cards are the guess's."""
    seen: set[str] = guess.memo.setdefault("faces", set())
    return seen


def align_card(g: Any, guess: Guessing, iid: str, card: str) -> None:
    """Make instance ``iid`` the card ``card``, trading cards with an instance
    of the same owner whose card the seat has not been shown and that the
    guess made that card; ``iid``'s card is then seen."""
    seen = faces_seen(guess)
    mine = g.instances[iid]
    if mine["card"] != card:
        other = next((x for x, inst in g.instances.items()
                      if x != iid and x not in seen and inst["owner"] == mine["owner"]
                      and inst["card"] == card and not inst["token"]), None)
        if other is None:
            raise Inconsistent(f"GUESS_INCONSISTENT: no unseen {card} of seat "
                               f"{mine['owner']} to be {iid}")
        mine["card"], g.instances[other]["card"] = card, mine["card"]
    seen.add(iid)


def move_to(table: Unseen, g: Any, seat: int, iid: str, zone: str,
            index: int | None = None, keep: list[str] | None = None) -> None:
    """``bring`` for instances: ids are the table's own, so one may come from
    any place the seat cannot see (a stealth card the guess chose, a card
    of the deck); a stealth card traded away leaves its hero the card that
    took its place."""
    before = g.instances[iid]["zone"]
    pile = g.zones.get(before, [])
    at = pile.index(iid) if iid in pile else None
    bring(table, g, seat, iid, zone, index, keep=keep or (), any_pool=True)
    if at is None or pile[at] == iid:
        return
    chosen = (g.conflict or {}).get("stealth", {})
    for hero, held in list(chosen.items()):
        if held == iid:
            chosen[hero] = pile[at]


def redacted(g: Any, guess: Guessing, kind: str, payload: dict[str, Any]
             ) -> dict[str, Any]:
    """A draw, a new deck's order or a raid's stealth cards, from the guess."""
    seat = int(payload.get("seat", -1))
    if kind == "CardsDrawn":
        count = int(payload["count"])
        return {**payload, "cards": list(g.zones.get(zone_name("deck", seat), [])[:count])}
    if kind == "DeckReshuffled":
        pile = list(g.zones.get(zone_name("discard", seat), []))
        return {**payload, "order": guess.rng.sample(pile, len(pile))}
    if kind == "RaidUnitsAssigned":
        hand = list(g.zones.get(zone_name("hand", seat), []))
        return {**payload, "stealth": guess.rng.sample(hand, int(payload["stealth_count"]))}
    return payload


def stealth_named(table: Unseen, g: Any, seat: int, pairs: Iterable[tuple[Any, Any]]) -> None:
    """The raid's stealth cards as named: each hero's card in the guess's
    conflict is the one named, traded with the card the guess had put there."""
    conflict = g.conflict or {}
    chosen = conflict.get("stealth", {})
    for hero, card in pairs:
        if not hero or not card or chosen.get(hero) == card:
            continue
        guessed = chosen.get(hero)
        if guessed is None:
            continue
        bring(table, g, seat, card, STEALTH, g.zones[STEALTH].index(guessed), any_pool=True)
        for other, held in list(chosen.items()):
            if held == card:
                chosen[other] = guessed
        chosen[hero] = card


def complete(table: Unseen, g: Any, guess: Guessing, kind: str,
             payload: dict[str, Any]) -> dict[str, Any]:
    """An event of a seat's record made whole in the guessed world (see the module)."""
    if guess.redacted:
        payload = redacted(g, guess, kind, payload)
    me = guess.seat
    if kind == "CardsDrawn" and not guess.redacted:
        for i, iid in enumerate(payload["cards"]):
            move_to(table, g, me, iid, zone_name("deck", int(payload["seat"])), i)
    shown: list[tuple[str, str | None]] = []
    if kind in FROM_HAND:
        ids, cards = FROM_HAND[kind]
        named = [i for i in listed(payload[ids]) if i]
        faces = listed(payload[cards]) if cards else [None] * len(named)
        shown = list(zip(named, faces, strict=True))
    elif kind in ("AbilityUsed", "ReactPlayed") and payload.get("tactic"):
        shown = [(payload["source"], payload["key"])]
    if shown:
        hand = zone_name("hand", int(payload["seat"]))
        zones = table.zones(g)
        for iid, _ in shown:
            # A card the seat sees where it lies (in play, its own hand) is
            # where the guess has it already.
            where = g.instances[iid]["zone"]
            if where in zones.specs and zones.seen_by(where, me) is None:
                move_to(table, g, me, iid, hand, keep=[i for i, _ in shown])
        for iid, card in shown:
            if card is not None:
                align_card(g, guess, iid, card)
    if kind == "RaidResolved":
        stealth_named(table, g, me, [(payload["raiding_hero"], payload["raider_stealth"]),
                                     (payload["defending_hero"], payload["defender_stealth"])])
    elif kind == "SentHome":
        stealth_named(table, g, me, [(payload["hero"], payload.get("stealth"))])
    return payload


def align(table: Unseen, g: Any, guess: Guessing, view: Mapping[str, Any]) -> None:
    """The guess aligned to the seat's view: its own hand, every discard and
    buried pile in order, and the card of every instance the view shows (its
    own stealth cards in a raid too)."""
    seat = guess.seat
    faces: list[tuple[str, str]] = []
    for entry in view.get("seats", []):
        s = int(entry["seat"])
        for kind in ("discard", "buried"):
            shown = entry.get(kind, [])
            for i, card in enumerate(shown):
                move_to(table, g, seat, card["id"], zone_name(kind, s), i)
            faces += [(c["id"], c["key"]) for c in shown]
        if "hand" in entry:
            ids = [c["id"] for c in entry["hand"]]
            for iid in ids:
                move_to(table, g, seat, iid, zone_name("hand", s), keep=ids)
            faces += [(c["id"], c["key"]) for c in entry["hand"]]
        faces += [(c["id"], c["key"]) for c in entry.get("in_play", [])]
    conflict = view.get("conflict") or {}
    faces += [(c["id"], c["key"]) for c in (conflict.get("stealth") or {}).values()
              if isinstance(c, dict)]  # the seat's own stealth cards
    for iid, card in faces:
        align_card(g, guess, iid, card)


def stealth_pool(pool: Callable[[str, Any], str | None]
                 ) -> Callable[[Any, int, str, Any], str | None]:
    """The pools a world's hidden cards are dealt in, for ``seat``: a stealth
    card is one of its owner's cards as far as the others know ("Raids": it is
    placed face down from the hand), so it pools with its owner's hand and
    deck; the seat's own stealth cards it knows, and keeps."""

    def pool_in(g: Any, seat: int, name: str, card: Any) -> str | None:
        if name != STEALTH:
            return pool(name, card)
        owner = int(g.instances[card]["owner"])
        return None if owner == seat else f"cards:{owner}"

    return pool_in


def stealth_dealt(g: Any, rng: random.Random) -> None:
    """After a deal: a hero whose stealth card was dealt away from the stealth
    pile takes the card of its owner dealt there in its place."""
    conflict = g.conflict or {}
    chosen = conflict.get("stealth", {})
    held = set(chosen.values())
    for hero, card in list(chosen.items()):
        if g.instances[card]["zone"] == STEALTH:
            continue
        owner = g.instances[card]["owner"]
        spare = next(x for x in g.zones.get(STEALTH, [])
                     if x not in held and g.instances[x]["owner"] == owner)
        chosen[hero] = spare
        held.add(spare)
