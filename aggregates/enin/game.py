"""The Land of Enin aggregate: its declarations, its setup and the kernel's hooks.

Commands are routed by the kernel to the decision they answer (``pending``,
whose kind is a step of ``FLOW`` in ``flow.py``): the chapter module's check,
the legal list, then the chapter module's run, which rolls the dice and
records events (``events.py``) with ``emit``. Each event changes the state by
its function in ``apply.py`` alone. Presentation (screens, labels, event
sentences) is in ``present.py``.
"""

from __future__ import annotations

from typing import Any

from aggregates.enin import present, upcasts, views
from aggregates.enin import state as s
from aggregates.enin.data import TABLES
from aggregates.kernel import Choice, Decision, DiceTray, Game
from aggregates.kernel.nature import GameType
from aggregates.kernel.outcome import Outcome, player

#: The quest's items: the Key (the market's) and every location's quest item.
QUEST_ITEMS = frozenset(loc.quest.item for loc in TABLES.locations.values() if loc.quest)


class Enin(Game, package=__package__):
    """The Land of Enin: a solo quest for the Lost Book of the ancients.

    A solo quest: travel the five lands of Enin, fight their monsters, buy and
    find magic, and gain the Key, the Watchword, the Maiden and the Lodestone to
    find the Lost Book before your HP run out.
    """

    RULES_ID = "enin"
    TITLE = "The Land of Enin"
    #: 1.2.0 records no ``MagicItemFound``: the treasure roll that finds a magic
    #: item enters its choice (1.1.0, ``v1.EninV1_1``, recorded it); 1.1.0
    #: records no ``ImpStruck`` or ``QuestAttemptOffered``: the Imp's choice and
    #: the quest attempt are entered by the facts before them (1.0.0,
    #: ``v1.EninV1``, recorded them; docs/rules-versions.md).
    RULES_VERSION = "1.2.0"
    #: The rules each earlier version kept (``state``), by that version: a game is
    #: played by those of the version its creation event records.
    EARLIER_RULES = {"1.0.0": frozenset({s.PROGRESS_RECORDED, s.FIND_RECORDED}),
                     "1.1.0": frozenset({s.FIND_RECORDED})}
    GAME_TYPE = GameType.of("sequential", "explicit", "perfect", "general_sum", players=(1, 1))
    # Enin takes no options: the kernel's default schema and check.
    WORDING_STATE = ("last_outcome",)

    # ------------------------------------------------------------------ setup

    @classmethod
    def decide_setup(
        cls, dice: DiceTray, seats: list[str], options: dict[str, Any]
    ) -> dict[str, Any]:
        """Setup: roll 1D6+4 for HP and 1D6 for luck."""
        hp_dice = [dice.roll(sides) for sides in TABLES.setup_hp.sides]
        luck_dice = [dice.roll(sides) for sides in TABLES.setup_luck.sides]
        return {
            "hp_dice": hp_dice, "hp": TABLES.setup_hp.total(hp_dice),
            "luck_dice": luck_dice, "luck": TABLES.setup_luck.total(luck_dice),
        }

    def setup(self, setup: dict[str, Any]) -> None:
        self.hp = int(setup["hp"])
        self.luck = int(setup["luck"])
        self.xp = 0
        self.gold = 0
        self.level = 1
        self.poisoned = False
        self.location: int | None = None
        self.turn = 1
        self.stage = s.START
        self.quest_items: list[str] = []
        self.magic_items: list[str] = []
        self.map_held = False
        self.strength_bonus = 0
        self.last_purchase: str | None = None
        self.encounter: dict[str, Any] | None = None
        self.table: list[dict[str, int]] = []
        self.shield_used = False
        self.treasure_left = 0
        self.treasure_choices: list[str] = []
        self.won = False
        self.last_outcome = (
            f"You set out with {self.hp} HP and {self.luck} luck."
        )

    # --------------------------------------------------------------- protocol

    def pending(self) -> list[Decision]:
        if self.ended or self.finished() is not None:
            return []
        return [Decision(seat=0, kind=self.stage, prompt=present.stage_prompt(self))]

    def choices(self, seat: int) -> list[Choice]:
        return present.choices(self, seat)

    def finished(self) -> dict[str, Any] | None:
        if self.won:
            return {"result": "won", "reason": "found the Lost Book", "turns": self.turn}
        if self.hp <= 0:
            return {"result": "lost", "reason": "HP fell to 0", "turns": self.turn}
        return None

    def standings(self) -> Outcome:
        """The shared outcome of a solo quest: won or lost, no score kept."""
        recorded = self.outcome or {}
        won = recorded.get("result") == "won"
        turns = recorded.get("turns")
        when = f" on turn {turns}" if turns is not None else ""
        summary = (f"{player(0)} finds the Lost Book{when}: the quest is won." if won
                   else f"{player(0)}'s HP fall to 0{when}: the quest is lost.")
        return Outcome(winners=(0,) if won else (), ranking=((0,),), scores=(None,),
                       breakdown=recorded, summary=summary)

    def progress(self) -> float:
        """The quest's parts done: its items marked on the Character Card
        (Questing: "place a black cube to mark the item"), the Lost Book last."""
        return len(self.quest_items) / len(QUEST_ITEMS)

    def view(self, seat: int | None) -> dict[str, Any]:
        return views.view(self)

    # ----------------------------------------------------------- presentation



# Old events read in the shape recorded now.
upcasts.install(Enin)
