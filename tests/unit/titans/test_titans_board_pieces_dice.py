"""Titans' map, pieces and dice modules (``titans.board``, ``titans.pieces``,
``titans.dice``), tested on a small map of their own: the board and its
queries, pieces with a finite supply, dice with faces as data and a limited
reserve, re-rolls, and the top cards of a deck visible to its owner."""

from __future__ import annotations

from typing import Any

import pytest

from aggregates.kernel import Seating, Visibility, Zones, ZoneSpec
from aggregates.kernel.data import DataError
from aggregates.titans import pieces as kpieces
from aggregates.titans.board import Board
from aggregates.titans.dice import DiceSet, Die, reroll_choice, reroll_subsets, strength

#   a - b - c
#   |   |   |
#   d - e - f      (g hangs off f)
MAP: dict[str, Any] = {
    "regions": [{"key": k, "name": k.upper(), "x": i * 10, "y": 5} for i, k in
                enumerate("abcdefg")],
    "borders": [["a", "b"], ["b", "c"], ["a", "d"], ["b", "e"], ["c", "f"], ["d", "e"],
                ["e", "f"], ["f", "g"]],
}


def board() -> Board:
    return Board.from_data(MAP)


def test_neighbours_and_inactive_regions() -> None:
    b = board()
    assert b.neighbours("e") == ("b", "d", "f")
    assert b.neighbours("e", inactive={"f"}) == ("b", "d")
    assert b.adjacent("a", "b") and not b.adjacent("a", "e")
    assert not b.adjacent("f", "g", inactive={"g"})
    assert b.active({"g"}) == list("abcdef")
    assert b.connected({"b"}) is True
    assert b.connected({"f"}) is False  # g is cut off
    assert ("f", "g") not in b.border_list({"g"})


def test_control_and_occupant_queries() -> None:
    b = board()
    control = {"a": 0, "b": 0, "e": 1, "f": 1}
    occupants = {"a": 0, "e": 1}
    assert b.controlled_by(control, 1) == ["e", "f"]
    assert b.adjacent_controlled(control, "e", 1) == ["f"]
    assert b.adjacent_controlled(control, "e", 0) == ["b"]
    assert b.adjacent_empty("e", occupants, control) == ["d"]
    assert b.adjacent_empty("e", occupants) == ["b", "d", "f"]
    assert b.with_enemy_units(occupants, 0) == ["e"]
    assert b.occupied_by(occupants, 0) == ["a"]
    assert b.neighbours_where("b", ["a", "c", "g"]) == ["a", "c"]


def test_bad_maps_fail_on_load() -> None:
    with pytest.raises(DataError, match="unknown region"):
        Board.from_data({"regions": MAP["regions"], "borders": [["a", "z"]]})
    with pytest.raises(DataError, match="not connected"):
        Board.from_data({"regions": MAP["regions"], "borders": [["a", "b"]]})
    with pytest.raises(DataError, match="twice"):
        Board.from_data({"regions": MAP["regions"], "borders": [*MAP["borders"], ["b", "a"]]})


def test_supply_is_finite_and_checked() -> None:
    supply = kpieces.Supply.from_data({"infantry": 6, "cavalry": 4, "artillery": 2, "titan": 1})
    reserve = supply.full()
    on_board = [kpieces.troop("infantry", "infantry", "titan"), {"cavalry": 4}]
    reserve = kpieces.minus(reserve, kpieces.total(on_board))
    assert reserve == {"infantry": 4, "artillery": 2}
    assert not supply.can_take(reserve, "cavalry")
    assert not supply.can_take(reserve, "titan")
    assert supply.can_take(reserve, "artillery", 2)
    supply.check(reserve, on_board)
    with pytest.raises(AssertionError, match="cavalry"):
        supply.check(reserve, [*on_board, {"cavalry": 1}])
    with pytest.raises(ValueError, match="cannot take"):
        kpieces.minus(reserve, {"cavalry": 1})
    assert kpieces.units_of({"cavalry": 1, "infantry": 2}, supply.kinds) == [
        "infantry", "infantry", "cavalry"]
    assert kpieces.contains({"infantry": 2}, {"infantry": 1})
    assert kpieces.size({"infantry": 2, "titan": 1}) == 3


