"""What a seat sees: its own hand and stealth cards; others' as counts; decks as counts.

Hidden information (rulings): hands, decks and stealth cards are private until
revealed; discard and buried piles, and everything in play, are public. The
zones' visibility (``kernel.zones``) decides hands, decks and piles; a stealth
card's face is shown to its owner only, as "a stealth card" to everyone else.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Literal, NotRequired, TypedDict, cast

from aggregates.kernel import Seating, Visibility, Zones, ZoneSpec
from aggregates.kernel.keywords import Keywords
from aggregates.kernel.unseen import Unseen, kind_of
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import engaging, frequency, quests
from aggregates.nine_empires.cards import PLAY, zone_name
from aggregates.nine_empires.data import TYPES
from aggregates.nine_empires.events import Outcome
from aggregates.nine_empires.state import EARLIER_STEPS, State


class Card(TypedDict):
    """A card's face with its designed text; in play, its state and its numbers now."""

    id: str
    key: str
    title: str
    type: Annotated[str, Keywords(enum=list(TYPES))]
    fate: int
    text: str
    keywords: list[str]
    owner: NotRequired[int]
    bowed: NotRequired[bool]
    markers: NotRequired[dict[str, int]]
    food: NotRequired[int]
    attached_to: NotRequired[str | None]
    location: NotRequired[str]
    side: NotRequired[str]
    token: NotRequired[bool]
    S: NotRequired[int]
    W: NotRequired[int]
    G: NotRequired[int]
    raid: NotRequired[int]
    carry: NotRequired[int]
    storage: NotRequired[int]
    might: NotRequired[int]
    completed: NotRequired[bool]


class Seat(TypedDict):
    """A seat's faction: its Renown, whether it is `out`, its cards in play and in
    its discard and buried piles, its deck and hand counted, its quests not yet
    completed."""

    seat: int
    renown: int
    out: bool
    in_play: list[Card]
    deck: int
    discard: list[Card]
    buried: list[Card]
    incomplete_quests: int
    hand_count: int
    hand: NotRequired[Annotated[list[Card], Keywords(
        description="only in the view of the hand's owner")]]


class Frame(TypedDict):
    """An ability announced or an engagement under way, not yet resolved."""

    what: Literal["ability", "engagement"]
    seat: int
    source: NotRequired[str]
    key: NotRequired[str]
    timing: NotRequired[str]
    targets: NotRequired[dict[str, list[str]]]
    damage: NotRequired[int]
    side: NotRequired[str]
    cards: NotRequired[list[str]]
    brutal: NotRequired[bool]
    step: NotRequired[Literal["react", "immunity", "absorb"]]
    immune: NotRequired[list[str]]
    declaring: NotRequired[Annotated[int, Keywords(
        description="the seat declaring cards immune now")]]
    cancelled: NotRequired[bool]


class Conflict(TypedDict):
    """The battle or raid under way: its sides, the allies' choices, the castles
    to fight at, those `resolved` and the `current` one, and its step."""

    kind: Literal["battle", "raid"]
    attacker: int
    defender: int
    allies: dict[str, Literal["attack", "defend"]]
    calls: Annotated[dict[str, bool], Keywords(
        description="by seat: whether the attacker and the defender called for allies")]
    castles: list[str]
    resolved: list[str]
    current: str | None
    step: Literal["allies", "assign", "choose", "actions"]
    stealth: Annotated[dict[str, Card | Literal["a stealth card"]], Keywords(
        description="each unit's stealth card: its face for its owner only")]


class View(TypedDict):
    """A seat's view of a game of Romance of the Nine Empires (a spectator's
    leaves out every hand): GameState.view_json."""

    turn: int
    phase: str
    ordained: int
    out: list[int]
    attacked: list[int]
    raided: list[int]
    seats: list[Seat]
    stack: list[Frame]
    conflict: Conflict | None
    outcome: Outcome | None
    seat: NotRequired[Annotated[int, Keywords(
        description="the reader's seat (absent for a spectator)")]]


KINDS = {"deck": Visibility.COUNT_ONLY, "hand": Visibility.OWNER,
         "discard": Visibility.PUBLIC, "buried": Visibility.PUBLIC}


def zones(state: State) -> Zones:
    specs = [ZoneSpec(PLAY, Visibility.PUBLIC), ZoneSpec("stealth", Visibility.COUNT_ONLY)]
    for seat in range(len(state.seats)):
        specs += [ZoneSpec(zone_name(k, seat), v, owner=seat) for k, v in KINDS.items()]
    return Zones(specs, state.zones, Seating.one_each(len(state.seats)))


