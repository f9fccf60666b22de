"""Card instances with state (aggregates.nine_empires.cards): bowing, markers, food,
attachments, locations, tokens, and card memory when a card leaves play."""

from __future__ import annotations

from typing import Any

import pytest

from aggregates.nine_empires.cards import HOME, PLAY, CardTable, zone_name


def _table() -> CardTable:
    instances: dict[str, dict[str, Any]] = {}
    zones: dict[str, list[str]] = {}
    table = CardTable(instances, zones)
    table.create("i0", "hero", 0, zone_name("hand", 0))
    table.create("i1", "sword", 0, zone_name("hand", 0))
    return table


def test_a_card_moves_between_zones_in_order() -> None:
    table = _table()
    table.move("i0", PLAY)
    assert table.zone(PLAY) == ["i0"]
    assert table.zone(zone_name("hand", 0)) == ["i1"]
    table.move("i1", zone_name("deck", 0), top=True)
    table.move("i0", zone_name("deck", 0), top=True)
    assert table.zone(zone_name("deck", 0)) == ["i0", "i1"]


def test_bowing_markers_and_food_are_instance_state() -> None:
    table = _table()
    table.move("i0", PLAY)
    table.bow("i0")
    table.add_marker("i0", "W", -1)
    table.add_food("i0", 2)
    assert table["i0"]["bowed"] and table.marker("i0", "W") == -1 and table["i0"]["food"] == 2
    table.add_marker("i0", "W", 1)
    assert table["i0"]["markers"] == {}
    table.straighten("i0")
    assert not table["i0"]["bowed"]
    with pytest.raises(ValueError):
        table.add_food("i0", -3)


def test_attachments_follow_their_hero_to_a_location() -> None:
    table = _table()
    table.move("i0", PLAY)
    table.move("i1", PLAY)
    table.attach("i1", "i0")
    assert table.unit("i0") == ["i0", "i1"]
    table.locate("i0", "castle7")
    assert table["i1"]["location"] == "castle7"


def test_leaving_play_forgets_everything_card_memory() -> None:
    table = _table()
    table.move("i0", PLAY)
    table.bow("i0")
    table.add_marker("i0", "S", 1)
    table["i0"]["memory"]["side"] = "attack"
    table.locate("i0", "castle7")
    table.move("i0", zone_name("discard", 0))
    inst = table["i0"]
    assert (inst["bowed"], inst["markers"], inst["location"], inst["memory"]) == (
        False, {}, HOME, {})


def test_a_token_leaving_play_is_removed_from_the_game() -> None:
    table = _table()
    iid = table.next_id()
    table.create(iid, "zombie", 0, PLAY, token=True)
    table.move(iid, zone_name("buried", 0))
    assert table[iid]["zone"] == "" and iid not in table.zone(zone_name("buried", 0))
    assert table.next_id() != iid
