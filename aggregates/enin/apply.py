"""The Land of Enin's apply: one pure function per event (``events.py``),
dispatched by the event's class (``aggregates.kernel.facts``).

Each function changes the state from the event's facts alone, and words what
happened (``last_outcome``) for the reader; it rolls nothing, checks nothing
and records nothing: those are the rules modules' (the command path). A
replay of a game's events runs exactly these functions.

The step a fact leaves is the game's ``stage``. The last fact of a Questing
Phase's action (a rest, a theft, a trap, the Imp's take, a flight, the last
treasure roll or the encounter's end) leaves the step after the action: the
quest attempt, where the command path ends the turn at once unless the
location's quest can be tried for (Quest Items); a treasure roll that finds a
magic item to choose enters that choice. Rules 1.0.0 recorded the quest
attempt's step and the Imp's as events of their own (``ImpStruck``,
``QuestAttemptOffered``), and 1.0.0 and 1.1.0 the choice (``MagicItemFound``),
read here too.
"""

from __future__ import annotations

from aggregates.enin import events as ev
from aggregates.enin import present
from aggregates.enin import state as s
from aggregates.enin.data import TABLES
from aggregates.enin.state import EninState
from aggregates.kernel.facts import applier

apply = applier()


def stage_at(location: int) -> str:
    """The Questing Phase at a location: the market town or the location chart."""
    return s.TOWN if location == TABLES.market_location else s.QUESTING


def after_action(game: EninState) -> None:
    """The action is done: the quest attempt's step (Quest Items: "once you have
    completed the action for that location")."""
    game.stage = s.QUEST_ATTEMPT


def enter_choice(game: EninState, choices: list[str]) -> None:
    """A magic item is to be chosen among ``choices``."""
    game.treasure_choices = list(choices)
    game.stage = s.CHOOSE_TREASURE


def dice_line(table: list[dict[str, int]]) -> str:
    """The dice on the table as they stand (luck included), e.g. ``7 and 3``."""
    return present.dice_text([d["rolled"] + d["luck"] for d in table])


# ------------------------------------------------------------------ Travel Phase


@apply.register
def _start_rolled(event: ev.StartRolled, game: EninState) -> None:
    game.location = event.location
    game.stage = stage_at(event.location)
    game.last_outcome = (f"Start roll {event.roll}: you set off to "
                         f"{TABLES.location(event.location).name}.")


@apply.register
def _travelled(event: ev.Travelled, game: EninState) -> None:
    game.location = event.to
    game.stage = stage_at(event.to)
    game.last_outcome = f"You travel to {TABLES.location(event.to).name}."


# ---------------------------------------------------------------- Questing Phase


@apply.register
def _quest_rolled(event: ev.QuestRolled, game: EninState) -> None:
    game.last_outcome = f"Questing roll {event.roll}: {event.action}."


@apply.register
def _rested(event: ev.Rested, game: EninState) -> None:
    game.hp = event.hp
    after_action(game)
    game.last_outcome = f"You rest and arise refreshed: HP {event.hp}."


@apply.register
def _robbed(event: ev.Robbed, game: EninState) -> None:
    game.gold = event.gold
    after_action(game)
    game.last_outcome = (f"Bandits steal {event.amount} gold ({event.dice}): "
                         f"gold {event.gold}.")


@apply.register
def _trap_sprung(event: ev.TrapSprung, game: EninState) -> None:
    """An Imp with an item to take waits on the choice; any other trap ends the
    action (its poison or wound follows)."""
    if event.trap == "imp" and event.takeable:
        game.stage = s.LOSE_ITEM
    else:
        after_action(game)
    game.last_outcome = f"Trap roll {event.roll}: {event.trap.replace('_', ' ')}."


@apply.register
def _poisoned(event: ev.Poisoned, game: EninState) -> None:
    game.poisoned = True
    game.last_outcome += " You are poisoned."


@apply.register
def _wounded(event: ev.Wounded, game: EninState) -> None:
    game.hp = event.hp
    game.last_outcome += f" You lose {event.amount} HP: HP {event.hp}."


@apply.register
def _imp_struck(event: ev.ImpStruck, game: EninState) -> None:
    """Rules 1.0.0: the Imp's choice (an old ``TrapSprung`` does not name what
    it may take)."""
    game.stage = s.LOSE_ITEM


@apply.register
def _item_lost(event: ev.ItemLost, game: EninState) -> None:
    game.magic_items = [i for i in game.magic_items if i != event.item]
    after_action(game)
    game.last_outcome = f"The Imp takes your {TABLES.magic_items[event.item].name}."


# ------------------------------------------------------------------------ Combat


@apply.register
def _monster_met(event: ev.MonsterMet, game: EninState) -> None:
    monster = event.monster
    game.encounter = {"card": event.card, "level": event.level, "roll": event.roll,
                      "monster": dict(monster)}
    game.shield_used = False
    game.table = []
    game.stage = s.COMBAT
    game.last_outcome = (
        f"You meet a {monster['name']} (ATT {monster['att']}, DAM {monster['dam']})."
    )


@apply.register
def _attack_rolled(event: ev.AttackRolled, game: EninState) -> None:
    game.table = [{"sides": 10, "rolled": d, "luck": 0} for d in event.dice]
    game.stage = s.ATTACK_ROLL
    game.last_outcome = f"You attack: the dice show {dice_line(game.table)}."


@apply.register
def _luck_spent(event: ev.LuckSpent, game: EninState) -> None:
    game.table[event.die]["luck"] += event.amount
    game.luck = event.luck
    game.last_outcome = (
        f"You spend {abs(event.amount)} luck ({event.amount:+d}) on "
        f"{present.die_name(event.die, len(game.table))}: "
        f"the dice show {dice_line(game.table)}; luck {event.luck}."
    )


