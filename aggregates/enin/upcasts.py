"""Enin events recorded before each event stated its whole fact,
read in the shape the rules record now (``aggregates.kernel.record.upcast``).

Each step sees one stored event alone. What an old event implied and the
tables can tell is filled in (the Map's purchase, the strength potion spent,
the XP die after luck, the amounts of rests, potions, levels and items); what
depended on the state before it (the dice as
rolled before luck in an exchange, the magic items one could choose or the
Imp could take) was never recorded and is marked so: re-execution derives it.
"""

from __future__ import annotations

from typing import Any

from aggregates.enin.character import level_hp_bonus
from aggregates.enin.data import TABLES
from aggregates.kernel.record.upcast import Step, versioned

#: The potions' printed +1 (healing, strength, fate), as ``market.buy`` gives it.
POTION = 1


def _item_bought(p: dict[str, Any]) -> None:
    """v1 set the Map by the item's key; v2 says so: ``gains_map``."""
    goods = TABLES.market.get(p["item"])
    p["gains_map"] = goods is not None and goods.effect == "map"


def _exchange(p: dict[str, Any]) -> None:
    """v1's exchange spent the potion of strength silently; v2 states the
    bonus left (always 0) and the dice as rolled beside the dice as counted."""
    p["strength_bonus"] = 0


def _xp_gained(p: dict[str, Any]) -> None:
    """v1's ``dice`` were as rolled (an attack's are as counted); v2 has both.

    Only a lone D10 XP roll takes luck and no printed XP spec adds a constant,
    so the luck on a single die is what the amount exceeds it by.
    """
    rolled = list(p["dice"])
    p["rolled"] = rolled
    if len(rolled) == 1:
        p["dice"] = [rolled[0] + p["amount"] - sum(rolled)]


def _rested(p: dict[str, Any]) -> None:
    """v2 states the HP the chart row gives beside the HP after: the printed
    rest rows all give the same, so an old event's is that one (else unknown)."""
    rests = {row.hp for n in TABLES.locations for row in TABLES.location(n).chart
             if row.action == "rest"}
    p["amount"] = rests.pop() if len(rests) == 1 else None


def _potion(p: dict[str, Any]) -> None:
    """v2 states the potion's +1 beside the value after."""
    p["amount"] = POTION


def _level_gained(p: dict[str, Any]) -> None:
    """v2 states the HP a level gives (the Levelling Up table) beside the HP after."""
    p["hp_gained"] = level_hp_bonus(p["level"])


def _magic_item_chosen(p: dict[str, Any]) -> None:
    """v2 states the HP and luck the item gives once (the Helm, the Ring)."""
    item = TABLES.magic_items[p["item"]]
    p["hp_gained"], p["luck_gained"] = item.hp, item.luck


def _treasure_rolled(p: dict[str, Any]) -> None:
    """v2 names the magic items a magic find offers (none: all four held)."""


def _trap_sprung(p: dict[str, Any]) -> None:
    """v2 names the magic items the Imp may take (none: it takes nothing)."""


def install(game_class: Any) -> None:
    """Declare the versions and upcasts on ``game_class``'s event classes."""
    from aggregates.kernel.game import _event_class

    def on(name: str, *steps: Step) -> None:
        versioned(_event_class(game_class, name), *steps)

    on("ItemBought", Step(_item_bought, added=("gains_map",)))
    exchange = Step(_exchange, added=("rolled", "strength_bonus"), unrecorded=("rolled",))
    on("ExchangeWon", exchange)
    on("ExchangeLost", exchange)
    on("XpGained", Step(_xp_gained, added=("rolled",)))
    on("Rested", Step(_rested, added=("amount",)))
    for potion in ("Healed", "Strengthened", "LuckGained"):
        on(potion, Step(_potion, added=("amount",)))
    on("LevelGained", Step(_level_gained, added=("hp_gained",)))
    on("MagicItemChosen", Step(_magic_item_chosen, added=("hp_gained", "luck_gained")))
    on("TreasureRolled", Step(_treasure_rolled, added=("choices",), unrecorded=("choices",)))
    on("TrapSprung", Step(_trap_sprung, added=("takeable",), unrecorded=("takeable",)))
