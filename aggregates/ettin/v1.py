"""Ettin rules version "1": kept so games recorded under it are re-verified
by the rules that played them (docs/rules-versions.md).

Version 2 changed one rule: with 9 or more players version 1 dealt each box's
nations apart, so the Enemies where two boxes meet (or where the circle
closes) could play the same nation, against the rulebook's "Make sure
neighbors play different nations" (9+ Players, Setup). That is all this
class overrides.
"""

from __future__ import annotations

from aggregates.ettin import table as t
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.game import Ettin
from aggregates.kernel import DiceTray


class EttinV1(Ettin):
    RULES_VERSION = "1"

    @classmethod
    def deal_nations(cls, dice: DiceTray, players: int, count: int) -> list[str]:
        """Version 1: each box deals from its own shuffle, ignoring its neighbours."""
        nations: list[str] = []
        for b in range(t.boxes(count)):
            dealt = dice.shuffled([n.id for n in C.nations])
            nations += dealt[: max(0, min(t.PER_BOX, players - b * t.PER_BOX))]
        return nations
