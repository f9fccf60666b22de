"""The terminal's layout of Arbiter's messages: a screen's sections, the state, the
rules, the legal list, an audit and the games, as plain text for ``arbiter``.

The words themselves (a card's, an event's, an outcome's, a pending decision's)
are shared with the web pages and live below both, in ``arbiter.render``;
this module only lays them out for a terminal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from arbiter.render import (
    INDENT,
    LINE_WIDTH,
    MAP_COLUMNS,
    card_text,
    counted,
    describe_choice,
    format_value,
    humanize,
    loads_list,
    loads_object,
    numbered,
    render_outcome,
    render_pending,
    seat_title,
    seat_value,
    short_id,
    wrap,
)
from arbiter.v1 import game_pb2

from aggregates.kernel.present import plural, seat_name


def cards_lines(item: Mapping[str, Any]) -> list[str]:
    label = str(item.get("label", ""))
    cards = item.get("cards")
    count = item.get("count")
    if not isinstance(cards, list):  # a hidden zone: only its size
        return [f"{INDENT}{label}: {plural(int(count or 0), 'card')}"]
    if not cards:
        return [f"{INDENT}{label}: none"]
    texts = [card_text(c) for c in cards]
    if item.get("numbered"):
        return [f"{INDENT}{counted(label, len(cards))}:", *numbered(texts, INDENT * 2)]
    return wrap(f"{INDENT}{counted(label, len(cards))}:", texts)


def board_lines(item: Mapping[str, Any], width: int = LINE_WIDTH) -> list[str]:
    """A board: a map (its spaces carry who holds them, marks or a drawing
    position) as a table fitted to ``width``, one row per space with what stands
    there, its holder, its marks and its neighbours; any other board as a list."""
    spaces = [s for s in item.get("spaces") or [] if isinstance(s, Mapping)]
    names = {str(s.get("id")): str(s.get("name", s.get("id"))) for s in spaces}
    lines = [f"{INDENT}{item.get('label', '')}:"]
    if any(s.get("owner") or s.get("marks") or "x" in s for s in spaces):
        return lines + _map_table(spaces, names, width)
    for space in spaces:
        name = f"{space.get('id')} {space.get('name', '')}".rstrip()
        text = f"*{name}*" if space.get("marked") else name
        occupants = space.get("occupants") or []
        if occupants:
            text += ": " + ", ".join(str(o) for o in occupants)
        links = space.get("links") or []
        if links:
            text += "   -> " + ", ".join(names.get(str(x), str(x)) for x in links)
        lines.append(f"{INDENT}{'> ' if space.get('marked') else '  '}{text}")
    if not spaces:
        lines.append(f"{INDENT * 2}(no spaces)")
    return lines


def _map_row(space: Mapping[str, Any], names: Mapping[str, str]) -> tuple[list[str], str]:
    """A space's cells (its name, and its id when the name does not spell it;
    its holder; what stands there, its marks apart; its marks) and its neighbours."""
    name, ident = str(space.get("name", space.get("id"))), str(space.get("id", ""))
    if ident and _folded(ident) != _folded(name):
        name += f" ({ident})"
    marks = [str(m) for m in space.get("marks") or []]
    owner = str(space.get("owner") or "")
    occupants = [str(o) for o in space.get("occupants") or [] if str(o) not in marks]
    # "<holder>: <units>": the holder is in its own column
    occupants = [o.removeprefix(f"{owner}: ") if owner else o for o in occupants]
    links = [names.get(str(x), str(x)) for x in space.get("links") or []]
    return [name, owner, ", ".join(occupants), ", ".join(marks)], ", ".join(links)


def _folded(text: str) -> str:
    """A name as an id would spell it: no accents, lower case, ``_`` for spaces."""
    import unicodedata

    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", plain.lower()).strip("_")


def _map_table(spaces: Sequence[Mapping[str, Any]], names: Mapping[str, str],
               width: int) -> list[str]:
    """The spaces as aligned columns within ``width`` (empty columns left out,
    the name whole, the other cells wrapped onto the row's next lines), each
    space's neighbours on a line of their own under its cells; a marked space
    (a Battle) is flagged ``>``."""
    made = [_map_row(s, names) for s in spaces]
    keep = [0] + [c for c in range(1, len(MAP_COLUMNS)) if any(r[c] for r, _ in made)]
    grid = [[MAP_COLUMNS[c] for c in keep]] + [[r[c] for c in keep] for r, _ in made]
    natural = [max(_width(row[i]) for row in grid) for i in range(len(keep))]
    sizes = _fit(natural, [_width(h) for h in grid[0]],
                 width - len(INDENT) * 2 - 2 * (len(keep) - 1))
    out = _row_lines(grid[0], sizes, "  ")
    for space, row, (_, links) in zip(spaces, grid[1:], made, strict=True):
        lines = _row_lines(row, sizes, "> " if space.get("marked") else "  ")
        if links:
            lines = _with_links(lines, links, sizes[0] + 2, width, alone=not any(row[1:]))
        out += lines
    return out


def _row_lines(row: Sequence[str], sizes: Sequence[int], flag: str) -> list[str]:
    """One row of the table: its cells wrapped in their columns, side by side."""
    cells = [[row[0]]] + [_wrap_cell(text, size)
                          for text, size in zip(row[1:], sizes[1:], strict=True)]
    lines = []
    for depth in range(max(len(c) for c in cells)):
        parts = [_pad(c[depth] if depth < len(c) else "", size)
                 for c, size in zip(cells, sizes, strict=True)]
        lines.append((INDENT + (flag if depth == 0 else "  ") + "  ".join(parts)).rstrip())
    return lines


def _with_links(lines: list[str], links: str, at: int, width: int, alone: bool) -> list[str]:
    """A row's lines and its neighbours below them from column ``at`` on (on the
    row's own line when ``alone``: nothing else stands in its cells)."""
    room = max(16, width - len(INDENT) * 2 - at)
    after = [INDENT * 2 + " " * at + line for line in _wrap_cell(f"next to {links}", room)]
    if alone:
        after[0] = _pad(lines.pop(), len(INDENT) * 2 + at) + after[0].lstrip()
    return lines + after


def _fit(natural: Sequence[int], least: Sequence[int], room: int) -> list[int]:
    """Column widths: the first column whole; the others share what is left,
    the narrowest first, none below its heading nor 8 characters (a very
    narrow screen overflows)."""
    sizes = list(natural)
    left = room - sizes[0]
    order = sorted(range(1, len(sizes)), key=lambda i: natural[i])
    for done, i in enumerate(order):
        share = left // (len(order) - done)
        sizes[i] = max(8, least[i], min(natural[i], share))
        left -= sizes[i]
    return sizes


def _width(text: str) -> int:
    """Columns a text takes on a terminal: wide (East Asian) characters take
    two, combining marks none."""
    import unicodedata

    return sum(0 if unicodedata.combining(ch) else
               2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def _pad(text: str, size: int) -> str:
    return text + " " * max(0, size - _width(text))


def _wrap_cell(text: str, size: int) -> list[str]:
    """``text`` in lines of at most ``size`` columns, broken after the commas of
    a list first, then between words (a word longer than a line is cut)."""
    items = text.split(", ")
    items = [item + ("," if n < len(items) - 1 else "") for n, item in enumerate(items)]
    lines: list[str] = []
    line = ""
    for item in items:
        if line and _width(line) + 1 + _width(item) <= size:
            line += " " + item
            continue
        if line:
            lines.append(line)
        line = ""
        for word in item.split():
            while _width(word) > size:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:size])
                word = word[size:]
            if line and _width(line) + 1 + _width(word) > size:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
    return [*lines, line] if line or not lines else lines


