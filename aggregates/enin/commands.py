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
    """Roll 1D10 on the start table."""

    NAME = "roll_start"


@dataclasses.dataclass(frozen=True)
class Travel(Command):
    """Travel to a location."""

    NAME = "travel"
    to: int


@dataclasses.dataclass(frozen=True)
class Quest(Command):
    """Roll 1D10 on the location chart."""

    NAME = "quest"


@dataclasses.dataclass(frozen=True)
class Buy(Command):
    """Buy one item at the market."""

    NAME = "buy"
    item: str


@dataclasses.dataclass(frozen=True)
class StealKey(Command):
    """Try to steal the Key from the library of the elders."""

    NAME = "steal_key"


@dataclasses.dataclass(frozen=True)
class LeaveTown(Command):
    """Leave the Nigh Towns without buying or stealing."""

    NAME = "leave_town"


@dataclasses.dataclass(frozen=True)
class Attack(Command):
    """Attack: roll 2D10 (fight on)."""

    NAME = "attack"


@dataclasses.dataclass(frozen=True)
class SpendLuck(Command):
    """Spend luck on a die."""

    NAME = "spend_luck"
    die: int
    amount: int


@dataclasses.dataclass(frozen=True)
class Reroll(Command):
    """Re-roll a D10 with the Shield of Nines."""

    NAME = "reroll"
    die: int


@dataclasses.dataclass(frozen=True)
class AcceptRoll(Command):
    """Stand on the dice."""

    NAME = "accept_roll"


@dataclasses.dataclass(frozen=True)
class Flee(Command):
    """Flee, paying the printed penalty."""

    NAME = "flee"


@dataclasses.dataclass(frozen=True)
class ChooseTreasure(Command):
    """Choose the magic item found."""

    NAME = "choose_treasure"
    item: str


@dataclasses.dataclass(frozen=True)
class LoseItem(Command):
    """Choose the magic item the Imp takes."""

    NAME = "lose_item"
    item: str


@dataclasses.dataclass(frozen=True)
class AttemptQuest(Command):
    """Attempt the quest here."""

    NAME = "attempt_quest"


@dataclasses.dataclass(frozen=True)
class EndTurn(Command):
    """End the Questing Phase."""

    NAME = "end_turn"


COMMANDS = CommandSet(
    RollStart, Travel, Quest, Buy, StealKey, LeaveTown, Attack, SpendLuck, Reroll,
    AcceptRoll, Flee, ChooseTreasure, LoseItem, AttemptQuest, EndTurn,
)
