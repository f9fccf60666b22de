"""Titans' designed data: what the rulings fix, marked as designed, validated on
load, and a replacement file refused where it is wrong."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from aggregates.kernel.data import DataError
from aggregates.titans import data

HERE = Path(data.__file__).parent / "data"


def raw(name: str) -> dict:
    return json.loads((HERE / name).read_text())  # type: ignore[no-any-return]


def test_every_file_says_it_is_designed() -> None:
    assert len(data.DESIGNED) == 3
    assert all(text.startswith("DESIGNED data") for text in data.DESIGNED)


def test_the_components_the_rulebook_lists() -> None:
    """Game Contents: 13 units per Nation (6/4/2/1), 7 Control Tokens, 3 Strongholds,
    16 Order Cards, 18 Secret Objectives, 32 Support Cards, 10 Nation Cards per Nation,
    a set of 8 dice (3/2/1/2)."""
    assert dict(data.TABLES.supply.counts) == {"infantry": 6, "cavalry": 4, "artillery": 2,
                                               "titan": 1}
    assert data.TABLES.control_tokens == 7 and data.TABLES.strongholds == 3
    assert len(data.ORDERS) == 16 and len(data.OBJECTIVES) == 18 and len(data.SUPPORTS) == 32
    assert all(len(n.cards) == 10 for n in data.NATIONS.values()) and len(data.NATIONS) == 4
    assert dict(data.TABLES.dice.reserve) == {"infantry": 3, "cavalry": 2, "artillery": 1,
                                              "titan": 2}
    assert Counter(s.effect for s in data.SUPPORTS) == {"move_unit": 8, "add_die": 12,
                                                        "add_strength": 12}


def test_the_titan_die_is_the_strongest() -> None:
    means = {k: d.mean for k, d in data.TABLES.dice.dice.items()}
    assert means["titan"] == max(means.values())
    assert means["infantry"] < means["cavalry"] < means["artillery"] < means["titan"]


def test_battle_outcome_tiers_from_the_rulings() -> None:
    rows = [(data.TABLES.outcome(d).destroy, data.TABLES.outcome(d).cards,
             data.TABLES.outcome(d).vp) for d in range(8)]
    assert rows == [(0, 1, 1)] * 3 + [(1, 2, 2)] * 2 + [(2, 3, 4)] * 3


def test_nation_cards_cost_0_to_3_and_one_is_marked_x() -> None:
    for nation in data.NATIONS.values():
        cards = [data.NATION_CARDS[c] for c in nation.cards]
        assert {c.cost for c in cards} <= {0, 1, 2, 3}
        assert sum(c.x for c in cards) == 1
        assert {c.timing for c in cards} == {"battle", "round", "always"}


def test_setups_for_each_player_count_and_the_rulebooks_nations() -> None:
    """Main Board Setup: the rulebook's Nations in starting turn order per count."""
    assert [s.nations for s in data.setups_for(3)] == [
        ("poland", "russia", "ottoman"), ("sweden", "russia", "ottoman")]
    assert all(s.nations == ("sweden", "russia", "ottoman", "poland")
               for s in data.setups_for(4))
    assert len(data.setups_for(2)) == 5
    for s in data.SETUPS:
        assert len(s.inactive) <= 13 and data.BOARD.connected(s.inactive)


@pytest.mark.parametrize(("change", "message"), [
    (lambda c: c["orders"][0].update(actions=["fly"]), "unknown action"),
    (lambda c: c["support"].pop(), None),
    (lambda c: c["nations"][0]["cards"][0].update(cost=4), "cost is 0 to 3"),
    (lambda c: c["nations"][0]["cards"][0].pop("x"), "one marked X"),
    (lambda c: c["battle_outcomes"].pop(1), "without gaps"),
    (lambda c: c["nations"][1]["cards"][2]["effects"][0].update(do="fireball"), "unknown verb"),
    (lambda c: c["nations"][0]["cards"][1].update(condition={"your": {"army": {"has": "elf"}}}),
     "unknown unit"),
    (lambda c: c["nations"][0]["cards"][1].update(condition={"weather": "rain"}),
     "unknown fact"),
    (lambda c: c["nations"][0]["cards"][1].update(condition={"role": "referee"}),
     "attacker or defender"),
    (lambda c: c["nations"][0]["cards"][1].update(timing="dawn"), "unknown timing"),
    (lambda c: c["nations"][0]["cards"][1]["effects"][0].update(do="hand_limit"),
     "always on"),
    (lambda c: c["support"][0].update(condition={"your": {"army": {"has": "elf"}}}),
     "requires a unit type"),
    (lambda c: c["support"][0].update(condition={"allied": {"units": {"min": 1}}}),
     "requires a unit type"),
])
def test_a_bad_components_file_is_refused(change: object, message: str | None) -> None:
    components = copy.deepcopy(raw("components.json"))
    change(components)  # type: ignore[operator]
    if message is None:  # 31 Support Cards still load: the rules use what the file has
        data.load_components(components)
        return
    with pytest.raises(DataError, match=message):
        data.load_components(components)


def test_a_bad_map_is_refused() -> None:
    board = copy.deepcopy(raw("map.json"))
    board["setups"][0]["inactive"] = list(data.BOARD.regions)[:14]
    with pytest.raises(DataError, match="at most 13"):
        data.load_map(board, data.NATIONS, data.TABLES.supply, 13)
    board = copy.deepcopy(raw("map.json"))
    board["setups"][0]["start"]["poland"]["units"]["krakow"]["infantry"] = 7
    with pytest.raises(DataError, match="more units"):
        data.load_map(board, data.NATIONS, data.TABLES.supply, 13)
