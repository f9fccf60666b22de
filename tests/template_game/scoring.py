"""End of the game: each banked card scores its value, plus the modifiers of
the static effects in its vault (the Lighthouse: pearls score 1 more); teams
score together and the higher team total wins.

Kernel features shown: a static modifier read with ``Book.modifier``
(derived each time, never written into state); ``Seating.team_totals`` (a
seat's points count for its team; a seat playing two positions scores both).
"""

from __future__ import annotations

from typing import Any

from tests.template_game.components import COMPONENTS as C
from tests.template_game.table import POSITIONS, TEAM_NAMES, team_of_position, vault


def card_points(card_id: int, in_force: list[str]) -> int:
    card = C.card(card_id)
    return card.value + C.book.modifier("score", {"suit": card.suit}, in_force)


def position_points(state: Any) -> list[int]:
    """What each position banked, scored with its vault's modifiers."""
    points = [0] * 4
    for team in range(2):
        in_force = state.in_force(team)
        for card_id in state.zones[vault(team)]:
            points[state.banked_by[str(card_id)]] += card_points(card_id, in_force)
    return points


def outcome(state: Any) -> dict[str, Any]:
    seating = state.seating()
    by_position = position_points(state)
    per_seat = [0] * len(state.seats)
    for position, points in enumerate(by_position):
        per_seat[seating.controller[position]] += points
    totals = seating.team_totals(per_seat)
    teams = [
        {"team": TEAM_NAMES[t], "seats": list(seats), "score": totals[t],
         "positions": [POSITIONS[p] for p in range(4) if team_of_position(p) == t]}
        for t, seats in enumerate(seating.teams)
    ]
    best = max(totals)
    winners = [t for t, total in enumerate(totals) if total == best]
    if len(winners) == 1:
        loser = totals[1 - winners[0]]
        result = f"{TEAM_NAMES[winners[0]]} win, {best} to {loser}"
    else:
        result = f"a tie at {best}"
    return {
        "result": result, "teams": teams, "scores": per_seat, "positions": by_position,
        "winner_team": winners[0] if len(winners) == 1 else None,
        "winners": sorted(s for t in winners for s in seating.teams[t]) if len(winners) == 1
        else [],
    }
