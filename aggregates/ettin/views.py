"""Each reader's view of Ettin's table (JSON, described by ``schemas.json``'s
``view``): the public track of the game and every zone as the reader may see
it. The zones redact what the reader may not see (``table.zone_specs``: an
Enemy's War Camp and face-down deploys, decks, another's Retired Pile), so a
view never needs the rules to hide anything itself.
"""

from __future__ import annotations

import dataclasses
from typing import Any, NotRequired, TypedDict, cast

from aggregates.ettin.state import EttinState
from aggregates.kernel.unseen import Unseen, kind_of


class BattleResult(TypedDict):
    """A Battle resolved: the battle `slot`, each side's `scores`, the `result`,
    the `winner` (null: a tie) and, when the rules name one, `why`."""

    slot: int
    scores: list[int]
    result: str
    winner: int | None
    why: NotRequired[str]


class Zone(TypedDict):
    """A zone as the reader sees it: its `cards` when the reader may see them,
    always how many it holds."""

    cards: NotRequired[list[int]]
    count: int


class View(TypedDict):
    """A seat's view of a game of Ettin (a spectator's leaves out what is hidden
    from it): GameState.view_json. Positions are numbered around the table; each
    is controlled by a seat (`controller`); `results` lists each pair's Battles."""

    age: int
    phase: str
    nations: list[str]
    controller: list[int]
    pairs: list[list[int]]
    gold: list[int]
    tokens: list[list[int]]
    initiative: list[int]
    results: list[list[BattleResult]]
    sieges: list[int]
    shown: list[int]
    zones: dict[str, Zone]


def view(g: EttinState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees of the table now, built as its
    declaration (``View``) says."""
    out: View = {
        "age": g.age, "phase": g.phase, "nations": list(g.nations),
        "controller": list(g.seating().controller), "pairs": g.pairs,
        "gold": list(g.gold), "tokens": g.tokens, "initiative": g.initiative,
        "results": cast(list[list[BattleResult]], g.results),
        "sieges": g.sieges, "shown": g.shown,
        "zones": g.table_zones().view(seat),
    }
    return dict(out)


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

    from aggregates.ettin import guess

    table = Unseen(zones=lambda g: g.table_zones(), lists=lambda g: g.zones, pool=pool,
                   setup=guess.setup)
    return dataclasses.replace(table, complete=lambda g, seen, kind, payload: guess.complete(
        table, g, seen, kind, payload))
