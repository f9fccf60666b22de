"""Determinisation: whole games a seat might be in, sampled from what it cannot see.

A search on hidden information plays many possible worlds (information-set
MCTS). Each world is the game as it stands with everything the seat cannot
see drawn afresh:

- **cards**: the zones whose faces the seat cannot read (``ZoneSpec``
  visibility, through the game's own ``Zones``) give up their cards to pools;
  each pool's cards are put in one canonical order (sorted), shuffled with the
  bot's own generator and dealt back, every zone keeping its count. A pool
  holds the cards that could be in each other's place as far as the seat
  knows (Ethnos: the deck and the other hands; a face-down deck whose
  composition is public: itself alone). Cards a seat sees at the top of a
  zone (a Titans Nation Deck's top 3 for its owner) stay put.
- **dice**: the copy's seed is replaced by one from the bot's generator, so
  every future die and shuffle is unknown, as it is to the seat.
- **secret choices** other seats have made and not revealed (Titans'
  opening purchases) are withdrawn: in the sampled world those seats choose
  again.

Since the pools are sorted before they are shuffled, two games that differ
only in what the seat cannot see give the same samples for the same
generator: the search never reads beyond its seat (``tests/unit/bots``
checks this on every game).

Which zones pool together, and where a zone's list lives in the game's state,
is each game's own declaration (``UNSEEN``, made in its ``views.py``:
``aggregates.kernel.unseen``), beside the zones' visibility it refines. A game
with hidden cards and no such declaration is refused (``NO_BELIEF``) rather
than searched with its hidden cards in plain sight.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Iterator
from typing import Any

from aggregates.kernel import Game, Zones
from aggregates.kernel.nature import Information, game_type_of
from aggregates.kernel.unseen import Unseen, follow_instances


class NoBelief(ValueError):
    """A game with hidden cards this module does not know how to resample."""


def table_of(game: Game | type[Game]) -> Unseen | None:
    """The game's table (of a game or its class); None for a game of perfect
    information."""
    cls = game if isinstance(game, type) else type(game)
    make = getattr(cls, "UNSEEN", None)
    if make is not None:
        return make()  # type: ignore[no-any-return]
    if game_type_of(cls).information is Information.PERFECT:
        return None
    raise NoBelief(f"NO_BELIEF: {cls.RULES_ID} hides cards and no determinisation "
                   "is declared for it (UNSEEN, aggregates.kernel.unseen)")


def hidden_zones(zones: Zones, seat: int, lists: dict[str, list[Any]]
                 ) -> Iterator[tuple[str, int]]:
    """``(zone, first hidden index)`` of every zone whose cards ``seat``
    cannot all see: all of them, or all but the top ones it may look at."""
    for name in zones.specs:
        if name not in lists or zones.seen_by(name, seat) is not None:
            continue
        top = zones.top_seen_by(name, seat)
        yield name, 0 if top is None else len(top)


class Determiniser:
    """A seat's belief about one game: ``sample`` draws a world (``Belief``).

    It copies the game once, as a pickle; every sample is that pickle loaded
    (tens of times faster than a deep copy, which was a search iteration's
    largest cost after its playout) with the hidden parts drawn again, so the
    original is never touched."""

    def __init__(self, game: Game, seat: int) -> None:
        self.seat = seat
        self.base = copy.deepcopy(game)
        self.base.collect_events()
        self.table = table_of(game)
        self.frozen = pickle.dumps(self.base, protocol=pickle.HIGHEST_PROTOCOL)

    def sample(self, rng: random.Random) -> Game:
        world: Game = pickle.loads(self.frozen)
        world.seed = rng.getrandbits(256).to_bytes(32, "big").hex()
        # A world is played and thrown away: its events need no chain digest
        # (hashing each one is a fifth of a playout's time).
        world.unchained = True
        # Every command a search plays in a world is one of that world's own
        # legal list (a playout's and the tree's) or is checked against it (a
        # root candidate: ``levels.find``), so the rules need not work the
        # list out again as a last guard on each move.
        world.CHECK_AGAINST_LEGAL_LIST = False
        if hasattr(world, "contributions"):
            del world.contributions
        if self.table is not None:
            self.table.withdraw(world, self.seat)
            deal(world, self.table, self.seat, rng)
            self.table.place(world, rng)
        return world


def deal(world: Game, table: Unseen, seat: int, rng: random.Random) -> None:
    """Pool the cards ``seat`` cannot see, shuffle each pool, deal them back:
    every hidden place gets a card of the pool of the card it held."""
    lists = table.lists(world)
    places: list[tuple[str, int, str]] = []
    pools: dict[str, list[Any]] = {}
    for name, first in hidden_zones(table.zones(world), seat, lists):
        for index in range(first, len(lists[name])):
            card = lists[name][index]
            pool = (None if table.keep(card) else table.pool(name, card)
                    if table.pool_in is None else table.pool_in(world, seat, name, card))
            if pool is not None:
                places.append((name, index, pool))
                pools.setdefault(pool, []).append(card)
    for cards in pools.values():
        cards.sort(key=repr)
        rng.shuffle(cards)
    moved: dict[Any, str] = {}
    for name, index, pool in places:
        card = lists[name][index] = pools[pool].pop()
        moved[card] = name
    follow_instances(world, moved)
