"""The Land of Enin in its own words: the screen, the menu labels, one sentence
per event, and the structure of the choices (the kernel's presentation and
decision vocabularies; one generic renderer draws them).

Every name comes from the tables (``data/enin.json``), so a replacement data
file renames its locations, items and monsters everywhere at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aggregates.enin import commands as cmd
from aggregates.enin import market
from aggregates.enin import state as s
from aggregates.enin.character import attack_modifier, has_reroll
from aggregates.enin.data import TABLES, lookup
from aggregates.enin.state import EninState
from aggregates.kernel import Choice, Command, Number, PickOne
from aggregates.kernel.present import (
    Board,
    Card,
    Cards,
    Note,
    Screen,
    Space,
    Table,
    Track,
    screen,
    section,
)

QUEST_ITEM_NAMES = {
    "key": "Key", "watchword": "Watchword", "maiden": "Maiden", "lodestone": "Lodestone",
    "lost_book": "Lost Book",
}
MAGIC_ITEM_EFFECTS = {
    "damask_sword": "+2 attack",
    "helm_of_vitality": "+2 HP once, and poison resist",
    "ring_of_reward": "+2 luck once",
    "shield_of_nines": "re-roll 1D10 once during an encounter",
}
MARKET_EFFECTS = {
    "heal": "+1 HP or cure poison",
    "strength": "+1 attack, single use",
    "luck": "+1 luck",
    "map": "move to any location",
}
CHART_ACTIONS = {
    "rest": "rest and arise refreshed",
    "encounter": "an encounter",
    "monster": "a monster",
    "bandits": "you are set upon by bandits",
    "treasure": "roll on the Treasure Card",
    "trap": "a trap",
}
ORDINALS = ("first", "second", "third", "fourth")


# ------------------------------------------------------------------- names


def place(number: Any) -> str:
    """A location's printed name, e.g. ``The Wood of Wyr``."""
    if isinstance(number, int) and number in TABLES.locations:
        return TABLES.location(number).name
    return f"location {number}"


def item_name(item: Any) -> str:
    """Any item's printed name: magic, market or quest item."""
    if item in TABLES.magic_items:
        return TABLES.magic_items[item].name
    if item in TABLES.market:
        return TABLES.market[item].name
    if item in QUEST_ITEM_NAMES:
        return QUEST_ITEM_NAMES[item]
    return str(item).replace("_", " ")


def die_name(die: Any, count: int = 2) -> str:
    """``the first die`` (of the 2D10 attack) or ``the XP die`` (a lone D10)."""
    if count == 1 and die == 0:
        return "the XP die"
    if isinstance(die, int) and 0 <= die < len(ORDINALS):
        return f"the {ORDINALS[die]} die"
    return f"die {die}"


def names(items: Any) -> str:
    """``the Damask Sword, the Ring of Reward and the Shield of Nines``."""
    words = [f"the {item_name(i)}" for i in items]
    if len(words) < 2:
        return "".join(words) or "nothing"
    return ", ".join(words[:-1]) + " and " + words[-1]


def value(die: Mapping[str, int]) -> int:
    return int(die["rolled"]) + int(die["luck"])


def dice_text(values: list[int]) -> str:
    """``7 and 3`` (or ``7`` for a lone die)."""
    shown = [str(v) for v in values]
    return " and ".join(shown) if shown else "none"


def monster_line(monster: Mapping[str, Any]) -> str:
    """The monster's printed line: ``Reaver: ATT 9, DAM D2 (poisons), XP 1D3, treasure 1x``."""
    parts = [f"ATT {monster.get('att')}",
             f"DAM {monster.get('dam')}" + (" (poisons)" if monster.get("poisons") else ""),
             f"XP {monster.get('xp')}"]
    if monster.get("flee"):
        parts.append(f"flee -{monster['flee']} HP")
    if monster.get("treasure"):
        parts.append(f"treasure {monster['treasure']}x")
    return f"{monster.get('name', 'a monster')}: " + ", ".join(parts)


