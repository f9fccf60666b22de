"""Plain-text rendering of Arbiter messages for the terminal.

Small pure functions from protobuf messages or decoded JSON to strings, so the
CLI stays thin and the look of every screen is unit-testable without a server.

No game is known here. A game describes its own view as a screen
(``GameState.screen_json``: titled sections of tracks, cards, tables, boards
and notes, see ``aggregates/kernel/present.py``), names its own actions
(``LegalAction.label``) and tells its own events (``Event.text``); this module
only lays those out. Anything unexpected is still shown, generically.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from arbiter.v1 import game_pb2

INDENT = "  "
LINE_WIDTH = 96


def loads_object(text: str) -> dict[str, Any]:
    """Decode a JSON object field; empty or non-object text becomes ``{}``.

    The wire carries views, outcomes and payloads as JSON text; a blank field
    means "nothing", and a screen must not crash on a surprise.
    """
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {"text": text}
    return value if isinstance(value, dict) else {"value": value}


def loads_list(text: str) -> list[Any]:
    """Decode a JSON list field (``choices_json``); anything else becomes ``[]``."""
    if not text:
        return []
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return []
    return value if isinstance(value, list) else []


def humanize(name: str) -> str:
    """``RolledStart`` / ``rolled_start`` -> ``rolled start``: names read as words."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    return spaced.replace("_", " ").replace("-", " ").strip().lower()


def capitalize(text: str) -> str:
    """The first letter upper-cased, the rest as it is."""
    return text[:1].upper() + text[1:]


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 card``, ``2 cards``: never "1 cards"."""
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


def format_value(value: Any) -> str:
    """A JSON value as short readable text (lists joined, objects as k=v)."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return humanize(value) if re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)+", value) else value
    if isinstance(value, list | tuple):
        return ", ".join(format_value(item) for item in value) if value else "none"
    if isinstance(value, dict):
        return ", ".join(f"{humanize(str(k))}={format_value(v)}" for k, v in value.items())
    return str(value)


def short_id(game_id: str, width: int = 8) -> str:
    """The first characters of a game id: enough to tell games apart in a feed."""
    return game_id[:width]


def seat_value(value: Any) -> str:
    """One seat's value in a per-seat line: a list stays visibly one value, ``[2 1 1]``."""
    if isinstance(value, list | tuple):
        return "[" + " ".join(format_value(v) for v in value) + "]"
    return format_value(value)


def seat_name(seat: Any, seats: Sequence[str] = ()) -> str:
    """A seat's name (``seat N`` when the game gave none)."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(seats):
        return seats[seat] or f"seat {seat}"
    return f"seat {seat}"


def wrap(head: str, parts: Sequence[str], indent: str = INDENT, sep: str = ",",
         width: int = LINE_WIDTH) -> list[str]:
    """``head`` then ``parts`` joined by ``sep``, continued on indented lines."""
    lines, line, first = [], head, True
    for index, part in enumerate(parts):
        piece = part + (sep if index < len(parts) - 1 else "")
        if not first and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = indent * 2 + piece
        else:
            line = f"{line} {piece}" if line else piece
        first = False
    lines.append(line)
    return lines


# --- screens ----------------------------------------------------------------


def card_text(card: Any) -> str:
    """One card face: its name, its tag in brackets, its details after a colon."""
    if not isinstance(card, Mapping):
        return format_value(card)
    name = str(card.get("name", card.get("id", "?")))
    tag = card.get("tag")
    if tag and str(tag).lower() not in name.lower():
        name += f" [{tag}]"
    detail = card.get("detail")
    return f"{name}: {detail}" if detail else name


def screen_cards(screen: Mapping[str, Any], zone: str) -> list[dict[str, Any]] | None:
    """The faces of ``zone`` as the screen shows them (``None``: not on the screen)."""
    for item in screen_items(screen):
        if item.get("kind") == "cards" and zone and item.get("zone") == zone:
            cards = item.get("cards")
            if isinstance(cards, list):
                return [c if isinstance(c, dict) else {"id": c, "name": str(c)} for c in cards]
    return None


def screen_items(screen: Mapping[str, Any]) -> Iterable[dict[str, Any]]:
    """Every item of every section."""
    for section in screen.get("sections") or []:
        if isinstance(section, Mapping):
            for item in section.get("items") or []:
                if isinstance(item, dict):
                    yield item


def card_names(screen: Mapping[str, Any]) -> dict[str, str]:
    """Every card face the screen shows, by id (as text): to name a card a choice lists."""
    names: dict[str, str] = {}
    for item in screen_items(screen):
        for card in item.get("cards") or [] if item.get("kind") == "cards" else []:
            if isinstance(card, Mapping) and "id" in card:
                names.setdefault(str(card["id"]), card_text(card))
    return names


def counted(label: str, count: int) -> str:
    """A zone's label with its size, unless the game's label already says it
    ("Face-up row (2 cards)")."""
    if f"({count})" in label or f"({count} " in label:
        return label
    return f"{label} ({count})"


def numbered(texts: Sequence[str], indent: str = INDENT) -> list[str]:
    """``  1. first``, ``  2. second``... with the numbers right-aligned."""
    width = len(str(len(texts)))
    return [f"{indent}{n:>{width}}. {text}" for n, text in enumerate(texts, 1)]


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


def _cards(item: Mapping[str, Any]) -> list[str]:
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


def _board(item: Mapping[str, Any]) -> list[str]:
    spaces = [s for s in item.get("spaces") or [] if isinstance(s, Mapping)]
    names = {str(s.get("id")): str(s.get("name", s.get("id"))) for s in spaces}
    lines = [f"{INDENT}{item.get('label', '')}:"]
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


def render_item(item: Mapping[str, Any], seats: Sequence[str] = ()) -> list[str]:
    """One item of a section: track, cards, table, board or note."""
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


# --- decisions, events, outcomes ------------------------------------------------


def render_pending(
    pending: Sequence[game_pb2.Decision], seats: Sequence[str] = ()
) -> list[str]:
    """Who the game waits on, and for what."""
    lines = []
    for decision in pending:
        prompt = decision.prompt or humanize(decision.kind)
        hidden = " (a secret choice)" if decision.hidden else ""
        lines.append(f"Waiting on {seat_name(decision.seat, seats)} (seat {decision.seat}): "
                     f"{prompt}{hidden}")
    return lines


def describe_event(event_type: str, payload: Mapping[str, Any]) -> str:
    """An event with no sentence from its game: its type in words, then its facts."""
    for key in ("text", "message", "description"):
        value = payload.get(key)
        if isinstance(value, str) and value:
            return value
    facts = {k: v for k, v in payload.items() if not str(k).startswith("_")}
    words = capitalize(humanize(event_type))
    return words + (f": {format_value(facts)}" if facts else "")


def event_text(event: game_pb2.Event) -> str:
    """The event in its game's words (``Event.text``), else type and payload."""
    return event.text or describe_event(event.type, loads_object(event.payload_json))


