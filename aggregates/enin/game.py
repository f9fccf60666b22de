"""The Land of Enin aggregate: its state, its events, and its declarations.

Commands are routed by the kernel to the decision they answer (``pending``,
whose kind is a step of ``FLOW`` in ``flow.py``): the phase module's check,
the legal list, then the phase module's run, which
rolls the dice and records events with ``emit``. The event bodies below only
change state. Presentation (screens, labels, event sentences) is in
``present.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eventsourcing.domain import event

from aggregates.enin import present, upcasts, views
from aggregates.enin import steps as s
from aggregates.enin.commands import COMMANDS
from aggregates.enin.data import TABLES
from aggregates.enin.flow import FLOW
from aggregates.enin.reasons import EninReason
from aggregates.kernel import Choice, Command, Decision, DiceTray, Game
from aggregates.kernel.nature import GameType
from aggregates.kernel.outcome import Outcome, player
from aggregates.kernel.present import Screen


def stage_at(location: int) -> str:
    """The Questing Phase at a location: the market town or the location chart."""
    return s.TOWN if location == TABLES.market_location else s.QUESTING


class Enin(Game):
    """The Land of Enin: a solo quest for the Lost Book of the ancients."""

    RULES_ID = "enin"
    TITLE = "The Land of Enin"
    RULES_VERSION = "1.0.0"
    MIN_SEATS = 1
    MAX_SEATS = 1
    COMMANDS = COMMANDS
    FLOW = FLOW
    REASONS = tuple(r.value for r in EninReason)
    GAME_TYPE = GameType.of("sequential", "explicit", "perfect", "general_sum", players=(1, 1))
    #: Enin takes no options.
    OPTIONS_SCHEMA = {  # noqa: RUF012
        "type": "object", "properties": {}, "additionalProperties": False,
    }
    WORDING_STATE = ("last_outcome",)
    SUMMARY = (
        "A solo quest: travel the five lands of Enin, fight their monsters, buy and "
        "find magic, and gain the Key, the Watchword, the Maiden and the Lodestone "
        "to find the Lost Book before your HP run out."
    )

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

    def view(self, seat: int | None) -> dict[str, Any]:
        return views.view(self)

    # ----------------------------------------------------------- presentation

    def present(self, seat: int | None) -> Screen:
        return present.present(self)

    def action_label(self, command: Command) -> str:
        return present.action_label(self, command)

    @classmethod
    def describe(cls, event_type: str, payload: Mapping[str, Any], seats: list[str]) -> str:
        sentence = present.describe(event_type, payload)
        return sentence if sentence is not None else super().describe(event_type, payload, seats)

    # ----------------------------------------------------------- Travel Phase

    @event("StartRolled")
    def _start_rolled(self, roll: int, location: int) -> None:
        self.location = location
        self.stage = stage_at(location)
        self.last_outcome = f"Start roll {roll}: you set off to {TABLES.location(location).name}."

    @event("Travelled")
    def _travelled(self, to: int) -> None:
        self.location = to
        self.stage = stage_at(to)
        self.last_outcome = f"You travel to {TABLES.location(to).name}."

    # --------------------------------------------------------- Questing Phase

    @event("QuestRolled")
    def _quest_rolled(self, roll: int, action: str) -> None:
        self.last_outcome = f"Questing roll {roll}: {action}."

    @event("Rested")
    def _rested(self, hp: int, amount: int | None) -> None:
        self.hp = hp
        self.last_outcome = f"You rest and arise refreshed: HP {hp}."

    @event("Robbed")
    def _robbed(self, dice: list[int], amount: int, gold: int) -> None:
        self.gold = gold
        self.last_outcome = f"Bandits steal {amount} gold ({dice}): gold {gold}."

    @event("TrapSprung")
    def _trap_sprung(self, roll: int, trap: str, takeable: list[str] | None) -> None:
        self.last_outcome = f"Trap roll {roll}: {trap.replace('_', ' ')}."

    @event("Poisoned")
    def _poisoned(self) -> None:
        self.poisoned = True
        self.last_outcome += " You are poisoned."

    @event("Wounded")
    def _wounded(self, amount: int, hp: int) -> None:
        self.hp = hp
        self.last_outcome += f" You lose {amount} HP: HP {hp}."

    @event("ImpStruck")
    def _imp_struck(self) -> None:
        self.stage = s.LOSE_ITEM

    @event("ItemLost")
    def _item_lost(self, item: str) -> None:
        self.magic_items = [i for i in self.magic_items if i != item]
        self.last_outcome = f"The Imp takes your {TABLES.magic_items[item].name}."

    # ----------------------------------------------------------------- Combat

    @event("MonsterMet")
    def _monster_met(
        self, card: str, level: int, roll: int | None, monster: dict[str, Any]
    ) -> None:
        self.encounter = {"card": card, "level": level, "roll": roll, "monster": dict(monster)}
        self.shield_used = False
        self.table = []
        self.stage = s.COMBAT
        self.last_outcome = (
            f"You meet a {monster['name']} (ATT {monster['att']}, DAM {monster['dam']})."
        )

    @event("AttackRolled")
    def _attack_rolled(self, dice: list[int]) -> None:
        self.table = [{"sides": 10, "rolled": d, "luck": 0} for d in dice]
        self.stage = s.ATTACK_ROLL
        self.last_outcome = f"You attack: the dice show {dice_line(self.table)}."

    @event("LuckSpent")
    def _luck_spent(self, die: int, amount: int, luck: int) -> None:
        self.table[die]["luck"] += amount
        self.luck = luck
        self.last_outcome = (
            f"You spend {abs(amount)} luck ({amount:+d}) on "
            f"{present.die_name(die, len(self.table))}: "
            f"the dice show {dice_line(self.table)}; luck {luck}."
        )

    @event("Rerolled")
    def _rerolled(self, die: int, value: int) -> None:
        self.table[die] = {"sides": 10, "rolled": value, "luck": 0}
        self.shield_used = True
        self.last_outcome = (
            f"The Shield of Nines re-rolls {present.die_name(die, len(self.table))}: "
            f"{value}. "
            f"The dice show {dice_line(self.table)}."
        )

    @event("ExchangeWon")
    def _exchange_won(self, rolled: list[int] | None, dice: list[int], modifier: int,
                      total: int, att: int, strength_bonus: int) -> None:
        self.strength_bonus = strength_bonus
        self.table = []
        self.last_outcome = f"Your attack of {total} beats ATT {att}: the monster is defeated."

    @event("ExchangeLost")
    def _exchange_lost(
        self, rolled: list[int] | None, dice: list[int], modifier: int, total: int, att: int,
        strength_bonus: int, damage_dice: list[int], damage: int, hp: int,
    ) -> None:
        self.strength_bonus = strength_bonus
        self.table = []
        self.hp = hp
        self.stage = s.FIGHT_OR_FLEE
        self.last_outcome = f"Your attack of {total} misses ATT {att}: you lose {damage} HP."

    @event("Fled")
    def _fled(self, penalty: int, hp: int) -> None:
        self.hp = hp
        self.encounter = None
        self.table = []
        self.last_outcome = f"You flee, losing {penalty} HP."

    @event("XpRolled")
    def _xp_rolled(self, value: int) -> None:
        self.table = [{"sides": 10, "rolled": value, "luck": 0}]
        self.stage = s.XP_ROLL
        self.last_outcome += f" XP roll {value}."

    @event("XpGained")
    def _xp_gained(self, rolled: list[int], dice: list[int], amount: int, xp: int) -> None:
        self.xp = xp
        self.table = []
        self.last_outcome += f" You gain {amount} XP."

    @event("LevelGained")
    def _level_gained(self, level: int, hp: int, hp_gained: int) -> None:
        self.level = level
        self.hp = hp
        self.last_outcome += f" You reach Level {level}."

    @event("EncounterEnded")
    def _encounter_ended(self) -> None:
        self.encounter = None
        self.table = []

    # --------------------------------------------------------------- Treasure

    @event("TreasureRolled")
    def _treasure_rolled(self, roll: int, find: str, left: int,
                         choices: list[str] | None) -> None:
        self.treasure_left = left
        self.last_outcome += f" Treasure roll {roll}: {find.replace('_', ' ')}."

    @event("GoldFound")
    def _gold_found(self, dice: list[int], amount: int, gold: int) -> None:
        self.gold = gold
        self.last_outcome += f" You find {amount} gold."

    @event("MagicItemFound")
    def _magic_item_found(self, choices: list[str]) -> None:
        self.treasure_choices = list(choices)
        self.stage = s.CHOOSE_TREASURE

    @event("MagicItemChosen")
    def _magic_item_chosen(self, item: str, hp: int, luck: int, hp_gained: int,
                           luck_gained: int) -> None:
        self.magic_items = [*self.magic_items, item]
        self.hp = hp
        self.luck = luck
        self.treasure_choices = []
        self.last_outcome = f"You take the {TABLES.magic_items[item].name}."

    # ------------------------------------------------------------ Nigh Towns

    @event("ItemBought")
    def _item_bought(self, item: str, price: int, gold: int, gains_map: bool) -> None:
        self.gold = gold
        self.last_purchase = item
        if gains_map:
            self.map_held = True
        self.last_outcome = f"You buy the {TABLES.market[item].name} for {price} gold."

    @event("Healed")
    def _healed(self, hp: int, amount: int) -> None:
        self.hp = hp

    @event("PoisonCured")
    def _poison_cured(self) -> None:
        self.poisoned = False

    @event("Strengthened")
    def _strengthened(self, bonus: int, amount: int) -> None:
        self.strength_bonus = bonus

    @event("LuckGained")
    def _luck_gained(self, luck: int, amount: int) -> None:
        self.luck = luck

    @event("TownLeft")
    def _town_left(self) -> None:
        self.last_outcome = "You leave the Nigh Towns."

    # ------------------------------------------------------------ Quest items

    @event("QuestAttemptOffered")
    def _quest_attempt_offered(self, item: str) -> None:
        self.stage = s.QUEST_ATTEMPT

    @event("QuestAttempted")
    def _quest_attempted(self, item: str, roll: int, low: int, high: int, success: bool) -> None:
        verdict = "success" if success else "failure"
        self.last_outcome = (
            f"Attempt to gain the {item.replace('_', ' ')}: {roll} "
            f"(needs {present.range_text(low, high)}) - {verdict}."
        )

    @event("QuestItemGained")
    def _quest_item_gained(self, item: str) -> None:
        self.quest_items = [*self.quest_items, item]
        if item == TABLES.quest_chain[-1]:
            self.won = True
            self.stage = s.OVER

    @event("TurnEnded")
    def _turn_ended(self, turn: int) -> None:
        self.turn = turn
        self.stage = s.TRAVEL
        self.encounter = None
        self.table = []


def dice_line(table: list[dict[str, int]]) -> str:
    """The dice on the table as they stand (luck included), e.g. ``7 and 3``."""
    return present.dice_text([d["rolled"] + d["luck"] for d in table])


# Old events read in the shape recorded now (issue 9, item 7).
upcasts.install(Enin)
