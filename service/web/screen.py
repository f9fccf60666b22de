"""A game's screen as HTML: the web twin of the terminal renderer.

It draws the game-owned presentation vocabulary (``aggregates.kernel.present``:
sections of tracks, cards, tables, boards and notes) and nothing else, so the
web side holds no line of any game's rules or wording, exactly as
``clients.render`` does for the terminal. Every value is escaped; the words
are the game's, formatted by the same helpers the terminal uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

from clients.render import card_text, counted, format_value, plural, seat_name, seat_value


def _join(parts: Sequence[Markup | str]) -> Markup:
    return Markup("").join(parts)


def _tag(name: str, body: Markup | str, **attrs: Any) -> Markup:
    rendered = "".join(
        f' {k.rstrip("_").replace("_", "-")}="{escape(v)}"'
        for k, v in attrs.items() if v not in (None, False, ""))
    return Markup(f"<{name}{rendered}>") + escape(body) + Markup(f"</{name}>")


def track(item: Mapping[str, Any], seats: Sequence[str]) -> Markup:
    label = str(item.get("label", ""))
    maximum = item.get("maximum")

    def value(v: Any) -> str:
        return f"{seat_value(v)}/{maximum}" if maximum is not None else seat_value(v)

    per_seat = item.get("per_seat")
    if isinstance(per_seat, list):
        cells = _join([_tag("li", _tag("span", seat_name(s, seats), class_="who")
                            + Markup(" ") + _tag("span", value(v), class_="value"))
                       for s, v in enumerate(per_seat)])
        return _tag("div", _tag("span", label, class_="label")
                    + _tag("ul", cells, class_="per-seat"), class_="item track")
    return _tag("div", _tag("span", label, class_="label") + Markup(" ")
                + _tag("span", value(item.get("value")), class_="value"), class_="item track")


def card(face: Any, numbered_as: int | None = None) -> Markup:
    tag = face.get("tag", "") if isinstance(face, Mapping) else ""
    detail = face.get("detail", "") if isinstance(face, Mapping) else ""
    ident = face.get("id", "") if isinstance(face, Mapping) else face
    head = Markup(f'<span class="n">{numbered_as}.</span> ') if numbered_as else Markup("")
    return _tag("li", head + card_text(face), class_="card", data_card=str(ident),
                data_tag=str(tag), title=str(detail))


def cards(item: Mapping[str, Any]) -> Markup:
    label = str(item.get("label", ""))
    faces = item.get("cards")
    zone = str(item.get("zone", ""))
    if not isinstance(faces, list):  # a hidden zone: only its size
        body = _tag("span", plural(int(item.get("count") or 0), "card"), class_="value hidden")
        return _tag("div", _tag("span", label, class_="label") + Markup(" ") + body,
                    class_="item cards", data_zone=zone)
    if not faces:
        return _tag("div", _tag("span", label, class_="label") + Markup(" ")
                    + _tag("span", "none", class_="value"), class_="item cards", data_zone=zone)
    number = bool(item.get("numbered"))
    listed = _join([card(f, n if number else None) for n, f in enumerate(faces, 1)])
    return _tag("div", _tag("span", counted(label, len(faces)), class_="label")
                + _tag("ul", listed, class_="card-list"), class_="item cards", data_zone=zone)


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


def board(item: Mapping[str, Any]) -> Markup:
    spaces = [s for s in item.get("spaces") or [] if isinstance(s, Mapping)]
    names = {str(s.get("id")): str(s.get("name", s.get("id"))) for s in spaces}
    entries = []
    for space in spaces:
        name = f"{space.get('id')} {space.get('name', '')}".rstrip()
        parts: list[Markup | str] = [_tag("span", name, class_="space-name")]
        occupants = space.get("occupants") or []
        if occupants:
            parts.append(_tag("span", ", ".join(str(o) for o in occupants), class_="occupants"))
        links = space.get("links") or []
        if links:
            parts.append(_tag("span", "→ " + ", ".join(names.get(str(x), str(x)) for x in links),
                              class_="links"))
        entries.append(_tag("li", _join(parts), class_="space marked" if space.get("marked")
                            else "space", data_space=str(space.get("id"))))
    body = _tag("ul", _join(entries), class_="spaces") if entries else _tag("p", "(no spaces)")
    return _tag("div", _tag("span", str(item.get("label", "")), class_="label") + body,
                class_="item board")


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
