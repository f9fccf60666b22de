"""After the battles: Spoils, the Adventure Defense, Retire, Produce."""

from __future__ import annotations

from typing import Any

from aggregates.ettin.events.shapes import CardsMoved, GoldGained, GoldPaid
from aggregates.kernel import Game


class SpoilsBegan(Game.Event):
    """The Spoils are owed: per pair, each `owed` taker, battle (slot), how many
    (count) and of what kind (spoil or siege). Recorded by rules 1 to 3 only: rules
    4 read them from the battles' results after the last battle."""

    owed: list[list[dict[str, Any]]]


class SpoilTaken(CardsMoved):
    """The `position` takes an Enemy unit of the battle at `slot` (or, `from_deck`, the
    top of the Enemy's Nation Deck) to its Retired Pile."""

    position: int
    slot: int | None
    from_deck: bool


class BountyPaid(GoldPaid):
    """Bounty: the taker of the `card` gains its gold (`amount`, `gold` after)."""

    card: int | None


class SiegeTokenPlaced(Game.Event):
    """A Siege unit of the `position` places a Siege Token on an Enemy Defense, the
    `card`."""

    position: int
    card: int


class SpoilsPassed(Game.Event):
    """The `pair`'s Spoils move on: the `position` took one at `slot` of its `kind`,
    `left` still owed there (0: the next taker's). Rules 4 record it only when the
    taker stops taking Spoils there (its choice); the rest they read from each
    `SpoilTaken` and `SiegeTokenPlaced` and from the units left to take."""

    pair: int | None
    position: int | None
    slot: int | None
    kind: str | None
    left: int | None


class AdventureDefenseBegan(Game.Event):
    """The completed Adventures that become Defenses are placed now. Recorded by
    rules 1 to 3 only: rules 4 begin it after the last Spoil."""


class AdventureDefensePlaced(CardsMoved):
    """The `position` places the Adventure it won as a Defense at its Location `slot`."""

    position: int
    slot: int | None


class RetireBegan(Game.Event):
    """Retire: every position's deployed cards are retired. Recorded by rules 1 to 3
    only: rules 4 begin it once every Defense won is placed."""


class DefenseStays(CardsMoved):
    """A Defense stays at its Location."""

    position: int


class ReturnedToSelf(CardsMoved):
    """Return to Self: the card goes back to its position's War Camp."""

    position: int


class ReturnedToAlly(CardsMoved):
    """Return to Ally: the card goes to the Ally's War Camp."""

    position: int


class Retired(CardsMoved):
    """The cards go to the position's Retired Pile."""

    position: int


class Wealthy(GoldPaid):
    """Wealthy: the `position` gains the `card`'s gold on retiring (`amount`, `gold`
    after)."""

    card: int | None


class WarCry(CardsMoved):
    """War Cry: the top card of the position's Nation Deck goes to its War Camp."""

    position: int


class AdventureDiscarded(CardsMoved):
    """The `pair`'s Adventure not completed this Age is discarded."""

    pair: int | None


class ProduceBegan(Game.Event):
    """Produce begins: the `optional` abilities each position is asked about (position,
    ability, source). Recorded by rules 1 to 3 only: rules 4 begin it once nothing is
    left deployed and read the abilities from the Defenses and Locations."""

    optional: list[dict[str, Any]]


class Produced(GoldGained):
    """Taxes or Prosperous (the `ability`, the `card` that has it; None: a Location)
    pays (`gains` by position, `gold` after)."""

    ability: str
    card: int | None


class GateUsed(CardsMoved):
    """Gate to Self or Gate to Ally (the `ability`): a Retired card goes to a War Camp."""

    position: int
    ability: str


class CallToArms(CardsMoved):
    """Call to Arms: the top card of the position's Nation Deck goes to its War Camp."""

    position: int


class LostSouls(CardsMoved):
    """Lost Souls: the top card of the position's Nation Deck goes to the Lost Pile."""

    position: int


class ProduceAnswered(Game.Event):
    """The `position` answers its optional Produce `ability` of `source`: `used` or
    not."""

    position: int | None
    ability: str | None
    source: int | None
    used: bool | None
