"""Game Setup (rulebook, steps 1-7) and the Game Variants' options.

Recorded in the creation event (``decide_setup``): the board setup for the
player count and, as facts, its Nations in starting turn order, Capitols,
starting armies, reserves and inactive regions (chosen by option or at
random), and the order of every
deck shuffled before play (the Support Deck, each Nation Deck, the Secret
Objectives), which nobody may read. Seat N leads the setup's Nation N (the
rulebook's choice of Nations by age fixes only who sits where); the first
Nation holds the Starting Player Token.

Then (``begin``): each player draws 3 Support Cards (2 in the Simplified
variant) and 4 are turned face up; each buys his first Nation Card from his top
3, all at once, revealed together (Simplified: the card marked X, free); the
Secret Objectives are drafted (not in the Simplified variant). Round 1 then
begins (``flow.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aggregates.kernel import Reason, RuleError
from aggregates.kernel.game import options_schema, refuse_unknown_options
from aggregates.titans import cards, objectives, pieces, purchase
from aggregates.titans.data import NATIONS, OBJECTIVES, SUPPORTS, TABLES, setups_for
from aggregates.titans.state import State

VARIANTS = ("standard", "simplified")

OPTIONS_SCHEMA = options_schema(
    setup={"type": "string", "description": "the Main Board Setup for the player count "
                                            "(default: one at random with the setup dice)"},
    variant={"enum": list(VARIANTS), "description": "standard, or the Simplified Game Variant"},
    extended={"type": "boolean", "description": "Extended Gameplay: 4 Rounds instead of 3"})


def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
    refuse_unknown_options(options, OPTIONS_SCHEMA["properties"])
    out: dict[str, Any] = {}
    if "variant" in options:
        if options["variant"] not in VARIANTS:
            raise RuleError(Reason.BAD_OPTIONS, f"variant is one of {VARIANTS}")
        out["variant"] = options["variant"]
    if "extended" in options:
        if not isinstance(options["extended"], bool):
            raise RuleError(Reason.BAD_OPTIONS, "extended is true or false")
        out["extended"] = options["extended"]
    if "setup" in options:
        if not isinstance(options["setup"], str):
            raise RuleError(Reason.BAD_OPTIONS, "setup is a board setup's key")
        out["setup"] = options["setup"]
    return out


def decide_setup(dice: Any, seats: list[str], options: Mapping[str, Any]) -> dict[str, Any]:
    """Roll and choose everything random about the start (the creation event)."""
    players = len(seats)
    choices = setups_for(players)
    if "setup" in options:
        chosen = [s for s in choices if s.key == options["setup"]]
        if not chosen:
            raise RuleError(Reason.BAD_OPTIONS, f"{players} players use one of the setups "
                            f"{[s.key for s in choices]}")
        board = chosen[0]
    else:
        board = choices[dice.roll(len(choices)) - 1]
    variant = options.get("variant", "standard")
    armies: dict[str, dict[str, Any]] = {}
    capitols: dict[str, int] = {}
    reserve: list[dict[str, int]] = []
    titan: list[str] = []
    for seat, nation in enumerate(board.nations):
        placed = pieces.total(board.start[nation].units.values())
        for region, units in board.start[nation].units.items():
            armies[region] = {"nation": seat, "units": dict(units)}
        capitols[board.start[nation].capitol] = seat
        reserve.append(pieces.minus(TABLES.supply.full(), placed))
        titan.append("map" if placed.get("titan") else "standing")
    start = {"armies": armies, "capitols": capitols, "reserve": reserve, "titan": titan}
    return {
        "setup": board.key,
        "variant": variant,
        "nations": list(board.nations),
        "inactive": list(board.inactive),
        **start,
        "rounds": TABLES.rounds["extended" if options.get("extended") else "standard"],
        "support_deck": dice.shuffled([s.id for s in SUPPORTS]),
        "nation_decks": [dice.shuffled(list(NATIONS[n].cards)) for n in board.nations],
        "objective_deck": ([] if variant == "simplified"
                           else dice.shuffled([o.id for o in OBJECTIVES])),
    }


def public_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """What everyone may read of the creation: the deck orders only as counts."""
    out = {k: v for k, v in setup.items()
           if k not in ("support_deck", "nation_decks", "objective_deck")}
    out["support_deck"] = len(setup.get("support_deck", []))
    out["nation_decks"] = [len(d) for d in setup.get("nation_decks", [])]
    out["objective_deck"] = len(setup.get("objective_deck", []))
    return out


def begin(game: State) -> None:
    """Decide: Game Setup 5-7 as events (deals, the row, the Simplified opening)."""
    start = TABLES.support_start[game.variant]
    for seat in range(len(game.seats)):
        cards.draw(game, seat, start, why="setup")
        purchase.show_top(game, seat)  # Game Setup 6a: the top 3 picked up
    cards.refill_row(game)
    if game.variant == "simplified":
        game.emit("OpeningPurchasesRevealed", purchases=[
            {"seat": s, "card": NATIONS[game.nations[s]].x_card, "paid": [], "cost": 0}
            for s in range(len(game.seats))])
        for seat in range(len(game.seats)):
            purchase.show_top(game, seat)
    else:
        objectives.deal(game)


def opening_waiting(game: State) -> list[int]:
    if game.opening is None:
        return []
    return [s for s in range(len(game.seats)) if str(s) not in game.opening["chosen"]]


def settle(game: State) -> bool:
    """Decide one automatic step of the Game Setup; True if one was taken."""
    if game.opening is not None:
        if opening_waiting(game):
            return False
        purchase.reveal_openings(game)
        return True
    if game.draft is not None:
        if objectives.draft_waiting(game):
            return False
        if any(game.draft["holding"]):
            objectives.pass_right(game)
        else:  # rules before 1.2.0 (the last keep ends the draft now)
            game.emit("DraftEnded", kept=[len(o) for o in game.objectives])
        return True
    return False


def done(game: State) -> bool:
    """The Game Setup is over: every opening purchase revealed, the draft ended."""
    return game.opening is None and game.draft is None
