"""The table: four positions in two teams, the seats that play them, the zones.

Kernel features shown:

- ``Seating`` with positions and teams: there are always four positions,
  North and South against East and West. Four players play one each; with
  three, the third seat's partner is missing, so seat 1 plays both East and
  West (a seat controlling two positions); with two, each seat plays a whole
  team. Teams are of seats, and score together.
- ``Zones`` with every visibility: the deck is ``COUNT_ONLY``, each hand is
  its position's ``OWNER``'s (the controlling seat), each team's vault is
  ``TEAM`` (partners see it, opponents count it), the shore and the discard
  pile are ``PUBLIC``. Views and event audiences are derived from these specs.
"""

from __future__ import annotations

from aggregates.kernel import Seating, Visibility, Zones, ZoneSpec

POSITIONS = ("North", "East", "South", "West")
TEAM_NAMES = ("North–South", "East–West")


def team_of_position(position: int) -> int:
    """North–South is team 0, East–West team 1."""
    return position % 2


def seating_for(seats: int) -> Seating:
    """Who plays which position, and the teams, for 2..4 seats."""
    if seats == 4:
        return Seating((0, 1, 2, 3), ((0, 2), (1, 3)))
    if seats == 3:
        return Seating((0, 1, 2, 1), ((0, 2), (1,)))
    return Seating((0, 1, 0, 1), ((0,), (1,)))


def hand(position: int) -> str:
    return f"hand:{position}"


def vault(team: int) -> str:
    return f"vault:{team}"


DECK, SHORE, DISCARD = "deck", "shore", "discard"


def zone_specs(seating: Seating) -> list[ZoneSpec]:
    """Every zone, its owner and its visibility."""
    specs = [ZoneSpec(DECK, Visibility.COUNT_ONLY, ordered=True),
             ZoneSpec(SHORE, Visibility.PUBLIC),
             ZoneSpec(DISCARD, Visibility.PUBLIC)]
    specs += [ZoneSpec(hand(p), Visibility.OWNER, owner=seating.controller[p])
              for p in range(len(POSITIONS))]
    specs += [ZoneSpec(vault(t), Visibility.TEAM, owner=seating.controller[t])
              for t in range(len(TEAM_NAMES))]
    return specs


def empty_zones() -> dict[str, list[int]]:
    names = [DECK, SHORE, DISCARD] + [hand(p) for p in range(4)] + [vault(t) for t in range(2)]
    return {name: [] for name in names}


def zones_of(seating: Seating, contents: dict[str, list[int]]) -> Zones:
    return Zones(zone_specs(seating), contents, seating)