def render_outcome(outcome: Mapping[str, Any], seats: Sequence[str] = ()) -> str:
    """The game's result: ``result`` first, the winners by name, then every other field.

    A list with one value per seat is shown against the seats' names.
    """
    if not outcome:
        return "Game over."
    result = outcome.get("result")
    lines = [f"Game over: {format_value(result)}" if result is not None else "Game over."]
    for key in ("winners", "winner"):
        value = outcome.get(key)
        who = value if isinstance(value, list) else [value] if value is not None else []
        if who and all(isinstance(w, int) and not isinstance(w, bool) for w in who):
            label = "Winner" if len(who) == 1 else "Winners (tied)"
            lines.append(f"{label}: {', '.join(seat_name(w, seats) for w in who)}")
        elif value is not None:
            lines.append(f"{capitalize(humanize(key))}: {format_value(value)}")
    for key, value in outcome.items():
        if key in ("result", "winners", "winner"):
            continue
        label = capitalize(humanize(str(key)))
        if isinstance(value, list) and seats and len(value) == len(seats):
            parts = [f"{seat_name(s, seats)} {seat_value(v)}" for s, v in enumerate(value)]
            lines.append(f"{label}: " + ", ".join(parts))
        else:
            lines.append(f"{label}: {format_value(value)}")
    return "\n".join(lines)


def render_state(state: game_pb2.GameState) -> str:
    """The state screen of ``arbiter state``."""
    lines = [
        f"Game {state.game_id}  ({state.rules} {state.rules_version})  version {state.version}",
        "Seats: " + (", ".join(f"{i}={name}" for i, name in enumerate(state.seats)) or "-"),
    ]
    lines.extend(render_game_screen(state))
    if state.over:
        lines.append(render_outcome(loads_object(state.outcome_json), list(state.seats)))
        if state.seed:
            lines.append(f"Seed (revealed): {state.seed}")
    else:
        lines.extend(render_pending(state.pending, state.seats))
    lines.append(f"Seed commitment: {state.seed_commitment}")
    return "\n".join(lines)


# --- envelopes ----------------------------------------------------------------


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


def describe_choice(choice: Mapping[str, Any]) -> str:
    """A choice structure in words: what it builds and what it asks for."""
    kind = choice.get("kind")
    command = humanize(str(choice.get("command", "")))
    prompt = str(choice.get("prompt") or "")
    if kind == "pick_cards":
        low, high = int(choice.get("low", 0)), int(choice.get("high", 0))
        amount = f"{low}" if low == high else f"{low} to {high}"
        zone = f" of {choice['zone']}" if choice.get("zone") else ""
        mark = f", one of them as {choice['mark']}" if choice.get("mark") else ""
        what = f"pick {amount} card{'' if high == 1 else 's'}{zone}{mark}"
    elif kind == "assign":
        items = len(choice.get("items") or [])
        slots = len(choice.get("slots") or [])
        what = (f"give {'it' if items == 1 else f'each of {items} items'} a slot, "
                f"{plural(slots, 'slot')} to choose from")
    elif kind == "number":
        what = f"a number from {choice.get('low')} to {choice.get('high')}"
    else:
        return prompt or "one of the listed actions"
    head = prompt or capitalize(command)
    return f"{head} ({what})"


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


def describe_command_json(text: str) -> str:
    """A command's JSON in words, e.g. ``spend luck (die=0, amount=2)``."""
    command = loads_object(text)
    name = humanize(str(command.get("name", text)))
    args = command.get("args") or {}
    if isinstance(args, dict) and args:
        return f"{name} ({format_value(args)})"
    return name


def action_label(action: game_pb2.LegalAction) -> str:
    """The words of a legal action: its game's label, else its JSON in words."""
    return action.label or describe_command_json(action.json)


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
