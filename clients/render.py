"""Plain-text rendering of Arbiter messages for the terminal.

Small pure functions from protobuf messages or decoded JSON to strings, so the
CLI stays thin and the look of every screen is unit-testable without a server.
Game views are rendered defensively: the rules own their view's keys and may
add new ones, so every key this module does not know is still shown, generically.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from arbiter.v1 import game_pb2

# The Land of Enin's row of location cards, in table order; used when a view
# names a location only by number.
ENIN_LOCATIONS: dict[int, str] = {
    1: "The Iron Hills",
    2: "The Wood of Wyr",
    3: "The Nigh Towns",
    4: "The Darkling Crags",
    5: "The Lost Wastes",
}


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


def humanize(name: str) -> str:
    """``RolledStart`` / ``rolled_start`` -> ``rolled start``: names read as words."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    return spaced.replace("_", " ").replace("-", " ").strip().lower()


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


# --- Enin view ------------------------------------------------------------


def location_number(view: Mapping[str, Any]) -> int | None:
    """The player's location number, whether the view gives an object or a number."""
    location = view.get("location")
    if isinstance(location, dict):
        number = location.get("number")
        return number if isinstance(number, int) else None
    if isinstance(location, int) and not isinstance(location, bool):
        return location
    return None


def render_location_row(view: Mapping[str, Any]) -> str:
    """The five location cards in a row, the player's one marked ``[*n Name*]``.

    The rules' adjacency is the row itself, so seeing the row is seeing the
    travel options.
    """
    here = location_number(view)
    cells = []
    for number, name in ENIN_LOCATIONS.items():
        label = f"{number} {name.removeprefix('The ')}"
        cells.append(f"[*{label}*]" if number == here else f" {label} ")
    row = " - ".join(cells)
    if here is None:
        row += "   (not yet travelled: roll for the start)"
    return row


