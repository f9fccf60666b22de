"""Ettin's fast screen and view read exactly as the straightforward ones.

``present`` and ``view`` build their zones once per call from specs and a
seating cached per player count and flip, and cache card faces. Here a plain
reference (the code as it was before those caches: specs, seating and card
texts built afresh on every read) reads random mid-game states of random
playouts at several player counts, for every reader and a spectator, and the
JSON must be byte-identical. The states are one live game read as it goes
(the aggregate changes in place, as the service's does), so a cache that went
stale across events would show here. No timings: the figures are in the
branch's report, not asserted.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from aggregates.ettin import Ettin
from aggregates.ettin import rules as r
from aggregates.ettin import table as t
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.present import SLOT_NAMES
from aggregates.kernel import Seating, Visibility, Zones, ZoneSpec
from aggregates.kernel.present import Card, Cards, Note, Screen, Table, Track, screen, section

# ------------------------------------------------------------ the reference


def ref_seating(players: int) -> Seating:
    ctrl = tuple(min(p, players - 1) for p in range(t.positions_for(players)))
    if players == 2:
        return Seating(ctrl, ((0,), (1,)))
    return Seating(ctrl, tuple(tuple(sorted({ctrl[k], ctrl[k + 1]}))
                               for k in range(0, len(ctrl), 2)))


def ref_specs(players: int, flipped: bool) -> list[ZoneSpec]:
    count = t.positions_for(players)
    ctrl = ref_seating(players).controller
    specs = [ZoneSpec(t.LOST, Visibility.PUBLIC)]
    for b in range(t.boxes(count)):
        for age in (1, 2, 3):
            specs.append(ZoneSpec(t.merc(b, age), Visibility.COUNT_ONLY, ordered=True))
            specs.append(ZoneSpec(t.adv_deck(b, age), Visibility.COUNT_ONLY, ordered=True))
    for g in range(count):
        specs.append(ZoneSpec(t.lineup(g), Visibility.PUBLIC))
        specs.append(ZoneSpec(t.adventure(g), Visibility.PUBLIC))
    for p in range(count):
        owner = ctrl[p]
        specs += [ZoneSpec(t.deck(p), Visibility.COUNT_ONLY, owner=owner, ordered=True),
                  ZoneSpec(t.drafted(p), Visibility.PUBLIC, owner=owner),
                  ZoneSpec(t.camp(p), Visibility.TEAM, owner=owner),
                  ZoneSpec(t.retired(p), Visibility.OWNER, owner=owner),
                  ZoneSpec(t.won(p), Visibility.PUBLIC, owner=owner)]
        for s in range(t.SLOTS):
            specs.append(ZoneSpec(t.field(p, s),
                                  Visibility.PUBLIC if flipped else Visibility.TEAM, owner=owner))
        for s in range(t.ADVENTURE):
            specs.append(ZoneSpec(t.loc(p, s), Visibility.PUBLIC, owner=owner))
    return specs


def ref_zones(g: Any) -> Zones:
    players = len(g.seats)
    return Zones(ref_specs(players, g.flipped), g.zones, ref_seating(players))


def ref_position_name(g: Any, p: int) -> str:
    return f"{C.nation(g.nations[p]).name} ({g.seats[ref_seating(len(g.seats)).controller[p]]})"


def ref_card_text(card: int) -> str:
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


def ref_cards_item(g: Any, zones: Zones, label: str, zone: str, seat: int | None,
                   numbered: bool = False, extra: Sequence[int] = ()) -> Cards:
    seen = zones.seen_by(zone, seat)
    if seen is None:
        shown = [c for c in g.zones[zone] if c in extra]
        count = zones.count_seen_by(zone, seat)
        if shown:
            return Cards(label, tuple(Card(c, ref_card_text(c)) for c in shown), count=count)
        return Cards(label, None, count=count)
    return Cards(label, tuple(Card(c, ref_card_text(c)) for c in seen), zone=zone,
                 numbered=numbered)


def ref_present(g: Any, seat: int | None) -> Screen:
    positions = range(len(g.nations))
    ctrl = ref_seating(len(g.seats)).controller
    # The code before built these for every item; the state is the same
    # throughout one call, so once is the same read (and keeps this test quick).
    zones = ref_zones(g)
    header = section(
        f"Ettin — Age {g.age}, {g.phase.replace('_', ' ')}",
        Track("Gold", per_seat=None, value=", ".join(
            f"{ref_position_name(g, p)} {g.gold[p]}" for p in positions)),
        Table("Enemies", ("pair", "initiative", "adventure"),
              tuple((" vs ".join(ref_position_name(g, p) for p in pair),
                     ref_position_name(g, g.initiative[i]),
                     ", ".join(ref_card_text(c) for c in g.zones[t.adventure(i)]) or "-")
                    for i, pair in enumerate(g.pairs))),
    )
    sections = [header]
    for p in positions:
        items: list[Any] = [
            ref_cards_item(g, zones, "War Camp", t.camp(p), seat, numbered=ctrl[p] == seat),
            ref_cards_item(g, zones, "Drafted", t.drafted(p), seat),
            ref_cards_item(g, zones, "Retired", t.retired(p), seat),
        ]
        for s in range(t.SLOTS):
            if g.zones[t.field(p, s)]:
                items.append(ref_cards_item(g, zones, f"Deployed at {SLOT_NAMES[s]}", t.field(p, s),
                                            seat, extra=g.shown))
        mat = C.nation(g.nations[p])
        for s in range(t.ADVENTURE):
            spot = mat.locations[s]
            items.append(ref_cards_item(g, zones, f"{SLOT_NAMES[s]}: {spot.kind} {spot.defense} "
                                           f"({spot.ability.text})", t.loc(p, s), seat))
        tokens = ", ".join(f"War {a}" for a in g.tokens[p]) or "none"
        left = len(g.zones[r.nation_deck(g, p)]) if g.age else 0
        items.append(Note(f"Victory Tokens: {tokens}; Nation Deck: "
                          f"{left} card{'' if left == 1 else 's'}"))
        sections.append(section(ref_position_name(g, p), *items))
    lineups = [ref_cards_item(g, zones, f"Lineup {i + 1}", t.lineup(i), seat, numbered=True)
               for i in positions if g.zones[t.lineup(i)]]
    if lineups:
        sections.append(section("Lineups", *lineups))
    sections.append(section("Lost Pile", ref_cards_item(g, zones, "Lost", t.LOST, seat)))
    if g.ended and g.outcome:
        sections.insert(0, section("Result", Note(g.outcome["result"])))
    return screen(*sections)


def ref_view(g: Any, seat: int | None) -> dict[str, Any]:
    return {
        "age": g.age, "phase": g.phase, "nations": list(g.nations),
        "controller": list(ref_seating(len(g.seats)).controller), "pairs": g.pairs,
        "gold": list(g.gold), "tokens": g.tokens, "initiative": g.initiative,
        "results": g.results, "sieges": g.sieges, "shown": g.shown,
        "zones": ref_zones(g).view(seat),
    }


# ------------------------------------------------------------ the comparison


def dumped(value: Any) -> bytes:
    """The bytes the service sends (key order kept: it is part of the bytes)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def assert_reads_alike(g: Ettin) -> None:
    for seat in (None, *range(len(g.seats))):
        assert dumped(g.present(seat).to_json()) == dumped(ref_present(g, seat).to_json()), (
            g.phase, seat)
        assert dumped(g.view(seat)) == dumped(ref_view(g, seat)), (g.phase, seat)