def _track(item: Mapping[str, Any], seats: Sequence[str]) -> list[str]:
    label = str(item.get("label", ""))
    maximum = item.get("maximum")

    def value(v: Any) -> str:
        return f"{seat_value(v)}/{maximum}" if maximum is not None else seat_value(v)

    per_seat = item.get("per_seat")
    if isinstance(per_seat, list):
        parts = [f"{seat_name(s, seats)} {value(v)}" for s, v in enumerate(per_seat)]
        return wrap(f"{INDENT}{label}:", parts)
    return [f"{INDENT}{label}: {value(item.get('value'))}"]


def _table(item: Mapping[str, Any]) -> list[str]:
    columns = [str(c) for c in item.get("columns") or []]
    rows = [[format_value(v) for v in row] for row in item.get("rows") or []
            if isinstance(row, list)]
    lines = [f"{INDENT}{item.get('label', '')}:"]
    width = max([len(columns)] + [len(r) for r in rows])
    grid = [columns + [""] * (width - len(columns))] if columns else []
    grid += [r + [""] * (width - len(r)) for r in rows]
    sizes = [max(len(r[i]) for r in grid) for i in range(width)] if grid else []
    for row in grid:
        cells = "  ".join(c.ljust(s) for c, s in zip(row, sizes, strict=True))
        lines.append((INDENT * 2 + cells).rstrip())
    if not rows:
        lines.append(f"{INDENT * 2}(empty)")
    return lines