def card_view(state: State, iid: str) -> Card:
    """A card's face: its designed text and, in play, its state and numbers now."""
    inst = state.instances[iid]
    card = t.printed(state, iid)
    out = Card(id=iid, key=card.key, title=card.title, type=card.type, fate=card.fate,
               text=card.text(), keywords=list(card.keywords))
    if inst["zone"] == PLAY:
        out.update({"owner": inst["owner"], "bowed": inst["bowed"],
                    "markers": dict(inst["markers"]), "food": inst["food"],
                    "attached_to": inst["attached_to"], "location": t.location(state, iid),
                    "side": t.side(state, iid), "token": inst["token"],
                    "keywords": frequency.keywords(state, iid)})
        if card.type in ("hero", "cohort"):
            out["S"] = frequency.stat(state, iid, "S")
        if card.type == "hero":
            out.update({"W": frequency.stat(state, iid, "W"), "G": frequency.stat(state, iid, "G"),
                        "raid": frequency.stat(state, iid, "raid"),
                        "carry": frequency.stat(state, iid, "carry")})
        if card.type == "castle":
            out.update({"storage": card.storage, "might": card.might})
        if card.type == "quest":
            out["completed"] = bool(inst["memory"].get("completed"))
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees, built as its declaration (``View``) says."""
    players = len(state.seats)
    reader = seat if seat is not None and 0 <= seat < players else None
    z = zones(state)
    seats = []
    for s in range(players):
        entry: Seat = {
            "seat": s, "renown": state.renown[s], "out": s in state.out,
            "in_play": [card_view(state, i) for i in t.cards_in_play(state, s)],
            "deck": z.count_seen_by(zone_name("deck", s), reader),
            "discard": [card_view(state, i) for i in state.zones.get(zone_name("discard", s),
                                                                       [])],
            "buried": [card_view(state, i) for i in state.zones.get(zone_name("buried", s),
                                                                      [])],
            "incomplete_quests": len(quests.incomplete(state, s)),
            "hand_count": len(state.zones.get(zone_name("hand", s), [])),
        }
        hand = z.seen_by(zone_name("hand", s), reader)
        if hand is not None:
            entry["hand"] = [card_view(state, i) for i in hand]
        seats.append(entry)
    out: View = {
        "turn": state.turn, "phase": state.phase, "ordained": state.ordained,
        "out": list(state.out), "attacked": list(state.attacked), "raided": list(state.raided),
        "seats": seats, "stack": [_frame(state, f) for f in state.stack],
        "conflict": _conflict(state, reader), "outcome": cast(Outcome | None, state.result),
    }
    if reader is not None:
        out["seat"] = reader
    return dict(out)


def _frame(state: State, frame: dict[str, Any]) -> Frame:
    """An announced ability or engagement; an engagement's step and the seat
    declaring immunity as they stand (``engaging.step``; rules 1.3.0 and
    before recorded them on the frame)."""
    keep = ("what", "seat", "source", "key", "timing", "targets", "damage", "side", "cards",
            "brutal", "step", "immune", "declaring", "cancelled")
    out = cast(Frame, {k: frame[k] for k in keep if k in frame})
    if frame["what"] == "engagement" and EARLIER_STEPS not in state.EARLIER:
        step, declaring = engaging.step(state, frame)
        out["step"] = cast(Literal["react", "immunity", "absorb"], step)
        if step == "immunity" and declaring is not None:
            out["declaring"] = declaring
    return out


def _conflict(state: State, reader: int | None) -> Conflict | None:
    c = state.conflict
    if c is None:
        return None
    stealth: dict[str, Card | Literal["a stealth card"]] = {}
    for hero, card in c.get("stealth", {}).items():
        mine = reader is not None and state.instances[card]["owner"] == reader
        stealth[hero] = card_view(state, card) if mine else "a stealth card"
    return {"kind": c["kind"], "attacker": c["attacker"], "defender": c["defender"],
            "allies": dict(c.get("allies", {})), "calls": dict(c.get("calls", {})),
            "castles": list(c["castles"]),
            "resolved": list(c["resolved"]), "current": c.get("current"), "step": c["step"],
            "stealth": stealth}


# ------------------------------------------------------------ what a seat cannot see


def unseen() -> Unseen:
    """A player's own deck and hand are one pool (its cards, in some order);
    a stealth card another player put face down in a raid is one of that
    player's cards too, while the seat's own stealth cards stay where they
    are (``guess.stealth_pool``, ``guess.stealth_dealt``)."""

    def pool(name: str, card: Any) -> str | None:
        kind = kind_of(name)
        if kind in ("deck", "hand"):
            return f"cards:{name.split(':')[1]}"
        return "stealth" if kind == "stealth" else None

    from aggregates.nine_empires import guess

    table = Unseen(zones=zones, lists=lambda g: g.zones, pool=pool, setup=guess.setup,
                   pool_in=guess.stealth_pool(pool), place=guess.stealth_dealt)
    return dataclasses.replace(
        table, complete=lambda g, seen, kind, payload: guess.complete(
            table, g, seen, kind, payload),
        align=lambda g, seen, view: guess.align(table, g, seen, view))
