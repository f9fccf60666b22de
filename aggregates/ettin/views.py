"""Each reader's view of Ettin's table (JSON, described by ``schemas.json``'s
``view``): the public track of the game and every zone as the reader may see
it. The zones redact what the reader may not see (``table.zone_specs``: an
Enemy's War Camp and face-down deploys, decks, another's Retired Pile), so a
view never needs the rules to hide anything itself.
"""

from __future__ import annotations

from typing import Any

from aggregates.ettin.state import EttinState
from aggregates.kernel.unseen import Unseen, kind_of


def view(g: EttinState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees of the table now."""
    return {
        "age": g.age, "phase": g.phase, "nations": list(g.nations),
        "controller": list(g.seating().controller), "pairs": g.pairs,
        "gold": list(g.gold), "tokens": g.tokens, "initiative": g.initiative,
        "results": g.results, "sieges": g.sieges, "shown": g.shown,
        "zones": g.table_zones().view(seat),
    }


# ------------------------------------------------------------ what a seat cannot see


def unseen() -> Unseen:
    """Cards move between decks, camps, fields and retired piles face down (a
    Spoil drawn, a Nation card drawn, a Deployment): a hidden card may be any
    hidden card of its own deck and Age (an Adventure: of its Age, a Defense
    for a Defense), wherever it lies."""
    from aggregates.ettin.data import BOX
    from aggregates.ettin.data import COMPONENTS as C

    def pool(name: str, card: Any) -> str | None:
        if kind_of(name) not in ("merc", "adv", "deck", "camp", "field", "retired"):
            return None
        if C.is_adventure(card):
            adventure = C.adventure(card)
            return f"adventure:{adventure.age}:{adventure.defense is not None}"
        unit = C.units[card % BOX]
        return f"unit:{unit.deck}:{unit.age}"

    return Unseen(zones=lambda g: g.table_zones(), lists=lambda g: g.zones, pool=pool)
