"""A game's screen as HTML: the web twin of the terminal renderer.

It draws the game-owned presentation vocabulary (``aggregates.kernel.present``:
sections of tracks, cards, tables, boards and notes) and nothing else, so the
web side holds no line of any game's rules or wording, exactly as
``arbiter.render`` does for the terminal. Every value is escaped; the words
are the game's, formatted by the same helpers the terminal uses.

How each kind is drawn, phone first:

- a card as a card (``li.card``): its name on top, its colour or faction as a
  band painted in that colour *and* written in words (a colour is never the
  only sign), its numbers as labelled boxes, its text below; a zone's cards
  as a wrapping row; a hidden zone as a face-down pile with its size;
- a track with a maximum as pips (up to ``PIPS``) or a bar (a ``<meter>``),
  always with its value in figures;
- a board whose spaces all have a position as a map (an inline SVG of the
  spaces, their links, controllers and marks; each space with a ``<title>``
  for screen readers and a tap), then the same spaces as a list; any other
  board as the list alone.

The page's Content-Security-Policy allows no inline style, so colours are
classes (``colour-red``) that ``static/style.css`` paints, and every size in
the map is an SVG attribute.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from arbiter.render import (
    card_stats,
    card_text,
    colour_words,
    counted,
    format_value,
    seat_name,
    seat_value,
)
from markupsafe import Markup, escape

from aggregates.kernel.present import COLOURS, plural

#: A track of at most this many steps is drawn as pips, a longer one as a bar.
PIPS = 12
#: Room around the 0..100 map canvas for the names written under its edge spaces.
MARGIN = 8
#: A space's radius on the map, in canvas units.
RADIUS = 4.2


def _join(parts: Sequence[Markup | str]) -> Markup:
    return Markup("").join(parts)


def _attrs(attrs: Mapping[str, Any]) -> str:
    return "".join(f' {k.rstrip("_").replace("_", "-")}="{escape(v)}"'
                   for k, v in attrs.items() if v not in (None, False, ""))


def _tag(name: str, body: Markup | str, **attrs: Any) -> Markup:
    return Markup(f"<{name}{_attrs(attrs)}>") + escape(body) + Markup(f"</{name}>")


def _colour(value: Any) -> str:
    """The palette's name for a colour, or "" (a colour outside it is not painted)."""
    return str(value) if value in COLOURS else ""


# --- tracks ------------------------------------------------------------------------


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def gauge(value: Any, maximum: Any) -> Markup:
    """A value out of a known maximum, drawn (pips or a bar) beside its figures;
    the drawing is decoration (``aria-hidden``): the figures say it."""
    number, top = _number(value), _number(maximum)
    if number is None or top is None or top <= 0:
        return Markup("")
    filled = max(0, min(int(number), int(top)))
    if top <= PIPS:
        pips = _join([_tag("span", "", class_="pip on" if i < filled else "pip")
                      for i in range(int(top))])
        return _tag("span", pips, class_="pips", aria_hidden="true")
    return Markup(f'<meter class="bar" min="0" max="{top:g}" value="{filled}" '
                  'aria-hidden="true"></meter>')


def track(item: Mapping[str, Any], seats: Sequence[str]) -> Markup:
    label = str(item.get("label", ""))
    maximum = item.get("maximum")

    def value(v: Any) -> Markup:
        text = f"{seat_value(v)}/{maximum}" if maximum is not None else seat_value(v)
        return gauge(v, maximum) + _tag("span", text, class_="value")

    per_seat = item.get("per_seat")
    if isinstance(per_seat, list):
        cells = _join([_tag("li", _tag("span", seat_name(s, seats), class_="who")
                            + Markup(" ") + value(v))
                       for s, v in enumerate(per_seat)])
        return _tag("div", _tag("span", label, class_="label")
                    + _tag("ul", cells, class_="per-seat"), class_="item track")
    return _tag("div", _tag("span", label, class_="label") + Markup(" ")
                + value(item.get("value")), class_="item track")


# --- cards -------------------------------------------------------------------------


def card(face: Any, numbered_as: int | None = None) -> Markup:
    """One card face as a card: number (for picking), name, colour band in
    words, numbers, text. A bare id (not a face) is a card with that name."""
    if not isinstance(face, Mapping):
        face = {"id": face, "name": format_value(face)}
    name = str(face.get("name", face.get("id", "?")))
    colour = _colour(face.get("colour"))
    words = colour_words(face)
    head = _tag("span", f"{numbered_as}", class_="n") if numbered_as else Markup("")
    parts = [_tag("span", head + _tag("span", name, class_="card-name"), class_="card-head")]
    if colour or (words and words.lower() not in name.lower()):  # painted: always in words
        parts.append(_tag("span", words, class_="card-colour"))
    tag = str(face.get("tag") or "")
    if tag and tag.lower() not in name.lower() and tag.lower() != words.lower():
        parts.append(_tag("span", tag, class_="card-tag"))
    stats = card_stats(face)
    if stats:
        parts.append(_tag("dl", _join([_tag("div", _tag("dt", k) + _tag("dd", v))
                                       for k, v in stats]), class_="card-stats"))
    for key in ("text", "detail"):
        if face.get(key):
            parts.append(_tag("span", str(face[key]), class_=f"card-{key}"))
    classes = "card" + (f" colour-{colour}" if colour else "")
    return _tag("li", _join(parts), class_=classes, data_card=str(face.get("id", "")),
                data_tag=tag, data_colour=colour, title=card_text(face))


