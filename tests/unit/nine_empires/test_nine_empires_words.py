"""What Romance of the Nine Empires' players read speaks as the rulebook does
(issue 23, "a table, not a log"): over random legal games of every player
count played, no event sentence, prompt, choice, menu label, screen text or
outcome summary holds a debug-log tell (``tests.unit.test_game_words.TELLS``:
"card(s)", a snake_case command id or card key, "seat 0", a Python list);
and the sentences fixed for it read as the rulebook's, each test citing its
section."""

from __future__ import annotations

import re

import pytest

from aggregates.nine_empires import NineEmpires
from aggregates.nine_empires.victory import VICTORY
from tests.conformance.tables import counts, played
from tests.unit.test_game_words import playout_tells, told

#: States of each game read in full (the screen of every seat, labels, prompts).
READ = 16
SEATS = ["Ada", "Bo", "Cy"]


def say(event: str, payload: dict[str, object]) -> str | None:
    return NineEmpires.describe(event, payload, SEATS)


#: The 6-seat table plays longest (some 8 s): run by ``make test``, left out of
#: ``make check``'s quick tier (``heavy``), whose smaller tables read the same words.
@pytest.mark.parametrize("players", [
    pytest.param(n, marks=pytest.mark.heavy(8)) if n >= 6 else n for n in counts(NineEmpires)])
def test_random_games_read_without_debug_log_tells(players: int) -> None:
    found = playout_tells(NineEmpires, players, f"nine-empires-words/{players}", READ, outcome=True)
    assert not found, told(found)


@pytest.mark.parametrize("how", sorted(VICTORY))
def test_the_victory_names_the_player_and_how_they_won(how: str) -> None:
    """Object: "You win a conquest victory the instant you destroy the last
    castle ..." (and a dominance, a popular victory; the last player left):
    the sentence names the player, not "seat 0", and the victory in words."""
    won = {"winner": 0, "how": how, "renown": [3, 1, 0]}
    assert say("GameWon", won) == f"Ada wins by {VICTORY[how]}."
    assert say("Ended", {"outcome": {"result": "seat 0 wins", "winner": 2, "how": how,
                                     "winners": [2]}, "seed": ""}) == (
        f"Game over: Cy wins by {VICTORY[how]}.")


def test_the_outcome_summary_counts_players_from_one() -> None:
    """Object: one player wins; the shared outcome's summary names the winner
    as Player N, counted from 1 (kernel.outcome), and how the game was won."""
    outcome = played(NineEmpires, 2, 0, "legal").game.standings()
    winner = outcome.winners[0]
    assert re.fullmatch(rf"Player {winner + 1} wins by ({'|'.join(VICTORY.values())})\.",
                        outcome.summary), outcome.summary


def test_cards_are_counted_one_and_many() -> None:
    """Bowing and Straightening Cards; Winter Phase ("Each player draws four
    cards, then discards down to his or her maximum hand size"): "1 card",
    "4 cards", never "card(s)"; a card that made it happen named by its title."""
    assert say("CardsDrawn", {"seat": 0, "count": 1}) == "Ada draws 1 card."
    assert say("CardsDrawn", {"seat": 1, "count": 4}) == "Bo draws 4 cards."
    assert say("Bowed", {"seat": 0, "cards": ["i1"], "why": "burning_marketplace"}) == (
        "Ada bows 1 card (Burning Marketplace).")
    assert say("CardsDiscarded", {"seat": 2, "cards": ["i1", "i2"], "why": "hand size"}) == (
        "Cy discards 2 cards (hand size).")
    assert say("HandSizeChecked", {"over": [1]}) == "1 player discards down to hand size."
    assert say("UnitsAssigned", {"seat": 0, "heroes": ["i4"]}) == "Ada assigns 1 unit."


def test_allying_says_the_side_in_words() -> None:
    """Attack Another Player (allies): a player allies with the attacker or
    the defender, not "to defend"."""
    assert say("AllyChosen", {"seat": 1, "side": "defend"}) == "Bo allies with the defender."


def test_the_decks_are_named_by_their_strongholds() -> None:
    """Deck Lists: a deck is its stronghold's (the Hall of Ord's), not the data's key."""
    from aggregates.nine_empires.present import describe

    text = describe("Created", {"setup": {"players": [{"deck": "ixhasa"}, {"deck": "ord"}]}},
                    ["Ann", "Bo"])
    assert text == ("A game of Romance of the Nine Empires begins for Ann and Bo, playing "
                    "the Necropolis of Ixhasa deck and the Hall of Ord deck.")
