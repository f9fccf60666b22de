"""What a seat sees: its own hand and stealth cards; others' as counts; decks as counts.

Hidden information (rulings): hands, decks and stealth cards are private until
revealed; discard and buried piles, and everything in play, are public. The
zones' visibility (``kernel.zones``) decides hands, decks and piles; a stealth
card's face is shown to its owner only, as "a stealth card" to everyone else.
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel import Seating, Visibility, Zones, ZoneSpec
from aggregates.kernel.unseen import Unseen, kind_of
from aggregates.nine_empires import engaging, quests
from aggregates.nine_empires import table as t
from aggregates.nine_empires.cards import PLAY, zone_name
from aggregates.nine_empires.state import EARLIER_STEPS, State

KINDS = {"deck": Visibility.COUNT_ONLY, "hand": Visibility.OWNER,
         "discard": Visibility.PUBLIC, "buried": Visibility.PUBLIC}


def zones(state: State) -> Zones:
    specs = [ZoneSpec(PLAY, Visibility.PUBLIC), ZoneSpec("stealth", Visibility.COUNT_ONLY)]
    for seat in range(len(state.seats)):
        specs += [ZoneSpec(zone_name(k, seat), v, owner=seat) for k, v in KINDS.items()]
    return Zones(specs, state.zones, Seating.one_each(len(state.seats)))


def card_view(state: State, iid: str) -> dict[str, Any]:
    """A card's face: its designed text and, in play, its state and numbers now."""
    inst = state.instances[iid]
    card = t.printed(state, iid)
    out: dict[str, Any] = {"id": iid, "key": card.key, "title": card.title, "type": card.type,
                           "fate": card.fate, "text": card.text(),
                           "keywords": list(card.keywords)}
    if inst["zone"] == PLAY:
        out.update(owner=inst["owner"], bowed=inst["bowed"], markers=dict(inst["markers"]),
                   food=inst["food"], attached_to=inst["attached_to"],
                   location=t.location(state, iid), side=t.side(state, iid),
                   token=inst["token"], keywords=t.keywords(state, iid))
        if card.type in ("hero", "cohort"):
            out["S"] = t.stat(state, iid, "S")
        if card.type == "hero":
            out.update(W=t.stat(state, iid, "W"), G=t.stat(state, iid, "G"),
                       raid=t.stat(state, iid, "raid"), carry=t.stat(state, iid, "carry"))
        if card.type == "castle":
            out.update(storage=card.storage, might=card.might)
        if card.type == "quest":
            out["completed"] = bool(inst["memory"].get("completed"))
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    players = len(state.seats)
    reader = seat if seat is not None and 0 <= seat < players else None
    z = zones(state)
    seats = []
    for s in range(players):
        entry: dict[str, Any] = {
            "seat": s, "renown": state.renown[s], "out": s in state.out,
            "in_play": [card_view(state, i) for i in t.cards_in_play(state, s)],
            "deck": z.count_seen_by(zone_name("deck", s), reader),
            "discard": [card_view(state, i) for i in state.zones.get(zone_name("discard", s),
                                                                       [])],
            "buried": [card_view(state, i) for i in state.zones.get(zone_name("buried", s),
                                                                      [])],
            "incomplete_quests": len(quests.incomplete(state, s)),
        }
        hand = z.seen_by(zone_name("hand", s), reader)
        entry["hand_count"] = len(state.zones.get(zone_name("hand", s), []))
        if hand is not None:
            entry["hand"] = [card_view(state, i) for i in hand]
        seats.append(entry)
    out: dict[str, Any] = {
        "turn": state.turn, "phase": state.phase, "ordained": state.ordained,
        "out": list(state.out), "attacked": list(state.attacked), "raided": list(state.raided),
        "seats": seats, "stack": [_frame(state, f) for f in state.stack],
        "conflict": _conflict(state, reader), "outcome": state.result,
    }
    if reader is not None:
        out["seat"] = reader
    return out


def _frame(state: State, frame: dict[str, Any]) -> dict[str, Any]:
    """An announced ability or engagement; an engagement's step and the seat
    declaring immunity as they stand (``engaging.step``; rules 1.3.0 and
    before recorded them on the frame)."""
    keep = ("what", "seat", "source", "key", "timing", "targets", "damage", "side", "cards",
            "brutal", "step", "immune", "declaring", "cancelled")
    out = {k: frame[k] for k in keep if k in frame}
    if frame["what"] == "engagement" and EARLIER_STEPS not in state.EARLIER:
        out["step"], declaring = engaging.step(state, frame)
        if out["step"] == "immunity":
            out["declaring"] = declaring
    return out


def _conflict(state: State, reader: int | None) -> dict[str, Any] | None:
    c = state.conflict
    if c is None:
        return None
    stealth = {}
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
    stealth cards another pool."""

    def pool(name: str, card: Any) -> str | None:
        kind = kind_of(name)
        if kind in ("deck", "hand"):
            return f"cards:{name.split(':')[1]}"
        return "stealth" if kind == "stealth" else None

    return Unseen(zones=zones, lists=lambda g: g.zones, pool=pool)
