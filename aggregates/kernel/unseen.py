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
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from aggregates.kernel.zones import Zones

#: A hidden card's pool, from its zone's name and the card (None: never
#: resampled, e.g. the zone is derived). Cards of one pool may stand in each
#: other's place, as far as the seat knows.
PoolOf = Callable[[str, Any], str | None]


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


def kind_of(zone: str) -> str:
    """A zone name's kind: ``hand`` of ``hand:2``."""
    return zone.split(":", 1)[0]
