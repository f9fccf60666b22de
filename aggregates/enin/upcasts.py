"""Enin events recorded before each event stated its whole fact (issue 9, item 7),
read in the shape the rules record now (``aggregates.kernel.upcast``).

Each step sees one stored event alone. What an old event implied and the
tables can tell is filled in (the Map's purchase, the strength potion spent,
the XP die after luck); what depended on the state before it (the dice as
rolled before luck in an exchange, the magic items one could choose or the
Imp could take) was never recorded and is marked so: re-execution derives it.
"""

from __future__ import annotations

from typing import Any

from aggregates.enin.data import TABLES
from aggregates.kernel.upcast import Step, versioned


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
    on("TreasureRolled", Step(_treasure_rolled, added=("choices",), unrecorded=("choices",)))
    on("TrapSprung", Step(_trap_sprung, added=("takeable",), unrecorded=("takeable",)))
