"""What the player sees: the whole Character Card, the location, the encounter
and the dice on the table (Enin has no hidden information).
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from aggregates.enin import state as s
from aggregates.enin.character import attack_modifier
from aggregates.enin.data import TABLES
from aggregates.enin.events import MonsterLine, Outcome
from aggregates.enin.state import EninState


class Location(TypedDict):
    """The location the character is at: its number on the map, key and name."""

    number: int
    key: str
    name: str


class Encounter(TypedDict):
    """The monster met: its Encounter Card, the level it was met at, the roll
    that drew it (null when no roll did) and its printed line."""

    card: str
    level: int
    roll: int | None
    monster: MonsterLine


class Die(TypedDict):
    """A die on the table: as it fell (`rolled`), the `luck` spent on it, and the
    `value` it counts for."""

    die: int
    sides: int
    rolled: int
    luck: int
    value: int


class View(TypedDict):
    """A seat's view of a game of The Land of Enin (a spectator's leaves out what
    is hidden from it): GameState.view_json."""

    stage: str
    turn: int
    hp: int
    luck: int
    xp: int
    gold: int
    level: int
    poisoned: bool
    location: Location | None
    quest_items: list[str]
    magic_items: list[str]
    map_of_enin: bool
    strength_bonus: int
    attack_modifier: int
    encounter: Encounter | None
    dice: list[Die]
    shield_used: bool
    treasure_left: int
    treasure_choices: list[str]
    last_purchase: str | None
    last_outcome: str
    outcome: Outcome | None


def view(game: EninState) -> dict[str, Any]:
    """The player's view, built as its declaration (``View``) says."""
    location = None
    if game.location is not None:
        loc = TABLES.location(game.location)
        location = Location(number=loc.number, key=loc.key, name=loc.name)
    encounter = None
    if game.encounter is not None:
        e = game.encounter
        encounter = Encounter(card=e["card"], level=e["level"], roll=e["roll"],
                              monster=cast(MonsterLine, dict(e["monster"])))
    dice = [
        Die(die=i, sides=d["sides"], rolled=d["rolled"], luck=d["luck"],
            value=d["rolled"] + d["luck"])
        for i, d in enumerate(game.table)
    ]
    out: View = {
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
        "outcome": cast(Outcome | None, game.outcome if game.ended else game.finished()),
    }
    return dict(out)
