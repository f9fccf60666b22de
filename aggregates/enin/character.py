"""The Character Card: tracks, caps, levels, and the attack modifiers.

Pure functions over numbers and the game's plain state; no events here.
"""

from __future__ import annotations

from aggregates.enin.data import TABLES
from aggregates.enin.state import EninState


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def hp_after(hp: int, change: int) -> int:
    """HP never exceeds 10 and never goes below 0 (0 loses the game)."""
    return clamp(hp + change, 0, TABLES.hp_max)


def luck_after(luck: int, change: int) -> int:
    return clamp(luck + change, 0, TABLES.luck_max)


def xp_after(xp: int, change: int) -> int:
    return clamp(xp + change, 0, TABLES.xp_max)


def gold_after(gold: int, change: int) -> int:
    """Gold stays within 0..100: bandits cannot take more than you have."""
    return clamp(gold + change, TABLES.gold_min, TABLES.gold_max)


def level_for(xp: int) -> int:
    """Level 1 below 20 XP, Level 2 from 20, Level 3 from 40."""
    level = 1
    for lv in TABLES.levels:
        if xp >= lv.xp:
            level = lv.level
    return level


def level_attack_bonus(level: int) -> int:
    """+1 attack for each level gained (so level - 1 with the printed card)."""
    return sum(lv.attack_bonus for lv in TABLES.levels if lv.level <= level)


def level_hp_bonus(level: int) -> int:
    """The HP gained at once on reaching ``level``."""
    return next(lv.hp_bonus for lv in TABLES.levels if lv.level == level)


def attack_modifier(game: EninState) -> int:
    """Everything added to the 2D10 attack except luck (which is on the dice)."""
    total = level_attack_bonus(game.level) + game.strength_bonus
    total += sum(TABLES.magic_items[item].attack for item in game.magic_items)
    if game.poisoned:
        total -= TABLES.poison_attack_penalty
    return total


def resists_poison(game: EninState) -> bool:
    """The Helm of Vitality prevents poisoning while it is held."""
    return any(TABLES.magic_items[item].poison_resist for item in game.magic_items)


def has_reroll(game: EninState) -> bool:
    return any(TABLES.magic_items[item].reroll for item in game.magic_items)