def cards(item: Mapping[str, Any]) -> Markup:
    label = str(item.get("label", ""))
    faces = item.get("cards")
    zone = str(item.get("zone", ""))
    if not isinstance(faces, list):  # a hidden zone: a face-down pile with its size
        count = int(item.get("count") or 0)
        pile = _tag("span", plural(count, "card"), class_="pile" if count else "pile empty")
        return _tag("div", _tag("span", label, class_="label") + Markup(" ")
                    + _tag("span", pile, class_="value hidden"),
                    class_="item cards", data_zone=zone)
    if not faces:
        return _tag("div", _tag("span", label, class_="label") + Markup(" ")
                    + _tag("span", "none", class_="value"), class_="item cards", data_zone=zone)
    number = bool(item.get("numbered"))
    listed = _join([card(f, n if number else None) for n, f in enumerate(faces, 1)])
    return _tag("div", _tag("span", counted(label, len(faces)), class_="label")
                + _tag("ul", listed, class_="card-list"), class_="item cards", data_zone=zone)


# --- tables ------------------------------------------------------------------------


def table(item: Mapping[str, Any]) -> Markup:
    columns = [str(c) for c in item.get("columns") or []]
    rows = [r for r in item.get("rows") or [] if isinstance(r, list)]
    head = _tag("thead", _tag("tr", _join([_tag("th", c, scope="col") for c in columns]))) \
        if columns else Markup("")
    body = _tag("tbody", _join([
        _tag("tr", _join([_tag("td", format_value(v)) for v in row])) for row in rows
    ]) if rows else _tag("tr", _tag("td", "(empty)", colspan=max(len(columns), 1))))
    return _tag("div", _tag("table", _tag("caption", str(item.get("label", ""))) + head + body),
                class_="item table")


# --- boards ------------------------------------------------------------------------


def _placed(spaces: Sequence[Mapping[str, Any]]) -> bool:
    """A board is a map when every space has a position on the canvas."""
    return bool(spaces) and all(_number(s.get("x")) is not None
                                and _number(s.get("y")) is not None for s in spaces)


def initials(words: str) -> str:
    """The capitals of a controller's name ("Kingdom of Sweden" -> "KS"): what
    the map writes in a space beside its colour, for readers who cannot tell
    the colours apart (the legend spells each out)."""
    capitals = [w[0] for w in re.split(r"[\s\-]+", words) if w[:1].isupper()]
    return "".join(capitals[:3]) or words[:2]


def space_words(space: Mapping[str, Any]) -> str:
    """Everything about a space in one sentence (its ``<title>``)."""
    bits = [str(space.get("name", space.get("id")))]
    if space.get("owner"):
        bits.append(f"controlled by {space['owner']}")
    bits += [str(o) for o in space.get("occupants") or []
             if str(o) not in (space.get("marks") or [])]
    bits += [str(m) for m in space.get("marks") or []]
    return "; ".join(bits)


def _svg_space(space: Mapping[str, Any]) -> Markup:
    x, y = float(space["x"]), float(space["y"])
    owner = str(space.get("owner") or "")
    colour = _colour(space.get("colour"))
    shape = (f'<circle class="region{" colour-" + colour if colour else ""}'
             f'{" marked" if space.get("marked") else ""}" cx="{x:g}" cy="{y:g}" '
             f'r="{RADIUS:g}"></circle>')
    parts = [Markup(shape)]
    if owner:
        parts.append(_tag("text", initials(owner), x=f"{x:g}", y=f"{y + 1:g}",
                          class_="owner"))
    parts.append(_tag("text", str(space.get("name", space.get("id"))), x=f"{x:g}",
                      y=f"{y + RADIUS + 2.6:g}", class_="name"))
    summary = str(space.get("summary") or "")
    if summary:
        parts.append(_tag("text", summary, x=f"{x:g}", y=f"{y - RADIUS - 1:g}",
                          class_="units"))
    for n, mark in enumerate(space.get("marks") or []):
        mx, my = x + RADIUS * 0.8 + n * 3.2, y - RADIUS * 0.8
        parts.append(Markup(f'<rect class="mark" x="{mx - 1.5:g}" y="{my - 1.5:g}" '
                            'width="3" height="3" rx="0.6"></rect>')
                     + _tag("text", str(mark)[:1], x=f"{mx:g}", y=f"{my + 1:g}",
                            class_="mark-letter"))
    return _tag("g", _tag("title", space_words(space)) + _join(parts), class_="space",
                data_space=str(space.get("id")), role="listitem")


