"""Enin in its own words: the screen, menu labels, event sentences, choices and
metadata (Kernel 2's presentation and decision vocabularies)."""

from __future__ import annotations

import json
import random
import re

import pytest

from aggregates.enin import Enin
from aggregates.enin import state as r
from aggregates.enin.commands import COMMANDS, AcceptRoll, Attack, Reroll, SpendLuck
from aggregates.enin.data import TABLES
from aggregates.enin.present import prompt_words
from aggregates.enin.reasons import EninReason
from aggregates.enin.testing import act, d10, events, in_combat, new_game, rig
from aggregates.kernel import Number, PickOne, Reason, RuleError, event_type, payload_of
from aggregates.kernel.present import validate_screen

#: Wording issue 12 named: a range or count of one said as if it were many.
AWKWARD = re.compile(r"\b(\d+)-\1\b|from (\d+) to \2\b|\b1 cards\b|Choose 1-1")


def items(screen: dict, kind: str) -> list[dict]:  # type: ignore[type-arg]
    return [i for s in screen["sections"] for i in s["items"] if i["kind"] == kind]


def play(seed: int, limit: int = 400) -> tuple[Enin, list]:  # type: ignore[type-arg]
    bot = random.Random(seed)
    g = Enin.start(["solo"], seed=f"{seed + 77:064x}")
    evs = list(g.collect_events())
    for _ in range(limit):
        if g.ended:
            break
        actions = g.legal_actions(0)
        name = bot.choice(sorted({a.NAME for a in actions}))
        g.act(0, bot.choice([a for a in actions if name == a.NAME]))
        evs += g.collect_events()
    return g, evs


def test_screen_shows_the_character_card_the_row_and_the_items() -> None:
    g = new_game(location=2, hp=7, luck=4, gold=30, xp=21, level=2,
                 magic_items=["damask_sword"], quest_items=["key"], map_held=True)
    screen = g.present(0).to_json()
    assert validate_screen(screen) == []
    tracks = {t["label"]: (t.get("value"), t.get("maximum")) for t in items(screen, "track")}
    assert tracks["HP"] == (7, 10) and tracks["Luck"] == (4, 10)
    assert tracks["XP"] == (21, 100) and tracks["Gold"] == (30, 100)
    assert tracks["Level"] == (2, 3) and tracks["Turn"] == (1, None)
    (board,) = items(screen, "board")
    spaces = {s["id"]: s for s in board["spaces"]}
    assert [spaces[n]["name"] for n in range(1, 6)] == [
        TABLES.location(n).name for n in range(1, 6)]
    assert spaces[2].get("marked") and spaces[2]["occupants"] == ["you"]
    assert not any(spaces[n].get("marked") for n in (1, 3, 4, 5))
    assert spaces[1]["links"] == [2] and spaces[3]["links"] == [2, 4]
    held = {c["label"]: [x["name"] for x in c["cards"]] for c in items(screen, "cards")}
    assert held["Items held"] == ["Damask Sword", "Map of Enin"]
    assert held["Quest items"] == ["Key"]


def test_screen_shows_the_encounter_and_the_dice_after_a_shield_reroll__issue_12() -> None:
    """After the Shield of Nines re-roll, the dice and the outcome line show the new dice."""
    g = new_game(location=1, hp=8, luck=2, magic_items=["shield_of_nines"])
    in_combat(g, {"name": "Reaver", "att": 20, "dam": "1", "poisons": True})
    rig(g, *d10(2, 3, 7))
    act(g, Attack())
    act(g, SpendLuck(die=1, amount=1))
    act(g, Reroll(die=0))
    screen = g.present(0).to_json()
    (table,) = items(screen, "table")
    assert [row[3] for row in table["rows"]] == [7, 4]
    notes = " ".join(n["text"] for n in items(screen, "note"))
    assert "Reaver" in notes and "ATT 20" in notes and "poisons" in notes
    assert "Shield of Nines: used" in notes
    assert "7 and 4" in g.view(0)["last_outcome"]
    assert "7 and 4" in notes


def test_over_screen_and_every_screen_of_played_games_is_well_formed() -> None:
    for seed in range(6):
        g, _ = play(seed)
        screen = g.present(0).to_json()
        assert validate_screen(screen) == []
        json.dumps(screen)
        assert g.present(None).to_json() == screen  # nothing hidden in a solo game
        if g.ended:
            assert any("quest is" in n["text"] for n in items(screen, "note"))


def test_action_labels_are_the_rulebook_words_for_every_legal_action() -> None:
    seen: set[str] = set()
    for seed in range(20):
        bot = random.Random(seed)
        g = Enin.start(["solo"], seed=f"{seed + 300:064x}")
        g.collect_events()
        while not g.ended:
            legal = g.legal_actions(0)
            labels = [g.action_label(a) for a in legal]
            assert len(set(labels)) == len(labels), labels
            for a, label in zip(legal, labels, strict=True):
                assert label != a.label() and not AWKWARD.search(label), label
                seen.add(a.NAME)
            g.act(0, bot.choice(legal))
            g.collect_events()
    assert seen >= set(COMMANDS.names()) - {"reroll", "lose_item", "choose_treasure"}


def test_specific_labels() -> None:
    g = new_game(location=3, stage=r.TOWN, gold=50)
    assert g.action_label(COMMANDS.parse("buy", {"item": "potion_of_fate"})) == (
        "Buy the Potion of fate for 15 gold (+1 luck)")
    assert "steal the Key" in g.action_label(COMMANDS.parse("steal_key", {}))
    g = new_game(location=4, stage=r.QUEST_ATTEMPT, quest_items=["key", "watchword", "maiden"])
    label = g.action_label(COMMANDS.parse("attempt_quest", {}))
    assert label == "Try to gain the lodestone (1D10: 1 succeeds)"
    g = new_game(location=1, stage=r.TRAVEL, map_held=True)
    assert g.action_label(COMMANDS.parse("travel", {"to": 5})) == (
        "Travel to The Lost Wastes with the Map of Enin")


