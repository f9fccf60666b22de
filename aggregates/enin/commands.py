"""The Land of Enin's commands: one per message of ``protos/arbiter/v1/enin.proto``.

Enum-valued fields travel as the lowercase enum value names
(``"potion_of_healing"``, ``"damask_sword"``...). ``die`` is the 0-based index
of a die on the table.
"""

from __future__ import annotations

import dataclasses

from aggregates.kernel import Command, CommandSet


@dataclasses.dataclass(frozen=True)
class RollStart(Command):
    NAME = "roll_start"
    LABEL = "Roll 1D10 on the start table"


@dataclasses.dataclass(frozen=True)
class Travel(Command):
    NAME = "travel"
    LABEL = "Travel to a location"
    to: int


@dataclasses.dataclass(frozen=True)
class Quest(Command):
    NAME = "quest"
    LABEL = "Roll 1D10 on the location chart"


@dataclasses.dataclass(frozen=True)
class Buy(Command):
    NAME = "buy"
    LABEL = "Buy one item at the market"
    item: str


@dataclasses.dataclass(frozen=True)
class StealKey(Command):
    NAME = "steal_key"
    LABEL = "Try to steal the Key from the library of the elders"


@dataclasses.dataclass(frozen=True)
class LeaveTown(Command):
    NAME = "leave_town"
    LABEL = "Leave the Nigh Towns without buying or stealing"


@dataclasses.dataclass(frozen=True)
class Attack(Command):
    NAME = "attack"
    LABEL = "Attack: roll 2D10 (fight on)"


@dataclasses.dataclass(frozen=True)
class SpendLuck(Command):
    NAME = "spend_luck"
    LABEL = "Spend luck on a die"
    die: int
    amount: int


@dataclasses.dataclass(frozen=True)
class Reroll(Command):
    NAME = "reroll"
    LABEL = "Re-roll a D10 with the Shield of Nines"
    die: int


@dataclasses.dataclass(frozen=True)
class AcceptRoll(Command):
    NAME = "accept_roll"
    LABEL = "Stand on the dice"


@dataclasses.dataclass(frozen=True)
class Flee(Command):
    NAME = "flee"
    LABEL = "Flee, paying the printed penalty"


@dataclasses.dataclass(frozen=True)
class ChooseTreasure(Command):
    NAME = "choose_treasure"
    LABEL = "Choose the magic item found"
    item: str


@dataclasses.dataclass(frozen=True)
class LoseItem(Command):
    NAME = "lose_item"
    LABEL = "Choose the magic item the Imp takes"
    item: str


@dataclasses.dataclass(frozen=True)
class AttemptQuest(Command):
    NAME = "attempt_quest"
    LABEL = "Attempt the quest here"


@dataclasses.dataclass(frozen=True)
class EndTurn(Command):
    NAME = "end_turn"
    LABEL = "End the Questing Phase"


COMMANDS = CommandSet(
    RollStart, Travel, Quest, Buy, StealKey, LeaveTown, Attack, SpendLuck, Reroll,
    AcceptRoll, Flee, ChooseTreasure, LoseItem, AttemptQuest, EndTurn,
)
