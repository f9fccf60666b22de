"""Clean-Up and the turns: the Titan raised and deployed, a turn ended and begun."""

from __future__ import annotations

from aggregates.kernel import Game


class TitanRaised(Game.Event):
    """The `seat` stands its lying Titan up on its Nation Board."""

    seat: int


class TitanDeployed(Game.Event):
    """The `seat` deploys its standing Titan to the `region`."""

    seat: int
    region: str


class TurnEnded(Game.Event):
    """The `seat`'s turn ends."""

    seat: int


class TurnBegan(Game.Event):
    """The `seat`'s turn begins."""

    seat: int
