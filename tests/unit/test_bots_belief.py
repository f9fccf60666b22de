"""A world guessed from one seat's record (``clients.bots.belief``).

A bot over the per-seat stream has its seat's record alone: the creation
without its hidden setup, its own private events whole, the others' in their
public form. Each game that hides cards says how to make that record whole
(``UNSEEN``'s ``setup``, ``complete`` and ``align``). These tests play random
games in process and, at every few moves, fold each seat's record as the
server would deliver it (``seat_reads``) into a guess, then check:

- the guess shows the seat the real game's view and legal moves;
- the cards the seat cannot see are the real game's, pool by pool
  (the determiniser deals exactly those again for every sample);
- the guess does not know more than chance: over many guesses, the cards
  it puts in another seat's hand are the real ones about as often as a
  random deal of the same unseen cards puts them there, not always.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest

from aggregates.catalog import GAMES
from aggregates.kernel import Game
from aggregates.kernel.record.recording import payload_of
from aggregates.kernel.unseen import hidden_places
from clients.bots.belief import Guess, Read, completes, seat_reads
from clients.bots.determinisation import Determiniser, table_of

#: (rules, players, moves played, a check every this many moves)
CASES = [("ethnos", 2, 160, 9), ("ethnos", 4, 160, 11), ("ettin", 2, 400, 23),
         ("ettin", 4, 300, 29), ("titans", 2, 200, 13), ("titans", 3, 150, 13),
         ("nine_empires", 2, 200, 11), ("nine_empires", 3, 150, 13)]


def pools(game: Game, seat: int) -> Counter[tuple[Any, str]]:
    """The cards ``seat`` cannot see, counted by pool. Where cards are
    instances (Nine Empires), an id stands for whichever card the deal gave
    it, so the faces are counted by owner (a raid's stealth card is any card
    of its owner's hand, as far as the others know)."""
    table = table_of(game)
    assert table is not None
    lists = table.lists(game)
    places = [lists[z][i] for z, i in hidden_places(table, game, seat)]
    instances = getattr(game, "instances", None)
    if instances is not None:
        return Counter((instances[c]["owner"], instances[c]["card"]) for c in places)
    return Counter((table.pool(z, lists[z][i]), repr(lists[z][i]))
                   for z, i in hidden_places(table, game, seat))


def started(rules: str, players: int, seed: int) -> Game:
    return GAMES[rules].start([f"p{i}" for i in range(players)], seed=f"{seed:02x}" * 32)


@pytest.mark.parametrize(("rules", "players", "moves", "every"), CASES)
def test_a_guess_shows_each_seat_its_own_game(rules: str, players: int, moves: int,
                                              every: int) -> None:
    """At every check, for every seat, the guess folded from the seat's record
    gives the seat's view and legal list of the real game, and holds the
    real game's unseen cards in each pool."""
    cls = GAMES[rules]
    assert completes(cls)
    rnd = random.Random(5)
    game = started(rules, players, 5)
    events: list[Any] = list(game.collect_events())
    guesses = {s: Guess(cls, s, random.Random(s)) for s in range(players)}
    checked = 0
    for n in range(1, moves + 1):
        if game.ended:
            break
        seat = rnd.choice(game.waiting_on())
        game.act(seat, rnd.choice(game.legal_actions(seat)))
        events += game.collect_events()
        if n % every:
            continue
        for s, guess in guesses.items():
            guess.add(seat_reads(cls, events, s)[guess.folded:])
            guess.align(game.view(s))
            assert guess.game is not None
            assert guess.game.view(s) == game.view(s), (n, s)
            assert guess.game.legal_actions(s) == game.legal_actions(s), (n, s)
            assert pools(guess.game, s) == pools(game, s), (n, s)
            checked += 1
    assert checked >= 4


def drawn_unseen(game: Any, events: list[Any], seat: int) -> set[int]:
    """The cards in ``seat``'s Ethnos hand that came to it face down (dealt or
    drawn from the deck, not recruited from the face-up row)."""
    came: dict[int, str] = {}
    for ev in events:
        if type(ev).__name__ in ("CardDealt", "DrewFromDeck", "RecruitedFaceUp") \
                and ev.seat == seat:
            came[ev.card] = type(ev).__name__
    return {c for c in game.hands[seat] if came.get(c) != "RecruitedFaceUp"}


def test_a_guess_knows_another_hand_no_better_than_chance() -> None:
    """Ethnos ("Setup": each hand is hidden from the others): once Player 2
    holds 3 cards it drew face down, the cards 20 guesses put in its hand
    overlap those 3 about as often as a random deal of Player 1's unseen
    cards does, far below the 3 a guess that read the hand would hold."""
    cls = GAMES["ethnos"]
    rnd = random.Random(3)
    game = started("ethnos", 2, 3)
    events: list[Any] = list(game.collect_events())
    for _ in range(400):
        if len(drawn_unseen(game, events, 1)) >= 3:
            break
        seat = rnd.choice(game.waiting_on())
        game.act(seat, rnd.choice(game.legal_actions(seat)))
        events += game.collect_events()
    hidden = drawn_unseen(game, events, 1)
    assert len(hidden) >= 3
    unseen = len(game.deck) + len(hidden)  # type: ignore[attr-defined]
    overlaps = []
    for k in range(20):
        guess = Guess(cls, 0, random.Random(100 + k))
        guess.add(seat_reads(cls, events, 0))
        assert guess.game is not None
        overlaps.append(len(hidden & set(guess.game.hands[1])))  # type: ignore[attr-defined]
    chance = len(hidden) * len(hidden) / unseen
    mean = sum(overlaps) / len(overlaps)
    assert mean < chance + 0.5
    assert mean < len(hidden) / 3
    # The control: a guess fed every event whole (as a bot reading beyond its
    # seat would be) holds the hand itself, and the check above would fail.
    whole = [Read(r.record if i == 0 else dataclasses.replace(
        r.record, payload=payload_of(ev)), i == 0)
        for i, (r, ev) in enumerate(zip(seat_reads(cls, events, 0), events, strict=True))]
    leaky = Guess(cls, 0, random.Random(100))
    leaky.add(whole)
    assert hidden <= set(leaky.game.hands[1])  # type: ignore[union-attr]


def test_two_setups_that_differ_only_in_what_the_seat_cannot_see_give_one_guess() -> None:
    """Ettin ("Setup": the Nation, Mercenary and Adventure decks are shuffled
    face down): two games of the same nations from different seeds differ in
    every deck's order; the creation as a seat reads it names no card of
    them, so the guess made from it with the same generator is one world."""
    from aggregates.ettin.data import COMPONENTS

    cls = GAMES["ettin"]
    nations = [n.id for n in COMPONENTS.nations][:2]
    decks, guessed = [], []
    for seed in (1, 2):
        game = cls.start(["a", "b"], options={"nations": nations}, seed=f"{seed:02x}" * 32)
        created = game.collect_events()[:1]
        decks.append(game.zones["deck:0"])  # type: ignore[attr-defined]
        guess = Guess(cls, 0, random.Random(9))
        guess.add(seat_reads(cls, created, 0))
        assert guess.game is not None
        guessed.append(guess.game.zones)  # type: ignore[attr-defined]
    assert decks[0] != decks[1]
    assert guessed[0] == guessed[1]


def test_bring_swaps_a_seen_card_in_from_its_own_pool_only() -> None:
    """Titans numbers its Support Cards and its Secret Objectives alike
    ("Components"): a Support Card the seat saw is brought into a hand from
    the Support Deck, never from the Objectives that share its number, and a
    card nowhere the seat cannot see is refused with its reason."""
    from aggregates.kernel.unseen import Inconsistent, bring

    cls = GAMES["titans"]
    game = started("titans", 2, 4)
    table = table_of(game)
    assert table is not None
    g: Any = game
    card = next(c for c in g.support_deck if c in g.objective_deck)
    objectives_before = list(g.objective_deck)
    bring(table, game, 0, card, "hand:1")
    assert card in g.hands[1] and card not in g.support_deck
    assert g.objective_deck == objectives_before
    assert pools(game, 0) == pools(cls.start(["p0", "p1"], seed=f"{4:02x}" * 32), 0)
    with pytest.raises(Inconsistent, match="GUESS_INCONSISTENT"):
        bring(table, game, 0, g.hands[0][0], "hand:1")  # seat 0 sees its own hand


def test_a_game_played_in_process_with_beliefs_from_the_seats_records() -> None:
    """``arena.play(from_record=True)`` (the soak's ``--from-record``): every
    seat searches from the world guessed from its own record, to the end of
    a two-player game of Ettin."""
    from clients.bots import make
    from clients.bots.arena import play

    game = started("ettin", 2, 6)
    bots = [make("greedy", seed=0, budget=0.002), make("random", seed=1)]
    result = play(game, bots, random.Random(6), from_record=True)
    assert result.ended and result.winners


def raid_with_stealth(owner: int) -> tuple[Game, str, str]:
    """A two-player Nine Empires game in a raid where ``owner`` has put a
    stealth card face down: the game, the hero and its stealth card."""
    for seed in range(40):
        rnd = random.Random(seed)
        game: Any = started("nine_empires", 2, seed)
        for _ in range(600):
            if game.ended:
                break
            chosen = (game.conflict or {}).get("stealth", {})
            mine = [(h, c) for h, c in chosen.items() if game.instances[c]["owner"] == owner]
            if mine:
                return game, mine[0][0], mine[0][1]
            seat = rnd.choice(game.waiting_on())
            game.act(seat, rnd.choice(game.legal_actions(seat)))
    raise AssertionError("no raid with a stealth card in 40 games")


def test_another_seats_stealth_card_is_dealt_again_from_its_cards() -> None:
    """Romance of the Nine Empires, "Raids": each raiding or defending hero's
    stealth card is placed face down. In worlds sampled for the other seat,
    that hero's stealth card is one of its owner's unseen cards at random:
    its face is the real one about as often as chance, not every time. The
    seat's own stealth card it keeps."""
    game, hero, card = raid_with_stealth(owner=1)
    g: Any = game
    face = g.instances[card]["card"]
    unseen = [x for z in ("deck:1", "hand:1", "stealth") for x in g.zones.get(z, [])
              if g.instances[x]["owner"] == 1]
    chance = sum(g.instances[x]["card"] == face for x in unseen) / len(unseen)
    belief = Determiniser(game, 0)
    same = 0
    for k in range(40):
        world: Any = belief.sample(random.Random(k))
        dealt = world.conflict["stealth"][hero]
        assert world.instances[dealt]["zone"] == "stealth"
        assert world.instances[dealt]["owner"] == 1
        same += world.instances[dealt]["card"] == face
        world.legal_actions(world.waiting_on()[0])  # a world the rules can go on with
    assert same / 40 < chance + 0.3 and same < 40
    own, own_hero, own_card = raid_with_stealth(owner=0)
    kept: Any = Determiniser(own, 0).sample(random.Random(1))
    assert kept.conflict["stealth"][own_hero] == own_card