def render_item(item: Mapping[str, Any], seats: Sequence[str] = ()) -> list[str]:
    """One item of a section: track, cards, table, board or note."""
    kind = item.get("kind")
    if kind == "track":
        return _track(item, seats)
    if kind == "cards":
        return cards_lines(item)
    if kind == "table":
        return _table(item)
    if kind == "board":
        return board_lines(item)
    if kind == "note":
        return [f"{INDENT}{item.get('text', '')}"]
    rest = {k: v for k, v in item.items() if k != "kind"}
    return [f"{INDENT}{kind}: {format_value(rest)}"]


def render_screen(screen: Mapping[str, Any], seats: Sequence[str] = ()) -> list[str]:
    """A game's screen: each section under its title, each item in its kind's layout."""
    lines: list[str] = []
    for section in screen.get("sections") or []:
        if not isinstance(section, Mapping):
            continue
        lines.append(f"== {section.get('title', '')} ==")
        for item in section.get("items") or []:
            if isinstance(item, Mapping):
                lines.extend(render_item(item, seats))
    return lines


def render_view(view: Mapping[str, Any]) -> list[str]:
    """A view with no screen (an older server): its keys and values."""
    return [f"{humanize(str(key))}: {format_value(value)}" for key, value in view.items()]


def render_game_screen(state: game_pb2.GameState) -> list[str]:
    """The state's screen, else its view as a key list."""
    screen = loads_object(state.screen_json)
    if screen.get("sections"):
        return render_screen(screen, list(state.seats))
    return render_view(loads_object(state.view_json))


def render_state(state: game_pb2.GameState) -> str:
    """The state screen of ``arbiter state``."""
    lines = [
        f"Game {state.game_id}  ({state.rules} {state.rules_version})  version {state.version}",
        "Seats: " + (", ".join(seat_title(i, state.seats) for i in range(len(state.seats)))
                     or "-"),
    ]
    lines.extend(state_lines(state))
    lines.append(f"Seed commitment: {state.seed_commitment}")
    return "\n".join(lines)


def state_lines(state: game_pb2.GameState) -> list[str]:
    """The game's screen, then its outcome and revealed seed once over, else who
    it waits on: what `arbiter state` and a replay's step both show of a state."""
    lines = render_game_screen(state)
    if state.over:
        lines.append(render_outcome(loads_object(state.outcome_json), list(state.seats)))
        if state.seed:
            lines.append(f"Seed (revealed): {state.seed}")
    else:
        lines.extend(render_pending(state.pending, state.seats))
    return lines


