"""Titans rulebook, "Game Setup" (the board setups, the Support Deck and its row,
the first Nation Card purchased by all at once, the Secret Objective draft) and
the Simplified Game Variant; who may read what of it."""

from __future__ import annotations

import pytest

from aggregates.kernel import RuleError
from aggregates.titans import testing
from aggregates.titans.commands import KeepObjective, OpeningPurchase
from aggregates.titans.data import NATION_CARDS, NATIONS, setups_for


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_count_uses_its_board_setups(players: int) -> None:
    """Main Board Setup: the Nations in starting turn order; inactive regions with 2-3."""
    for board in setups_for(players):
        game = testing.new_game(players, setup=board.key)
        assert game.nations == list(board.nations) and game.inactive == list(board.inactive)
        assert bool(game.inactive) == (players < 4)
        for seat, nation in enumerate(board.nations):
            start = board.start[nation]
            assert game.capitols[start.capitol] == {"owner": seat, "damaged": False}
            assert all(game.armies[r]["nation"] == seat for r in start.units)
        assert game.start_player == 0


def test_an_unknown_setup_or_option_is_refused() -> None:
    with pytest.raises(RuleError, match="BAD_OPTIONS"):
        testing.new_game(3, setup="2-poland-russia")
    with pytest.raises(RuleError, match="BAD_OPTIONS"):
        testing.new_game(2, rounds=5)


def test_support_cards_dealt_and_four_face_up() -> None:
    """Game Setup 5: each player draws 3 Support Cards; 4 are placed face up."""
    game = testing.new_game(4)
    assert [len(h) for h in game.hands] == [3, 3, 3, 3] and len(game.support_row) == 4
    assert len(game.support_deck) == 32 - 12 - 4


def test_opening_purchases_are_hidden_until_all_have_chosen() -> None:
    """Game Setup 6: everyone may buy 1 of his top 3 Nation Cards; they are revealed
    simultaneously; one of the others may go to the bottom of the Nation Deck."""
    game = testing.new_game(2)
    assert {d.seat for d in game.pending()} == {0, 1} and all(d.hidden for d in game.pending())
    top = game.nation_decks[0][:3]
    free = [c for c in top if NATION_CARDS[c].cost <= len(game.hands[0])]
    card = free[0]
    pay = tuple(sorted(game.hands[0])[:NATION_CARDS[card].cost])
    bottom = next(c for c in top if c != card)
    with pytest.raises(RuleError, match="NOT_HELD"):
        testing.play(game, 0, OpeningPurchase(card=game.nation_decks[0][5], bottom=-1))
    testing.play(game, 0, OpeningPurchase(card=card, pay=pay, bottom=bottom))
    chosen = testing.events(game)[-1]
    assert chosen[0] == "OpeningPurchaseChosen"
    assert game.nation_cards[0] == []  # not revealed yet
    testing.play(game, 1, OpeningPurchase(card=-1, bottom=-1))
    names = [n for n, _p in testing.events(game)]
    assert "OpeningPurchasesRevealed" in names
    assert game.nation_cards == [[card], []] and game.nation_decks[0][-1] == bottom


def test_the_draft_keeps_one_and_passes_right() -> None:
    """Game Setup 7: 4 dealt, keep 1, pass 3 to the right; keep 1, pass 2; keep 1, the
    last to the bottom of the deck: 3 Secret Objectives each."""
    game = testing.new_game(3)
    for seat in range(3):
        testing.play(game, seat, OpeningPurchase(card=-1, bottom=-1))
    assert game.draft is not None and [len(h) for h in game.draft["holding"]] == [4, 4, 4]
    passed = {s: sorted(game.draft["holding"][s])[1:] for s in range(3)}
    for seat in range(3):
        testing.play(game, seat, KeepObjective(card=sorted(game.draft["holding"][seat])[0]))
    # the player on one's right is the previous seat in turn order
    assert {s: sorted(game.draft["holding"][s]) for s in range(3)} == {
        (s - 1) % 3: passed[s] for s in range(3)}
    with pytest.raises(RuleError):
        testing.play(game, 0, KeepObjective(card=passed[0][0]))  # went to seat 2
    for _pick in range(2):
        for seat in range(3):
            testing.play(game, seat, KeepObjective(card=game.draft["holding"][seat][0]))
    assert game.draft is None and [len(o) for o in game.objectives] == [3, 3, 3]
    assert len(game.objective_deck) == 18 - 12 + 3
    assert game.round == 1 and game.pending()[0].kind == "order"


def test_simplified_variant() -> None:
    """Simplified: the Nation Card marked X, 2 Support Cards, no Secret Objectives."""
    game = testing.new_game(2, variant="simplified")
    assert [len(h) for h in game.hands] == [2, 2]
    assert game.nation_cards == [[NATIONS[n].x_card] for n in game.nations]
    assert game.objectives == [[], []] and game.objective_deck == []
    assert game.round == 1 and game.pending()[0].kind == "order"


def test_the_creation_event_hides_the_deck_orders() -> None:
    from aggregates.titans.game import Titans

    game = testing.new_game(2)
    created = Titans.public_form("Created", {"setup": {
        "setup": game.setup_key, "support_deck": [1, 2], "nation_decks": [[3], [4]],
        "objective_deck": [5]}, "seed": "s"})
    assert created["setup"]["support_deck"] == 2 and created["setup"]["nation_decks"] == [1, 1]
    assert "seed" not in created