def board_map(spaces: Sequence[Mapping[str, Any]], label: str) -> Markup:
    """The spaces on their canvas: links as lines, spaces as discs painted in
    their controller's colour with its initials, marks as lettered badges."""
    where = {str(s.get("id")): (float(s["x"]), float(s["y"])) for s in spaces}
    lines, drawn = [], set()
    for space in spaces:
        a = str(space.get("id"))
        for link in space.get("links") or []:
            b = str(link)
            pair = tuple(sorted((a, b)))
            if b not in where or pair in drawn:
                continue
            drawn.add(pair)
            (x1, y1), (x2, y2) = where[a], where[b]
            lines.append(Markup(f'<line class="border" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" '
                                f'y2="{y2:g}"></line>'))
    box = f"{-MARGIN} {-MARGIN} {100 + 2 * MARGIN} {100 + 2 * MARGIN}"
    body = (_tag("title", label) + _tag("g", _join(lines), class_="borders", aria_hidden="true")
            + _tag("g", _join([_svg_space(s) for s in spaces]), class_="spaces-map",
                   role="list"))
    # A group, not an image: its regions stay readable one by one (their titles).
    return Markup(f'<svg class="map" viewBox="{box}" role="group" aria-label="{escape(label)}" '
                  'xmlns="http://www.w3.org/2000/svg">') + body + Markup("</svg>")


def legend(spaces: Sequence[Mapping[str, Any]]) -> Markup:
    """Each controller once: its colour swatch, its initials and its name."""
    seen: dict[str, str] = {}
    for space in spaces:
        owner = str(space.get("owner") or "")
        if owner and owner not in seen:
            seen[owner] = _colour(space.get("colour"))
    if not seen:
        return Markup("")
    entries = [_tag("li", _tag("span", initials(owner),
                               class_="swatch" + (f" colour-{c}" if c else ""))
                    + Markup(" ") + owner) for owner, c in seen.items()]
    return _tag("ul", _join(entries), class_="legend", aria_label="Who controls what")


def space_list(spaces: Sequence[Mapping[str, Any]]) -> Markup:
    """The spaces as a list: name, controller, what stands there, links."""
    names = {str(s.get("id")): str(s.get("name", s.get("id"))) for s in spaces}
    entries = []
    for space in spaces:
        name = f"{space.get('id')} {space.get('name', '')}".rstrip()
        parts: list[Markup | str] = [_tag("span", name, class_="space-name")]
        if space.get("owner"):
            colour = _colour(space.get("colour"))
            parts.append(_tag("span", str(space["owner"]),
                              class_="owner" + (f" colour-{colour}" if colour else "")))
        occupants = space.get("occupants") or []
        if occupants:
            parts.append(_tag("span", ", ".join(str(o) for o in occupants), class_="occupants"))
        links = space.get("links") or []
        if links:
            parts.append(_tag("span", "→ " + ", ".join(names.get(str(x), str(x)) for x in links),
                              class_="links"))
        entries.append(_tag("li", _join(parts), class_="space marked" if space.get("marked")
                            else "space", data_space=str(space.get("id"))))
    return _tag("ul", _join(entries), class_="spaces") if entries else _tag("p", "(no spaces)")


def board(item: Mapping[str, Any]) -> Markup:
    spaces = [s for s in item.get("spaces") or [] if isinstance(s, Mapping)]
    label = str(item.get("label", ""))
    head = _tag("span", label, class_="label")
    if not _placed(spaces):
        return _tag("div", head + space_list(spaces), class_="item board")
    listed = _tag("details", _tag("summary", f"Every space in words ({len(spaces)})")
                  + space_list(spaces), class_="space-details")
    return _tag("div", head + board_map(spaces, label) + legend(spaces) + listed,
                class_="item board map-board")


# --- the screen --------------------------------------------------------------------


def item_html(item: Mapping[str, Any], seats: Sequence[str] = ()) -> Markup:
    """One item of a section, in its kind's layout."""
    kind = item.get("kind")
    if kind == "track":
        return track(item, seats)
    if kind == "cards":
        return cards(item)
    if kind == "table":
        return table(item)
    if kind == "board":
        return board(item)
    if kind == "note":
        return _tag("p", str(item.get("text", "")), class_="item note")
    rest = {k: v for k, v in item.items() if k != "kind"}
    return _tag("p", f"{kind}: {format_value(rest)}", class_="item other")


def screen_html(screen: Mapping[str, Any], seats: Sequence[str] = ()) -> Markup:
    """A game's screen: each section under its title, each item in its kind's layout."""
    parts = []
    for section in screen.get("sections") or []:
        if not isinstance(section, Mapping):
            continue
        items = _join([item_html(i, seats) for i in section.get("items") or []
                       if isinstance(i, Mapping)])
        parts.append(_tag("section", _tag("h3", str(section.get("title", ""))) + items,
                          class_="screen-section"))
    return _join(parts)
