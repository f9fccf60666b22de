"""The zones of Titans and who sees their cards (kernel ``ZoneSpec``).

- the Support Deck, the Order Deck and the Secret Objective deck: face down,
  everyone sees their counts only;
- the Support row, the discard piles, the Order Pool and Upcoming Pool, each
  Nation's purchased Nation Cards and accomplished Objectives: face up;
- a Support hand, Secret Objectives held (and those being drafted or drawn):
  their owner sees the faces, the others the count;
- a Nation Deck: face down, but its owner sees its top 3 ("a player may look
  at the top 3 Nation Cards freely at any time").
"""

from __future__ import annotations

from aggregates.kernel import Visibility, Zones, ZoneSpec
from aggregates.titans.purchase import OFFER
from aggregates.titans.state import State

PUBLIC = ("support_row", "support_discard", "order_pool", "upcoming", "order_discard")
FACE_DOWN = ("support_deck", "order_deck", "objective_deck")


def specs(players: int) -> list[ZoneSpec]:
    out = [ZoneSpec(z, Visibility.PUBLIC) for z in PUBLIC]
    out += [ZoneSpec(z, Visibility.COUNT_ONLY, ordered=True) for z in FACE_DOWN]
    for seat in range(players):
        out += [ZoneSpec(f"hand:{seat}", Visibility.OWNER, owner=seat),
                ZoneSpec(f"objectives:{seat}", Visibility.OWNER, owner=seat),
                ZoneSpec(f"choosing:{seat}", Visibility.OWNER, owner=seat),
                ZoneSpec(f"nation_deck:{seat}", Visibility.COUNT_ONLY, owner=seat,
                         ordered=True, top_visible=OFFER),
                ZoneSpec(f"nation_cards:{seat}", Visibility.PUBLIC, owner=seat),
                ZoneSpec(f"accomplished:{seat}", Visibility.PUBLIC, owner=seat)]
    return out


def choosing(game: State, seat: int) -> list[int]:
    """The Secret Objectives ``seat`` is choosing from (the draft, a Reinforcement)."""
    if game.draft is not None:
        return list(game.draft["holding"][seat])
    if game.reinforcing is not None and game.reinforcing["drawn"]:
        r = game.reinforcing
        if r["order"][r["at"]] == seat:
            return list(r["drawn"])
    return []


def zones(game: State, seating: object) -> Zones:
    players = len(game.seats)
    contents: dict[str, list[int]] = {z: list(getattr(game, z)) for z in PUBLIC + FACE_DOWN}
    for seat in range(players):
        contents[f"hand:{seat}"] = list(game.hands[seat])
        contents[f"objectives:{seat}"] = list(game.objectives[seat])
        contents[f"choosing:{seat}"] = choosing(game, seat)
        contents[f"nation_deck:{seat}"] = list(game.nation_decks[seat])
        contents[f"nation_cards:{seat}"] = list(game.nation_cards[seat])
        contents[f"accomplished:{seat}"] = list(game.accomplished[seat])
    return Zones(specs(players), contents, seating)  # type: ignore[arg-type]
