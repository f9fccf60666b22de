"""Zones: decks, hands, rows and piles, each with who may see its cards.

A game keeps its zones as one dict of name -> list of card ids (plain JSON,
so snapshots and replays carry them) and declares each zone's ``ZoneSpec``:
its owner and its ``Visibility``. From those alone the kernel answers what a
reader sees of a zone (the cards, or only how many) and who may read an event
that moves cards between zones — so views and redaction derive from zones,
not from hand-written per-game code.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from typing import Any

from aggregates.kernel.seating import Audience, Seating


class Visibility(StrEnum):
    """Who sees the faces of a zone's cards (everyone else sees the count)."""

    PUBLIC = "public"          # a face-up row, played bands, a discard pile
    OWNER = "owner"            # a hand
    TEAM = "team"              # a hand the owner's allies may see (Ettin)
    COUNT_ONLY = "count_only"  # a face-down deck: nobody sees faces, all see the count
    SECRET = "secret"          # not even the count (a face-down deploy before reveal)


@dataclasses.dataclass(frozen=True)
class ZoneSpec:
    """A zone's name, owner (a seat, or None for the table) and visibility."""

    name: str
    visibility: Visibility
    owner: int | None = None
    ordered: bool = False

    def readers(self, seating: Seating) -> Audience:
        """Who may see the faces of this zone's cards."""
        if self.visibility is Visibility.PUBLIC:
            return Audience()
        if self.visibility in (Visibility.COUNT_ONLY, Visibility.SECRET) or self.owner is None:
            return Audience(frozenset())
        if self.visibility is Visibility.TEAM:
            return Audience(frozenset(seating.team_of(self.owner)))
        return Audience(frozenset({self.owner}))


class Zones:
    """A game's zone specs and its zone contents, read together."""

    def __init__(self, specs: Iterable[ZoneSpec], contents: Mapping[str, list[Any]],
                 seating: Seating) -> None:
        self.specs = {s.name: s for s in specs}
        self.contents = contents
        self.seating = seating

    def spec(self, name: str) -> ZoneSpec:
        return self.specs[name]

    def seen_by(self, name: str, reader: int | None) -> list[Any] | None:
        """The cards of ``name`` as ``reader`` (None: a spectator) sees them:
        the list, or None when the reader may only count them."""
        if self.spec(name).readers(self.seating).includes(reader):
            return list(self.contents.get(name, []))
        return None

    def count_seen_by(self, name: str, reader: int | None) -> int | None:
        """How many cards ``reader`` knows ``name`` holds (None: secret)."""
        spec = self.spec(name)
        if spec.visibility is Visibility.SECRET and not spec.readers(self.seating).includes(
                reader):
            return None
        return len(self.contents.get(name, []))

    def view(self, reader: int | None) -> dict[str, Any]:
        """Every zone as ``reader`` sees it: {"cards": [...]} or {"count": n}."""
        out: dict[str, Any] = {}
        for name in self.specs:
            cards = self.seen_by(name, reader)
            if cards is not None:
                out[name] = {"cards": cards, "count": len(cards)}
            else:
                count = self.count_seen_by(name, reader)
                out[name] = {"count": count} if count is not None else {}
        return out

    def move_audience(self, source: str, target: str) -> Audience:
        """Who may read which card moved from ``source`` to ``target``: only
        those who see the faces of both ends (a card drawn from the deck to a
        hand: the hand's readers; from a hand to a face-up row: everyone)."""
        a = self.spec(source).readers(self.seating)
        b = self.spec(target).readers(self.seating)
        if self.spec(source).visibility in (Visibility.COUNT_ONLY, Visibility.SECRET):
            return b
        if a.everyone:
            return Audience()  # the card was in plain sight before it moved
        if b.everyone:
            return Audience()  # the card is now in plain sight
        assert a.seats is not None and b.seats is not None
        return Audience(a.seats | b.seats)


def draw(deck: list[Any], count: int) -> list[Any]:
    """The top ``count`` cards of a deck (its first items), decide phase only."""
    return list(deck[:count])


def shuffle(cards: list[Any], roll: Callable[[int], int]) -> list[Any]:
    """A recorded shuffle: one die per swap, so an auditor can re-derive it."""
    result = list(cards)
    for i in range(len(result) - 1, 0, -1):
        j = roll(i + 1) - 1
        result[i], result[j] = result[j], result[i]
    return result
