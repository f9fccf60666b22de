"""Ettin's earlier rules versions, kept so games recorded under them are
re-verified by the rules that played them (docs/rules-versions.md).

- "3" recorded the War's steps being entered and its turns moving on as
  events of their own (``DraftPassed``, ``DeployBegan``, ``DeployPassed``,
  ``SpoilsBegan``, ``SpoilsPassed`` for every Spoil done with,
  ``AdventureDefenseBegan``, ``RetireBegan``, ``ProduceBegan``): its rules are
  read where they are (``state.TURNS_RECORDED``, kept by "1" and "2" too).
- "2" recorded the engine's progress as events of its own: the start-of-
  battle queue and the Troop to lose (``BattleStep``), a short lineup's order
  (``DraftOrderShortened``, after the draft began and its Lineups were dealt).
  Its rules are read where they are (``state.STEPS_RECORDED``, kept by "1"
  too); the class names the version, so the catalogue can load it.
- "1" also dealt each box's nations apart with 9 or more players, so the
  Enemies where two boxes meet (or where the circle closes) could play the
  same nation, against the rulebook's "Make sure neighbors play different
  nations" (9+ Players, Setup); ``EttinV1`` overrides that deal.
"""

from __future__ import annotations

from aggregates.ettin import seating as sg
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.game import Ettin
from aggregates.kernel import DiceTray, released_versions


def deal_each_box_apart(cls: type[Ettin], dice: DiceTray, players: int, count: int) -> list[str]:
    """Version "1": each box deals from its own shuffle, ignoring its neighbours."""
    nations: list[str] = []
    for b in range(sg.boxes(count)):
        dealt = dice.shuffled([n.id for n in C.nations])
        nations += dealt[: max(0, min(sg.PER_BOX, players - b * sg.PER_BOX))]
    return nations


#: "2" is a subclass of "3", and "1" of "2" with its own deal.
EttinV3, EttinV2, EttinV1 = released_versions(
    Ettin, __name__, "3", "2", ("1", {"deal_nations": classmethod(deal_each_box_apart)}),
    chained=True)
