"""The Land of Enin's commands: one per message of ``protos/arbiter/v1/enin.proto``.

Enum-valued fields travel as the lowercase enum value names
(``"potion_of_healing"``, ``"damask_sword"``...). ``die`` is the 0-based index
of a die on the table.
"""

from __future__ import annotations

from aggregates.kernel import Command, CommandSet


class RollStart(Command):
    """Roll 1D10 on the start table."""


class Travel(Command):
    """Travel to a location."""

    to: int


class Quest(Command):
    """Roll 1D10 on the location chart."""


class Buy(Command):
    """Buy one item at the market."""

    item: str


class StealKey(Command):
    """Try to steal the Key from the library of the elders."""


class LeaveTown(Command):
    """Leave the Nigh Towns without buying or stealing."""


class Attack(Command):
    """Attack: roll 2D10 (fight on)."""


class SpendLuck(Command):
    """Spend luck on a die."""

    die: int
    amount: int


class Reroll(Command):
    """Re-roll a D10 with the Shield of Nines."""

    die: int


class AcceptRoll(Command):
    """Stand on the dice."""


class Flee(Command):
    """Flee, paying the printed penalty."""


class ChooseTreasure(Command):
    """Choose the magic item found."""

    item: str


class LoseItem(Command):
    """Choose the magic item the Imp takes."""

    item: str


class AttemptQuest(Command):
    """Attempt the quest here."""


class EndTurn(Command):
    """End the Questing Phase."""


COMMANDS = CommandSet(
    RollStart, Travel, Quest, Buy, StealKey, LeaveTown, Attack, SpendLuck, Reroll,
    AcceptRoll, Flee, ChooseTreasure, LoseItem, AttemptQuest, EndTurn,
)
