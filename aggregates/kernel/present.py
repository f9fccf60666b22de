"""Game-owned presentation: a small vocabulary one generic renderer draws.

A game describes what a reader sees as a ``Screen``: titled ``Section`` s of a
few item kinds — ``Track`` (a named value, perhaps out of a maximum, perhaps
one per seat), ``Cards`` (a zone of cards, or only its count; each ``Card``
with its name, and optionally its colour, numbers and text), ``Table``
(rows under column headings), ``Board`` (a map: spaces, their links and what
stands on them) and ``Note`` (a sentence). The terminal renderer and the web
page draw every game from this vocabulary alone, so no client holds a line of
any game's rules or wording (as OpenSpiel's observation strings, but
structured).

Everything here is plain data: ``to_json`` gives what travels on the wire
(``GameState.screen_json``), ``screen_from_json`` reads it back. What travels
is declared once, as the ``TypedDict`` s below (``ScreenJson`` and the item
kinds it holds), the types ``to_json`` returns (mypy holds them to it): the
served JSON Schema of a screen is written from them
(``kernel.record.schemas.SCREEN``), each type's docstring its description.
"""

from __future__ import annotations

import dataclasses
import string
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal, NotRequired, TypedDict

# A seat has one name everywhere: the games' sentences and screens, the terminal
# and the pages name it through these (the client library's, which every client
# renders with).
from arbiter.names import capitalized as capitalized
from arbiter.names import default_seat_name as default_seat_name
from arbiter.names import plural as plural
from arbiter.names import possessive as possessive
from arbiter.names import seat_name as seat_name

from aggregates.kernel.keywords import Keywords

#: The colours a card or a space may be painted in: names every renderer knows
#: (the web page paints each with its own fill). A colour is never the only
#: sign: it is always shown beside its words (``colour_label``, else its name),
#: for a reader who cannot tell the colours apart.
Colour = Literal["red", "orange", "yellow", "green", "blue", "purple", "pink", "brown",
                 "grey", "black", "white", "teal"]
COLOURS: tuple[str, ...] = typing.get_args(Colour)


# --- the screen on the wire: ``Screen.to_json`` -----------------------------------------
# (An object without a docstring is served without a description, as it always was.)


class StatJson(TypedDict):
    label: str
    value: int | str


class CardJson(TypedDict):
    """One card face; every field but id and name is optional."""

    id: int | str
    name: str
    detail: NotRequired[str]
    tag: NotRequired[str]
    colour: NotRequired[Annotated[Colour, Keywords(
        description="The card's colour or faction, to paint it.")]]
    colour_label: NotRequired[Annotated[str, Keywords(
        description="The colour in words (a faction's name), always shown beside it; "
                    "the colour's name when absent.")]]
    stats: NotRequired[Annotated[list[StatJson], Keywords(
        description="The card's numbers, in order.")]]
    text: NotRequired[Annotated[str, Keywords(description="The card's rules text.")]]


class TrackJson(TypedDict):
    """A named value (HP 7/12), or one value per seat (per_seat)."""

    kind: Literal["track"]
    label: str
    value: NotRequired[Any]
    maximum: NotRequired[int]
    per_seat: NotRequired[list[Any]]


class CardsJson(TypedDict):
    """A zone of cards: the faces the reader may see, or only a count."""

    kind: Literal["cards"]
    label: str
    cards: NotRequired[list[CardJson]]
    count: Annotated[int, Keywords(minimum=0)]
    zone: NotRequired[str]
    numbered: NotRequired[bool]


class TableJson(TypedDict):
    kind: Literal["table"]
    label: str
    columns: list[str]
    rows: list[list[Any]]


class SpaceJson(TypedDict):
    id: int | str
    name: str
    links: NotRequired[list[int | str]]
    occupants: NotRequired[list[str]]
    marked: NotRequired[bool]
    x: NotRequired[Annotated[float, Keywords(minimum=0, maximum=100)]]
    y: NotRequired[Annotated[float, Keywords(minimum=0, maximum=100)]]
    owner: NotRequired[str]
    marks: NotRequired[list[str]]
    colour: NotRequired[Annotated[Colour, Keywords(description="The controller's colour.")]]
    summary: NotRequired[Annotated[str, Keywords(
        description='What a map writes on the space ("2I 1C").')]]


