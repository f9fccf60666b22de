"""The moves a seat can send, mirrored one to one by ``EttinCommand`` in
``protos/arbiter/v1/ettin.proto``. A seat playing two positions (the odd
player and the Mercenary mat) answers its positions' decisions one at a time,
lowest position first; card arguments are card instance ids."""

from __future__ import annotations

from aggregates.kernel import Command, CommandSet


class Initiative(Command):
    """Take the Initiative Token (true) or give it to your Enemy (false)."""

    take: bool


class Draft(Command):
    """Skirmish/Peacetime: draft one card of the Lineup."""

    card: int


class Recruit(Command):
    """Pay a drafted card's Recruit Cost and place it face down in your War Camp."""

    card: int


class Sell(Command):
    """Gain a drafted card's Sell value at once and discard it to the Lost Pile."""

    card: int


class Deploy(Command):
    """Deploy: place a War Camp card face down at a slot (0-2 Locations from the
    Adventure outward, 3 the Adventure); ``scout`` 1-3 uses its Scouting on that
    Enemy Location, slot + 1 (0: not)."""

    card: int
    slot: int
    scout: int = 0


class Target(Command):
    """Start of battle: the target of a unit's Terrify, Dragonslayer or Ranged
    (0: Ranged not used)."""

    unit: int
    target: int


class Lose(Command):
    """A failed Adventure: the Troop with Adventure Strength that is Lost."""

    card: int


class Spoil(Command):
    """Take an Enemy unit of the battle as a Spoil (0: the top card of the Enemy's
    Nation Deck, when the Enemy has no units at that Location)."""

    card: int


class EndSpoils(Command):
    """Take no more Spoils from this battle."""


class Siege(Command):
    """Siege: place a Siege Token on an Enemy Defense."""

    card: int


class PlaceDefense(Command):
    """Place the Defense won from the Adventure at one of your Locations (0-2)."""

    card: int
    slot: int


class Produce(Command):
    """Produce: use (or not) the next optional Produce ability; ``card`` is the
    Troop a Gate moves (0 otherwise)."""

    use: bool
    card: int = 0


COMMANDS = CommandSet(Initiative, Draft, Recruit, Sell, Deploy, Target, Lose, Spoil, EndSpoils,
                      Siege, PlaceDefense, Produce)
