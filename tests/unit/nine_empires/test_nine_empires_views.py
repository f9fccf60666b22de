"""Hidden information (the rulings: hands, decks and stealth cards are private
until revealed; discard and buried piles are public) and the presentation:
every card shown with its designed text."""

from __future__ import annotations

import json

from aggregates.kernel.present import validate_screen
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import present, views
from aggregates.nine_empires.commands import AssignRaid, DeclareRaid, Pass
from aggregates.nine_empires.data import CARDS
from aggregates.nine_empires.testing import new_table, put_in_play, set_hand


def test_hands_and_decks_are_private() -> None:
    table = new_table(["malchior", "holden"])
    mine, theirs = views.view(table, 0)["seats"]
    assert [c["id"] for c in mine["hand"]] == t.hand(table, 0)
    assert "hand" not in theirs and theirs["hand_count"] == len(t.hand(table, 1))
    assert isinstance(theirs["deck"], int)
    spectator = views.view(table, None)
    assert all("hand" not in s for s in spectator["seats"])
    text = json.dumps(views.view(table, 0))
    assert not any(f'"{iid}"' in text for iid in t.hand(table, 1))
    assert not any(f'"{iid}"' in text for iid in t.deck(table, 0))


def test_stealth_cards_are_hidden_from_the_other_seat() -> None:
    table = new_table(["displaced", "ord"])
    card, = set_hand(table, 0, ["blight"])
    set_hand(table, 1, ["bazaar"])
    hero = put_in_play(table, 0, "young_mike")
    put_in_play(table, 1, "keshie")
    while table.phase == "summer":
        table.act(table.pending()[0][0], Pass())
    table.act(0, DeclareRaid(defender=1))
    table.act(0, AssignRaid(heroes=(hero,), castles=(t.castles(table, 1)[0],), stealth=(card,)))
    assert views.view(table, 1)["conflict"]["stealth"][hero] == "a stealth card"
    assert views.view(table, 0)["conflict"]["stealth"][hero]["id"] == card
    assert card not in json.dumps(views.view(table, 1))


def test_every_card_is_shown_with_its_designed_text() -> None:
    table = new_table(["malchior", "holden"])
    shown = present.present(table, 0).to_json()
    assert not validate_screen(shown)
    hektor = put_in_play(table, 0, "hektor")
    cards = [c for s in present.present(table, 0).to_json()["sections"]
             for i in s["items"] if i["kind"] == "cards" for c in i.get("cards", [])]
    face = next(c for c in cards if c["id"] == hektor)
    assert CARDS["hektor"].abilities[0].text in face["text"]
    stats = {s["label"]: s["value"] for s in face["stats"]}
    assert stats["S"] == 2 and stats["W"] == 3 and "Fate" in stats
    assert face["colour_label"] == "Malchior" and face["colour"] == "red"


def test_labels_and_sentences_use_the_card_titles() -> None:
    table = new_table(["malchior", "holden"])
    labels = [present.action_label(table, c) for c in table.legal(0)]
    assert any(label.startswith("Play ") for label in labels)
    assert present.describe("CastleBuried", {"key": "border_keep"}, ["A", "B"]) == \
        "Border Keep falls and is buried."
