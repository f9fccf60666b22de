"""The screen: the table by seat (Nation mats, Locations and their Defenses,
War Camps, the lineups, the battles), the totals, and the deploy path of
choices; names of positions, places and cards shared with the words."""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any

from aggregates.ettin import ages, flow, scoring
from aggregates.ettin import cards as cd
from aggregates.ettin import seating as sg
from aggregates.ettin import zones as zn
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.state import EttinState
from aggregates.kernel import Branch, PickPath, Zones
from aggregates.kernel.present import (
    Card,
    Cards,
    Note,
    Screen,
    Table,
    listing,
    plural,
    screen,
    section,
)

#: Kept for callers that name a slot (tests, older imports): the words module's names.
SLOT_NAMES = zn.SLOT_NAMES


def nation_name(nation: str) -> str:
    return C.nation(nation).name


def position_name(g: EttinState, p: int) -> str:
    return f"{nation_name(g.nations[p])} ({g.seats[g.seating().controller[p]]})"


@functools.lru_cache(maxsize=8192)
def card_face(card: int) -> Card:
    """A card as a screen shows it, its numbers and abilities apart from its
    name (``Card`` is frozen, so one is shared)."""
    if C.is_adventure(card) and C.adventure(card).defense is None:
        a = C.adventure(card)
        return Card(card, a.name, tag="Adventure",
                    stats=(("Difficulty", f"{a.difficulty}+die"), ("VP", a.vp), ("Gold", a.gold)))
    u = cd.unit(card)
    stats = ((u.kind, u.strength), *((("Adventure", u.adventure),) if u.adventure else ()),
             ("Cost", u.cost), ("Sell", u.sell), *((("VP", u.vp),) if u.vp else ()))
    return Card(card, u.name, stats=stats, text="; ".join(a.text for a in u.abilities))


@functools.lru_cache(maxsize=64)
def location_labels(nation: str) -> tuple[str, ...]:
    """The labels of a nation mat's three Locations (static data, cached):
    where each stands, then its kind, Defense and Defended Location ability."""
    mat = C.nation(nation)
    return tuple(f"{zn.SLOT_TITLES[s]} ({cd.location_text(spot.kind, spot.defense, spot.ability)})"
                 for s, spot in enumerate(mat.locations[:zn.ADVENTURE]))


def place_label(g: EttinState, p: int, slot: int) -> str:
    """One of ``p``'s four places as its player picks it: ``the near Location (Town,
    Defense 2, Call to Arms)``, ``the Adventure: Sunken Vault (...)``."""
    if slot == zn.ADVENTURE:
        adventure = g.zones[zn.adventure(sg.pair_of(g, p))]
        return "the Adventure" + (f": {cd.card_text(adventure[0])}" if adventure else "")
    spot = C.nation(g.nations[p]).locations[slot]
    return f"{zn.SLOT_NAMES[slot]} ({cd.location_text(spot.kind, spot.defense, spot.ability)})"


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


def phase_name(g: EttinState) -> str:
    """The Age and its phase in the rulebook's words: ``Age II, Peacetime (2 of 3)``."""
    if g.phase == "draft" and 1 <= g.age <= len(C.sequence) and 0 <= g.step < 3:
        phase = f"{C.sequence[g.age - 1][g.step].capitalize()} ({g.step + 1} of 3)"
    else:
        phase = flow.PHASES.get(g.phase, g.phase.replace("_", " ").capitalize())
    return phase if g.age < 1 else f"{ages.age_name(g.age)}, {phase}"


def relations(g: EttinState, seat: int | None) -> list[str]:
    """What each position is to the reader: you, your Ally, your Enemy ("" for
    none, and for a spectator). Worked out once per screen."""
    count = len(g.nations)
    if seat is None:
        return [""] * count
    ctrl = g.seating().controller
    mine = {q for q in range(count) if ctrl[q] == seat}
    allies = {sg.ally_of(q, count) for q in mine}
    enemies = {sg.enemy(g, q) for q in mine}
    return ["you" if p in mine else "your Ally" if p in allies else
            "your Enemy" if p in enemies else "" for p in range(count)]


def public_vp(g: EttinState, p: int) -> int:
    """The VP anyone can count (Winning the Game A, C, E): Victory Tokens,
    Defenses at the Locations, 1 per 2 Gold. The War Camp and the Retired Pile
    are not everyone's to see."""
    defenses = sum(cd.vp(c) for s in range(zn.ADVENTURE) for c in g.zones[zn.loc(p, s)])
    return sum(C.war_vp[a - 1] for a in g.tokens[p]) + defenses + g.gold[p] // 2


def battles_won(g: EttinState, p: int) -> int:
    """Battle Won Tokens of ``p`` in this War so far."""
    return sum(1 for x in g.results[sg.pair_of(g, p)] if x.get("winner") == p)


