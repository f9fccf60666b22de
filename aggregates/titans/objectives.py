"""Secret Objectives: the Game Setup draft, and accomplishing one per turn.

Rulebook, Game Setup 7: each player is dealt 4, keeps 1 and passes the rest to
the player on his right, all at the same time; then keeps 1 of 3 and passes 2;
then keeps 1 of 2 and puts the last at the bottom of the deck. ("Right" is the
previous seat in turn order: turns go clockwise, so the next player sits on
one's left.) "Playing the Game": a player may accomplish 1 Secret Objective on
his turn: he shows it, scores its VP, and discards it. Each objective's
condition is data (``data/objectives.json``) read here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aggregates.kernel import Command, Reason, RuleError
from aggregates.kernel import flow as kflow
from aggregates.titans import cards, regions
from aggregates.titans.commands import AccomplishObjective, KeepObjective
from aggregates.titans.data import BOARD, OBJECTIVES, TITAN
from aggregates.titans.reasons import TitansReason
from aggregates.titans.state import EARLIER_DRAFT_PACE, State

DEAL = 4


def right_of(game: State, seat: int) -> int:
    """The seat on ``seat``'s right (the kernel's turn order, anticlockwise)."""
    return kflow.next_seat(seat, len(game.seats), step=-1)


def met(game: State, seat: int, condition: Mapping[str, Any]) -> bool:
    """Whether ``seat`` meets an objective's condition now."""
    kind = condition["kind"]
    count = int(condition.get("count", 0))
    held = regions.controlled(game, seat)
    if kind == "regions":
        return len(held) >= count
    if kind == "named_regions":
        return all(game.control.get(r) == seat for r in condition["regions"])
    if kind == "units_on_map":
        return regions.unit_count_on_map(game, seat) >= count
    if kind == "unit_type_on_map":
        return regions.units_on_map(game, seat).get(condition["unit"], 0) >= count
    if kind == "strongholds":
        return sum(1 for r in game.strongholds if game.control.get(r) == seat) >= count
    if kind == "battles_won":
        return game.battles_won[seat] >= count
    if kind == "enemy_capitol":
        return any(c["owner"] != seat and game.control.get(r) == seat
                   for r, c in game.capitols.items())
    if kind == "nation_cards":
        return len(game.nation_cards[seat]) >= count
    if kind == "support_hand":
        return len(game.hands[seat]) >= count
    if kind == "armies":
        return len(BOARD.occupied_by(regions.occupants(game), seat)) >= count
    if kind == "units_destroyed":
        return game.destroyed[seat] >= count
    if kind == "titan_beside_enemy":
        where = [r for r, a in game.armies.items() if a["nation"] == seat
                 and a["units"].get(TITAN)]
        return any(game.control.get(n, seat) != seat
                   for r in where for n in regions.neighbours(game, r) if n in game.control)
    if kind == "army_size":
        return any(sum(a["units"].values()) >= count
                   for a in game.armies.values() if a["nation"] == seat)
    raise AssertionError(f"unknown objective condition {kind}")


def accomplishable(game: State, seat: int) -> list[int]:
    if not game.turn or game.turn["seat"] != seat or game.turn.get("objective"):
        return []
    return sorted(c for c in game.objectives[seat] if met(game, seat, OBJECTIVES[c].condition))


def check_accomplish_objective(game: State, seat: int, command: AccomplishObjective) -> None:
    if command.card not in game.objectives[seat]:
        raise RuleError(TitansReason.NOT_HELD, f"Secret Objective {command.card} is not yours")
    if not game.turn or game.turn["seat"] != seat:
        raise RuleError(Reason.NOT_YOUR_TURN, "a Secret Objective is accomplished on your turn")
    if game.turn.get("objective"):
        raise RuleError(TitansReason.ALREADY_USED, "1 Secret Objective per turn")
    if not met(game, seat, OBJECTIVES[command.card].condition):
        raise RuleError(TitansReason.NOT_ACCOMPLISHED,
                        f"{OBJECTIVES[command.card].name}: its condition is not met")


def run_accomplish_objective(game: State, seat: int, command: AccomplishObjective) -> None:
    spec = OBJECTIVES[command.card]
    game.emit("ObjectiveAccomplished", seat=seat, card=command.card, name=spec.name,
              vp=spec.vp)


def legal_accomplish_objective(game: State, seat: int) -> list[Command]:
    return [AccomplishObjective(card=c) for c in accomplishable(game, seat)]


# ------------------------------------------------------------- the draft


def deal(game: State) -> None:
    """Decide: 4 Secret Objectives to each player, each seen by its receiver."""
    for seat in range(len(game.seats)):
        dealt = list(game.objective_deck[:DEAL])
        game.emit("ObjectivesDealt", audience=cards.private(seat),
                  public={"seat": seat, "count": len(dealt)}, seat=seat, cards=dealt)


def holding(game: State, seat: int) -> list[int]:
    if game.reinforcing is not None and game.reinforcing.get("drawn"):
        return list(game.reinforcing["drawn"])
    if game.draft is None:
        return []
    return list(game.draft["holding"][seat])


def check_keep_objective(game: State, seat: int, command: KeepObjective) -> None:
    if command.card not in holding(game, seat):
        raise RuleError(TitansReason.NOT_HELD, f"Secret Objective {command.card} is not among "
                        f"those you choose from {holding(game, seat)}")
    if game.draft is not None and seat in game.draft["kept"]:
        raise RuleError(Reason.ILLEGAL_MOVE, "you have kept one this pass; wait for the others")


def run_keep_objective(game: State, seat: int, command: KeepObjective) -> None:
    others = [c for c in holding(game, seat) if c != command.card]
    last = game.draft is None or len(holding(game, seat)) <= 2
    game.emit("ObjectiveKept", audience=cards.private(seat),
              public={"seat": seat, "count": len(others) if last else 0},
              seat=seat, card=command.card, returned=others if last else [])


def legal_keep_objective(game: State, seat: int) -> list[Command]:
    if game.draft is not None and seat in game.draft["kept"]:
        return []
    return [KeepObjective(card=c) for c in sorted(holding(game, seat))]


def draft_waiting(game: State) -> list[int]:
    if game.draft is None:
        return []
    return [s for s in range(len(game.seats)) if s not in game.draft["kept"]]


def pass_right(game: State) -> None:
    """Decide: every player's remaining objectives go to the player on his right
    (each pass seen by its giver and receiver), then the next pick begins (the
    last pass begins it; rules before 1.2.0 recorded a ``DraftPassed``)."""
    assert game.draft is not None
    for seat in range(len(game.seats)):
        passed = list(game.draft["holding"][seat])
        if passed:
            to = right_of(game, seat)
            game.emit("ObjectivesPassed", audience=cards.private(seat) | cards.private(to),
                      public={"seat": seat, "to": to, "count": len(passed)},
                      seat=seat, to=to, cards=passed)
    if EARLIER_DRAFT_PACE in game.earlier:
        game.emit("DraftPassed", pick=int(game.draft["pick"]) + 1)


def next_pick(game: State, draft: dict[str, Any], pick: int) -> None:
    """The Objectives passed are picked up: the draft's ``pick`` begins."""
    draft["holding"] = draft["incoming"]
    draft["incoming"] = [[] for _ in game.seats]
    draft["kept"] = []
    draft["pick"] = pick