def card_name(card: Any) -> str:
    if isinstance(card, str) and card.startswith("encounter_"):
        return "Encounter " + card.removeprefix("encounter_")
    if card in TABLES.monsters:
        return TABLES.monsters[card].name
    return str(card)


# ------------------------------------------------------------------ screen


def present(game: EninState, seat: int | None = None) -> Screen:
    """The Character Card, the row of Location Cards, the items held, the
    encounter with the dice on the table, and what just happened."""
    over = game.ended or game.finished() is not None
    modifier = attack_modifier(game)
    character = section(
        "Character Card",
        Track("Turn", game.turn),
        Track("HP", game.hp, TABLES.hp_max),
        Track("Luck", game.luck, TABLES.luck_max),
        Track("XP", game.xp, TABLES.xp_max),
        Track("Gold", game.gold, TABLES.gold_max),
        Track("Level", game.level, len(TABLES.levels)),
        Track("Attack bonus", f"{modifier:+d}") if modifier else None,
        Note("Poisoned: -1 to every attack until cured.") if game.poisoned else None,
        Note(f"Potion of strength: +{game.strength_bonus} to your next attack.")
        if game.strength_bonus else None,
    )
    numbers = sorted(TABLES.locations)
    spaces = tuple(
        Space(
            id=n, name=place(n),
            links=tuple(m for m in (n - 1, n + 1) if m in TABLES.locations),
            occupants=("you",) if n == game.location else (),
            marked=n == game.location,
        )
        for n in numbers
    )
    land = section(
        "The Land of Enin",
        Board("Location Cards", spaces),
        Note("Not yet travelled: roll 1D10 on the start table.")
        if game.location is None else None,
        Note("With the Map of Enin you may travel to any location.") if game.map_held else None,
    )
    kept = tuple(Card(i, item_name(i), text=MAGIC_ITEM_EFFECTS.get(i, ""))
                 for i in game.magic_items)
    if game.map_held:
        kept += (Card("map_of_enin", item_name("map_of_enin"), text=MARKET_EFFECTS["map"]),)
    items = section(
        "Items",
        Cards("Items held", kept),
        Cards("Quest items", tuple(Card(i, item_name(i)) for i in game.quest_items)),
    )
    return screen(
        section("Now", Note(outcome_sentence(game) if over else stage_prompt(game) + ".")),
        character, land, items, encounter_section(game), treasure_section(game),
        section("Last", Note(game.last_outcome)) if game.last_outcome else None,
    )


def prompt_words(stage: str) -> str:
    """The stage's prompt as a sentence."""
    return s.PROMPTS[stage] + "."


def stage_prompt(game: EninState) -> str:
    """What the hero is asked now. In the Nigh Towns with nothing to buy, the
    prompt says why (and offers what is left: the Key, or leaving)."""
    why = market.nothing_to_buy(game) if game.stage == s.TOWN else ""
    if why:
        return f"Nigh Towns: {why}; try to steal the Key, or leave"
    return s.PROMPTS[game.stage]


def outcome_sentence(game: EninState) -> str:
    outcome = game.outcome if game.ended else game.finished()
    return ended_sentence({"outcome": outcome or {}})


def encounter_section(game: EninState) -> Any:
    if game.encounter is None:
        return None
    enc = game.encounter
    monster = enc["monster"]
    where = [card_name(enc.get("card"))]
    if enc.get("roll") is not None:
        where.append(f"level {enc.get('level')}, roll {enc['roll']}")
    rows = tuple(
        (die_name(i, len(game.table)).removeprefix("the ").removesuffix(" die"), d["rolled"],
         f"{d['luck']:+d}" if d["luck"] else "", value(d))
        for i, d in enumerate(game.table)
    )
    total = None
    if game.stage == s.ATTACK_ROLL and game.table:
        dice = sum(value(d) for d in game.table)
        mod = attack_modifier(game)
        total = Note(f"Attack {dice}{mod:+d} = {dice + mod} against ATT {monster['att']}: "
                     + ("a win." if dice + mod >= monster["att"] else "a miss."))
    elif game.stage == s.XP_ROLL and game.table:
        total = Note(f"Stand on it and gain {value(game.table[0])} XP.")
    shield = None
    if has_reroll(game):
        shield = Note("Shield of Nines: used in this encounter." if game.shield_used
                      else "Shield of Nines: ready (re-roll one D10 once in this encounter).")
    return section(
        "Encounter",
        Note(f"{monster_line(monster)} ({'; '.join(where)})"),
        Table("Dice on the table", ("Die", "Rolled", "Luck", "Value"), rows) if rows else None,
        total, shield,
    )


