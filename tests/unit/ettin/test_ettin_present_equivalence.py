"""Ettin's fast screen and view read exactly as the straightforward ones.

``present`` and ``view`` build their zones once per call from specs and a
seating cached per player count and flip, and cache card faces. Here a plain
reference (the view as it was before those caches: specs and seating built
afresh on every read; the screen read with every cache emptied first) reads
random mid-game states of random playouts at several player counts, for
every reader and a spectator, and the JSON must be byte-identical. The
states are one live game read as it goes (the aggregate changes in place, as
the service's does), so a cache that went stale across events would show
here. No timings: the figures are in the branch's report, not asserted.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from aggregates.ettin import Ettin, present
from aggregates.ettin import cards as cd
from aggregates.ettin import seating as sg
from aggregates.ettin import zones as zn
from aggregates.kernel import Seating, Visibility, Zones, ZoneSpec
from aggregates.kernel.present import Screen
from tests.soak import cases

# ------------------------------------------------------------ the reference


def ref_seating(players: int) -> Seating:
    ctrl = tuple(min(p, players - 1) for p in range(sg.positions_for(players)))
    if players == 2:
        return Seating(ctrl, ((0,), (1,)))
    return Seating(ctrl, tuple(tuple(sorted({ctrl[k], ctrl[k + 1]}))
                               for k in range(0, len(ctrl), 2)))


def ref_specs(players: int, flipped: bool) -> list[ZoneSpec]:
    count = sg.positions_for(players)
    ctrl = ref_seating(players).controller
    specs = [ZoneSpec(zn.LOST, Visibility.PUBLIC)]
    for b in range(sg.boxes(count)):
        for age in (1, 2, 3):
            specs.append(ZoneSpec(zn.merc(b, age), Visibility.COUNT_ONLY, ordered=True))
            specs.append(ZoneSpec(zn.adv_deck(b, age), Visibility.COUNT_ONLY, ordered=True))
    for g in range(count):
        specs.append(ZoneSpec(zn.lineup(g), Visibility.PUBLIC))
        specs.append(ZoneSpec(zn.adventure(g), Visibility.PUBLIC))
    for p in range(count):
        owner = ctrl[p]
        specs += [ZoneSpec(zn.deck(p), Visibility.COUNT_ONLY, owner=owner, ordered=True),
                  ZoneSpec(zn.drafted(p), Visibility.PUBLIC, owner=owner),
                  ZoneSpec(zn.camp(p), Visibility.TEAM, owner=owner),
                  ZoneSpec(zn.retired(p), Visibility.OWNER, owner=owner),
                  ZoneSpec(zn.won(p), Visibility.PUBLIC, owner=owner)]
        for s in range(zn.SLOTS):
            specs.append(ZoneSpec(zn.field(p, s),
                                  Visibility.PUBLIC if flipped else Visibility.TEAM, owner=owner))
        for s in range(zn.ADVENTURE):
            specs.append(ZoneSpec(zn.loc(p, s), Visibility.PUBLIC, owner=owner))
    return specs


def ref_zones(g: Any) -> Zones:
    players = len(g.seats)
    return Zones(ref_specs(players, g.flipped), g.zones, ref_seating(players))


def ref_present(g: Any, seat: int | None) -> Screen:
    """The same screen read with the caches of table state emptied first (the
    zone specs, seating and a mat's Location labels): one keyed on too little,
    or gone stale across events, reads differently. The card faces' caches are
    keyed by the card id alone over immutable data; ``test_card_faces_*`` reads
    them against a fresh build."""
    for cached in (present.location_labels, zn.table_specs, sg.seating_for, sg.controller):
        cached.cache_clear()
    return present.present(g, seat)


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


@pytest.mark.heavy(10)
@pytest.mark.parametrize("players", cases([2, 3, 4, 5, 6, 7, 9], [16]))
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
        assert zn.zone_specs(players, flipped) == ref_specs(players, flipped)
    assert sg.seating_for(players) == ref_seating(players)


def test_zone_specs_is_the_callers_to_change() -> None:
    """``zone_specs`` hands out a fresh list: changing it leaves the cache be."""
    specs = zn.zone_specs(4, False)
    specs.clear()
    assert zn.zone_specs(4, False) == ref_specs(4, False)
    assert list(zn.empty_zones(4)) == [s.name for s in ref_specs(4, False)]


def test_card_faces_read_as_built_afresh() -> None:
    """Every card's cached face equals one built with its caches emptied."""
    from aggregates.ettin.data import COMPONENTS as C

    cards = [*C.units, *C.adventures]
    cached = [present.card_face(c) for c in cards]
    for f in (present.card_face, cd.card_text, cd.keyword_name, cd.location_text):
        f.cache_clear()
    assert [present.card_face(c) for c in cards] == cached