def walk(players: int, seed: int, share: float) -> dict[str, int]:
    """Play one random game, reading it at every change of phase, flip or
    Scouting and at a random ``share`` of the other steps; the kinds read."""
    rng = random.Random(seed)
    g = Ettin.start([f"p{i}" for i in range(players)], seed=f"{seed:064x}")
    read = {"states": 0, "flipped": 0, "scouted": 0}
    last: tuple[Any, ...] = ()
    while True:
        shape = (g.phase, g.age, g.flipped, len(g.shown), g.ended)
        if shape != last or rng.random() < share:
            assert_reads_alike(g)
            read["states"] += 1
            read["flipped"] += g.flipped
            read["scouted"] += bool(g.shown) and not g.flipped
        last = shape
        if g.ended:
            return read
        seat = rng.choice(g.waiting_on())
        g.act(seat, rng.choice(g.legal_actions(seat)))
        g.collect_events()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 9, 16])
def test_present_and_view_equal_the_reference_through_a_random_game(players: int) -> None:
    read = walk(players, 500 + players, share=0.1 if players <= 9 else 0.02)
    assert read["states"] > 10 and read["flipped"] > 0


def test_scouted_cards_are_read_alike_before_the_flip() -> None:
    """A Scouting reveal (``shown``) before the flip: the one case where a
    count-only zone lists some faces; some seed of these reaches it."""
    assert sum(walk(players, 900 + players, share=0.0)["scouted"]
               for players in (4, 6, 9)) > 0


@pytest.mark.parametrize("players", range(2, 17))
def test_cached_specs_and_seating_equal_fresh_ones(players: int) -> None:
    for flipped in (False, True):
        assert t.zone_specs(players, flipped) == ref_specs(players, flipped)
    assert t.seating_for(players) == ref_seating(players)


def test_zone_specs_is_the_callers_to_change() -> None:
    """``zone_specs`` hands out a fresh list: changing it leaves the cache be."""
    specs = t.zone_specs(4, False)
    specs.clear()
    assert t.zone_specs(4, False) == ref_specs(4, False)
    assert list(t.empty_zones(4)) == [s.name for s in ref_specs(4, False)]
