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
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from aggregates.kernel.seating import Audience, Seating


class Visibility(StrEnum):
    """Who sees the faces of a zone's cards (everyone else sees the count)."""

    PUBLIC = "public"          # a face-up row, played bands, a discard pile
    OWNER = "owner"            # a hand
    TEAM = "team"              # a hand the owner's allies may see (Ettin)
    COUNT_ONLY = "count_only"  # a face-down deck: nobody sees faces, all see the count


@dataclasses.dataclass(frozen=True)
class ZoneSpec:
    """A zone's name, owner (a seat, or None for the table) and visibility."""

    name: str
    visibility: Visibility
    owner: int | None = None
    ordered: bool = False
    #: The owner also sees the faces of this many cards at the top of a zone
    #: whose faces are otherwise hidden (Titans: the top 3 of a Nation Deck).
    top_visible: int = 0

    def readers(self, seating: Seating) -> Audience:
        """Who may see the faces of this zone's cards."""
        if self.visibility is Visibility.PUBLIC:
            return Audience()
        if self.visibility is Visibility.COUNT_ONLY or self.owner is None:
            return Audience(frozenset())
        if self.visibility is Visibility.TEAM:
            return Audience(frozenset(seating.team_of(self.owner)))
        return Audience(frozenset({self.owner}))

    def top_readers(self, seating: Seating) -> Audience:
        """Who may see the faces of the top ``top_visible`` cards: the zone's
        readers, and its owner too."""
        readers = self.readers(seating)
        if self.top_visible and self.owner is not None and readers.seats is not None:
            return Audience(readers.seats | {self.owner})
        return readers


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

    def top_seen_by(self, name: str, reader: int | None) -> list[Any] | None:
        """The top cards of ``name`` ``reader`` may see (all of them when the
        reader sees the zone), or None."""
        spec = self.spec(name)
        if spec.readers(self.seating).includes(reader):
            return list(self.contents.get(name, []))
        if spec.top_visible and spec.top_readers(self.seating).includes(reader):
            return list(self.contents.get(name, [])[:spec.top_visible])
        return None

    def count_seen_by(self, name: str, reader: int | None) -> int:
        """How many cards ``reader`` knows ``name`` holds: every reader counts them."""
        return len(self.contents.get(name, []))

    def view(self, reader: int | None) -> dict[str, Any]:
        """Every zone as ``reader`` sees it: {"cards": [...]} or {"count": n}."""
        out: dict[str, Any] = {}
        for name in self.specs:
            cards = self.seen_by(name, reader)
            if cards is not None:
                out[name] = {"cards": cards, "count": len(cards)}
            else:
                out[name] = {"count": self.count_seen_by(name, reader)}
                top = self.top_seen_by(name, reader)
                if top is not None:
                    out[name]["top"] = top
        return out

    def move_audience(self, source: str, target: str) -> Audience:
        """Who may read which card moved from ``source`` to ``target``: only
        those who see the faces of both ends (a card drawn from the deck to a
        hand: the hand's readers; from a hand to a face-up row: everyone)."""
        a = self.spec(source).readers(self.seating)
        b = self.spec(target).readers(self.seating)
        if self.spec(source).visibility is Visibility.COUNT_ONLY:
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
