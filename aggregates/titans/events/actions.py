"""The Actions: units moved and deployed, Battles declared, regions taken,
Strongholds built, Nation Cards purchased, Objectives accomplished."""

from __future__ import annotations

from aggregates.kernel import Game


class UnitMoved(Game.Event):
    """The `seat`'s `units` move by the `action` from the `origin` `to` a region
    (spending a Control Token: `token`): the `result` is ``moved``, ``taken`` (the
    region is taken) or ``battle`` (they wait on the border)."""

    seat: int
    action: str
    units: dict[str, int]
    origin: str
    to: str
    token: bool
    result: str


class BattleDeclared(Game.Event):
    """The `seat` instigates a Battle in the `region` against the `defender`
    (`fortified`: behind a Stronghold)."""

    seat: int
    region: str
    defender: int
    fortified: bool


class RegionTaken(Game.Event):
    """The `seat` takes the `region` from its `owner` without a Battle (its
    `capitol`, its `stronghold`): the `vp` it scores."""

    seat: int
    region: str
    owner: int
    capitol: bool
    stronghold: bool
    vp: int


class UnitDeployed(Game.Event):
    """The `seat` deploys a `unit` from its Nation Board to the `region` by the `action`."""

    seat: int
    action: str
    unit: str
    region: str


class StrongholdBuilt(Game.Event):
    """The `seat` builds a Stronghold in the `region`."""

    seat: int
    region: str


class NationCardPurchased(Game.Event):
    """The `seat` buys the Nation `card` for its `cost`, with the Support Cards
    `paid`, `why` (the action, or the Opening); the card put at the `bottom` of
    its Nation Deck."""

    seat: int
    card: int
    cost: int
    paid: list[int]
    why: str
    bottom: int


class NationDeckTopSeen(Game.Event):
    """The `seat` looks at the top `cards` of its Nation Deck."""

    seat: int
    cards: list[int]


class ObjectiveAccomplished(Game.Event):
    """The `seat` reveals its Secret Objective `card` (`name`), met: its `vp`."""

    seat: int
    card: int
    name: str
    vp: int
