"""Presentation: what a reader sees, how a move and an event read, all in the
game's own words.

Kernel features shown: ``present`` builds a ``Screen`` of the kernel's
vocabulary (``Track``, ``Cards``, ``Table``, ``Note`` in titled sections) from
the zones as the reader sees them; ``action_label`` names a command for menus
(OpenSpiel's ``action_to_string``); ``describe`` tells an event from the
payload its reader got (the private form, or the public one), so no client
holds a word of this game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aggregates.kernel import Command
from aggregates.kernel.present import Card as Face
from aggregates.kernel.present import Cards, Note, Screen, Table, Track, screen, section
from tests.template_game.commands import Bank, Bid, Claim, Dive, PassPriority, Snatch
from tests.template_game.components import COMPONENTS as C
from tests.template_game.table import (
    DECK,
    DISCARD,
    POSITIONS,
    SHORE,
    TEAM_NAMES,
    hand,
    seating_for,
    team_of_position,
    vault,
)


def face(card_id: int) -> Face:
    card = C.card(card_id)
    texts = [C.book.by_name[name].text for name in card.effects]
    detail = f"{card.suit} {card.value}" + (f" — {' '.join(texts)}" if texts else "")
    return Face(card_id, card.name, detail, card.suit)


def cards_item(label: str, zones: Any, name: str, reader: int | None,
               numbered: bool = False) -> Cards:
    seen = zones.seen_by(name, reader)
    if seen is None:
        return Cards(label, count=zones.count_seen_by(name, reader) or 0, zone=name)
    return Cards(label, tuple(face(c) for c in seen), zone=name, numbered=numbered)


def name_card(card_id: int) -> str:
    card = C.card(card_id)
    return f"{card.name} ({card.suit} {card.value})"


def present(state: Any, reader: int | None) -> Screen:
    zones = state.table_zones()
    seating = state.seating()
    mine = seating.positions_of(reader) if reader is not None else []
    who = [state.seats[seating.controller[p]] for p in range(4)]
    table = section(
        "The table",
        Note(prompt_line(state)),
        Track("Round", max(state.round, 1), maximum=state.rounds),
        cards_item("The shore", zones, SHORE, reader, numbered=True),
        cards_item("The deck", zones, DECK, reader),
        cards_item("Discarded", zones, DISCARD, reader),
    )
    hands = section("Your hands", *(cards_item(f"{POSITIONS[p]}'s hand", zones, hand(p), reader,
                                               numbered=True) for p in mine))
    others = section("Other hands", *(cards_item(f"{POSITIONS[p]}'s hand", zones, hand(p), reader)
                                      for p in range(4) if p not in mine))
    vaults = section("Vaults (face down: partners see them)",
                     *(cards_item(f"{TEAM_NAMES[t]} vault", zones, vault(t), reader)
                       for t in range(2)))
    players = section("Positions", Table(
        "Who plays where", ("position", "player", "team", "coins", "bid"),
        tuple((POSITIONS[p], who[p], TEAM_NAMES[team_of_position(p)], state.coins[p],
               "-" if state.bids is None else state.bids[p]) for p in range(4))))
    return screen(table, hands, others, vaults, players)


def prompt_line(state: Any) -> str:
    if state.ended:
        return f"Game over: {(state.outcome or {}).get('result', '')}"
    decisions = state.pending()
    if not decisions:
        return "The tide turns."
    return "; ".join(f"{state.seats[d.seat]}: {d.prompt}" for d in decisions)


def action_label(command: Command) -> str:
    if isinstance(command, Bid):
        return "Bid " + ", ".join(str(b) for b in command.bids)
    if isinstance(command, Claim):
        return f"Claim {name_card(command.card)} from the shore"
    if isinstance(command, Bank):
        return "Bank " + " and ".join(name_card(c) for c in command.cards)
    if isinstance(command, Dive):
        return f"Dive {command.depth} card{'s' if command.depth > 1 else ''} deep " \
               f"({command.depth} coin{'s' if command.depth > 1 else ''})"
    if isinstance(command, PassPriority):
        return "Pass"
    if isinstance(command, Snatch):
        return f"Snatch it, discarding {name_card(command.card)}"
    return "Let it go"


def describe(event_type: str, payload: Mapping[str, Any], seats: list[str]) -> str | None:
    """One event in words, from the form this reader got of it; None for an
    event the kernel words (an entropy contribution)."""
    seating = seating_for(len(seats))

    def pos(p: int) -> str:
        return f"{POSITIONS[p]} ({seats[seating.controller[p]]})"

    p = payload.get("position")
    if event_type == "Created":
        return f"A game of {C.title} for {', '.join(seats)}"
    if event_type == "CardsDealt":
        target = str(payload.get("target", ""))
        if target == SHORE:
            return "The shore fills: " + ", ".join(name_card(c) for c in payload["cards"])
        owner = pos(int(target.split(":")[1]))
        if "cards" in payload:
            return f"{owner} is dealt " + ", ".join(name_card(c) for c in payload["cards"])
        return f"{owner} is dealt {payload.get('count', 0)} cards"
    if event_type == "TideRose":
        return f"Round {payload['round']}: the tide rises; every position gains " \
               f"{payload['coins'][0]} coins"
    if event_type == "ChoicesOpened":
        return "Everyone bids in secret"
    if event_type == "ChoiceMade":
        if "choice" in payload:
            bids = ", ".join(str(b) for b in payload["choice"])
            return f"{seats[payload['seat']]} bids {bids} (only you see this)"
        return f"{seats[payload['seat']]} has bid"
    if event_type == "ChoicesRevealed":
        return "The bids are revealed: " + "; ".join(
            f"{seats[int(s)]} bid {', '.join(map(str, b))}" for s, b in payload["choices"].items())
    if event_type == "BidsSettled":
        return "Order of play: " + ", ".join(POSITIONS[q] for q in payload["order"])
    if event_type == "Claimed":
        return f"{pos(p)} claims {name_card(payload['card'])}"
    if event_type == "EffectUsed":
        effect = C.book.by_name[payload["effect"]]
        return f"{pos(p)}: {effect.name.title()} — gains {payload['amount']} coin"
    if event_type == "WindowOpened":
        return f"{', '.join(POSITIONS[q] for q in payload['order'])} may snatch " \
               f"{name_card(payload['card'])}"
    if event_type == "Snatched":
        return f"{pos(p)} discards {name_card(payload['discard'])} and snatches " \
               f"{name_card(payload['card'])} from {POSITIONS[payload['victim']]}"
    if event_type == "LetGo":
        return f"{pos(p)} lets it go"
    if event_type == "Banked":
        if "cards" in payload:
            return f"{pos(p)} banks " + " and ".join(name_card(c) for c in payload["cards"])
        return f"{pos(p)} banks {payload['count']} card{'s' if payload['count'] > 1 else ''}"
    if event_type == "Dived":
        if "cards" in payload:
            return f"{pos(p)} dives and finds " + ", ".join(name_card(c) for c in payload["cards"])
        return f"{pos(p)} dives {payload['depth']} deep"
    if event_type == "Passed":
        return f"{pos(p)} passes"
    if event_type == "TideEbbed":
        return f"Round {payload['round']} ends: the tide ebbs"
    if event_type == "DefaultApplied":
        return f"{seats[payload['seat']]}'s time ran out: {payload['default']} default applied"
    if event_type == "Ended":
        return f"Game over: {payload['outcome'].get('result', '')}"
    return None