@apply.register
def _rerolled(event: ev.Rerolled, game: EninState) -> None:
    game.table[event.die] = {"sides": 10, "rolled": event.value, "luck": 0}
    game.shield_used = True
    game.last_outcome = (
        f"The Shield of Nines re-rolls {present.die_name(event.die, len(game.table))}: "
        f"{event.value}. "
        f"The dice show {dice_line(game.table)}."
    )


@apply.register
def _exchange_won(event: ev.ExchangeWon, game: EninState) -> None:
    game.strength_bonus = event.strength_bonus
    game.table = []
    game.last_outcome = (f"Your attack of {event.total} beats ATT {event.att}: "
                         "the monster is defeated.")


@apply.register
def _exchange_lost(event: ev.ExchangeLost, game: EninState) -> None:
    game.strength_bonus = event.strength_bonus
    game.table = []
    game.hp = event.hp
    game.stage = s.FIGHT_OR_FLEE
    game.last_outcome = (f"Your attack of {event.total} misses ATT {event.att}: "
                         f"you lose {event.damage} HP.")


@apply.register
def _fled(event: ev.Fled, game: EninState) -> None:
    game.hp = event.hp
    game.encounter = None
    game.table = []
    after_action(game)
    game.last_outcome = f"You flee, losing {event.penalty} HP."


@apply.register
def _xp_rolled(event: ev.XpRolled, game: EninState) -> None:
    game.table = [{"sides": 10, "rolled": event.value, "luck": 0}]
    game.stage = s.XP_ROLL
    game.last_outcome += f" XP roll {event.value}."


@apply.register
def _xp_gained(event: ev.XpGained, game: EninState) -> None:
    game.xp = event.xp
    game.table = []
    game.last_outcome += f" You gain {event.amount} XP."


@apply.register
def _level_gained(event: ev.LevelGained, game: EninState) -> None:
    game.level = event.level
    game.hp = event.hp
    game.last_outcome += f" You reach Level {event.level}."


@apply.register
def _encounter_ended(event: ev.EncounterEnded, game: EninState) -> None:
    game.encounter = None
    game.table = []
    after_action(game)


# ---------------------------------------------------------------------- Treasure


@apply.register
def _treasure_rolled(event: ev.TreasureRolled, game: EninState) -> None:
    """A magic find with items to choose from enters the choice ("place a cube
    on the box next to the item of your choice"); else the last roll ends the
    action. (A roll recorded before it named its ``choices`` has none: the
    ``MagicItemFound`` after it enters the choice.)"""
    game.treasure_left = event.left
    if event.choices:
        enter_choice(game, event.choices)
    elif event.left == 0:
        after_action(game)
    game.last_outcome += f" Treasure roll {event.roll}: {event.find.replace('_', ' ')}."


@apply.register
def _gold_found(event: ev.GoldFound, game: EninState) -> None:
    game.gold = event.gold
    game.last_outcome += f" You find {event.amount} gold."


@apply.register
def _magic_item_found(event: ev.MagicItemFound, game: EninState) -> None:
    """Rules 1.0.0 and 1.1.0: the choice, again after the roll that found it."""
    enter_choice(game, event.choices)


@apply.register
def _magic_item_chosen(event: ev.MagicItemChosen, game: EninState) -> None:
    game.magic_items = [*game.magic_items, event.item]
    game.hp = event.hp
    game.luck = event.luck
    game.treasure_choices = []
    if game.treasure_left == 0:
        after_action(game)
    game.last_outcome = f"You take the {TABLES.magic_items[event.item].name}."


# -------------------------------------------------------------------- Nigh Towns


@apply.register
def _item_bought(event: ev.ItemBought, game: EninState) -> None:
    game.gold = event.gold
    game.last_purchase = event.item
    if event.gains_map:
        game.map_held = True
    game.last_outcome = (f"You buy the {TABLES.market[event.item].name} "
                         f"for {event.price} gold.")


@apply.register
def _healed(event: ev.Healed, game: EninState) -> None:
    game.hp = event.hp


@apply.register
def _poison_cured(event: ev.PoisonCured, game: EninState) -> None:
    game.poisoned = False


@apply.register
def _strengthened(event: ev.Strengthened, game: EninState) -> None:
    game.strength_bonus = event.bonus


@apply.register
def _luck_gained(event: ev.LuckGained, game: EninState) -> None:
    game.luck = event.luck


@apply.register
def _town_left(event: ev.TownLeft, game: EninState) -> None:
    game.last_outcome = "You leave the Nigh Towns."


# ------------------------------------------------------------------- Quest items


@apply.register
def _quest_attempt_offered(event: ev.QuestAttemptOffered, game: EninState) -> None:
    """Rules 1.0.0: the step the action's last fact entered."""
    game.stage = s.QUEST_ATTEMPT


@apply.register
def _quest_attempted(event: ev.QuestAttempted, game: EninState) -> None:
    verdict = "success" if event.success else "failure"
    game.last_outcome = (
        f"Attempt to gain the {event.item.replace('_', ' ')}: {event.roll} "
        f"(needs {present.range_text(event.low, event.high)}) - {verdict}."
    )


@apply.register
def _quest_item_gained(event: ev.QuestItemGained, game: EninState) -> None:
    game.quest_items = [*game.quest_items, event.item]
    if event.item == TABLES.quest_chain[-1]:
        game.won = True
        game.stage = s.OVER


@apply.register
def _turn_ended(event: ev.TurnEnded, game: EninState) -> None:
    game.turn = event.turn
    game.stage = s.TRAVEL
    game.encounter = None
    game.table = []
