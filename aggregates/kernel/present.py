"""Game-owned presentation: a small vocabulary one generic renderer draws.

A game describes what a reader sees as a ``Screen``: titled ``Section`` s of a
few item kinds — ``Track`` (a named value, perhaps out of a maximum, perhaps
one per seat), ``Cards`` (a zone of cards, or only its count), ``Table``
(rows under column headings), ``Board`` (a map: spaces, their links and what
stands on them) and ``Note`` (a sentence). The terminal renderer and the web
page draw every game from this vocabulary alone, so no client holds a line of
any game's rules or wording (as OpenSpiel's observation strings, but
structured).

Everything here is plain data: ``to_json`` gives what travels on the wire
(``GameState.screen_json``), ``screen_from_json`` reads it back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any


@dataclasses.dataclass(frozen=True)
class Card:
    """One card face: its id (what a command names), a short name, details."""

    id: int | str
    name: str
    detail: str = ""
    #: A colour or family the renderer may use to group or tint (e.g. a Kingdom).
    tag: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name}
        if self.detail:
            out["detail"] = self.detail
        if self.tag:
            out["tag"] = self.tag
        return out


@dataclasses.dataclass(frozen=True)
class Track:
    """A named value: ``HP 7/12``; with ``per_seat``, one value per seat."""

    label: str
    value: Any = None
    maximum: int | None = None
    per_seat: tuple[Any, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "track", "label": self.label}
        if self.per_seat is not None:
            out["per_seat"] = list(self.per_seat)
        else:
            out["value"] = self.value
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


@dataclasses.dataclass(frozen=True)
class Cards:
    """A zone of cards as the reader may see it: the faces, or only a count.

    ``zone`` names the zone so a choice (``PickCards``) can point at it;
    ``numbered`` asks the renderer to number the faces for picking.
    """

    label: str
    cards: tuple[Card, ...] | None = None
    count: int | None = None
    zone: str = ""
    numbered: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "cards", "label": self.label}
        if self.cards is not None:
            out["cards"] = [c.to_json() for c in self.cards]
        out["count"] = len(self.cards) if self.cards is not None else (self.count or 0)
        if self.zone:
            out["zone"] = self.zone
        if self.numbered:
            out["numbered"] = True
        return out


@dataclasses.dataclass(frozen=True)
class Table:
    """Rows under column headings (scores per seat, a location row, a chart)."""

    label: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {"kind": "table", "label": self.label, "columns": list(self.columns),
                "rows": [list(r) for r in self.rows]}


@dataclasses.dataclass(frozen=True)
class Space:
    """One space of a board: its id, name, neighbours and what stands on it."""

    id: int | str
    name: str
    links: tuple[int | str, ...] = ()
    occupants: tuple[str, ...] = ()
    marked: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name}
        if self.links:
            out["links"] = list(self.links)
        if self.occupants:
            out["occupants"] = list(self.occupants)
        if self.marked:
            out["marked"] = True
        return out


@dataclasses.dataclass(frozen=True)
class Board:
    """A map: spaces and their links; ``marked`` spaces are highlighted."""

    label: str
    spaces: tuple[Space, ...]

    def to_json(self) -> dict[str, Any]:
        return {"kind": "board", "label": self.label,
                "spaces": [s.to_json() for s in self.spaces]}


@dataclasses.dataclass(frozen=True)
class Note:
    """A sentence (the current encounter, a reminder of a rule in force)."""

    text: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": "note", "text": self.text}


Item = Track | Cards | Table | Board | Note
ITEM_KINDS = ("track", "cards", "table", "board", "note")


@dataclasses.dataclass(frozen=True)
class Section:
    """A titled group of items: 'You', 'Kingdoms', 'The row', 'Encounter'."""

    title: str
    items: tuple[Item, ...]

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "items": [i.to_json() for i in self.items]}


@dataclasses.dataclass(frozen=True)
class Screen:
    """What one reader sees of a game, as titled sections."""

    sections: tuple[Section, ...]

    def to_json(self) -> dict[str, Any]:
        return {"sections": [s.to_json() for s in self.sections]}


def section(title: str, *items: Item | None) -> Section:
    """A section of the items given, leaving out the ``None`` ones (not shown now)."""
    return Section(title, tuple(i for i in items if i is not None))


def screen(*sections: Section | None) -> Screen:
    """A screen of the non-empty sections given."""
    return Screen(tuple(s for s in sections if s is not None and s.items))


def generic_screen(view: Mapping[str, Any]) -> Screen:
    """A screen for a game that draws none of its own: its view as a key list.

    Scalars become tracks, lists of scalars become cards, anything else a note
    with its JSON, so every game is drawable from the first day.
    """
    items: list[Item] = []
    for key, value in view.items():
        label = str(key).replace("_", " ")
        if isinstance(value, bool | int | float | str) or value is None:
            items.append(Track(label, value))
        elif isinstance(value, Sequence) and all(
            isinstance(v, int | str) for v in value
        ):
            items.append(Cards(label, tuple(Card(v, str(v)) for v in value)))
        else:
            items.append(Note(f"{label}: {value}"))
    return screen(Section("State", tuple(items)))


def validate_screen(data: Mapping[str, Any]) -> list[str]:
    """Problems with a screen's JSON (empty when it is well formed).

    The renderers trust this shape; a test runs it over every game's screens.
    """
    problems: list[str] = []
    sections = data.get("sections")
    if not isinstance(sections, list):
        return ["screen has no list of sections"]
    for s in sections:
        if not isinstance(s, Mapping) or not isinstance(s.get("title"), str):
            problems.append(f"section without a title: {s!r}")
            continue
        for item in s.get("items", []):
            kind = item.get("kind") if isinstance(item, Mapping) else None
            if kind not in ITEM_KINDS:
                problems.append(f"{s['title']}: unknown item kind {kind!r}")
            elif kind == "cards" and "count" not in item:
                problems.append(f"{s['title']}: cards without a count")
    return problems
