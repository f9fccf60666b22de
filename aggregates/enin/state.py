"""What the chapter modules may read and do: the game's plain state, the
kernel's decide-phase tools (dice, ``emit``), and the steps of the flow (each
decision The Land of Enin can wait on, ``Decision.kind``, with its prompt, in
rulebook order; ``flow.py`` says which moves answer each). The rules modules
type their ``state`` argument with this protocol and never import the
aggregate class."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from aggregates.kernel import Audience

#: An earlier rule kept by rules 1.0.0 (``Enin.earlier``): it recorded the
#: engine's progress as events of its own, the Imp waiting on the item to take
#: (``ImpStruck``, after the trap that states it) and the quest attempt on offer
#: after the action (``QuestAttemptOffered``, which the location and the quest
#: items held decide), where rules 1.1.0 enter those steps by the rulebook's
#: facts (``apply.py``).
PROGRESS_RECORDED = "progress recorded"
#: An earlier rule kept by rules 1.0.0 and 1.1.0: a magic find was recorded
#: again as ``MagicItemFound``, its choices those of the ``TreasureRolled``
#: just before it, where rules 1.2.0 enter the choice by that roll (``apply.py``).
FIND_RECORDED = "magic find recorded"


class EninState(Protocol):
    hp: int
    luck: int
    xp: int
    gold: int
    level: int
    poisoned: bool
    location: int | None
    turn: int
    stage: str
    quest_items: list[str]
    magic_items: list[str]
    map_held: bool
    strength_bonus: int
    last_purchase: str | None
    encounter: dict[str, Any] | None
    table: list[dict[str, int]]
    shield_used: bool
    treasure_left: int
    treasure_choices: list[str]
    won: bool
    last_outcome: str
    ended: bool
    outcome: dict[str, Any] | None

    @property
    def earlier(self) -> frozenset[str]:
        """The earlier rules this game is played by (``PROGRESS_RECORDED``,
        ``FIND_RECORDED``)."""
        ...

    def finished(self) -> dict[str, Any] | None: ...

    def emit(self, event_name: str, *, audience: Audience | None = None,
             public: Mapping[str, Any] | None = None, **payload: Any) -> None: ...

    def roll(self, sides: int) -> int: ...

    def roll_dice(self, count: int, sides: int) -> list[int]: ...


# ------------------------------------------------------------------ the steps

START = "start"                      # Travel Phase, turn 1: roll on the start table
TRAVEL = "travel"                    # Travel Phase: move to a location
QUESTING = "questing"                # Questing Phase: roll on the location chart
TOWN = "town"                        # Questing Phase in the Nigh Towns: market or key
COMBAT = "combat"                    # a monster is met: attack
ATTACK_ROLL = "attack_roll"          # the 2D10 attack is on the table: luck, shield, stand
FIGHT_OR_FLEE = "fight_or_flee"      # after a lost exchange: fight on or flee
XP_ROLL = "xp_roll"                  # a 1D10 XP roll is on the table: luck, shield, stand
CHOOSE_TREASURE = "choose_treasure"  # a magic item was found: choose which
LOSE_ITEM = "lose_item"              # the Imp: choose the magic item to lose
QUEST_ATTEMPT = "quest_attempt"      # after the action: attempt the quest or end the turn
OVER = "over"

ROLL_STAGES = (ATTACK_ROLL, XP_ROLL)

PROMPTS = {
    START: "Travel Phase: roll 1D10 on the start table",
    TRAVEL: "Travel Phase: move to an adjacent location, or anywhere with the Map",
    QUESTING: "Questing Phase: roll 1D10 on the location chart",
    TOWN: "Nigh Towns: buy one item, try to steal the Key, or leave",
    COMBAT: "Combat: roll 2D10 to attack",
    ATTACK_ROLL: "Combat: stand on the attack dice, or adjust them with the Shield or luck",
    FIGHT_OR_FLEE: "Combat: you lost the exchange; fight on or flee",
    XP_ROLL: "Victory: stand on the 1D10 XP roll, or adjust it with the Shield or luck",
    CHOOSE_TREASURE: "Treasure: choose the magic item you found",
    LOSE_ITEM: "Trap: the Imp takes one magic item of your choice",
    QUEST_ATTEMPT: "Quest: attempt the quest here, or end the turn",
    OVER: "The game is over",
}
