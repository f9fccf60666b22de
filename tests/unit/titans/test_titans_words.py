"""What Titans' players read speaks as the rulebook does (issue 23, "a table,
not a log"): over random legal games of every player count, no event
sentence, prompt, choice, menu label, screen text, card text or outcome
summary holds a debug-log tell (``tests.unit.test_game_words.TELLS``: "Card(s)",
a snake_case command id, "Seat 0", a Python list); and the sentences fixed
for it read as the rulebook's, each test citing its section."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from aggregates.titans import Titans, present, state
from aggregates.titans import commands as c
from aggregates.titans.data import OBJECTIVES, SUPPORTS
from tests.conformance.tables import counts, played
from tests.unit.test_game_words import playout_tells, tells, told

#: States of each game read in full (the screen of every seat, labels, prompts).
READ = 16
SEATS = ["Ada", "Bo", "Cy"]


def card_texts(screen: dict[str, Any]) -> Iterator[str]:
    """The card faces' own texts and tags (a Secret Objective's condition, a
    Nation Card's requirement), which the shared words test leaves out."""
    for section in screen.get("sections", []):
        for item in section["items"]:
            for card in item.get("cards") or []:
                yield str(card.get("text", ""))
                yield str(card.get("tag", ""))


def say(event: str, payload: dict[str, Any]) -> str | None:
    return Titans.describe(event, payload, SEATS)


@pytest.mark.parametrize("players", counts(Titans))
def test_random_games_read_without_debug_log_tells(players: int) -> None:
    def faces(game: Any) -> Iterator[tuple[str, str]]:
        for seat in (None, *range(players)):
            yield from ((f"card for {seat}", t) for t in card_texts(game.present(seat).to_json()))

    found = playout_tells(Titans, players, f"titans-words/{players}", READ, faces, outcome=True)
    assert not found, told(found)


def test_support_cards_are_counted_one_and_many() -> None:
    """C) Draw 1 Support Card; B) 4) the loser draws Support Cards: "1 Support
    Card", "3 Support Cards", never "Support Card(s)"."""
    assert say("SupportDrawn", {"seat": 0, "count": 1, "source": "deck", "why": "turn"}) == (
        "Ada draws 1 Support Card from the Deck (turn).")
    assert say("SupportDrawn", {"seat": 1, "cards": [3, 4, 5], "source": "deck",
                                "why": "setup"}) == (
        "Bo draws 3 Support Cards from the Deck (setup).")
    assert say("SupportRowRefilled", {"count": 1}) == "1 Support Card is turned face up."
    assert say("NationCardPurchased", {"seat": 2, "card": 0, "cost": 0}).endswith(
        "for 0 Support Cards.")
    assert say("BattleWon", {"winner": 0, "loser": 1, "region": "kiev", "destroy": 1,
                             "attacker_strength": 5, "defender_strength": 3,
                             "difference": 2}).endswith("Bo loses 1 Unit.")


def test_order_cards_are_counted_from_one_in_words() -> None:
    """Managing the Order Cards: the Order Pool and the Upcoming Order Pool
    drawn are named in a sentence, counted from 1 (the 16 cards' ids count
    from 0), not as a Python list."""
    assert say("OrderPoolDrawn", {"cards": [0, 14, 3]}) == (
        "The Order Pool is drawn: Orders 1, 15 and 4.")
    assert say("OrderPoolSlid", {"card": 0, "cards": [15]}) == (
        "The last Order Card, Order 1, is discarded; the Upcoming Pool slides down, a new "
        "one is drawn: Order 16.")
    assert present.order_card(0).name == "Order 1"
    game = Titans.start(SEATS, seed="a" * 64)
    assert game.action_label(c.TakeOrder(card=15)).startswith("Take Order 16: ")


def test_prompts_are_the_rulebooks_words_without_command_ids() -> None:
    """End of the Round, 3. Reinforcements: "2nd Reinforcement: Player chooses
    1 of 2 options: Purchase a Nation Card ... Discard 1 Support Card and add
    any 1 Unit onto a controlled Region"; no prompt names a command's id."""
    assert state.PROMPTS[state.SECOND] == (
        "2nd Reinforcement: purchase a Nation Card, or discard 1 Support Card and add 1 Unit "
        "to a Region you control")
    for prompt in state.PROMPTS.values():
        assert not tells(prompt), prompt


def test_labels_name_support_cards_by_their_effect_not_ids() -> None:
    """Purchasing Nation Card Action: the cost is paid by discarding Support
    Cards from the hand, so the label counts and names them (not ``[10, 12]``)."""
    game = Titans.start(SEATS, seed="a" * 64)
    move, die = (next(s.id for s in SUPPORTS if s.effect == e)
                 for e in ("move_unit", "add_die"))
    label = game.action_label(c.PurchaseNationCard(action="purchase", card=0, bottom=-1,
                                                   pay=(move, die)))
    assert label.endswith(", paying 2 Support Cards (Move 1 Unit, Add a Die)")
    assert game.action_label(c.PurchaseNationCard(action="purchase", card=0, bottom=-1)
                             ).endswith(", paying nothing")
    assert game.action_label(c.EndOrders()) == "End the Order Phase"
    assert game.action_label(c.DrawSupport(card=die)).startswith("Take the face-up Add a Die "
                                                                "(needs ")


def test_secret_objectives_read_as_conditions() -> None:
    """Secret Objective Cards: each card's condition in words ("Have 4 Cavalry
    on the Main Board"), not the data's ``unit_type_on_map count 4``."""
    texts = {o.name: present.objective_card(o.id).text for o in OBJECTIVES}
    assert texts["Cavalry Reserve"] == "Have 4 Cavalry on the Main Board"
    assert texts["Baltic Coast"] == "Control Prussia, Pomerania and Livonia"
    assert texts["Fortified Realm"] == "Control 1 Stronghold"


def test_the_end_names_the_winner_from_one() -> None:
    """End of the Game: the player with the most VP wins; the sentence and the
    outcome name the seat as players do (its name, else Player N from 1)."""
    assert say("Ended", {"outcome": {"winner": 1, "vp": [20, 25, 9]}}) == (
        "The game is over: Bo wins with 25 VP.")
    summary = played(Titans, 2, 0, "legal").game.standings()
    assert summary.summary == f"Player {summary.winners[0] + 1} wins with " \
        f"{summary.scores[summary.winners[0]]} VP."


def test_the_board_setup_is_named_by_its_nations() -> None:
    """Setup, step 1: the board setup for the number of players, told by its
    nations (its key, ``3-poland-russia-ottoman``, is the data's, not a player's)."""
    text = present.SENTENCES["Created"]({"setup": {"setup": "3-poland-russia-ottoman"}}, str)
    assert text == ("A game of Titans begins: the 3-player board setup (Polish-Lithuanian "
                    "Commonwealth, Tsardom of Russia and Ottoman Empire), standard rules.")
