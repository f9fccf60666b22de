"""Each reader's view of Ettin's table (JSON, described by ``schemas.json``'s
``view``): the public track of the game and every zone as the reader may see
it. The zones redact what the reader may not see (``table.zone_specs``: an
Enemy's War Camp and face-down deploys, decks, another's Retired Pile), so a
view never needs the rules to hide anything itself.
"""

from __future__ import annotations

from typing import Any

from aggregates.ettin.state import EttinState


def view(g: EttinState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees of the table now."""
    return {
        "age": g.age, "phase": g.phase, "nations": list(g.nations),
        "controller": list(g.seating().controller), "pairs": g.pairs,
        "gold": list(g.gold), "tokens": g.tokens, "initiative": g.initiative,
        "results": g.results, "sieges": g.sieges, "shown": g.shown,
        "zones": g.table_zones().view(seat),
    }
