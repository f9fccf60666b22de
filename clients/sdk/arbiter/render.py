"""Plain-text rendering of Arbiter messages: the terminal's, and the web pages' words.

Small pure functions from protobuf messages or decoded JSON to strings, so the
CLI stays thin and the look of every screen is unit-testable without a server.
It lies below both the CLI (``clients``) and the server's web side
(``service.web``), which tell events, outcomes and choices in the same words.

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

from arbiter.names import default_seat_name, plural, seat_name
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


def seat_title(seat: Any, seats: Sequence[str] = ()) -> str:
    """A seat's name and number where they differ: ``Ada (Player 1)``; ``Player 2``."""
    name, number = seat_name(seat, seats), default_seat_name(seat)
    return name if name == number else f"{name} ({number})"


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
    """One card face on a line: its name, its colour in words (in parentheses)
    and its tag (in brackets) unless the name says them, its numbers, then its
    details and text after a colon."""
    if not isinstance(card, Mapping):
        return format_value(card)
    name = str(card.get("name", card.get("id", "?")))
    for word, form in ((colour_words(card), " ({})"), (card.get("tag"), " [{}]")):
        if word and str(word).lower() not in name.lower():
            name += form.format(word)
    numbers = card_stats(card)
    if numbers:
        name += " " + ", ".join(f"{label} {value}" for label, value in numbers)
    said = " — ".join(str(card[k]) for k in ("detail", "text") if card.get(k))
    return f"{name}: {said}" if said else name


def colour_words(card: Mapping[str, Any]) -> str:
    """A card's or space's colour in words: its label, else the colour's name."""
    return str(card.get("colour_label") or card.get("colour") or "")


def card_stats(card: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A card's numbers as (label, value) texts, in the game's order."""
    stats = card.get("stats")
    return [(str(s.get("label", "")), format_value(s.get("value")))
            for s in stats if isinstance(s, Mapping)] if isinstance(stats, list) else []


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


#: A map's columns: the heading of each (the space's name never wraps).
MAP_COLUMNS = ("Space", "Held by", "Occupants", "Marks")


# --- decisions, events, outcomes ------------------------------------------------


def render_pending(
    pending: Sequence[game_pb2.Decision], seats: Sequence[str] = ()
) -> list[str]:
    """Who the game waits on, and for what."""
    lines = []
    for decision in pending:
        prompt = decision.prompt or humanize(decision.kind)
        hidden = " (a secret choice)" if decision.hidden else ""
        lines.append(f"Waiting on {seat_title(decision.seat, seats)}: {prompt}{hidden}")
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


def player_label(seat: int, seats: Sequence[str] = ()) -> str:
    """A seat as an outcome names it: as everywhere (``seat_title``), its name
    and its number where they differ (``Bo (Player 2)``), else ``Player N``."""
    return seat_title(seat, seats)


def named_seats(sentence: str, seats: Sequence[str]) -> str:
    """An outcome's summary, whose seats are ``Player N`` (``kernel.outcome``), with
    each seat named as everywhere else (``Ada (Player 1)``): the summary then names
    the players as the game's own last event does ("Ada & Bo win")."""
    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1)) - 1
        return player_label(seat, seats) if 0 <= seat < len(seats) else match.group(0)

    return re.sub(r"\bPlayer (\d+)\b", name, sentence)


def render_outcome(outcome: Mapping[str, Any], seats: Sequence[str] = ()) -> str:
    """A finished game's result (``outcome_json``, ``kernel.outcome``'s shape),
    drawn the same way for every game: the summary, who won (a team's win as
    the team's), the ranking and the scores, seats named ``Player N``."""
    if not outcome:
        return "Game over."
    summary = named_seats(str(outcome.get("summary") or "the game has ended."), seats)
    lines = [f"Game over: {summary}"]
    winners = [s for s in outcome.get("winners") or () if isinstance(s, int)]
    team = outcome.get("winning_team")
    names = ", ".join(player_label(s, seats) for s in winners)
    if team:
        lines.append("Winning team: " + " & ".join(player_label(s, seats) for s in team))
    elif len(winners) == 1:
        lines.append(f"Winner: {names}")
    elif winners:
        lines.append(f"Winners (tied): {names}")
    ranking = [group for group in outcome.get("ranking") or () if group]
    if len(ranking) > 1:
        # In a game won by a team, a place's seats are a team; else a tie.
        join, tied = (" & ", "") if team else (", ", " (tied)")
        places = []
        for place, group in enumerate(ranking, 1):
            who = join.join(player_label(s, seats) for s in group)
            places.append(f"{place}. {who}" + (tied if len(group) > 1 else ""))
        lines.append("Ranking: " + "; ".join(places))
    scores = outcome.get("scores") or []
    if any(v is not None for v in scores):
        lines.append("Scores: " + ", ".join(
            f"{player_label(s, seats)} {format_value(v)}" for s, v in enumerate(scores)))
    return "\n".join(lines)


# --- envelopes ----------------------------------------------------------------


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
    elif kind == "pick_path":
        questions = [str(q) for q in choice.get("questions") or []]
        first = len(choice.get("options") or [])
        steps = [q.rstrip("?").lower() for q in questions] or ["which one"]
        steps[0] += f" ({plural(first, 'choice')})"
        what = "step by step: " + ", then ".join(steps)
    else:
        return prompt or "one of the listed actions"
    head = prompt or capitalize(command)
    return f"{head} ({what})"


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