def test_dice_roll_their_own_faces_from_a_limited_reserve() -> None:
    dice = DiceSet.from_data({"faces": {"infantry": [0, 0, 1, 1, 1, 2],
                                        "titan": [1, 2, 2, 3, 3, 4]},
                              "reserve": {"infantry": 3, "titan": 2}})
    draws = iter([6, 1, 3, 5, 2])
    asked: list[int] = []

    def roll(sides: int) -> int:
        asked.append(sides)
        return next(draws)

    pool, left = dice.take_and_roll(dice.full_reserve(), ["infantry"] * 4 + ["titan"], roll)
    # the fourth Infantry die is not in the reserve: skipped, never replaced
    assert pool == [{"die": "infantry", "face": 2}, {"die": "infantry", "face": 0},
                    {"die": "infantry", "face": 1}, {"die": "titan", "face": 3}]
    assert left == {"infantry": 0, "titan": 1}
    assert asked == [6, 6, 6, 6]
    assert strength(pool) == 6
    again = dice.reroll(pool, [1], roll)
    assert again[1] == {"die": "infantry", "face": 0} and again[0] == pool[0]
    with pytest.raises(DataError):
        Die("blank", (1,))


def test_reroll_is_a_pick_over_the_pool() -> None:
    pool = [{"die": "infantry", "face": 0}, {"die": "infantry", "face": 0},
            {"die": "cavalry", "face": 2}]
    choice = reroll_choice("reroll_dice", "dice", pool, prompt="re-roll")
    assert choice.options == (0, 1, 2) and (choice.low, choice.high) == (1, 3)
    assert choice.build([0, 2]) == {"name": "reroll_dice", "args": {"dice": [0, 2]}}
    # the two blank Infantry dice are alike: choosing either is one answer
    assert reroll_subsets(pool, distinct=True) == [(0,), (2,), (0, 1), (0, 2), (0, 1, 2)]
    assert len(reroll_subsets(pool)) == 7


def test_top_cards_of_a_deck_are_seen_by_its_owner_only() -> None:
    seating = Seating.one_each(2)
    zones = Zones([ZoneSpec("deck0", Visibility.COUNT_ONLY, owner=0, top_visible=3),
                   ZoneSpec("hand1", Visibility.OWNER, owner=1)],
                  {"deck0": [5, 6, 7, 8, 9], "hand1": [1]}, seating)
    assert zones.view(0)["deck0"] == {"count": 5, "top": [5, 6, 7]}
    assert zones.view(1)["deck0"] == {"count": 5}
    assert zones.view(None)["deck0"] == {"count": 5}
    assert zones.top_seen_by("hand1", 1) == [1]
    assert zones.top_seen_by("hand1", 0) is None
    assert zones.spec("deck0").top_readers(seating).includes(0)


def test_a_board_space_carries_its_position_controller_and_marks() -> None:
    """The presentation vocabulary draws a map: a space's position, who controls it
    and its markers travel with it, and the screen schema admits them."""
    from jsonschema import Draft202012Validator

    from aggregates.kernel.present import Board as Drawn
    from aggregates.kernel.present import Space, screen, section
    from aggregates.kernel.record.schemas import SCREEN

    space = Space("a", "A", ("b",), ("2 Infantry",), x=10, y=90.5, owner="North",
                  marks=("Stronghold",))
    assert space.to_json() == {"id": "a", "name": "A", "links": ["b"],
                               "occupants": ["2 Infantry"], "x": 10, "y": 90.5,
                               "owner": "North", "marks": ["Stronghold"]}
    assert Space("b", "B").to_json() == {"id": "b", "name": "B"}
    drawn = screen(section("Map", Drawn("The map", (space, Space("b", "B"))))).to_json()
    Draft202012Validator(SCREEN).validate(drawn)
    space = Space("c", "C", x=120, y=0)
    assert not Draft202012Validator(SCREEN).is_valid(
        screen(section("Map", Drawn("The map", (space,)))).to_json())