def treasure_section(game: EninState) -> Any:
    if game.stage != s.CHOOSE_TREASURE:
        return None
    return section(
        "Treasure",
        Cards("Choose a magic item",
              tuple(Card(i, item_name(i), text=MAGIC_ITEM_EFFECTS.get(i, ""))
                    for i in game.treasure_choices), numbered=True),
        Note(f"Treasure rolls still to come: {game.treasure_left}.")
        if game.treasure_left else None,
    )


# ------------------------------------------------------------------ labels


def action_label(game: EninState, command: Command) -> str:
    """A command as a menu line, in the rulebook's words."""
    try:
        return _label(game, command)
    except (KeyError, IndexError, TypeError, ValueError, AssertionError):
        return command.label()


def _label(game: EninState, command: Command) -> str:  # noqa: C901, PLR0911 - one per command
    if isinstance(command, cmd.RollStart):
        return "Roll 1D10 on the start table for your first location"
    if isinstance(command, cmd.Travel):
        here = game.location
        far = here is not None and abs(command.to - here) != 1
        return f"Travel to {place(command.to)}" + (" with the Map of Enin" if far else "")
    if isinstance(command, cmd.Quest):
        return f"Quest: roll 1D10 on the chart of {place(game.location)}"
    if isinstance(command, cmd.Buy):
        goods = TABLES.market[command.item]
        return (f"Buy the {goods.name} for {goods.price} gold "
                f"({MARKET_EFFECTS.get(goods.effect, goods.effect)})")
    if isinstance(command, cmd.StealKey):
        q = TABLES.location(TABLES.market_location).quest
        rng = q.ranges[game.level]
        return (f"Try to steal the Key from the library of the elders "
                f"(1D10: {range_text(rng.low, rng.high)} succeeds)")
    if isinstance(command, cmd.LeaveTown):
        return "Leave the Nigh Towns"
    if isinstance(command, cmd.Attack):
        return "Fight on: roll 2D10 again" if game.stage == s.FIGHT_OR_FLEE \
            else "Attack: roll 2D10"
    if isinstance(command, cmd.SpendLuck):
        die = game.table[command.die]
        return (f"Spend {abs(command.amount)} luck on {die_name(command.die, len(game.table))}: "
                f"{value(die)} becomes {value(die) + command.amount}")
    if isinstance(command, cmd.Reroll):
        die = game.table[command.die]
        return (f"Re-roll {die_name(command.die, len(game.table))} ({value(die)}) "
                "with the Shield of Nines")
    if isinstance(command, cmd.AcceptRoll):
        if game.stage == s.XP_ROLL:
            return f"Stand on the XP roll: gain {value(game.table[0])} XP"
        assert game.encounter is not None
        total = sum(value(d) for d in game.table) + attack_modifier(game)
        return f"Stand on the dice: attack {total} against ATT {game.encounter['monster']['att']}"
    if isinstance(command, cmd.Flee):
        assert game.encounter is not None
        penalty = game.encounter["monster"]["flee"]
        return f"Flee (lose {penalty} HP)" if penalty else "Flee (no penalty)"
    if isinstance(command, cmd.ChooseTreasure):
        return f"Take the {item_name(command.item)} ({MAGIC_ITEM_EFFECTS[command.item]})"
    if isinstance(command, cmd.LoseItem):
        return f"Give the Imp your {item_name(command.item)}"
    if isinstance(command, cmd.AttemptQuest):
        assert game.location is not None
        q = TABLES.location(game.location).quest
        rng = q.ranges[game.level]
        return f"Try to {q.text} (1D10: {range_text(rng.low, rng.high)} succeeds)"
    if isinstance(command, cmd.EndTurn):
        return "End the turn"
    return command.label()


