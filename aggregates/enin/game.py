"""The Land of Enin aggregate: its state, its events, and the command dispatch.

Each command is checked by its phase module (the rulebook section it belongs
to), then guarded by the legal list, then carried out: the phase module rolls
the dice and triggers the events below. Event bodies only change state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eventsourcing.domain import event

from aggregates.enin import combat, market, quest, questing, travel, treasure, views
from aggregates.enin import rules as r
from aggregates.enin.commands import (
    COMMANDS,
    AcceptRoll,
    Attack,
    AttemptQuest,
    Buy,
    ChooseTreasure,
    EndTurn,
    Flee,
    LeaveTown,
    LoseItem,
    Quest,
    Reroll,
    RollStart,
    SpendLuck,
    StealKey,
    Travel,
)
from aggregates.enin.data import TABLES
from aggregates.kernel import Command, Decision, DiceTray, Game

Check = Callable[[Any, Any], None]
Run = Callable[[Any, Any], None]

#: command -> (check the rules, carry it out)
HANDLERS: dict[type[Command], tuple[Check, Run]] = {
    RollStart: (travel.check_roll_start, travel.roll_start),
    Travel: (travel.check_travel, travel.travel),
    Quest: (questing.check_quest, questing.quest),
    Buy: (market.check_buy, market.buy),
    StealKey: (market.check_steal_key, market.steal_key),
    LeaveTown: (market.check_leave_town, market.leave_town),
    Attack: (combat.check_attack, combat.attack),
    SpendLuck: (combat.check_spend_luck, combat.spend_luck),
    Reroll: (combat.check_reroll, combat.reroll),
    AcceptRoll: (combat.check_accept_roll, combat.accept_roll),
    Flee: (combat.check_flee, combat.flee),
    ChooseTreasure: (treasure.check_choose, treasure.choose),
    LoseItem: (questing.check_lose_item, questing.lose_item),
    AttemptQuest: (quest.check_attempt, quest.attempt),
    EndTurn: (quest.check_end_turn, quest.end_turn),
}

#: stage -> the function listing its legal commands
LEGAL: dict[str, Callable[[Any], list[Command]]] = {
    r.START: travel.legal_start,
    r.TRAVEL: travel.legal_travel,
    r.QUESTING: questing.legal_quest,
    r.TOWN: market.legal_town,
    r.COMBAT: combat.legal_combat,
    r.ATTACK_ROLL: combat.legal_roll,
    r.XP_ROLL: combat.legal_roll,
    r.FIGHT_OR_FLEE: combat.legal_fight_or_flee,
    r.CHOOSE_TREASURE: treasure.legal_choose,
    r.LOSE_ITEM: questing.legal_lose_item,
    r.QUEST_ATTEMPT: quest.legal_attempt,
}


def stage_at(location: int) -> str:
    """The Questing Phase at a location: the market town or the location chart."""
    return r.TOWN if location == TABLES.market_location else r.QUESTING


class Enin(Game):
    """The Land of Enin: a solo quest for the Lost Book of the ancients."""

    RULES_ID = "enin"
    TITLE = "The Land of Enin"
    RULES_VERSION = "1.0.0"
    MIN_SEATS = 1
    MAX_SEATS = 1
    COMMANDS = COMMANDS

    # ------------------------------------------------------------------ setup

    @classmethod
    def decide_setup(
        cls, dice: DiceTray, seats: list[str], options: dict[str, Any]
    ) -> dict[str, Any]:
        """Setup: roll 1D6+4 for HP and 1D6 for luck."""
        hp_dice = [dice.roll(s) for s in TABLES.setup_hp.sides]
        luck_dice = [dice.roll(s) for s in TABLES.setup_luck.sides]
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
        self.stage = r.START
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

    def decide(self, seat: int, command: Command) -> None:
        check, run = HANDLERS[type(command)]
        check(self, command)
        self.require_legal(seat, command)
        run(self, command)

    def pending(self) -> list[Decision]:
        if self.ended or self.finished() is not None:
            return []
        return [Decision(seat=0, kind=self.stage, prompt=r.PROMPTS[self.stage])]

    def legal_actions(self, seat: int) -> list[Command]:
        if seat != 0 or self.ended or self.finished() is not None:
            return []
        return LEGAL[self.stage](self)

    def finished(self) -> dict[str, Any] | None:
        if self.won:
            return {"result": "won", "reason": "found the Lost Book", "turns": self.turn}
        if self.hp <= 0:
            return {"result": "lost", "reason": "HP fell to 0", "turns": self.turn}
        return None

    def view(self, seat: int | None) -> dict[str, Any]:
        return views.view(self)

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
    def _rested(self, hp: int) -> None:
        self.hp = hp
        self.last_outcome = f"You rest and arise refreshed: HP {hp}."

    @event("Robbed")
    def _robbed(self, dice: list[int], amount: int, gold: int) -> None:
        self.gold = gold
        self.last_outcome = f"Bandits steal {amount} gold ({dice}): gold {gold}."

    @event("TrapSprung")
    def _trap_sprung(self, roll: int, trap: str) -> None:
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
        self.stage = r.LOSE_ITEM

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
        self.stage = r.COMBAT
        self.last_outcome = (
            f"You meet a {monster['name']} (ATT {monster['att']}, DAM {monster['dam']})."
        )

    @event("AttackRolled")
    def _attack_rolled(self, dice: list[int]) -> None:
        self.table = [{"sides": 10, "rolled": d, "luck": 0} for d in dice]
        self.stage = r.ATTACK_ROLL
        self.last_outcome = f"You attack: {dice}."

    @event("LuckSpent")
    def _luck_spent(self, die: int, amount: int, luck: int) -> None:
        self.table[die]["luck"] += amount
        self.luck = luck

    @event("Rerolled")
    def _rerolled(self, die: int, value: int) -> None:
        self.table[die] = {"sides": 10, "rolled": value, "luck": 0}
        self.shield_used = True

    @event("ExchangeWon")
    def _exchange_won(self, dice: list[int], modifier: int, total: int, att: int) -> None:
        self.strength_bonus = 0
        self.table = []
        self.last_outcome = f"Your attack of {total} beats ATT {att}: the monster is defeated."

    @event("ExchangeLost")
    def _exchange_lost(
        self, dice: list[int], modifier: int, total: int, att: int,
        damage_dice: list[int], damage: int, hp: int,
    ) -> None:
        self.strength_bonus = 0
        self.table = []
        self.hp = hp
        self.stage = r.FIGHT_OR_FLEE
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
        self.stage = r.XP_ROLL
        self.last_outcome += f" XP roll {value}."

    @event("XpGained")
    def _xp_gained(self, dice: list[int], amount: int, xp: int) -> None:
        self.xp = xp
        self.table = []
        self.last_outcome += f" You gain {amount} XP."

    @event("LevelGained")
    def _level_gained(self, level: int, hp: int) -> None:
        self.level = level
        self.hp = hp
        self.last_outcome += f" You reach Level {level}."

    @event("EncounterEnded")
    def _encounter_ended(self) -> None:
        self.encounter = None
        self.table = []

    # --------------------------------------------------------------- Treasure

    @event("TreasureRolled")
    def _treasure_rolled(self, roll: int, find: str, left: int) -> None:
        self.treasure_left = left
        self.last_outcome += f" Treasure roll {roll}: {find.replace('_', ' ')}."

    @event("GoldFound")
    def _gold_found(self, dice: list[int], amount: int, gold: int) -> None:
        self.gold = gold
        self.last_outcome += f" You find {amount} gold."

    @event("MagicItemFound")
    def _magic_item_found(self, choices: list[str]) -> None:
        self.treasure_choices = list(choices)
        self.stage = r.CHOOSE_TREASURE

    @event("MagicItemChosen")
    def _magic_item_chosen(self, item: str, hp: int, luck: int) -> None:
        self.magic_items = [*self.magic_items, item]
        self.hp = hp
        self.luck = luck
        self.treasure_choices = []
        self.last_outcome = f"You take the {TABLES.magic_items[item].name}."

    # ------------------------------------------------------------ Nigh Towns

    @event("ItemBought")
    def _item_bought(self, item: str, price: int, gold: int) -> None:
        self.gold = gold
        self.last_purchase = item
        if item == "map_of_enin":
            self.map_held = True
        self.last_outcome = f"You buy the {TABLES.market[item].name} for {price} gold."

    @event("Healed")
    def _healed(self, hp: int) -> None:
        self.hp = hp

    @event("PoisonCured")
    def _poison_cured(self) -> None:
        self.poisoned = False

    @event("Strengthened")
    def _strengthened(self, bonus: int) -> None:
        self.strength_bonus = bonus

    @event("LuckGained")
    def _luck_gained(self, luck: int) -> None:
        self.luck = luck

    @event("TownLeft")
    def _town_left(self) -> None:
        self.last_outcome = "You leave the Nigh Towns."

    # ------------------------------------------------------------ Quest items

    @event("QuestAttemptOffered")
    def _quest_attempt_offered(self, item: str) -> None:
        self.stage = r.QUEST_ATTEMPT

    @event("QuestAttempted")
    def _quest_attempted(self, item: str, roll: int, low: int, high: int, success: bool) -> None:
        verdict = "success" if success else "failure"
        self.last_outcome = f"Attempt to gain the {item.replace('_', ' ')}: {roll} " \
            f"(needs {low}-{high}) - {verdict}."

    @event("QuestItemGained")
    def _quest_item_gained(self, item: str) -> None:
        self.quest_items = [*self.quest_items, item]
        if item == TABLES.quest_chain[-1]:
            self.won = True
            self.stage = r.OVER

    @event("TurnEnded")
    def _turn_ended(self, turn: int) -> None:
        self.turn = turn
        self.stage = r.TRAVEL
        self.encounter = None
        self.table = []