def _items(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [humanize(str(k)) for k, held in value.items() if held]
    if isinstance(value, list | tuple):
        return [format_value(v) for v in value]
    if value in (None, False, ""):
        return []
    return [format_value(value)]


def render_character(view: Mapping[str, Any]) -> list[str]:
    """The character card: tracks, level, poison, attack modifier, items, quest items."""
    def get(key: str, default: Any = "?") -> Any:
        return view.get(key, default)

    line = (
        f"HP {get('hp')}/10   Luck {get('luck')}/10   XP {get('xp')}   Gold {get('gold')}   "
        f"Level {get('level')}"
    )
    modifier = view.get("attack_modifier")
    if isinstance(modifier, int) and not isinstance(modifier, bool) and modifier:
        line += f"   Attack {modifier:+d}"
    if view.get("poisoned"):
        line += "   POISONED"
    lines = [line]
    magic = _items(view.get("magic_items"))
    if view.get("map_of_enin") or view.get("map"):
        magic.append("map of enin")
    if view.get("strength_bonus"):
        magic.append(f"potion of strength (+{view['strength_bonus']} next attack)")
    lines.append("Items: " + (", ".join(magic) if magic else "none"))
    quest = _items(view.get("quest_items"))
    lines.append("Quest items: " + (", ".join(quest) if quest else "none"))
    return lines


def render_dice(dice: Any) -> str:
    """Dice on the table: ``die 0: 7+2=9`` (rolled, luck spent, value) or plain numbers."""
    if not isinstance(dice, list) or not dice:
        return format_value(dice)
    parts = []
    for index, die in enumerate(dice):
        if isinstance(die, dict):
            number = die.get("die", index)
            rolled = die.get("rolled", die.get("value", "?"))
            luck = die.get("luck", 0)
            value = die.get("value", rolled)
            if isinstance(luck, int) and luck:
                parts.append(f"die {number}: {rolled}{luck:+d}={value}")
            else:
                parts.append(f"die {number}: {rolled}")
        else:
            parts.append(f"die {index}: {die}")
    return "   ".join(parts)


def render_encounter(encounter: Any) -> list[str]:
    """The monster faced and its printed line (ATT, DAM, XP, flee, treasure)."""
    if not encounter:
        return []
    if not isinstance(encounter, dict):
        return [f"Encounter: {format_value(encounter)}"]
    monster = encounter.get("monster")
    if not isinstance(monster, dict):
        monster = {"name": monster or encounter.get("name") or "a monster",
                   **{k: v for k, v in encounter.items() if k not in ("monster", "name")}}
    name = monster.get("name") or "a monster"
    stats = []
    for key, label in (("att", "ATT"), ("dam", "DAM"), ("xp", "XP")):
        value = monster.get(key, monster.get(label))
        if value not in (None, ""):
            stats.append(f"{label} {value}")
    if monster.get("poisons"):
        stats.append("poisons")
    if monster.get("flee"):
        stats.append(f"flee -{monster['flee']} HP")
    if monster.get("treasure"):
        stats.append(f"treasure {monster['treasure']}x")
    where = []
    if encounter.get("card"):
        where.append(f"{format_value(encounter['card'])}")
    if encounter.get("level"):
        where.append(f"level {encounter['level']}")
    if encounter.get("roll") is not None:
        where.append(f"roll {encounter['roll']}")
    text = f"Encounter: {name}" + (f" ({', '.join(stats)})" if stats else "")
    return [text + (f"  [{', '.join(where)}]" if where else "")]


ENIN_VIEW_KEYS = {
    "hp", "luck", "xp", "gold", "level", "poisoned", "location", "quest_items",
    "magic_items", "map", "map_of_enin", "strength_bonus", "attack_modifier", "encounter",
    "dice", "stage", "turn", "last_outcome", "outcome", "shield_used", "treasure_choices",
}


def render_enin_view(view: Mapping[str, Any]) -> list[str]:
    """The whole Enin screen: turn, card, location row, encounter, dice, then other keys."""
    stage = view.get("stage")
    header = f"Turn {view.get('turn', '?')}" + (f" - {humanize(str(stage))}" if stage else "")
    lines = [header, *render_character(view), render_location_row(view)]
    lines.extend(render_encounter(view.get("encounter")))
    if view.get("dice"):
        shield = " (Shield of Nines used)" if view.get("shield_used") else ""
        lines.append(f"Dice on the table: {render_dice(view['dice'])}{shield}")
    if view.get("treasure_choices"):
        lines.append(f"Treasure to choose from: {format_value(view['treasure_choices'])}")
    lines.extend(render_other(view, ENIN_VIEW_KEYS))
    if view.get("last_outcome"):
        lines.append(f">> {view['last_outcome']}")
    return lines


def render_other(view: Mapping[str, Any], known: Iterable[str]) -> list[str]:
    """Every key not rendered specially, as ``key: value`` (never silently dropped)."""
    known = set(known)
    lines = []
    for key, value in view.items():
        if key in known or value in (None, "", [], {}, 0, False):
            continue
        is_text_list = isinstance(value, list) and all(isinstance(v, str) for v in value)
        if is_text_list and key in ("log", "messages", "outcomes"):
            lines.append(f"{humanize(key)}:")
            lines.extend(f"  {line}" for line in value[-5:])
            continue
        lines.append(f"{humanize(key)}: {format_value(value)}")
    return lines


# --- Ethnos view -------------------------------------------------------------


def ethnos_card(card: Any) -> str:
    """One Ally card as ``Centaurs (red)``; Skeletons are wild, Dragons colourless."""
    if not isinstance(card, Mapping):
        return format_value(card)
    tribe = str(card.get("tribe") or "?")
    if tribe == "dragon":
        return "Dragon"
    colour = card.get("colour")
    if tribe == "skeletons" or not colour:
        return f"{tribe.capitalize()} (wild)" if tribe == "skeletons" else tribe.capitalize()
    return f"{tribe.capitalize()} ({colour})"


def ethnos_hand_order(hand: Any) -> list[dict[str, Any]]:
    """A hand in the order it is numbered on screen: by tribe, then colour, Skeletons last.

    Grouping a tribe together makes bands easy to spot; Skeletons (which can
    never lead) go last, so hand card 1 is always a card that can lead a band.
    """
    cards = [c for c in hand if isinstance(c, dict)] if isinstance(hand, list) else []
    return sorted(cards, key=lambda c: (
        c.get("tribe") == "skeletons", str(c.get("tribe")), str(c.get("colour")),
        c.get("id") if isinstance(c.get("id"), int) else 0,
    ))


def seat_names(count: int, seats: Sequence[str] = (), me: int | None = None) -> list[str]:
    """Each seat's name for the screen; the viewer's own seat is ``You``."""
    names = []
    for seat in range(count):
        if seat == me:
            names.append("You")
        elif seat < len(seats) and seats[seat]:
            names.append(seats[seat])
        else:
            names.append(f"Seat {seat}")
    return names


def numbered_columns(items: Sequence[str], per_line: int = 3, width: int = 24) -> list[str]:
    """``1. a   2. b   3. c`` laid out a few per line (numbers from 1)."""
    cells = [f"{n:>2}. {item}" for n, item in enumerate(items, 1)]
    return [
        "  " + "".join(cell.ljust(width) for cell in cells[i: i + per_line]).rstrip()
        for i in range(0, len(cells), per_line)
    ]


def _per_seat(values: Any, names: Sequence[str], fmt: Callable[[Any], str] = str) -> str:
    if not isinstance(values, list):
        return format_value(values)
    return ", ".join(
        f"{names[i] if i < len(names) else f'Seat {i}'} {fmt(v)}" for i, v in enumerate(values)
    )


def wrap_units(head: str, units: Sequence[str], width: int = 96, sep: str = "; ") -> list[str]:
    """``head`` then ``units`` joined by ``sep``, wrapped between units, never inside one."""
    lines: list[str] = []
    line = head
    for index, unit in enumerate(units):
        piece = unit + (sep.rstrip() if index < len(units) - 1 else "")
        if line.strip() and line != head and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = "      " + piece
        else:
            line += ("" if line == head else " ") + piece
    lines.append(line)
    return lines


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _seat_name(seat: Any, names: Sequence[str]) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool):
        return names[seat] if 0 <= seat < len(names) else f"Seat {seat}"
    return "nobody"