def render_rules(rules: Sequence[game_pb2.RulesInfo]) -> str:
    """The ``arbiter rules`` table."""
    if not rules:
        return "(the server plays no games)"
    lines = []
    for info in rules:
        seats = (
            f"{info.min_seats}" if info.min_seats == info.max_seats
            else f"{info.min_seats}-{info.max_seats}"
        )
        noun = "seat" if seats == "1" else "seats"
        dynamics = f", {info.dynamics}" if info.dynamics else ""
        lines.append(f"{info.id:<14} {info.title}  (v{info.version}, {seats} {noun}{dynamics})")
        if info.summary:
            lines.append(f"{'':<14} {info.summary}")
        if info.commands:
            lines.append(f"{'':<14} commands: {', '.join(info.commands)}")
    return "\n".join(lines)


def render_legal(
    actions: Sequence[game_pb2.LegalAction],
    decisions: Sequence[game_pb2.Decision] = (),
    complete: bool = True,
) -> str:
    """Numbered legal choices (the label and the JSON for ``arbiter act``), then the
    choice structures that describe what the list leaves out."""
    lines = [
        f"{index:>3}. {action.label or action.json}\n       {action.json}"
        for index, action in enumerate(actions, 1)
    ]
    if not actions:
        lines.append("(no legal actions for this seat now)")
    structures = [c for d in decisions for c in loads_list(d.choices_json)
                  if isinstance(c, dict) and c.get("kind") != "pick_one"]
    if not complete:
        lines.append("(not every legal command is listed: the server checks any other "
                     "built from these choices)")
    for choice in structures:
        lines.append(f"  - {describe_choice(choice)}: {json.dumps(choice, sort_keys=True)}")
    return "\n".join(lines)


def render_event_line(event: game_pb2.Event) -> str:
    """One feed/history line: position, short game id, version, type, payload."""
    position = str(event.position) if event.position else "-"
    redacted = " (redacted)" if event.redacted else ""
    return (
        f"{position:>6}  {short_id(event.game_id)}  v{event.version:<4} "
        f"{event.type:<22} {event.payload_json}{redacted}"
    )


def render_audit(audit: game_pb2.AuditResponse) -> str:
    """The audit verdict, check by check."""
    def mark(ok: bool) -> str:
        return "ok" if ok else "FAILED"

    verdict = "PASSED" if audit.chain_ok and audit.dice_ok and audit.replay_ok else "FAILED"
    # A "note: " is not a failure: e.g. rules of a version the server cannot load.
    notes = [p for p in audit.problems if p.startswith("note: ")]
    replay = "not run" if notes and audit.replay_ok else mark(audit.replay_ok)
    lines = [
        f"Audit {verdict}: hash chain {mark(audit.chain_ok)}, dice {mark(audit.dice_ok)}, "
        f"replay {replay}",
        f"  {audit.events} events, {audit.dice} dice, {audit.commands} commands"
        + ("" if audit.over else " (game still running)"),
        f"  seed commitment {audit.seed_commitment}",
        f"  seed            {audit.seed or '(secret until the game ends)'}",
        f"  head digest     {audit.head_digest}",
    ]
    if audit.head_signature.signature:
        lines.append(f"  signed by       {audit.head_signature.key_id} (the server's "
                     "signature over the head: `arbiter keys` prints its key)")
    lines.extend(f"  {p}" if p in notes else f"  problem: {p}" for p in audit.problems)
    return "\n".join(lines)


def render_games(games: Sequence[game_pb2.GameSummary]) -> str:
    """The ``arbiter games`` table."""
    if not games:
        return "(no games)"
    lines = [f"{'GAME ID':<36}  {'RULES':<8} {'VER':>5}  {'STATUS':<8} SEATS"]
    for game in games:
        status = "over" if game.over else "running"
        lines.append(
            f"{game.game_id:<36}  {game.rules:<8} {game.version:>5}  {status:<8} "
            f"{', '.join(game.seats)}"
        )
    return "\n".join(lines)
