"""Ettin in its own words: the screen a reader sees, menu labels, event sentences.

Built from ``Zones`` only, so a screen shows no card its reader may not see:
an Ally's War Camp is shown to its partner, an Enemy's only as a count;
deployed cards are counts until flipped (or scouted).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from typing import Any

from aggregates.ettin import rules as r
from aggregates.ettin import table as t
from aggregates.ettin.commands import (
    Deploy,
    Draft,
    EndSpoils,
    Initiative,
    Lose,
    PlaceDefense,
    Produce,
    Recruit,
    Sell,
    Siege,
    Spoil,
    Target,
)
from aggregates.ettin.data import COMPONENTS as C
from aggregates.kernel import Command, Zones
from aggregates.kernel.present import Card, Cards, Note, Screen, Table, Track, screen, section

#: The game's bookkeeping steps, in words.
WORDS = {
    "initiative_opened": "Initiative: take the token or give it away",
    "new_age": "A new Age dawns",
    "draft_opened": "Drafting begins",
    "draft_orders": "The drafting order is set",
    "drafted": "A card is drafted",
    "deploy_opened": "War: deploy your War Camp",
    "deploy_turn": "The deploy passes on",
    "flipped": "All deployed cards are flipped face up",
    "battle_step": "The battle goes on",
    "target": "A start-of-battle target is chosen",
    "spoils_opened": "Spoils are taken",
    "spoils_step": "Spoils go on",
    "siege": "A Siege Token is placed",
    "adventure_defense": "Adventure Defenses are placed",
    "retire": "Units retire",
    "produce_opened": "Produce",
    "produce_step": "Produce goes on",
    "game_over": "The third War is over",
}
SLOT_NAMES = ("Location 1 (by the Adventure)", "Location 2", "Location 3 (far)", "the Adventure")


def nation_name(nation: str) -> str:
    return C.nation(nation).name


def position_name(g: Any, p: int) -> str:
    return f"{nation_name(g.nations[p])} ({g.seats[g.seating().controller[p]]})"


@functools.lru_cache(maxsize=8192)
def card_text(card: int) -> str:
    """A card's face in words. Cached: it depends on the card id and the
    (immutable) component data alone, and a screen names the same cards for
    every reader on every read."""
    if C.is_adventure(card) and C.adventure(card).defense is None:
        a = C.adventure(card)
        return f"{a.name} (Adventure {a.difficulty}+die, {a.vp} VP, {a.gold} gold)"
    u = r.unit(card)
    bits = [f"{u.kind} {u.strength}"]
    if u.adventure:
        bits.append(f"adventure {u.adventure}")
    bits.append(f"cost {u.cost}/sell {u.sell}")
    if u.vp:
        bits.append(f"{u.vp} VP")
    bits += [a.text for a in u.abilities]
    return f"{u.name} ({', '.join(bits)})"


@functools.lru_cache(maxsize=8192)
def card_face(card: int) -> Card:
    """A card as a screen shows it (``Card`` is frozen, so one is shared)."""
    return Card(card, card_text(card))


@functools.lru_cache(maxsize=64)
def location_labels(nation: str) -> tuple[str, ...]:
    """The labels of a nation mat's three Locations (static data, cached)."""
    mat = C.nation(nation)
    return tuple(f"{SLOT_NAMES[s]}: {spot.kind} {spot.defense} ({spot.ability.text})"
                 for s, spot in enumerate(mat.locations[:t.ADVENTURE]))


def cards_item(zones: Zones, label: str, zone: str, seat: int | None, numbered: bool = False,
               extra: Collection[int] = ()) -> Cards:
    """A zone as ``seat`` sees it; ``extra`` are cards shown face up although
    the zone is not (Scouting). ``zones`` is the call's one ``table_zones()``:
    building it is the costly part, so a screen builds it once."""
    seen = zones.seen_by(zone, seat)
    if seen is None:
        shown = [c for c in zones.contents[zone] if c in extra]
        count = zones.count_seen_by(zone, seat)
        if shown:
            return Cards(label, tuple(card_face(c) for c in shown), count=count)
        return Cards(label, None, count=count)
    return Cards(label, tuple(card_face(c) for c in seen), zone=zone, numbered=numbered)


def present(g: Any, seat: int | None) -> Screen:
    """What ``seat`` (None: a spectator) sees. Linear in the table: the zones,
    seating and position names are worked out once per call, not per item."""
    positions = range(len(g.nations))
    ctrl = g.seating().controller
    zones = g.table_zones()
    names = [f"{nation_name(g.nations[p])} ({g.seats[ctrl[p]]})" for p in positions]
    shown = frozenset(g.shown)
    header = section(
        f"Ettin — Age {g.age}, {g.phase.replace('_', ' ')}",
        Track("Gold", per_seat=None, value=", ".join(
            f"{names[p]} {g.gold[p]}" for p in positions)),
        Table("Enemies", ("pair", "initiative", "adventure"),
              tuple((" vs ".join(names[p] for p in pair),
                     names[g.initiative[i]],
                     ", ".join(card_text(c) for c in g.zones[t.adventure(i)]) or "-")
                    for i, pair in enumerate(g.pairs))),
    )
    sections = [header]
    for p in positions:
        items: list[Any] = [
            cards_item(zones, "War Camp", t.camp(p), seat, numbered=ctrl[p] == seat),
            cards_item(zones, "Drafted", t.drafted(p), seat),
            cards_item(zones, "Retired", t.retired(p), seat),
        ]
        for s in range(t.SLOTS):
            if g.zones[t.field(p, s)]:
                items.append(cards_item(zones, f"Deployed at {SLOT_NAMES[s]}", t.field(p, s),
                                        seat, extra=shown))
        for s, label in enumerate(location_labels(g.nations[p])):
            items.append(cards_item(zones, label, t.loc(p, s), seat))
        tokens = ", ".join(f"War {a}" for a in g.tokens[p]) or "none"
        left = len(g.zones[r.nation_deck(g, p)]) if g.age else 0
        items.append(Note(f"Victory Tokens: {tokens}; Nation Deck: "
                          f"{left} card{'' if left == 1 else 's'}"))
        sections.append(section(names[p], *items))
    lineups = [cards_item(zones, f"Lineup {i + 1}", t.lineup(i), seat, numbered=True)
               for i in positions if g.zones[t.lineup(i)]]
    if lineups:
        sections.append(section("Lineups", *lineups))
    sections.append(section("Lost Pile", cards_item(zones, "Lost", t.LOST, seat)))
    if g.ended and g.outcome:
        sections.insert(0, section("Result", Note(g.outcome["result"])))
    return screen(*sections)