def totals(g: EttinState, roles: list[str], names: list[str]) -> Table:
    """The running totals, one row a position, named by what it is to the reader."""
    rows = []
    for p in range(len(g.nations)):
        tokens = g.tokens[p]
        rows.append((names[p], roles[p] or "-", g.gold[p],
                     listing([f"War {ages.ROMAN[a - 1]}" for a in tokens]) or "none",
                     battles_won(g, p), public_vp(g, p)))
    return Table("Totals", ("nation", "to you", "Gold", "Victory Tokens",
                            "battles won this War", "VP in sight"), tuple(rows))


def own_vp(g: EttinState, seat: int | None) -> Note | None:
    """The reader's own VP so far, counting what only they see (Winning the Game A-E)."""
    if seat is None:
        return None
    ctrl = g.seating().controller
    mine = [p for p in range(len(g.nations)) if ctrl[p] == seat]
    if not mine:
        return None
    vp = sum(sum(scoring.position_score(g, p).values()) for p in mine)
    return Note(f"Your VP so far: {vp} (Victory Tokens, War Camp, Defenses, Retired Pile "
                "and 1 per 2 Gold)")


def present(g: EttinState, seat: int | None) -> Screen:
    """What ``seat`` (None: a spectator) sees. Linear in the table: the zones,
    seating and position names are worked out once per call, not per item."""
    positions = range(len(g.nations))
    ctrl = g.seating().controller
    zones = g.table_zones()
    names = [f"{nation_name(g.nations[p])} ({g.seats[ctrl[p]]})" for p in positions]
    shown = frozenset(g.shown)
    roles = relations(g, seat)
    header = section(
        f"Ettin — {phase_name(g)}",
        totals(g, roles, names),
        own_vp(g, seat),
        Table("Enemies", ("Enemies", "Initiative Token", "Adventure"),
              tuple((" against ".join(names[p] for p in pair),
                     names[g.initiative[i]],
                     ", ".join(cd.card_text(c) for c in g.zones[zn.adventure(i)]) or "-")
                    for i, pair in enumerate(g.pairs))),
    )
    sections = [header]
    for p in positions:
        items: list[Any] = [
            cards_item(zones, "War Camp", zn.camp(p), seat, numbered=ctrl[p] == seat),
            cards_item(zones, "Drafted", zn.drafted(p), seat),
            cards_item(zones, "Retired Pile", zn.retired(p), seat),
        ]
        for s in range(zn.SLOTS):
            if g.zones[zn.field(p, s)]:
                items.append(cards_item(zones, f"Deployed at {zn.SLOT_NAMES[s]}", zn.field(p, s),
                                        seat, extra=shown))
        for s, label in enumerate(location_labels(g.nations[p])):
            items.append(cards_item(zones, label, zn.loc(p, s), seat))
        left = len(g.zones[zn.nation_deck(g, p)]) if g.age else 0
        items.append(Note(f"Nation Deck: {plural(left, 'card')}"))
        sections.append(section(f"{names[p]} — {roles[p]}" if roles[p] else names[p], *items))
    lineups = [cards_item(zones, lineup_label(g, i, names), zn.lineup(i), seat, numbered=True)
               for i in positions if g.zones[zn.lineup(i)]]
    if lineups:
        sections.append(section("Lineups", *lineups))
    sections.append(section("Lost Pile", cards_item(zones, "Lost Pile", zn.LOST, seat)))
    if g.ended and g.outcome:
        sections.insert(0, section("Result", Note(g.outcome["result"])))
    return screen(*sections)


def lineup_label(g: EttinState, i: int, names: list[str]) -> str:
    """``Lineup 2 (Kingdom of Joymore (Bot 3) and Greenwood Elves (Ada))``: a
    Skirmish Lineup lies between Enemies, a Peacetime one between Allies."""
    members = g.pairs[i] if i < len(g.pairs) else []
    if g.phase == "draft" and g.age >= 1 and C.sequence[g.age - 1][g.step] != "skirmish":
        groups = sg.ally_groups(len(g.nations))
        members = groups[i] if i < len(groups) else []
    who = listing([names[p] for p in members])
    return f"Lineup {i + 1}" + (f" ({who})" if who else "")


def deploy_path(g: EttinState, p: int) -> PickPath:
    """Deploy as a player does it (Phase 3: War, Deploy): pick a card of the War
    Camp, then a place; a Scouting unit then asks which Enemy Location it
    scouts (Deploy Abilities: optional). Its paths are exactly ``legal_deploy``."""
    places = tuple(range(zn.SLOTS))
    scouts = (Branch(0, "do not use Scouting"),
              *(Branch(s + 1, f"scout the Enemy's {zn.SLOT_NAMES[s].removeprefix('the ')}")
                for s in range(zn.ADVENTURE)))
    options = tuple(
        Branch(card, cd.card_text(card), tuple(
            Branch(s, place_label(g, p, s), scouts if cd.has_keyword([card], "scouting") else ())
            for s in places))
        for card in g.zones[zn.camp(p)])  # in the War Camp's order, as the screen numbers it
    return PickPath("deploy", ("card", "slot", "scout"), options,
                    questions=("Which card?", "Where?", "Scouting?"), fixed={"scout": 0},
                    prompt="Deploy a card face down: pick a card, then a place")
