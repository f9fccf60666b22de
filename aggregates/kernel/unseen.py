"""What a seat cannot see, pooled: a game's declaration of which hidden cards
could stand in each other's place as far as a seat knows, and where its
state keeps each zone's list.

A game with hidden cards declares one ``Unseen`` (``UNSEEN`` on its class, a
function made in its ``views.py`` beside the zones' visibility it refines).
Whoever draws the worlds a seat may be in (a bot's determinisation, a
researcher's sampler) reads it; the visibility itself stays the zones'
(``ZoneSpec``), so the declaration only says what the rulebook implies about
where an unseen card may be: Ethnos' deck and other hands are one pool, a
face-down deck of public composition is a pool of its own.

The same declaration says how a seat's own record makes a whole game (each
game's ``guess.py``): ``setup`` deals the creation's hidden part afresh,
``complete`` fills in an event the seat read in public form from the guessed
game, and ``align`` puts the guess in step with the seat's view where the
events leave something out. ``bring`` is their shared step: a card the seat
saw is swapped, among the places it cannot see, to where an event takes it
from, so the guess never shows the seat anything but what it saw.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aggregates.kernel.zones import Zones

#: A hidden card's pool, from its zone's name and the card (None: never
#: resampled, e.g. the zone is derived). Cards of one pool may stand in each
#: other's place, as far as the seat knows.
PoolOf = Callable[[str, Any], str | None]


@dataclasses.dataclass
class Guessing:
    """What a completion is given beside the guessed world and the event: the
    seat whose record it is, the generator its guesses are drawn from,
    whether the seat read the event in its public form (``redacted``), and a
    memo the game's completion may keep between events (which zone the last
    hidden card went to, for an event that reveals it next)."""

    seat: int
    rng: random.Random
    redacted: bool = False
    memo: dict[str, Any] = dataclasses.field(default_factory=dict)


#: The whole setup of a game from its creation as a seat read it (seats,
#: options, the public setup), hidden parts drawn with the generator.
SetupGuess = Callable[[Any, Mapping[str, Any], random.Random], dict[str, Any]]
#: An event of the seat's record made whole in the guessed world: the payload
#: to apply there. It may first move hidden cards of the world about (``bring``)
#: so that the event's named cards lie where the event takes them from.
Completion = Callable[[Any, Guessing, str, dict[str, Any]], dict[str, Any]]


@dataclasses.dataclass(frozen=True)
class Unseen:
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
    #: A hidden card's pool where it depends on the world and the seat
    #: (``world, seat, zone, card``), in place of ``pool`` when dealing: Nine
    #: Empires' face-down stealth cards go with their owner's hand and deck,
    #: and the seat's own stay where they are.
    pool_in: Callable[[Any, int, str, Any], str | None] | None = None
    #: The whole setup from the creation as a seat read it (``SetupGuess``).
    setup: SetupGuess | None = None
    #: An event read by a seat, made whole in a guessed world (``Completion``);
    #: None: the game does not say, so no world is guessed from a seat's record.
    complete: Completion | None = None
    #: The guessed world aligned to the seat's view (``world, guessing, view``),
    #: where the game's events leave out what the view shows the seat (a card's
    #: face behind an instance id it drew).
    align: Callable[[Any, Guessing, Mapping[str, Any]], None] | None = None


def kind_of(zone: str) -> str:
    """A zone name's kind: ``hand`` of ``hand:2``."""
    return zone.split(":", 1)[0]


# ------------------------------------------------- a world guessed from a seat's record


def public_setup_is_whole(cls: Any, created: Mapping[str, Any], rng: random.Random
                          ) -> dict[str, Any]:
    """A game whose setup hides nothing: the public setup is the setup."""
    return dict(created.get("setup") or {})


def hidden_places(table: Unseen, world: Any, seat: int) -> list[tuple[str, int]]:
    """Every ``(zone, index)`` of the world whose card ``seat`` cannot see."""
    zones, lists = table.zones(world), table.lists(world)
    out = []
    for name in zones.specs:
        if name not in lists or zones.seen_by(name, seat) is not None:
            continue
        top = zones.top_seen_by(name, seat)
        out += [(name, i) for i in range(0 if top is None else len(top), len(lists[name]))]
    return out


class Inconsistent(ValueError):
    """A guessed world cannot hold what the seat saw (a completion's mistake,
    or a record that is not one game's)."""


def bring(table: Unseen, world: Any, seat: int, card: Any, zone: str,
          index: int | None = None, keep: Sequence[Any] = (), any_pool: bool = False) -> None:
    """Make the guessed world hold ``card`` in ``zone`` (at ``index``, when the
    zone is ordered and the event takes cards from a place in it), swapping it
    with the card there. The card is taken from wherever the guess put it among
    the places ``seat`` cannot see, so everything the seat sees stays as it
    is. ``keep``: cards of the zone the swap must not take out (others the same
    event names). ``any_pool``: the card may come from a place of another pool
    (a card that left its pool face down: a stealth card from a hand)."""
    lists = table.lists(world)
    target = lists.get(zone)
    if target is None:
        raise Inconsistent(f"GUESS_INCONSISTENT: the guess has no zone {zone}")
    if index is None and card in target:
        return
    if index is not None and index < len(target) and target[index] == card:
        return
    # The card may lie elsewhere in the zone (a deck's top the seat sees,
    # in another order), or anywhere the seat cannot see among the cards of
    # its pool (two decks may number their cards alike).
    pool = None if any_pool else table.pool(zone, card)
    here = [(zone, i) for i in range(len(target)) if index is not None and i != index]
    found = next(((z, i) for z, i in here + hidden_places(table, world, seat)
                  if lists[z][i] == card and (z != zone or index is not None)
                  and (pool is None or table.pool(z, card) == pool)), None)
    if index is None:
        # A card of the named card's pool gives it its place where there is
        # one (a card of another pool might go where none of its kind could
        # be); else any card the event does not name (a guessed deploy of
        # another kind goes back to the War Camp the named card came from).
        free = [i for i in range(len(target)) if target[i] not in keep]
        free = [i for i in free if table.pool(zone, target[i]) == pool] or free
        if not free:
            raise Inconsistent(f"GUESS_INCONSISTENT: {zone} has no place for {card!r}")
        index = free[-1]
    if found is None or index >= len(target):
        raise Inconsistent(f"GUESS_INCONSISTENT: {card!r} is nowhere the seat cannot see "
                           f"(wanted in {zone} at {index})")
    z, i = found
    lists[z][i], target[index] = target[index], lists[z][i]
    follow_instances(world, {lists[z][i]: z, target[index]: zone})


def follow_instances(world: Any, moved: Mapping[Any, str]) -> None:
    """Card instances that record their zone (Nine Empires' ``instances``)
    follow their card to the zone it was dealt or brought to."""
    instances = getattr(world, "instances", None)
    if not isinstance(instances, dict):
        return
    for card, zone in moved.items():
        record = instances.get(card)
        if isinstance(record, dict) and "zone" in record:
            record["zone"] = zone