def action_label(command: Command) -> str:
    def n(card: int) -> str:
        return card_text(card) if card else "the top of the Enemy's Nation Deck"

    match command:
        case Initiative(take=take):
            return "Take the Initiative Token" if take else "Give the Initiative Token away"
        case Draft(card=card):
            return f"Draft {n(card)}"
        case Recruit(card=card):
            return f"Recruit {n(card)}"
        case Sell(card=card):
            return f"Sell {n(card)}"
        case Deploy(card=card, slot=slot, scout=scout):
            more = f", scouting the Enemy's {SLOT_NAMES[scout - 1]}" if scout else ""
            return f"Deploy {n(card)} at {SLOT_NAMES[slot]}{more}"
        case Target(unit=unit, target=target):
            return (f"{r.name(unit)} targets {n(target)}" if target
                    else f"Do not use {r.name(unit)}'s Ranged")
        case Lose(card=card):
            return f"Lose {n(card)}"
        case Spoil(card=card):
            return f"Take {n(card)} as a Spoil"
        case EndSpoils():
            return "Take no more Spoils here"
        case Siege(card=card):
            return f"Besiege {n(card)}"
        case PlaceDefense(card=card, slot=slot):
            return f"Place {n(card)} at {SLOT_NAMES[slot]}"
        case Produce(use=use, card=card):
            if not use:
                return "Do not use this Produce ability"
            return f"Gate {n(card)}" if card else "Use this Produce ability"
    return command.label()


def describe(event_type: str, payload: Mapping[str, Any], seats: list[str]) -> str:
    ctrl = t.controller(len(seats)) if len(seats) >= 2 else ()

    def who_is(p: Any) -> str:
        if p is None or not ctrl or not 0 <= int(p) < len(ctrl):
            return "the table"
        mat = " (Mercenary mat)" if int(p) >= len(seats) else ""
        return f"{seats[ctrl[int(p)]]}{mat}"

    if event_type == "Moved":
        who = who_is(payload.get("position"))
        if "cards" in payload:
            names = ", ".join(C.name(c) for c in payload["cards"])
        else:
            names = f"{payload.get('count', '?')} card(s)"
        return (f"{who}: {names} from {payload.get('source')} to {payload.get('target')} "
                f"({payload.get('why')})")
    if event_type == "GoldChanged":
        totals = payload.get("totals") or {}  # None in an event recorded before it was stated
        changes = ", ".join(
            f"{who_is(p)} {d:+d}" + (f" (now {totals[p]})" if p in totals else "")
            for p, d in payload.get("deltas", {}).items())
        return f"Gold ({payload.get('why')}): {changes}"
    if event_type == "Updated":
        what = str(payload.get("what", "")).replace("_", " ")
        details = payload.get("details") or {}
        if payload.get("what") == "battle":
            outcome = details.get("result")
            winner = details.get("winner")
            return (f"Battle at slot {details.get('slot')}: {outcome}"
                    + (f", won by {who_is(winner)}" if winner is not None else "")
                    + f" (scores {details.get('scores')})")
        if payload.get("what") == "adventure":
            return (f"Adventure: score {details.get('score')} against "
                    f"{details.get('difficulty')} (die {details.get('die')}): "
                    + ("completed" if details.get("success") else "failed"))
        if payload.get("what") == "scouted":
            return (f"{who_is(details.get('position'))} scouts: "
                    + ", ".join(C.name(c) for c in details.get("cards", [])) + " revealed")
        if payload.get("what") == "initiative":
            return f"{who_is(details.get('holder'))} holds the Initiative Token"
        if payload.get("what") == "war":
            wars = details.get("wars", [])
            return f"The War of Age {details.get('age')} is over: " + "; ".join(
                f"{who_is(w['winner'])} wins" if w.get("winner") is not None else "a tie"
                for w in wars)
        return WORDS.get(str(payload.get("what")), what[:1].upper() + what[1:] or "Updated")
    if event_type in ("ChoicesOpened", "ChoiceMade", "ChoicesRevealed", "DefaultApplied"):
        return f"{event_type} (seat {payload.get('seat', '')})"
    if event_type == "Ended":
        outcome = payload.get("outcome") or {}
        return str(outcome.get("result", "The game is over"))
    if event_type == "Created":
        return f"A game of Ettin for {len(seats)} players"
    return event_type
