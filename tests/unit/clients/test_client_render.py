"""Rendering of views, events and envelopes, from sample data."""

from __future__ import annotations

import json

from arbiter.v1 import game_pb2

from clients.play import parse_choice
from clients.render import (
    describe_command_json,
    describe_event,
    format_value,
    friendly_label,
    humanize,
    loads_object,
    render_audit,
    render_enin_view,
    render_event_line,
    render_location_row,
    render_outcome,
    render_state,
)

SAMPLE_VIEW = {
    "stage": "attack_roll",
    "turn": 4,
    "hp": 7,
    "luck": 3,
    "xp": 12,
    "gold": 25,
    "level": 1,
    "poisoned": True,
    "location": {"number": 2, "key": "wood_of_wyr", "name": "The Wood of Wyr"},
    "quest_items": ["key"],
    "magic_items": ["damask_sword"],
    "map_of_enin": True,
    "strength_bonus": 0,
    "attack_modifier": 1,
    "encounter": {
        "card": "encounter_1", "level": 1, "roll": 6,
        "monster": {"name": "Minotaur", "att": 8, "dam": "1", "poisons": False, "xp": "2",
                    "flee": 0, "treasure": 0},
    },
    "dice": [
        {"die": 0, "sides": 10, "rolled": 3, "luck": 2, "value": 5},
        {"die": 1, "sides": 10, "rolled": 2, "luck": 0, "value": 2},
    ],
    "shield_used": False,
    "treasure_left": 0,
    "treasure_choices": [],
    "last_purchase": "map_of_enin",
    "last_outcome": "You meet a Minotaur (ATT 8, DAM 1).",
    "outcome": None,
    "mystery_key": {"a": 1},
}


def test_humanize_and_format() -> None:
    assert humanize("RolledStart") == "rolled start"
    assert humanize("spend_luck") == "spend luck"
    assert format_value(["damask_sword", "map_of_enin"]) == "damask sword, map of enin"
    assert format_value(True) == "yes"
    assert format_value(None) == "-"


def test_loads_object_is_forgiving() -> None:
    assert loads_object("") == {}
    assert loads_object('{"a": 1}') == {"a": 1}
    assert loads_object("[1]") == {"value": [1]}
    assert loads_object("not json") == {"text": "not json"}


def test_enin_view_shows_card_row_encounter_and_unknown_keys() -> None:
    text = "\n".join(render_enin_view(SAMPLE_VIEW))
    assert "HP 7/10" in text and "Luck 3/10" in text and "XP 12" in text
    assert "Gold 25" in text and "Level 1" in text and "POISONED" in text
    assert "Attack +1" in text and "Turn 4 - attack roll" in text
    assert "Items: damask sword, map of enin" in text
    assert "Quest items: key" in text
    assert "[*2 Wood of Wyr*]" in text
    assert "Encounter: Minotaur (ATT 8, DAM 1, XP 2)" in text
    assert "Dice on the table: die 0: 3+2=5   die 1: 2" in text
    assert "last purchase: map of enin" in text
    assert "mystery key: a=1" in text
    assert text.splitlines()[-1] == ">> You meet a Minotaur (ATT 8, DAM 1)."


def test_location_row_before_start_and_with_plain_number() -> None:
    assert "not yet travelled" in render_location_row({"location": None})
    assert "[*5 Lost Wastes*]" in render_location_row({"location": 5})


def test_empty_view_does_not_crash() -> None:
    lines = render_enin_view({})
    assert lines[1].startswith("HP ?/10")


def test_describe_event_prefers_text() -> None:
    text = "You rest and gain 1 HP."
    assert describe_event("Healed", {"text": text}) == text
    assert describe_event("StartRolled", {"roll": 6, "location": 2}) == (
        "Start roll 6: you begin at The Wood of Wyr."
    )
    # a known type with an unexpected payload, and an unknown type: generic form
    assert describe_event("StartRolled", {"x": 1}) == "Start rolled: x=1"
    assert describe_event("DragonSlept", {"turns": 2}) == "Dragon slept: turns=2"
    assert describe_event("LuckSpent", {"die": 0, "amount": -2, "luck": 1}) == (
        "You spend luck: -2 on die 0 (luck left 1)."
    )


def test_describe_command_json() -> None:
    text = json.dumps({"name": "spend_luck", "args": {"die": 0, "amount": 2}})
    assert describe_command_json(text) == "spend luck (die=0, amount=2)"
    assert describe_command_json('{"name": "attack", "args": {}}') == "attack"


def test_event_line_has_position_short_id_version_type_payload() -> None:
    event = game_pb2.Event(
        game_id="0123456789abcdef", version=3, position=42, type="Travelled",
        payload_json='{"to": 2}',
    )
    line = render_event_line(event)
    assert line.split()[:4] == ["42", "01234567", "v3", "Travelled"]
    assert line.endswith('{"to": 2}')


def test_outcome_and_state() -> None:
    assert render_outcome({"result": "won", "turns": 12}) == "Game over: won (turns=12)"
    state = game_pb2.GameState(
        game_id="g", rules="enin", version=9, over=True, outcome_json='{"result": "lost"}',
        view_json=json.dumps(SAMPLE_VIEW), seed="abc", seed_commitment="def", seats=["Ada"],
    )
    text = render_state(state)
    assert "Game over: lost" in text and "Seed (revealed): abc" in text and "0=Ada" in text


def test_audit_verdict() -> None:
    ok = game_pb2.AuditResponse(chain_ok=True, dice_ok=True, replay_ok=True, events=5, over=True)
    assert render_audit(ok).startswith("Audit PASSED")
    bad = game_pb2.AuditResponse(chain_ok=True, dice_ok=False, replay_ok=True, problems=["x"])
    text = render_audit(bad)
    assert text.startswith("Audit FAILED") and "dice FAILED" in text and "problem: x" in text


def test_parse_choice() -> None:
    assert parse_choice("1\n", 3) == 0
    assert parse_choice(" 3 ", 3) == 2
    assert parse_choice("4", 3) is None
    assert parse_choice("0", 3) is None
    assert parse_choice("x", 3) is None


def _action(name: str, args: dict[str, object], label: str = "") -> game_pb2.LegalAction:
    return game_pb2.LegalAction(json=json.dumps({"name": name, "args": args}), label=label)


def test_friendly_labels() -> None:
    assert friendly_label(_action("travel", {"to": 3}, "travel(to=3)")) == (
        "Travel to The Nigh Towns"
    )
    assert friendly_label(_action("buy", {"item": "map_of_enin"})) == (
        "Buy a map of enin (40 gold)"
    )
    assert friendly_label(_action("spend_luck", {"die": 1, "amount": -2}, "spend_luck")) == (
        "Spend 2 luck on die 1 (-2)"
    )
    assert friendly_label(_action("attack", {}, "Charge!")) == "Charge!"
    assert friendly_label(_action("dance", {"steps": 2}, "dance")) == "dance (steps=2)"


def test_ended_event() -> None:
    text = describe_event("Ended", {"outcome": {"result": "won"}, "seed": "ab"})
    assert text == "Game over: won. The seed is revealed."