def range_text(low: int, high: int) -> str:
    """``1-3``, or ``1`` when the range is a single number."""
    return str(low) if low == high else f"{low}-{high}"


# ----------------------------------------------------------------- choices


def choices(game: EninState, seat: int) -> list[Choice]:
    """One of the listed commands; and with dice on the table, luck on each die
    as a number in range (up to the luck held, down to 0 on the die)."""
    if game.ended or game.finished() is not None:
        return [PickOne()]
    out: list[Choice] = [PickOne(prompt=stage_prompt(game) + ".")]
    if game.stage not in s.ROLL_STAGES:
        return out
    count = len(game.table)
    for i, die in enumerate(game.table):
        shows = value(die)
        add, take = game.luck, min(game.luck, shows)
        name = die_name(i, count)
        # A range of one number is already on the list; offer only real ranges.
        if add >= 2:
            out.append(Number(command=cmd.SpendLuck.NAME, arg="amount", low=1, high=add,
                              fixed={"die": i},
                              prompt=f"Add luck to {name} (shows {shows}): 1 to {add}"))
        if take >= 2:
            out.append(Number(command=cmd.SpendLuck.NAME, arg="amount", low=-take, high=-1,
                              fixed={"die": i},
                              prompt=f"Take luck off {name} (shows {shows}): 1 to {take}, "
                                     "given as a negative amount"))
    return out


# ------------------------------------------------------------------ events


def ended_sentence(p: Mapping[str, Any]) -> str:
    outcome = p.get("outcome") or {}
    turns = outcome.get("turns")
    when = f" on turn {turns}" if turns is not None else ""
    if outcome.get("result") == "won":
        text = f"You find the Lost Book{when}: the quest is won!"
    elif outcome.get("result") == "lost":
        text = f"Your HP fall to 0{when}: the quest is lost."
    else:
        text = "The game is over."
    return text + (" The seed is revealed." if p.get("seed") else "")


def _gold(p: Mapping[str, Any]) -> str:
    dice = p.get("dice") or []
    return f"{p['amount']} gold" + (f" ({dice_text(dice)})" if len(dice) > 1 else "")


def _find(p: Mapping[str, Any]) -> str:
    row = lookup(TABLES.treasure, p["roll"])
    if row.dice is None and p.get("choices") == []:
        return (f"Treasure roll {p['roll']}: you find {row.name}, but you hold all four: "
                "nothing more.")
    return f"Treasure roll {p['roll']}: you find {row.name}."


def _trap(p: Mapping[str, Any]) -> str:
    trap = next((t for t in TABLES.traps if t.trap == p["trap"]), None)
    name = trap.name if trap is not None else str(p["trap"]).replace("_", " ")
    if p["trap"] == "imp" and p.get("takeable") == []:
        return f"A trap! Roll {p['roll']}: {name}, but you hold no magic item to lose."
    return f"A trap! Roll {p['roll']}: {name}."


def _magic_found(p: Mapping[str, Any]) -> str:
    choices = list(p["choices"])
    if len(choices) == 1:
        return f"You find a magic item: {names(choices)}, the only one you do not hold."
    return f"You find a magic item! Choose {names(choices).replace(' and ', ' or ')}."


def _attempted(p: Mapping[str, Any]) -> str:
    verdict = "success" if p["success"] else "failure"
    return (f"You try for the {item_name(p['item'])}: roll {p['roll']} "
            f"(needs {range_text(p['low'], p['high'])}): {verdict}.")