def render_ethnos_band(band: Mapping[str, Any]) -> str:
    """A band in play: ``3 cards led by Giants (blue): Giants (blue), Skeletons (wild)``."""
    cards = [c for c in band.get("cards", []) if isinstance(c, dict)]
    leader = next((c for c in cards if c.get("id") == band.get("leader")), None)
    size = band.get("size", len(cards))
    led = ethnos_card(leader) if leader is not None else f"card {band.get('leader')}"
    others = [ethnos_card(c) for c in cards if c is not leader]
    return f"{size} led by {led}" + (f" + {', '.join(others)}" if others else "")


ETHNOS_VIEW_KEYS = {
    "stage", "age", "ages", "current", "first_player", "tribes", "kingdoms", "glory", "row",
    "deck_size", "dragons", "hand_counts", "bands", "band_in_play", "steps",
    "third_dragon_seat", "outcome", "seat", "hand", "merfolk_track", "troll_tokens",
    "troll_tokens_free", "giant_token", "orc_horde_boards", "orc_horde_pending",
}


def render_ethnos_kingdoms(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The six Kingdoms: colour, Glory tokens (I, II, III) and everyone's Control markers."""
    kingdoms = [k for k in view.get("kingdoms", []) if isinstance(k, dict)]
    if not kingdoms:
        return []
    width = [max(5, len(n[:8])) for n in names]
    header = f"  {'Kingdom':<9} {'Colour':<7} {'Glory':<9}" + "".join(
        f" {n[:8]:>{w}}" for n, w in zip(names, width, strict=True)
    )
    lines = [header.rstrip()]
    for k in kingdoms:
        tokens = " ".join(str(t) for t in k.get("glory_tokens", []))
        markers = k.get("markers", [])
        cells = "".join(
            f" {markers[i] if i < len(markers) else '-':>{w}}" for i, w in enumerate(width)
        )
        lines.append(f"  {str(k.get('name', k.get('key', '?'))):<9} "
                     f"{str(k.get('colour', '')):<7} {tokens:<9}{cells}".rstrip())
    return lines


def render_ethnos_view(view: Mapping[str, Any], seats: Sequence[str] = ()) -> list[str]:
    """The Ethnos table as one seat (or a spectator) sees it.

    Age, Glory, the Kingdoms (Glory tokens, Control markers), the face-up row
    and the seat's hand (both numbered, as the play prompts number them), the
    bands in play, Dragons, deck, hand sizes and the tribes' boards and tokens.
    """
    me = view.get("seat") if isinstance(view.get("seat"), int) else None
    glory = _list(view.get("glory"))
    count = max(len(glory), len(seats), len(_list(view.get("hand_counts"))))
    names = seat_names(count, seats, me)
    stage = view.get("stage")
    header = f"Age {view.get('age', '?')} of {view.get('ages', '?')}"
    if stage == "over":
        header += " - the game is over"
    elif stage:
        header += (f" - {_seat_name(view.get('current'), names)} to play"
                   f" ({humanize(str(stage))})")
    lines = [header]
    if view.get("tribes"):
        lines.append("Tribes: " + ", ".join(str(t).capitalize() for t in view["tribes"]))
    lines.append("Glory: " + _per_seat(glory, names))
    lines.append("Kingdoms (Glory tokens I/II/III; Control markers per player):")
    lines.extend(render_ethnos_kingdoms(view, names))
    row = _list(view.get("row"))
    if stage != "over":  # at the end every card lies face up: no row worth reading
        lines.append(f"Face-up row ({_plural(len(row), 'card')}):")
        lines.extend(numbered_columns([ethnos_card(c) for c in row]) or ["  (empty)"])
    if "hand" in view and stage != "over":
        hand = ethnos_hand_order(view.get("hand"))
        lines.append(f"Your hand ({_plural(len(hand), 'card')}):")
        lines.extend(numbered_columns([ethnos_card(c) for c in hand]) or ["  (empty)"])
    bands = _list(view.get("bands"))
    lines.append("Bands in play this Age:")
    any_band = False
    for seat, seat_bands in enumerate(bands):
        if seat_bands:
            any_band = True
            listed = [render_ethnos_band(b) for b in seat_bands if isinstance(b, dict)]
            lines.extend(wrap_units(f"  {_seat_name(seat, names)}: ", listed))
    if not any_band:
        lines.append("  (none)")
    dragons = _list(view.get("dragons"))
    lines.append(f"Dragons revealed: {len(dragons)} of 3   "
                 f"Allies Deck: {view.get('deck_size', '?')} cards")
    counts = view.get("hand_counts")
    if isinstance(counts, list):
        others = [(i, n) for i, n in enumerate(counts) if i != me]
        lines.append("Cards in hand: " + ", ".join(
            f"{_seat_name(i, names)} {n}" for i, n in others))
    lines.extend(_render_ethnos_boards(view, names))
    steps = view.get("steps")
    if steps and stage != "over":
        lines.append("Still to resolve for this band: " + format_value(steps))
    lines.extend(render_other(view, ETHNOS_VIEW_KEYS))
    return lines


def _render_ethnos_boards(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The tribes' special boards and tokens, for the tribes in play."""
    lines = []
    if "merfolk_track" in view:
        lines.append("Merfolk track: " + _per_seat(view["merfolk_track"], names))
    if "troll_tokens" in view:
        held = _per_seat(view["troll_tokens"], names,
                         lambda t: "[" + " ".join(str(v) for v in t) + "]" if t else "-")
        free = " ".join(str(v) for v in view.get("troll_tokens_free") or []) or "none"
        lines.append(f"Troll tokens: {held}; unclaimed: {free}")
    if "giant_token" in view:
        lines.append(f"Giant token: {_seat_name(view['giant_token'], names)}")
    if "orc_horde_boards" in view:
        boards = _per_seat(view["orc_horde_boards"], names,
                           lambda b: "[" + " ".join(str(c) for c in b) + "]" if b else "-")
        lines.append(f"Orc Horde boards: {boards}")
        pending = view.get("orc_horde_pending")
        if pending:
            lines.append("Deciding on their Orc Horde: "
                         + ", ".join(_seat_name(s, names) for s in pending))
    return lines


def render_ethnos_outcome(outcome: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The end of an Ethnos game: Glory per seat, markers, and the winner(s)."""
    lines = ["Game over."]
    glory = outcome.get("glory")
    if isinstance(glory, list):
        lines.append("Final Glory: " + _per_seat(glory, names))
    markers = outcome.get("markers")
    if isinstance(markers, list):
        lines.append("Control markers on the board: " + _per_seat(markers, names))
    winners = [w for w in outcome.get("winners") or [] if isinstance(w, int)]
    if winners:
        best = glory[winners[0]] if isinstance(glory, list) and winners[0] < len(glory) else "?"
        who = ", ".join(_seat_name(w, names) for w in winners)
        label = "Winner" if len(winners) == 1 else "Winners (tied)"
        lines.append(f"{label}: {who} with {best} Glory")
    rest = {k: v for k, v in outcome.items()
            if k not in ("result", "glory", "markers", "winners", "last_age_bands")}
    lines.extend(render_other(rest, ()))
    return lines


def render_view(
    rules: str, view: Mapping[str, Any], seats: Sequence[str] = ()
) -> list[str]:
    """A game's view: Enin and Ethnos get their table screens, any other game a key list."""
    if rules == "enin":
        return render_enin_view(view)
    if rules == "ethnos":
        return render_ethnos_view(view, seats)
    return render_other(view, ())


# --- envelopes --------------------------------------------------------------


def render_pending(pending: Sequence[game_pb2.Decision], seats: Sequence[str] = ()) -> list[str]:
    """Who the game waits on, and for what."""
    lines = []
    for decision in pending:
        who = seats[decision.seat] if decision.seat < len(seats) else f"seat {decision.seat}"
        prompt = decision.prompt or humanize(decision.kind)
        lines.append(f"Waiting on {who} (seat {decision.seat}): {prompt}")
    return lines


def render_outcome(outcome: Mapping[str, Any]) -> str:
    """The game's result in one line: ``result`` first, then any other fields."""
    if not outcome:
        return "Game over."
    result = outcome.get("result")
    rest = {k: v for k, v in outcome.items() if k != "result"}
    text = f"Game over: {format_value(result)}" if result is not None else "Game over"
    return text + (f" ({format_value(rest)})" if rest else "")


def render_state(state: game_pb2.GameState) -> str:
    """The state screen of ``arbiter state``."""
    lines = [
        f"Game {state.game_id}  ({state.rules} {state.rules_version})  version {state.version}",
        "Seats: " + (", ".join(f"{i}={name}" for i, name in enumerate(state.seats)) or "-"),
    ]
    lines.extend(render_view(state.rules, loads_object(state.view_json), state.seats))
    if state.over:
        lines.append(render_outcome(loads_object(state.outcome_json)))
        if state.seed:
            lines.append(f"Seed (revealed): {state.seed}")
    else:
        lines.extend(render_pending(state.pending, state.seats))
    lines.append(f"Seed commitment: {state.seed_commitment}")
    return "\n".join(lines)


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
        lines.append(f"{info.id:<14} {info.title}  (v{info.version}, {seats} {noun})")
        if info.commands:
            lines.append(f"{'':<14} commands: {', '.join(info.commands)}")
    return "\n".join(lines)


def render_legal(actions: Sequence[game_pb2.LegalAction]) -> str:
    """Numbered legal choices: the label, and the JSON to pass to ``arbiter act``."""
    if not actions:
        return "(no legal actions for this seat now)"
    return "\n".join(
        f"{index:>3}. {action.label or action.json}\n       {action.json}"
        for index, action in enumerate(actions, 1)
    )


def describe_command_json(text: str) -> str:
    """A command's JSON in words, e.g. ``spend luck (die=0, amount=2)``."""
    command = loads_object(text)
    name = humanize(str(command.get("name", text)))
    args = command.get("args") or {}
    if isinstance(args, dict) and args:
        return f"{name} ({format_value(args)})"
    return name


def _place(number: Any) -> str:
    return ENIN_LOCATIONS.get(number, f"location {number}") if isinstance(number, int) else "?"


def _monster(payload: Mapping[str, Any]) -> str:
    monster = payload.get("monster")
    if isinstance(monster, dict):
        name = monster.get("name") or monster.get("monster") or "a monster"
        att = monster.get("att", monster.get("ATT"))
        return f"{name}" + (f" (ATT {att})" if att is not None else "")
    return format_value(monster)


# Sentences for the Land of Enin's events, filled from their payloads; an event
# not listed here (or whose payload lacks a field) falls back to the generic form.
ENIN_EVENTS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "StartRolled": lambda p: f"Start roll {p['roll']}: you begin at {_place(p['location'])}.",
    "Travelled": lambda p: f"You travel to {_place(p['to'])}.",
    "QuestRolled": lambda p: f"Questing roll {p['roll']}: {format_value(p['action'])}.",
    "Rested": lambda p: f"You rest and arise refreshed: HP {p['hp']}.",
    "Robbed": lambda p: f"Bandits steal {p['amount']} gold: gold {p['gold']}.",
    "TrapSprung": lambda p: f"A trap (roll {p['roll']}): {format_value(p['trap'])}!",
    "Poisoned": lambda p: "You are poisoned (-1 to attacks until cured).",
    "Wounded": lambda p: f"You lose {p['amount']} HP: HP {p['hp']}.",
    "ImpStruck": lambda p: "An Imp strikes: it will take one of your magic items.",
    "ItemLost": lambda p: f"You lose the {format_value(p['item'])}.",
    "MonsterMet": lambda p: f"You meet {_monster(p)}.",
    "AttackRolled": lambda p: f"You attack: the dice show {format_value(p['dice'])}.",
    "LuckSpent": lambda p: (
        f"You spend luck: {p['amount']:+d} on die {p['die']} (luck left {p['luck']})."
    ),
    "Rerolled": lambda p: f"The Shield of Nines re-rolls die {p['die']}: {p['value']}.",
    "ExchangeWon": lambda p: f"You strike with {p['total']} against ATT {p['att']}: a win!",
    "ExchangeLost": lambda p: (
        f"Your {p['total']} falls short of ATT {p['att']}: you take {p['damage']} damage, "
        f"HP {p['hp']}."
    ),
    "Fled": lambda p: f"You flee (penalty {p['penalty']} HP): HP {p['hp']}.",
    "XpRolled": lambda p: f"The XP die shows {p['value']}.",
    "XpGained": lambda p: f"You gain {p['amount']} XP: XP {p['xp']}.",
    "LevelGained": lambda p: f"You reach level {p['level']}: HP {p['hp']}.",
    "EncounterEnded": lambda p: "The encounter is over.",
    "TreasureRolled": lambda p: f"Treasure roll {p['roll']}: {format_value(p['find'])}.",
    "GoldFound": lambda p: f"You find {p['amount']} gold: gold {p['gold']}.",
    "MagicItemFound": lambda p: (
        f"You find a magic item! Choose one of: {format_value(p['choices'])}."
    ),
    "MagicItemChosen": lambda p: f"You take the {format_value(p['item'])}.",
    "ItemBought": lambda p: (
        f"You buy a {format_value(p['item'])} for {p['price']} gold: gold {p['gold']}."
    ),
    "Healed": lambda p: f"You are healed: HP {p['hp']}.",
    "PoisonCured": lambda p: "The poison is cured.",
    "Strengthened": lambda p: f"Your next attack gets +{p['bonus']}.",
    "LuckGained": lambda p: f"Your luck rises to {p['luck']}.",
    "TownLeft": lambda p: "You leave the Nigh Towns.",
    "QuestAttemptOffered": lambda p: f"You may try for the {format_value(p['item'])} here.",
    "QuestAttempted": lambda p: (
        f"You try for the {format_value(p['item'])}: roll {p['roll']} "
        f"(needs {p['low']}-{p['high']}): {'success' if p['success'] else 'failure'}."
    ),
    "QuestItemGained": lambda p: f"You gain the {format_value(p['item'])}!",
    "TurnEnded": lambda p: f"Turn {p['turn']} begins.",
    "Ended": lambda p: (
        render_outcome(p["outcome"]) + "." + (" The seed is revealed." if p.get("seed") else "")
    ),
}


def describe_event(event_type: str, payload: Mapping[str, Any]) -> str:
    """One event as a sentence: its type in words, then its facts.

    A ``text``/``message``/``description`` field written by the rules is the
    best sentence there is, so it wins; then a known Enin sentence; then the
    generic "type: facts" form, so an event added later is still readable.
    """
    for key in ("text", "message", "description", "outcome_text"):
        value = payload.get(key)
        if isinstance(value, str) and value:
            return value
    template = ENIN_EVENTS.get(event_type)
    if template is not None:
        try:
            return template(payload)
        except (KeyError, TypeError, ValueError):
            pass
    facts = {k: v for k, v in payload.items() if not k.startswith("_")}
    words = humanize(event_type)
    return f"{words[:1].upper()}{words[1:]}" + (f": {format_value(facts)}" if facts else "")


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
    lines = [
        f"Audit {verdict}: hash chain {mark(audit.chain_ok)}, dice {mark(audit.dice_ok)}, "
        f"replay {mark(audit.replay_ok)}",
        f"  {audit.events} events, {audit.dice} dice, {audit.commands} commands"
        + ("" if audit.over else " (game still running)"),
        f"  seed commitment {audit.seed_commitment}",
        f"  seed            {audit.seed or '(secret until the game ends)'}",
        f"  head digest     {audit.head_digest}",
    ]
    lines.extend(f"  problem: {problem}" for problem in audit.problems)
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


ENIN_PRICES = {"potion_of_healing": 10, "potion_of_strength": 10, "potion_of_fate": 15,
               "map_of_enin": 40}


def _luck_label(args: Mapping[str, Any]) -> str:
    amount = int(args.get("amount", 0))
    return f"Spend {abs(amount)} luck on die {args.get('die', 0)} ({amount:+d})"


# Menu wording for the Land of Enin's commands, from their JSON arguments.
ENIN_LABELS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "roll_start": lambda a: "Roll 1D10 for your starting location",
    "travel": lambda a: f"Travel to {_place(a.get('to'))}",
    "quest": lambda a: "Quest: roll 1D10 on the location chart",
    "buy": lambda a: (
        f"Buy a {format_value(a.get('item'))}"
        + (f" ({ENIN_PRICES[a['item']]} gold)" if a.get("item") in ENIN_PRICES else "")
    ),
    "steal_key": lambda a: "Try to steal the Key from the library of the elders",
    "leave_town": lambda a: "Leave the Nigh Towns",
    "attack": lambda a: "Attack: roll 2D10",
    "spend_luck": _luck_label,
    "reroll": lambda a: f"Re-roll die {a.get('die', 0)} with the Shield of Nines",
    "accept_roll": lambda a: "Stand on the dice",
    "flee": lambda a: "Flee",
    "choose_treasure": lambda a: f"Take the {format_value(a.get('item'))}",
    "lose_item": lambda a: f"Give the Imp your {format_value(a.get('item'))}",
    "attempt_quest": lambda a: "Attempt the quest here",
    "end_turn": lambda a: "End the turn",
}


def friendly_label(action: game_pb2.LegalAction) -> str:
    """The words to show for a legal action.

    A label the server wrote for people wins; a mechanical one (``name`` or
    ``name(args)``) is replaced by this module's wording for Enin, else by the
    command's JSON in words.
    """
    command = loads_object(action.json)
    name = str(command.get("name", ""))
    args = command.get("args") if isinstance(command.get("args"), dict) else {}
    label = action.label
    mechanical = not label or label == name or label.startswith(f"{name}(")
    if not mechanical:
        return label
    game = action.command.WhichOneof("game")
    template = ENIN_LABELS.get(name) if game in (None, "enin") else None
    if template is not None:
        try:
            return template(args or {})
        except (KeyError, TypeError, ValueError):
            pass
    return describe_command_json(action.json) if action.json else label


def render_choices(actions: Sequence[game_pb2.LegalAction]) -> list[str]:
    """Numbered legal choices for interactive play: friendly labels only."""
    return [f"  {index}. {friendly_label(action)}" for index, action in enumerate(actions, 1)]
