"""Winter Phase: food stored and redistributed, effects ended, quests buried,
hand size, the Ordained passed."""

from __future__ import annotations

from aggregates.kernel import Game


class WinterBegan(Game.Event):
    """The Winter Phase of the `turn` begins (recorded by rules 1.4.0 and before;
    1.5.0 reads it from the Autumn's PhaseEnded)."""

    turn: int


class FoodStored(Game.Event):
    """The `seat`'s `heroes` bring their food home: the `moves` (food to castles),
    `discarded` food left over."""

    discarded: int
    heroes: list[str]
    moves: list[list[str]]
    seat: int


class RedistributionBegan(Game.Event):
    """The `seats` may redistribute their food among their castles (recorded by
    rules 1.4.0 and before; 1.5.0 reads them from the castles and food when the
    Autumn's PhaseEnded begins the Winter)."""

    seats: list[int]


class FoodRedistributed(Game.Event):
    """The `seat` places its `food` on its castles."""

    seat: int
    food: dict[str, int]


class EffectsEnded(Game.Event):
    """Effects lasting the `turn` end; the Winter's reckoning follows, to the
    players discarding down to hand size."""

    turn: int


class QuestBuried(Game.Event):
    """The `seat`'s `quest` (`key`) is buried."""

    key: str
    quest: str
    seat: int


class HandSizeChecked(Game.Event):
    """The players over the hand size (`over`) must discard down to it (recorded
    by rules 1.4.0 and before; 1.5.0 reads them from the hands drawn)."""

    over: list[int]


class OrdainedPassed(Game.Event):
    """The Ordained token passes from the `seat` to the seat `to`."""

    seat: int
    to: int
