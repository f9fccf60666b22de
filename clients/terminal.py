"""A game's screen drawn with ``rich`` for a terminal (issue 23 item 4).

The same presentation vocabulary as ``arbiter.render`` (titled sections of
tracks, cards, tables, boards and notes; see ``aggregates/kernel/present.py``),
laid out for the terminal it is drawn on: tables fit its width (a cell wraps
inside its column instead of the line breaking at 80 columns mid-word), a
card's colour or family (``Card.tag``) tints its name and is still written
out for colour-blind readers, headings and the reader's own zones stand out.
No game is known here. ``arbiter.render`` stays the plain-text form (pipes,
logs, the tests' transcripts).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from arbiter.render import card_text, counted, format_value, seat_name, seat_value
from rich import box
from rich.color import Color, ColorParseError
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from aggregates.kernel.present import plural
from clients.render import render_screen

#: A few colour words games use as tags that ``rich`` spells otherwise.
COLOUR_WORDS = {"gray": "grey50", "grey": "grey50", "orange": "dark_orange", "purple": "purple",
                "brown": "orange4", "pink": "hot_pink"}


@functools.lru_cache(maxsize=256)
def tag_style(tag: str) -> str:
    """The style a card's tag tints it with: the tag when it names a colour, else none."""
    word = COLOUR_WORDS.get(tag.lower(), tag.lower())
    try:
        Color.parse(word)
    except ColorParseError:
        return ""
    return f"bold {word}"


def card_line(card: Any) -> Text:
    """One card face: its words as ``arbiter.render`` writes them, the
    name tinted by its tag."""
    text = Text(card_text(card))
    if isinstance(card, Mapping):
        style = tag_style(str(card.get("tag") or ""))
        name = str(card.get("name", card.get("id", "")))
        if style and name:
            text.stylize(style, 0, len(name))
    return text


def _track(item: Mapping[str, Any], seats: Sequence[str]) -> Text:
    label = str(item.get("label", ""))
    maximum = item.get("maximum")

    def value(v: Any) -> str:
        return f"{seat_value(v)}/{maximum}" if maximum is not None else seat_value(v)

    per_seat = item.get("per_seat")
    words = (" · ".join(f"{seat_name(s, seats)} {value(v)}" for s, v in enumerate(per_seat))
             if isinstance(per_seat, list) else value(item.get("value")))
    return Text.assemble((f"{label}: ", "bold"), words)


def _cards(item: Mapping[str, Any]) -> RenderableType:
    label = str(item.get("label", ""))
    cards = item.get("cards")
    if not isinstance(cards, list):  # a hidden zone: only its size
        return Text.assemble((f"{label}: ", "bold"),
                             (plural(int(item.get("count") or 0), "card"), "dim"))
    if not cards:
        return Text.assemble((f"{label}: ", "bold"), ("none", "dim"))
    head = Text(f"{counted(label, len(cards))}:", style="bold")
    if item.get("numbered"):
        width = len(str(len(cards)))
        lines = [Text.assemble(f"{n:>{width}}. ", card_line(c)) for n, c in enumerate(cards, 1)]
        return Group(head, Padding(Group(*lines), (0, 0, 0, 2)))
    return Group(head, Padding(Text(", ").join(card_line(c) for c in cards), (0, 0, 0, 2)))


def _table(item: Mapping[str, Any]) -> Table:
    columns = [str(c) for c in item.get("columns") or []]
    rows = [[format_value(v) for v in row] for row in item.get("rows") or []
            if isinstance(row, list)]
    width = max([len(columns)] + [len(r) for r in rows])
    table = Table(title=str(item.get("label", "")), title_justify="left", title_style="bold",
                  box=box.SIMPLE_HEAD, show_header=bool(columns), pad_edge=False)
    for i in range(width):
        table.add_column(columns[i] if i < len(columns) else "", overflow="fold")
    for row in rows:
        table.add_row(*(row + [""] * (width - len(row))))
    if not rows:
        table.add_row(*(["(empty)"] + [""] * (width - 1)))
    return table


def _board(item: Mapping[str, Any]) -> RenderableType:
    spaces = [s for s in item.get("spaces") or [] if isinstance(s, Mapping)]
    names = {str(s.get("id")): str(s.get("name", s.get("id"))) for s in spaces}
    lines: list[RenderableType] = [Text(f"{item.get('label', '')}:", style="bold")]
    for space in spaces:
        text = Text("> " if space.get("marked") else "  ")
        text.append(f"{space.get('id')} {space.get('name', '')}".rstrip(),
                    style="bold reverse" if space.get("marked") else "")
        if space.get("occupants"):
            text.append(": " + ", ".join(str(o) for o in space["occupants"]))
        if space.get("links"):
            text.append("  -> " + ", ".join(names.get(str(x), str(x)) for x in space["links"]),
                        style="dim")
        lines.append(text)
    return Group(*lines)


def item_renderable(item: Mapping[str, Any], seats: Sequence[str] = ()) -> RenderableType:
    """One item of a section in its kind's layout (anything else as plain text)."""
    kind = item.get("kind")
    if kind == "track":
        return _track(item, seats)
    if kind == "cards":
        return _cards(item)
    if kind == "table":
        return _table(item)
    if kind == "board":
        return _board(item)
    if kind == "note":
        return Text(str(item.get("text", "")), style="italic")
    return Text("\n".join(render_screen({"sections": [{"title": "", "items": [item]}]})[1:]))


def screen_renderables(screen: Mapping[str, Any], seats: Sequence[str] = ()
                       ) -> list[RenderableType]:
    """A game's screen: each section under a rule bearing its title, then its items."""
    out: list[RenderableType] = []
    for section in screen.get("sections") or []:
        if not isinstance(section, Mapping):
            continue
        out.append(Rule(Text(str(section.get("title", "")), style="bold cyan"), align="left"))
        out += [item_renderable(i, seats) for i in section.get("items") or []
                if isinstance(i, Mapping)]
    return out


def draw_screen(console: Console, screen: Mapping[str, Any], seats: Sequence[str] = ()) -> None:
    """Print ``screen`` on ``console``, as wide as the console is."""
    for renderable in screen_renderables(screen, seats):
        console.print(renderable)