class BoardJson(TypedDict):
    kind: Literal["board"]
    label: str
    spaces: list[SpaceJson]


class NoteJson(TypedDict):
    kind: Literal["note"]
    text: str


ItemJson = TrackJson | CardsJson | TableJson | BoardJson | NoteJson


class SectionJson(TypedDict):
    title: str
    items: list[ItemJson]


class ScreenJson(TypedDict):
    """What one reader sees of a game, in the kernel's presentation vocabulary
    (aggregates/kernel/present.py): titled sections of items."""

    sections: list[SectionJson]


#: One event's sentence: from the payload its reader got and a seat namer.
Sentence = Callable[[Mapping[str, Any], Callable[[Any], str]], str]


def sentence_of(sentences: Mapping[str, Sentence], event_type: str,
                payload: Mapping[str, Any], seats: Sequence[str]) -> str | None:
    """An event worded by a game's table of sentences, seats by their names;
    None where the table has none for it or the payload is not the shape its
    sentence reads (a form it was not written for): the kernel words it then."""
    sentence = sentences.get(event_type)
    if sentence is None:
        return None
    try:
        return sentence(payload, lambda seat: seat_name(seat, seats))
    except (KeyError, TypeError, ValueError, IndexError):
        return None


def template(text: str, *seats: str) -> Sentence:
    """The sentence of a template of the payload's facts: ``text`` with
    ``str.format`` fields named by its keys (``{value}``, ``{glory:+d}``), those
    of ``seats`` (``seat`` unless named) standing for the seat's name."""
    fields = {name for _, name, _, _ in string.Formatter().parse(text) if name}
    named = [k for k in seats or ("seat",) if k in fields]

    def sentence(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
        return text.format_map({**p, **{k: who(p[k]) for k in named}})

    return sentence


def answered(flag: str, yes: str, no: str) -> Sentence:
    """The sentence of a seat's yes-or-no answer (to draw or not, to score now
    or keep, to call for allies or not): the seat's name, then ``yes`` where
    the payload's ``flag`` holds, else ``no``."""

    def sentence(p: Mapping[str, Any], who: Callable[[Any], str]) -> str:
        return f"{who(p['seat'])} {yes if p[flag] else no}"

    return sentence


@dataclasses.dataclass(frozen=True)
class Card:
    """One card face: its id (what a command names), a short name, details.

    A card drawn as a card also has its colour or faction (``colour``, one of
    ``COLOURS``, with ``colour_label`` in words: "Kingdom of Sweden"; the
    colour's name when empty), its numbers (``stats``: short label and value
    pairs, "S" 3, "Cost" 2) and its rules text (``text``). Every field but
    ``id`` and ``name`` is optional and left out of the JSON when empty, so a
    reader written before them reads the same card.
    """

    id: int | str
    name: str
    detail: str = ""
    #: A family or type the renderer may use to group (e.g. "Hero", "Order").
    tag: str = ""
    colour: str = ""
    colour_label: str = ""
    stats: tuple[tuple[str, int | str], ...] = ()
    text: str = ""

    def to_json(self) -> CardJson:
        out: CardJson = {"id": self.id, "name": self.name}
        if self.detail:
            out["detail"] = self.detail
        if self.tag:
            out["tag"] = self.tag
        if self.colour:
            out["colour"] = typing.cast(Colour, self.colour)
        if self.colour_label:
            out["colour_label"] = self.colour_label
        if self.text:
            out["text"] = self.text
        if self.stats:
            out["stats"] = [{"label": label, "value": value} for label, value in self.stats]
        return out


@dataclasses.dataclass(frozen=True)
class Track:
    """A named value: ``HP 7/12``; with ``per_seat``, one value per seat."""

    label: str
    value: Any = None
    maximum: int | None = None
    per_seat: tuple[Any, ...] | None = None

    def to_json(self) -> TrackJson:
        out: TrackJson = {"kind": "track", "label": self.label}
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

    def to_json(self) -> CardsJson:
        out: CardsJson = (
            {"kind": "cards", "label": self.label, "count": self.count or 0}
            if self.cards is None else
            {"kind": "cards", "label": self.label, "cards": [c.to_json() for c in self.cards],
             "count": len(self.cards)})
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

    def to_json(self) -> TableJson:
        return {"kind": "table", "label": self.label, "columns": list(self.columns),
                "rows": [list(r) for r in self.rows]}


@dataclasses.dataclass(frozen=True)
class Space:
    """One space of a board: its id, name, neighbours and what stands on it.

    A map (Titans' regions) also gives each space where it is drawn (``x``,
    ``y`` on a 0..100 canvas), who controls it (``owner``, in words) and its
    markers (``marks``: "Stronghold", "Capitol"...) and the controller's
    colour (``colour``); a renderer that draws no map lists the spaces with
    these as text.
    """

    id: int | str
    name: str
    links: tuple[int | str, ...] = ()
    occupants: tuple[str, ...] = ()
    marked: bool = False
    x: float | None = None
    y: float | None = None
    owner: str = ""
    marks: tuple[str, ...] = ()
    #: The controller's colour (one of ``COLOURS``), drawn beside ``owner``.
    colour: str = ""
    #: What a map writes on the space in a few characters ("2I 1C"); the
    #: occupants say it in full.
    summary: str = ""

    def to_json(self) -> SpaceJson:
        out: SpaceJson = {"id": self.id, "name": self.name}
        if self.links:
            out["links"] = list(self.links)
        if self.occupants:
            out["occupants"] = list(self.occupants)
        if self.marked:
            out["marked"] = True
        if self.x is not None and self.y is not None:
            out["x"], out["y"] = self.x, self.y
        if self.owner:
            out["owner"] = self.owner
        if self.marks:
            out["marks"] = list(self.marks)
        if self.colour:
            out["colour"] = typing.cast(Colour, self.colour)
        if self.summary:
            out["summary"] = self.summary
        return out


@dataclasses.dataclass(frozen=True)
class Board:
    """A map: spaces and their links; ``marked`` spaces are highlighted."""

    label: str
    spaces: tuple[Space, ...]

    def to_json(self) -> BoardJson:
        return {"kind": "board", "label": self.label,
                "spaces": [s.to_json() for s in self.spaces]}


@dataclasses.dataclass(frozen=True)
class Note:
    """A sentence (the current encounter, a reminder of a rule in force)."""

    text: str

    def to_json(self) -> NoteJson:
        return {"kind": "note", "text": self.text}


Item = Track | Cards | Table | Board | Note
ITEM_KINDS = ("track", "cards", "table", "board", "note")


@dataclasses.dataclass(frozen=True)
class Section:
    """A titled group of items: 'You', 'Kingdoms', 'The row', 'Encounter'."""

    title: str
    items: tuple[Item, ...]

    def to_json(self) -> SectionJson:
        return {"title": self.title, "items": [i.to_json() for i in self.items]}


@dataclasses.dataclass(frozen=True)
class Screen:
    """What one reader sees of a game, as titled sections."""

    sections: tuple[Section, ...]

    def to_json(self) -> ScreenJson:
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
            elif kind == "cards":
                problems += [f"{s['title']}: {p}" for c in item.get("cards") or []
                             for p in _colour_problems(c)]
            elif kind == "board":
                problems += [f"{s['title']}: {p}" for c in item.get("spaces") or []
                             for p in _colour_problems(c)]
    return problems


def _colour_problems(face: Any) -> list[str]:
    """A card's or space's colour outside the palette, or stats not label/value pairs."""
    if not isinstance(face, Mapping):
        return []
    problems = []
    colour = face.get("colour")
    if colour is not None and colour not in COLOURS:
        problems.append(f"{face.get('id')!r}: colour {colour!r} is not one of {COLOURS}")
    stats = face.get("stats", [])
    if not isinstance(stats, list) or not all(
            isinstance(x, Mapping) and isinstance(x.get("label"), str) and "value" in x
            for x in stats):
        problems.append(f"{face.get('id')!r}: stats are not a list of label/value pairs")
    return problems


# --- counted nouns and lists, as a player reads them -----------------------------------


def listing(parts: Sequence[str], conjunction: str = "and", empty: str = "") -> str:
    """``A``, ``A and B``, ``A, B and C``: a list in a sentence, never ``[A, B]``;
    ``empty`` when there is nothing to list."""
    if not parts:
        return empty
    if len(parts) == 1:
        return parts[0]
    return f"{', '.join(parts[:-1])} {conjunction} {parts[-1]}"
