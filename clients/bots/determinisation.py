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
is the one thing each game's table below says: the visibility is the game's
own declaration. A game with hidden cards and no entry here is refused
(``NO_BELIEF``) rather than searched with its hidden cards in plain sight.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Callable, Iterator
from typing import Any

from aggregates.kernel import Game, Zones
from aggregates.kernel.nature import Information, game_type_of

#: A hidden card's pool, from its zone's name and the card (None: never
#: resampled, e.g. the zone is derived). Cards of one pool may stand in each
#: other's place, as far as the seat knows.
PoolOf = Callable[[str, Any], str | None]


@dataclasses.dataclass(frozen=True)
class Table:
    """How one game's hidden cards are found and written back."""

    #: The game's zones with their specs (visibility is read from them).
    zones: Callable[[Any], Zones]
    #: The live lists of the game's state, by zone name, to write samples into.
    lists: Callable[[Any], dict[str, list[Any]]]
    pool: PoolOf
    #: Hidden state to withdraw for ``seat``: secret choices other seats made and
    #: have not revealed.
    withdraw: Callable[[Any, int], None] = lambda game, seat: None
    #: Cards that never leave their zone while hidden (they stay out of the
    #: pools), and how the game places them again once the pools are dealt.
    keep: Callable[[Any], bool] = lambda card: False
    place: Callable[[Any, random.Random], None] = lambda game, rng: None


def _kind(name: str) -> str:
    return name.split(":", 1)[0]


def _ethnos() -> Table:
    from aggregates.ethnos import zones as z

    def lists(g: Any) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {z.DECK: g.deck}
        out.update({z.hand(s): g.hands[s] for s in range(len(g.seats))})
        return out

    def place(g: Any, rng: random.Random) -> None:
        # A Dragon is revealed as soon as it is drawn, so none is in a hand; the
        # Age's Dragons still to come were shuffled into the deck's bottom half.
        dragons = [c for c in g.deck if CARDS[c].dragon]
        deck = [c for c in g.deck if not CARDS[c].dragon]
        top = (len(g.deck) + 1) // 2 if len(g.deck) > 2 * len(dragons) else 0
        bottom = deck[top:] + dragons
        rng.shuffle(bottom)
        g.deck[:] = deck[:top] + bottom

    from aggregates.ethnos.data import CARDS

    # Every other card out of sight came from the one deck: a hand could hold any of them.
    return Table(zones=z.zones, lists=lists,
                 pool=lambda n, card: "unseen" if _kind(n) in ("deck", "hand") else None,
                 keep=lambda card: CARDS[card].dragon, place=place)


def _ettin() -> Table:
    from aggregates.ettin.data import COMPONENTS as C

    def pool(name: str, card: Any) -> str | None:
        if _kind(name) not in ("merc", "adv", "deck", "camp", "field", "retired"):
            return None
        # Cards move between decks, camps, fields and retired piles face down
        # (a Spoil drawn, a Nation card drawn, a Deployment): a hidden card may
        # be any hidden card of its own deck and Age (an Adventure: of its Age,
        # a Defense for a Defense), wherever it lies.
        if C.is_adventure(card):
            adventure = C.adventure(card)
            return f"adventure:{adventure.age}:{adventure.defense is not None}"
        unit = C.units[card % BOX]
        return f"unit:{unit.deck}:{unit.age}"

    from aggregates.ettin.data import BOX

    return Table(zones=lambda g: g.table_zones(), lists=lambda g: g.zones, pool=pool)


def _nine_empires() -> Table:
    from aggregates.nine_empires import views

    def pool(name: str, card: Any) -> str | None:
        kind = _kind(name)
        if kind in ("deck", "hand"):
            return f"cards:{name.split(':')[1]}"  # a player's own cards, deck or hand
        return "stealth" if kind == "stealth" else None

    return Table(zones=views.zones, lists=lambda g: g.zones, pool=pool)


def _titans() -> Table:
    from aggregates.titans import zones as z

    def lists(g: Any) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {name: getattr(g, name) for name in z.FACE_DOWN}
        for s in range(len(g.seats)):
            out[f"hand:{s}"] = g.hands[s]
            out[f"objectives:{s}"] = g.objectives[s]
            out[f"nation_deck:{s}"] = g.nation_decks[s]
            if g.draft is not None:
                out[f"choosing:{s}"] = g.draft["holding"][s]
        drawing = g.reinforcing
        if g.draft is None and drawing is not None and drawing["drawn"]:
            # A Reinforcement's Objectives drawn, held by the seat choosing now.
            out[f"choosing:{drawing['order'][drawing['at']]}"] = drawing["drawn"]
        return out

    def pool(name: str, card: Any) -> str | None:
        kind = _kind(name)
        if kind in ("support_deck", "hand"):
            return "support"
        if kind in ("objective_deck", "objectives", "choosing"):
            return "objectives"
        return name if kind in ("order_deck", "nation_deck") else None

    def withdraw(g: Any, seat: int) -> None:
        opening = getattr(g, "opening", None)
        if opening:
            for other in [s for s in opening["chosen"] if s != str(seat)]:
                del opening["chosen"][other]

    return Table(zones=lambda g: z.zones(g, g.seating()), lists=lists, pool=pool,
                 withdraw=withdraw)


TABLES: dict[str, Callable[[], Table]] = {
    "ethnos": _ethnos, "ettin": _ettin, "nine_empires": _nine_empires, "titans": _titans,
}


class NoBelief(ValueError):
    """A game with hidden cards this module does not know how to resample."""


def table_of(game: Game) -> Table | None:
    """The game's table; None for a game of perfect information."""
    make = TABLES.get(game.RULES_ID)
    if make is not None:
        return make()
    if game_type_of(type(game)).information is Information.PERFECT:
        return None
    raise NoBelief(f"NO_BELIEF: {game.RULES_ID} hides cards and no determinisation "
                   "is declared for it (clients.bots.determinisation.TABLES)")


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

    It copies the game once; every sample is a copy of that copy with the
    hidden parts drawn again, so the original is never touched."""

    def __init__(self, game: Game, seat: int) -> None:
        self.seat = seat
        self.base = copy.deepcopy(game)
        self.base.collect_events()
        self.table = table_of(game)

    def sample(self, rng: random.Random) -> Game:
        world = copy.deepcopy(self.base)
        world.seed = rng.getrandbits(256).to_bytes(32, "big").hex()
        if hasattr(world, "contributions"):
            del world.contributions
        if self.table is not None:
            self.table.withdraw(world, self.seat)
            deal(world, self.table, self.seat, rng)
            self.table.place(world, rng)
        return world


def deal(world: Game, table: Table, seat: int, rng: random.Random) -> None:
    """Pool the cards ``seat`` cannot see, shuffle each pool, deal them back:
    every hidden place gets a card of the pool of the card it held."""
    lists = table.lists(world)
    places: list[tuple[str, int, str]] = []
    pools: dict[str, list[Any]] = {}
    for name, first in hidden_zones(table.zones(world), seat, lists):
        for index in range(first, len(lists[name])):
            card = lists[name][index]
            pool = None if table.keep(card) else table.pool(name, card)
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


def follow_instances(world: Game, moved: dict[Any, str]) -> None:
    """Card instances (``kernel.cards``) that record their zone follow their card."""
    instances = getattr(world, "instances", None)
    if not isinstance(instances, dict):
        return
    for card, zone in moved.items():
        record = instances.get(card)
        if isinstance(record, dict) and "zone" in record:
            record["zone"] = zone
