"""Titans commands: one per message of ``protos/arbiter/v1/titans.proto``.

Regions are the map's keys (``data/map.json``), units the unit type names
(``infantry``, ``cavalry``, ``artillery``, ``titan``), cards integer ids of
their deck (Order, Support, Nation and Secret Objective cards each number
their own). ``-1`` stands for "none" (no card bought, none put at the bottom)
or, for a Support Card drawn, the top of the Deck; it is always given (a field
left out of a typed message arrives as 0, a card id). Lists are given sorted
(units in the order infantry, cavalry, artillery, titan): the legal list
holds each answer once, in that form.
"""

from __future__ import annotations

from aggregates.kernel import Command, CommandSet

NONE = -1


# ---------------------------------------------------------------- Game Setup


class OpeningPurchase(Command):
    """Game Setup 6: buy one of the top 3 Nation Cards (or none), paying its cost in
    Support Cards, and put one of the others at the bottom of the Nation Deck (or none)."""

    card: int
    bottom: int
    pay: tuple[int, ...] = ()


class KeepObjective(Command):
    """Keep one Secret Objective Card: in the draft, or of the 2 drawn as a Reinforcement."""

    card: int


# --------------------------------------------------------------- Order Phase


class TakeOrder(Command):
    """A) Order Phase: choose one Order Card from the Pool."""

    card: int


class MoveUnit(Command):
    """A move action: one unit across one border (``action`` names the icon used)."""

    action: str
    unit: str
    origin: str
    to: str


class GroupMove(Command):
    """The group move: 1 to 4 units from one region to one neighbouring region."""

    origin: str
    to: str
    units: tuple[str, ...]


class DeployUnit(Command):
    """A deployment action: one unit from the reserve onto a region you control."""

    action: str
    unit: str
    region: str


class PurchaseNationCard(Command):
    """Purchasing Nation Card (``purchase`` or ``purchase_discount``)."""

    action: str
    card: int
    bottom: int
    pay: tuple[int, ...] = ()


class BuildStronghold(Command):
    """Stronghold Construction: a Stronghold in a region with your units or Control Token."""

    region: str


class EndOrders(Command):
    """End the Order Phase, leaving the Order's other actions unused."""


class AccomplishObjective(Command):
    """Show a Secret Objective whose condition is met (1 per turn) and score it."""

    card: int


# ---------------------------------------------------------------- Battles


class ChooseBattle(Command):
    """Resolving Battles: the Battle (its region) to resolve next."""

    region: str


class PlaySupport(Command):
    """Play Support Card(s): a single Add a Die / Add Strength card, or a set."""

    cards: tuple[int, ...]


class PlayMoveUnit(Command):
    """Play a Move 1 Unit Support Card: a unit of yours from a neighbouring region joins."""

    card: int
    unit: str
    origin: str


class DiscardToReroll(Command):
    """Discard one Support Card (no requirement) to re-roll dice of your pool once."""

    card: int


class RerollDice(Command):
    """The dice of your pool (their indices) to re-roll."""

    dice: tuple[int, ...]


class UseNationCard(Command):
    """Use a [1 / Battle] or [1 / Round] Nation Card whose requirement is met."""

    card: int


class UseTitanAbility(Command):
    """The Titan Special Ability (once per Battle, the Titan in your army)."""


class UseNationAbility(Command):
    """The Nation Starting Ability (once per Battle, its requirement met)."""


class EndStage(Command):
    """End your Battle Stage."""


class Decline(Command):
    """Use no Nation Card after a Unit joined the Battle."""


class DestroyUnits(Command):
    """The loser's units destroyed: indices into its army in the Battle."""

    troops: tuple[int, ...]


class Withdraw(Command):
    """The defeated Defender withdraws every unit into this one region."""

    region: str


# ---------------------------------------------------- Support and Clean-Up


class DrawSupport(Command):
    """C) Draw 1 Support Card: a face-up one (its id) or the top of the Deck (-1)."""

    card: int


class DiscardSupport(Command):
    """D) Clean-Up: the Support Cards discarded down to the hand limit."""

    cards: tuple[int, ...]


class DeployTitan(Command):
    """D) Clean-Up: the standing Titan onto a region you control."""

    region: str


# -------------------------------------------------------- Reinforcements


class ReinforceSupport(Command):
    """1st Reinforcement: 2 Support Cards, these face-up ones (0-2) and the rest
    from the top of the Deck."""

    row: tuple[int, ...] = ()


class ReinforceObjectives(Command):
    """1st Reinforcement: draw 2 Secret Objective Cards, to keep 1."""


class ReinforcePurchase(Command):
    """2nd Reinforcement: purchase a Nation Card (-1: the top 3 offer nothing you buy)."""

    card: int
    bottom: int
    pay: tuple[int, ...] = ()


class ReinforceUnit(Command):
    """2nd Reinforcement: discard 1 Support Card and add 1 unit onto a region you control."""

    discard: int
    unit: str
    region: str


COMMANDS = CommandSet(
    OpeningPurchase, KeepObjective, TakeOrder, MoveUnit, GroupMove, DeployUnit,
    PurchaseNationCard, BuildStronghold, EndOrders, AccomplishObjective, ChooseBattle,
    PlaySupport, PlayMoveUnit, DiscardToReroll, RerollDice, UseNationCard, UseTitanAbility,
    UseNationAbility, EndStage, Decline, DestroyUnits, Withdraw, DrawSupport, DiscardSupport,
    DeployTitan, ReinforceSupport, ReinforceObjectives, ReinforcePurchase, ReinforceUnit,
)