def test_every_event_of_played_games_is_one_sentence() -> None:
    for seed in range(8):
        _, evs = play(seed)
        for e in evs:
            kind = event_type(e)
            text = Enin.describe(kind, payload_of(e), ["solo"])
            assert text and text[0].isupper() and text.endswith((".", "!")), (kind, text)
            assert "\n" not in text and "{" not in text and "_" not in text, (kind, text)
            assert not AWKWARD.search(text), text


def test_event_sentences_read_the_tables() -> None:
    assert Enin.describe("Travelled", {"to": 4}, ["solo"]) == "You travel to The Darkling Crags."
    assert Enin.describe("MagicItemFound", {"choices": ["shield_of_nines"]}, ["solo"]) == (
        "You find a magic item: the Shield of Nines, the only one you do not hold.")
    assert Enin.describe("QuestAttempted", {"item": "lost_book", "roll": 1, "low": 1, "high": 1,
                                            "success": True}, ["solo"]) == (
        "You try for the Lost Book: roll 1 (needs 1): success.")
    assert Enin.describe("Ended", {"outcome": {"result": "won", "turns": 9}, "seed": "ab"},
                         ["solo"]) == (
        "You find the Lost Book on turn 9: the quest is won! The seed is revealed.")
    # a payload it cannot read falls back to the kernel's generic form
    assert Enin.describe("Travelled", {}, ["solo"]) == "Travelled"


def test_choices_pick_one_and_luck_as_a_number_in_range__rulebook_Luck() -> None:
    g = new_game(location=1, hp=8, luck=3)
    assert g.choices(0) == [PickOne(prompt=prompt_words(r.TRAVEL))]
    in_combat(g, {"att": 30})
    rig(g, *d10(1, 6))
    act(g, Attack())
    numbers = [c for c in g.choices(0) if isinstance(c, Number)]
    ranges = {(c.fixed["die"], c.low, c.high) for c in numbers}
    # die 0 shows 1: only -1 may come off it, which the list holds; no range of one
    assert ranges == {(0, 1, 3), (1, 1, 3), (1, -3, -1)}
    legal = g.legal_actions(0)
    for c in numbers:
        assert c.command == "spend_luck" and not AWKWARD.search(c.prompt)
        for amount in range(c.low, c.high + 1):
            built = c.build(amount)
            assert COMMANDS.parse(built["name"], built["args"]) in legal
    assert g.legal_list_complete(0)


def test_choices_without_luck_are_the_list_alone() -> None:
    g = new_game(location=1, hp=8, luck=1)
    in_combat(g, {"att": 30})
    rig(g, *d10(4, 6))
    act(g, Attack())
    assert g.choices(0) == [PickOne(prompt=prompt_words(r.ATTACK_ROLL))]
    act(g, AcceptRoll())


def test_metadata_declared_once() -> None:
    meta = Enin.metadata()
    assert meta["options_schema"] == {"type": "object", "properties": {},
                                      "additionalProperties": False}
    assert meta["dynamics"] == "sequential" and "Lost Book" in meta["summary"]
    assert meta["reasons"] == [
        "NOT_ENOUGH_GOLD", "NOT_ENOUGH_LUCK", "NOT_ADJACENT", "REPEAT_PURCHASE",
        "ALREADY_HELD", "NOT_HELD", "MISSING_QUEST_ITEM", "SHIELD_USED", "NO_SUCH_DIE"]
    assert set(meta["commands"]) == set(COMMANDS.names())
    json.dumps(meta)


def test_enin_refusals_carry_enin_reason_codes() -> None:
    g = new_game(location=1, stage=r.TRAVEL)
    with pytest.raises(RuleError) as e:
        g.act(0, COMMANDS.parse("travel", {"to": 4}))
    assert e.value.reason is EninReason.NOT_ADJACENT and e.value.reason == "NOT_ADJACENT"
    assert "The Darkling Crags" in e.value.message
    with pytest.raises(RuleError) as e:
        g.act(0, AcceptRoll())
    assert e.value.reason is Reason.WRONG_PHASE
    assert e.value.message == f"accept_roll is not possible now: {r.PROMPTS[r.TRAVEL]}"


def test_phase_modules_never_import_the_aggregate() -> None:
    import ast
    import pathlib

    import aggregates.enin as package

    root = pathlib.Path(package.__file__).parent
    for path in root.glob("*.py"):
        if path.stem in ("__init__", "game", "v1", "testing"):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "aggregates.enin.game", path.name
                assert not (node.module == "aggregates.enin"
                            and any(a.name in ("game", "Enin") for a in node.names)), path.name
        # no private event method of the aggregate is called: events go through emit
        assert not re.search(r"\b(state|game)\._[a-z]", path.read_text()), path.name


def test_rerolled_event_is_described_with_the_new_value() -> None:
    g = new_game(location=1, hp=8, magic_items=["shield_of_nines"])
    in_combat(g, {"att": 20})
    rig(g, *d10(2, 3, 9))
    act(g, Attack())
    (e,) = events(g, Reroll(die=0))
    assert Enin.describe(event_type(e), payload_of(e), ["solo"]) == (
        "The Shield of Nines re-rolls the first die: 9.")