EVENTS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "Created": lambda p: (
        f"You set out with {p['setup']['hp']} HP and {p['setup']['luck']} luck."
    ),
    "StartRolled": lambda p: f"Start roll {p['roll']}: you set off to {place(p['location'])}.",
    "Travelled": lambda p: f"You travel to {place(p['to'])}.",
    "QuestRolled": lambda p: (
        f"Questing roll {p['roll']}: {CHART_ACTIONS.get(p['action'], p['action'])}."
    ),
    "Rested": lambda p: f"You rest and arise refreshed: HP {p['hp']}.",
    "Robbed": lambda p: f"Bandits steal {_gold(p)}: gold {p['gold']}.",
    "TrapSprung": _trap,
    "Poisoned": lambda p: "You are poisoned: -1 to every attack until cured.",
    "Wounded": lambda p: f"You lose {p['amount']} HP: HP {p['hp']}.",
    "ImpStruck": lambda p: "An Imp strikes: it will take one of your magic items.",
    "ItemLost": lambda p: f"The Imp takes your {item_name(p['item'])}.",
    "MonsterMet": lambda p: (
        f"You meet the {p['monster']['name']} (ATT {p['monster']['att']}, "
        f"DAM {p['monster']['dam']})."
    ),
    "AttackRolled": lambda p: f"You attack: the dice show {dice_text(p['dice'])}.",
    "LuckSpent": lambda p: (
        f"You spend {abs(p['amount'])} luck ({p['amount']:+d}) on {die_name(p['die'])}: "
        f"luck {p['luck']}."
    ),
    "Rerolled": lambda p: f"The Shield of Nines re-rolls {die_name(p['die'])}: {p['value']}.",
    "ExchangeWon": lambda p: (
        f"Your attack of {p['total']} beats ATT {p['att']}: the monster is defeated."
    ),
    "ExchangeLost": lambda p: (
        f"Your attack of {p['total']} misses ATT {p['att']}: you lose {p['damage']} HP, "
        f"HP {p['hp']}."
    ),
    "Fled": lambda p: (
        f"You flee, losing {p['penalty']} HP: HP {p['hp']}." if p["penalty"]
        else f"You flee: HP {p['hp']}."
    ),
    "XpRolled": lambda p: f"XP roll {p['value']}.",
    "XpGained": lambda p: f"You gain {p['amount']} XP: XP {p['xp']}.",
    "LevelGained": lambda p: f"You reach Level {p['level']}: HP {p['hp']}, +1 attack.",
    "EncounterEnded": lambda p: "The encounter is over.",
    "TreasureRolled": _find,
    "GoldFound": lambda p: f"You find {_gold(p)}: gold {p['gold']}.",
    "MagicItemFound": _magic_found,
    "MagicItemChosen": lambda p: f"You take the {item_name(p['item'])}.",
    "ItemBought": lambda p: (
        f"You buy the {item_name(p['item'])} for {p['price']} gold: gold {p['gold']}."
    ),
    "Healed": lambda p: f"The potion heals you: HP {p['hp']}.",
    "PoisonCured": lambda p: "The potion cures the poison.",
    "Strengthened": lambda p: f"Your next attack gets +{p['bonus']}.",
    "LuckGained": lambda p: f"Your luck rises to {p['luck']}.",
    "TownLeft": lambda p: "You leave the Nigh Towns.",
    "QuestAttemptOffered": lambda p: f"You may try for the {item_name(p['item'])} here.",
    "QuestAttempted": _attempted,
    "QuestItemGained": lambda p: f"You gain the {item_name(p['item'])}!",
    "TurnEnded": lambda p: f"Turn {p['turn']} begins.",
    "Ended": ended_sentence,
}


def describe(event_type: str, payload: Mapping[str, Any],
             seats: Sequence[str] = ()) -> str | None:
    """One event as a sentence (None: not an Enin event, or a payload it cannot read)."""
    template = EVENTS.get(event_type)
    if template is None:
        return None
    try:
        return template(payload)
    except (KeyError, TypeError, ValueError, LookupError, AttributeError):
        return None
