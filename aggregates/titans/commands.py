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

import dataclasses

from aggregates.kernel import Command, CommandSet

NONE = -1


# ---------------------------------------------------------------- Game Setup


@dataclasses.dataclass(frozen=True)
class OpeningPurchase(Command):
    """Game Setup 6: buy one of the top 3 Nation Cards (or none), paying its cost in
    Support Cards, and put one of the others at the bottom of the Nation Deck (or none)."""

    NAME = "opening_purchase"
    card: int
    bottom: int
    pay: tuple[int, ...] = ()


@dataclasses.dataclass(frozen=True)
class KeepObjective(Command):
    """Keep one Secret Objective Card: in the draft, or of the 2 drawn as a Reinforcement."""

    NAME = "keep_objective"
    card: int


# --------------------------------------------------------------- Order Phase


@dataclasses.dataclass(frozen=True)
class TakeOrder(Command):
    """A) Order Phase: choose one Order Card from the Pool."""

    NAME = "take_order"
    card: int


@dataclasses.dataclass(frozen=True)
class MoveUnit(Command):
    """A move action: one unit across one border (``action`` names the icon used)."""

    NAME = "move_unit"
    action: str
    unit: str
    origin: str
    to: str


@dataclasses.dataclass(frozen=True)
class GroupMove(Command):
    """The group move: 1 to 4 units from one region to one neighbouring region."""

    NAME = "group_move"
    origin: str
    to: str
    units: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class DeployUnit(Command):
    """A deployment action: one unit from the reserve onto a region you control."""

    NAME = "deploy_unit"
    action: str
    unit: str
    region: str


@dataclasses.dataclass(frozen=True)
class PurchaseNationCard(Command):
    """Purchasing Nation Card (``purchase`` or ``purchase_discount``)."""

    NAME = "purchase_nation_card"
    action: str
    card: int
    bottom: int
    pay: tuple[int, ...] = ()


@dataclasses.dataclass(frozen=True)
class BuildStronghold(Command):
    """Stronghold Construction: a Stronghold in a region with your units or Control Token."""

    NAME = "build_stronghold"
    region: str


@dataclasses.dataclass(frozen=True)
class EndOrders(Command):
    """End the Order Phase, leaving the Order's other actions unused."""

    NAME = "end_orders"


@dataclasses.dataclass(frozen=True)
class AccomplishObjective(Command):
    """Show a Secret Objective whose condition is met (1 per turn) and score it."""

    NAME = "accomplish_objective"
    card: int


# ---------------------------------------------------------------- Battles


@dataclasses.dataclass(frozen=True)
class ChooseBattle(Command):
    """Resolving Battles: the Battle (its region) to resolve next."""

    NAME = "choose_battle"
    region: str


@dataclasses.dataclass(frozen=True)
class PlaySupport(Command):
    """Play Support Card(s): a single Add a Die / Add Strength card, or a set."""

    NAME = "play_support"
    cards: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class PlayMoveUnit(Command):
    """Play a Move 1 Unit Support Card: a unit of yours from a neighbouring region joins."""

    NAME = "play_move_unit"
    card: int
    unit: str
    origin: str


@dataclasses.dataclass(frozen=True)
class DiscardToReroll(Command):
    """Discard one Support Card (no requirement) to re-roll dice of your pool once."""

    NAME = "discard_to_reroll"
    card: int


@dataclasses.dataclass(frozen=True)
class RerollDice(Command):
    """The dice of your pool (their indices) to re-roll."""

    NAME = "reroll_dice"
    dice: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class UseNationCard(Command):
    """Use a [1 / Battle] or [1 / Round] Nation Card whose requirement is met."""

    NAME = "use_nation_card"
    card: int


@dataclasses.dataclass(frozen=True)
class UseTitanAbility(Command):
    """The Titan Special Ability (once per Battle, the Titan in your army)."""

    NAME = "use_titan_ability"


@dataclasses.dataclass(frozen=True)
class UseNationAbility(Command):
    """The Nation Starting Ability (once per Battle, its requirement met)."""

    NAME = "use_nation_ability"


@dataclasses.dataclass(frozen=True)
class EndStage(Command):
    """End your Battle Stage."""

    NAME = "end_stage"


@dataclasses.dataclass(frozen=True)
class Decline(Command):
    """Use no Nation Card after a Unit joined the Battle."""

    NAME = "decline"


@dataclasses.dataclass(frozen=True)
class DestroyUnits(Command):
    """The loser's units destroyed: indices into its army in the Battle."""

    NAME = "destroy_units"
    troops: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class Withdraw(Command):
    """The defeated Defender withdraws every unit into this one region."""

    NAME = "withdraw"
    region: str


# ---------------------------------------------------- Support and Clean-Up


@dataclasses.dataclass(frozen=True)
class DrawSupport(Command):
    """C) Draw 1 Support Card: a face-up one (its id) or the top of the Deck (-1)."""

    NAME = "draw_support"
    card: int


@dataclasses.dataclass(frozen=True)
class DiscardSupport(Command):
    """D) Clean-Up: the Support Cards discarded down to the hand limit."""

    NAME = "discard_support"
    cards: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class DeployTitan(Command):
    """D) Clean-Up: the standing Titan onto a region you control."""

    NAME = "deploy_titan"
    region: str


# -------------------------------------------------------- Reinforcements


@dataclasses.dataclass(frozen=True)
class ReinforceSupport(Command):
    """1st Reinforcement: 2 Support Cards, these face-up ones (0-2) and the rest
    from the top of the Deck."""

    NAME = "reinforce_support"
    row: tuple[int, ...] = ()


@dataclasses.dataclass(frozen=True)
class ReinforceObjectives(Command):
    """1st Reinforcement: draw 2 Secret Objective Cards, to keep 1."""

    NAME = "reinforce_objectives"


@dataclasses.dataclass(frozen=True)
class ReinforcePurchase(Command):
    """2nd Reinforcement: purchase a Nation Card (-1: the top 3 offer nothing you buy)."""

    NAME = "reinforce_purchase"
    card: int
    bottom: int
    pay: tuple[int, ...] = ()


@dataclasses.dataclass(frozen=True)
class ReinforceUnit(Command):
    """2nd Reinforcement: discard 1 Support Card and add 1 unit onto a region you control."""

    NAME = "reinforce_unit"
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
