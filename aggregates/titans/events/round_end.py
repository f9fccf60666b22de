"""End of the Round: regions scored, the Starting Player Token passed, the
Reinforcements, the next Round prepared."""

from __future__ import annotations

from aggregates.kernel import Game
from aggregates.titans.events.shapes import CARD_COUNT


class RoundScored(Game.Event):
    """The `round` is scored: each seat's controlled `regions` and the `vp` they
    give (`final`: the last Round, the game is over)."""

    round: int
    regions: list[int]
    vp: list[int]
    final: bool


class StartingPlayerPassed(Game.Event):
    """The Starting Player token passes: the next `round`'s `start_player`."""

    round: int
    start_player: int


class ReinforcementChosen(Game.Event):
    """The `seat` chooses its `reinforcement` (1 or 2): the `option` taken."""

    seat: int
    reinforcement: int
    option: str


class ObjectivesDrawn(Game.Event):
    """The `seat` draws Secret Objective `cards` as a Reinforcement."""

    PUBLIC_COUNTS = CARD_COUNT

    seat: int
    cards: list[int]


class RoundPrepared(Game.Event):
    """The next `round` is prepared: the Support row's cards discarded
    (`row_discarded`) and the rotated Nation Cards `restored`."""

    round: int
    row_discarded: list[int]
    restored: list[int]
