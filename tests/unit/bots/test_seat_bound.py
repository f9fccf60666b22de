"""A bot never reads beyond its seat (the design's principle 4 for bots).

Two games that differ only in what seat 0 cannot see (an opponent's hidden
card swapped with one of the face-down deck, a face-down deck's order, the
seed behind every future die) must give seat 0 the same samples of the world
and the same decisions, for the same bot seed. Each game's rulebook makes
those parts secret: Ethnos, "Taking your turn: Recruit an Ally" (a player's
hand is hidden); Titans, "Support cards" and "Secret Objectives" (held in
hand); Romance of the Nine Empires, "Hand and deck" (a player's hand is
private, decks face down); Ettin, "Mercenaries" (drawn from a face-down deck).

The perturbations are written here by hand, per game, apart from the
determiniser's own tables, so a determiniser that kept any of the true hidden
cards would be caught; a control shows the check catching a belief that
copies the game without drawing anything again.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from aggregates.catalog import GAMES
from aggregates.kernel import Game
from clients.bots import ISMCTS, Determiniser, GreedyBot, observe

SEAT = 0


def advanced(rules: str, moves: int, seed: int = 7) -> Game:
    """A two-seat game after ``moves`` random moves (a seeded table)."""
    cls = GAMES[rules]
    rnd = random.Random(seed)
    game = cls.start(["a", "b"], seed=f"{seed:02d}" * 32)
    played = 0
    while not game.ended and (played < moves or SEAT not in game.waiting_on()):
        seat = rnd.choice(game.waiting_on())
        game.act(seat, rnd.choice(game.legal_actions(seat)))
        played += 1
    game.collect_events()
    assert not game.ended
    return game


def swap_ethnos(g: Any) -> None:
    from aggregates.ethnos.data import CARDS
    deck = [i for i, c in enumerate(g.deck) if not CARDS[c].dragon]
    hand = g.hands[1]
    assert hand and deck, "the table has no hidden card to swap"
    i = deck[-1]
    hand[0], g.deck[i] = g.deck[i], hand[0]


def swap_titans(g: Any) -> None:
    if g.objectives[1] and g.objective_deck:
        g.objectives[1][0], g.objective_deck[-1] = g.objective_deck[-1], g.objectives[1][0]
    g.support_deck.reverse()
    g.order_deck.reverse()


def swap_nine_empires(g: Any) -> None:
    hand, deck = g.zones["hand:1"], g.zones["deck:1"]
    assert hand and deck
    hand[0], deck[-1] = deck[-1], hand[0]
    g.instances[hand[0]]["zone"], g.instances[deck[-1]]["zone"] = "hand:1", "deck:1"


def swap_ettin(g: Any) -> None:
    decks = [n for n, cards in g.zones.items() if n.startswith("merc:") and len(cards) > 1]
    assert decks
    for name in decks:
        g.zones[name].reverse()


CASES: dict[str, tuple[int, Callable[[Any], None]]] = {
    "ethnos": (10, swap_ethnos), "titans": (10, swap_titans),
    "nine_empires": (12, swap_nine_empires), "ettin": (3, swap_ettin),
}


def twin(game: Game, swap: Callable[[Any], None]) -> Game:
    """The game with what seat 0 cannot see changed, and another seed."""
    other = copy.deepcopy(game)
    swap(other)
    other.seed = "ee" * 32
    return other


def world_as_everyone_sees_it(world: Game) -> list[Any]:
    """A sampled world in full: every seat's view (their hidden cards included)."""
    return [world.view(s) for s in range(len(world.seats))] + [world.seed]


@pytest.fixture(scope="module", params=sorted(CASES))
def pair(request: pytest.FixtureRequest) -> tuple[Game, Game]:
    moves, swap = CASES[request.param]
    game = advanced(request.param, moves)
    return game, twin(game, swap)


def test_the_twins_differ_only_in_what_the_seat_cannot_see(pair: tuple[Game, Game]) -> None:
    game, other = pair
    assert game.view(SEAT) == other.view(SEAT)
    assert game.legal_actions(SEAT) == other.legal_actions(SEAT)
    assert world_as_everyone_sees_it(game) != world_as_everyone_sees_it(other)


def test_the_worlds_sampled_for_the_seat_are_the_same(pair: tuple[Game, Game]) -> None:
    game, other = pair
    for seed in range(3):
        first = Determiniser(game, SEAT).sample(random.Random(seed))
        second = Determiniser(other, SEAT).sample(random.Random(seed))
        assert world_as_everyone_sees_it(first) == world_as_everyone_sees_it(second)
        assert first.view(SEAT) == game.view(SEAT), "a sample must agree with what the seat saw"


def test_the_bots_decide_the_same_in_both_twins(pair: tuple[Game, Game]) -> None:
    game, other = pair
    for make in (lambda: GreedyBot(3, width=4, budget=None, limit=25),
                 lambda: ISMCTS(3, iterations=12, limit=25)):
        moves = []
        for g in (game, other):
            moves.append(make()(observe(g, SEAT, Determiniser(g, SEAT))))
        assert moves[0] == moves[1]


class Copier:
    """A belief that reads beyond its seat: the game copied, nothing drawn again."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def sample(self, rng: random.Random) -> Game:
        return copy.deepcopy(self.game)


def test_the_check_catches_a_belief_that_reads_the_hidden_cards(
        pair: tuple[Game, Game]) -> None:
    game, other = pair
    first, second = Copier(game).sample(random.Random(0)), Copier(other).sample(random.Random(0))
    assert world_as_everyone_sees_it(first) != world_as_everyone_sees_it(second)
