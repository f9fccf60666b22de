"""What the player sees: the whole Character Card, the location, the encounter
and the dice on the table (Enin has no hidden information)."""

from __future__ import annotations

from typing import Any

from aggregates.enin import state as s
from aggregates.enin.character import attack_modifier
from aggregates.enin.data import TABLES
from aggregates.enin.state import EninState


def view(game: EninState) -> dict[str, Any]:
    location = None
    if game.location is not None:
        loc = TABLES.location(game.location)
        location = {"number": loc.number, "key": loc.key, "name": loc.name}
    encounter = None
    if game.encounter is not None:
        encounter = {**game.encounter, "monster": dict(game.encounter["monster"])}
    dice = [
        {"die": i, "sides": d["sides"], "rolled": d["rolled"], "luck": d["luck"],
         "value": d["rolled"] + d["luck"]}
        for i, d in enumerate(game.table)
    ]
    return {
        "stage": s.OVER if game.ended or game.finished() else game.stage,
        "turn": game.turn,
        "hp": game.hp,
        "luck": game.luck,
        "xp": game.xp,
        "gold": game.gold,
        "level": game.level,
        "poisoned": game.poisoned,
        "location": location,
        "quest_items": list(game.quest_items),
        "magic_items": list(game.magic_items),
        "map_of_enin": game.map_held,
        "strength_bonus": game.strength_bonus,
        "attack_modifier": attack_modifier(game),
        "encounter": encounter,
        "dice": dice,
        # "Once during an encounter": outside one the Shield is ready again.
        "shield_used": game.shield_used and game.encounter is not None,
        "treasure_left": game.treasure_left,
        "treasure_choices": list(game.treasure_choices),
        "last_purchase": game.last_purchase,
        "last_outcome": game.last_outcome,
        "outcome": game.outcome if game.ended else game.finished(),
    }
