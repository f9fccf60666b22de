"""The cards on the table: instances with state, as plain JSON, and their
current numbers, keywords, location and side (Locations; Frequency; Zero).

A printed card is data (its title, numbers and text); a card *instance* is one
physical copy on the table with the state the rules give it: bowed or
straight, counters and markers (``+1S``, ``-1W``), food or other tokens resting
on it, the card it is attached to (a cohort, item or spell on a hero), its
location (``home``, or a castle's instance id during a battle), and whether it
is a token made during play (which is removed from the game, never put in a
pile, when it leaves play).

The state lives in the aggregate as two plain dicts, so snapshots and replays
carry it: ``instances`` (instance id -> record) and ``zones`` (zone name ->
ordered list of instance ids). ``CardTable`` reads and changes them; it is
used by the event applies (``apply.py``) and read by the rules (decide).
``memory`` holds what a game remembers about an instance while it is in play
(the side it fights on, a quest completed). Card Memory is the kernel's rule
here: an instance that leaves play loses its markers, its bowing, its food and
its attachments, and one that comes back is a new card.

Read off the table, never stored, in ``frequency``: a card's current numbers
and keywords, with the always-on text of the cards in play, and the facts an
ability's filter asks.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from typing import Any

from aggregates.kernel import flow as kflow
from aggregates.kernel.abilities import Ability
from aggregates.kernel.abilities import relation as relation_word
from aggregates.nine_empires.data import ALL, Card
from aggregates.nine_empires.state import EARLIER_YOUR_SIDE, State

HOME = "home"
#: The zone every card in play is in (its location says where on the table).
PLAY = "play"


def zone_name(kind: str, seat: int) -> str:
    """A seat's zone of a kind: ``deck:0``, ``hand:1``, ``discard:0``, ``buried:2``."""
    return f"{kind}:{seat}"


def new_instance(iid: str, card: str, owner: int, zone: str, token: bool = False) -> dict[str, Any]:
    """A fresh instance record (a card that has no memory of earlier play)."""
    return {"id": iid, "card": card, "owner": owner, "zone": zone, "bowed": False,
            "markers": {}, "food": 0, "attached_to": None, "location": HOME,
            "token": token, "memory": {}}


class CardTable:
    """The instances and zones of a card game, read and changed together."""

    def __init__(self, instances: MutableMapping[str, dict[str, Any]],
                 zones: MutableMapping[str, list[str]]) -> None:
        self.instances = instances
        self.zones = zones

    # ------------------------------------------------------------------ reads

    def __getitem__(self, iid: str) -> dict[str, Any]:
        return self.instances[iid]

    def __contains__(self, iid: object) -> bool:
        return iid in self.instances

    def zone(self, name: str) -> list[str]:
        return self.zones.setdefault(name, [])

    def in_play(self, owner: int | None = None) -> Iterator[dict[str, Any]]:
        """Every instance in play (of one owner), in the order they came in."""
        for iid in self.zone(PLAY):
            inst = self.instances[iid]
            if owner is None or inst["owner"] == owner:
                yield inst

    def attachments(self, iid: str) -> list[str]:
        """The instances attached to ``iid``, in the order attached."""
        return [i for i in self.zone(PLAY) if self.instances[i]["attached_to"] == iid]

    def unit(self, iid: str) -> list[str]:
        """A hero and everything attached to it: the rulebook's *unit*."""
        return [iid, *self.attachments(iid)]

    def marker(self, iid: str, name: str) -> int:
        return int(self.instances[iid]["markers"].get(name, 0))

    def next_id(self) -> str:
        """The id the next instance made gets (tokens): ``i<n>``, never reused."""
        return f"i{len(self.instances)}"

    # ---------------------------------------------------------------- changes

    def create(self, iid: str, card: str, owner: int, zone: str, token: bool = False) -> None:
        if iid in self.instances:
            raise ValueError(f"instance {iid} exists")
        self.instances[iid] = new_instance(iid, card, owner, zone, token)
        self.zone(zone).append(iid)

    def move(self, iid: str, zone: str, top: bool = False) -> None:
        """Move an instance to ``zone`` (its end, or its top when ``top``).

        Leaving play forgets: markers, bowing, food, attachment and location
        (card memory). A token that would go anywhere but play is removed from
        the game instead (its record stays, in no zone, so ids are never reused).
        """
        inst = self.instances[iid]
        self.zone(inst["zone"]).remove(iid)
        if inst["zone"] == PLAY and zone != PLAY:
            inst.update(bowed=False, markers={}, food=0, attached_to=None, location=HOME,
                        memory={})
        if inst["token"] and zone != PLAY:
            inst["zone"] = ""
            return
        inst["zone"] = zone
        if top:
            self.zone(zone).insert(0, iid)
        else:
            self.zone(zone).append(iid)

    def bow(self, iid: str) -> None:
        self.instances[iid]["bowed"] = True

    def straighten(self, iid: str) -> None:
        self.instances[iid]["bowed"] = False

    def add_marker(self, iid: str, name: str, amount: int = 1) -> None:
        """Add ``amount`` of marker ``name`` (``S``, ``W``, ``G``: signed counts)."""
        markers = self.instances[iid]["markers"]
        markers[name] = int(markers.get(name, 0)) + amount
        if markers[name] == 0:
            del markers[name]

    def add_food(self, iid: str, amount: int) -> None:
        food = int(self.instances[iid]["food"]) + amount
        if food < 0:
            raise ValueError(f"{iid} would hold {food} food")
        self.instances[iid]["food"] = food

    def attach(self, iid: str, to: str) -> None:
        self.instances[iid]["attached_to"] = to
        self.instances[iid]["location"] = self.instances[to]["location"]

    def locate(self, iid: str, location: str) -> None:
        """Move a unit (the instance and its attachments) to a location."""
        for member in self.unit(iid):
            self.instances[member]["location"] = location


UNIT_TYPES = frozenset({"hero", "cohort"})


def table(state: State) -> CardTable:
    return CardTable(state.instances, state.zones)


def printed(state: State, iid: str) -> Card:
    return ALL[state.instances[iid]["card"]]


def owner(state: State, iid: str) -> int:
    return int(state.instances[iid]["owner"])


def in_play(state: State, iid: str) -> bool:
    return iid in state.instances and state.instances[iid]["zone"] == PLAY


def hand(state: State, seat: int) -> list[str]:
    return state.zones.get(zone_name("hand", seat), [])


def deck(state: State, seat: int) -> list[str]:
    return state.zones.get(zone_name("deck", seat), [])


def cards_in_play(state: State, seat: int | None = None, kind: str | None = None) -> list[str]:
    return [i["id"] for i in table(state).in_play(seat)
            if kind is None or ALL[i["card"]].type == kind]


def castles(state: State, seat: int) -> list[str]:
    return cards_in_play(state, seat, "castle")


def stronghold(state: State, seat: int) -> str:
    return cards_in_play(state, seat, "stronghold")[0]


def host(state: State, iid: str) -> str | None:
    return state.instances[iid]["attached_to"]


def unit_hero(state: State, iid: str) -> str:
    """The hero a card belongs to (itself, or the hero it is attached to)."""
    return host(state, iid) or iid


def unit(state: State, hero: str) -> list[str]:
    return table(state).unit(hero)


def bowed(state: State, iid: str) -> bool:
    return bool(state.instances[iid]["bowed"])


def location(state: State, iid: str) -> str:
    return str(state.instances[unit_hero(state, iid)]["location"])


def side(state: State, iid: str) -> str:
    """The army a unit is in during a battle or raid (attack, defend, raid) or ""."""
    hero = unit_hero(state, iid)
    return str(state.instances[hero]["memory"].get("side", ""))


def seats_in(state: State) -> list[int]:
    return kflow.order_from(0, len(state.seats), skip=state.out)


def order_from(state: State, start: int) -> list[int]:
    """The seats still in, clockwise from ``start`` (Turn Order)."""
    return kflow.order_from(start, len(state.seats), skip=state.out)


def conflict_side(state: State, seat: int) -> str:
    """The side a seat is on in the battle or raid under way ("" if none)."""
    c = state.conflict
    if c is None:
        return ""
    if seat == c["attacker"]:
        return "attack"
    if seat == c["defender"]:
        return "defend"
    return str(c.get("allies", {}).get(str(seat), ""))


def opposed(state: State, a: int, b: int) -> bool:
    """Whether seat ``b``'s cards are opposing to seat ``a``: the other side of
    the battle or raid under way when both are in it, else another player."""
    sa, sb = conflict_side(state, a), conflict_side(state, b)
    if sa and sb:
        return sa != sb
    return a != b


def relation(state: State, seat: int, card: str) -> str:
    """How ``card`` stands to ``seat``, as card text words it (docs/rulings.md),
    in the kernel's filter words (``abilities.relation``):

    - ``your``: the seat controls it ("your", "of yours"); no card of this set
      changes control, so its controller is its owner;
    - ``opposing``: on the other side of the battle or raid under way, or,
      with none under way, another player's ("opposing");
    - ``allied``: another player's card on the seat's side of the battle under
      way (an ally's: neither "yours" nor "opposing").

    Rules 1.0.0 to 1.2.0 (``EARLIER_YOUR_SIDE``) read an ally's cards as "your".
    """
    other = owner(state, card)
    return relation_word(other == seat or EARLIER_YOUR_SIDE in state.EARLIER,
                         opposed(state, seat, other))


def current_castle(state: State) -> str | None:
    c = state.conflict
    return None if c is None else c.get("current")


def here(state: State, iid: str) -> bool:
    """In the current battle or raid: at its castle, in one of its armies."""
    castle = current_castle(state)
    return castle is not None and location(state, iid) == castle and bool(side(state, iid))


# --------------------------------------------------------------- statics

def abilities_in_force(state: State, iid: str) -> list[tuple[int, Ability]]:
    """A card's abilities, with a completed quest's reward abilities after them."""
    card = printed(state, iid)
    out = list(enumerate(card.abilities))
    if card.type == "quest" and state.instances[iid]["memory"].get("completed"):
        base = len(card.abilities)
        out += [(base + i, a) for i, a in enumerate(card.reward_abilities)]
    return out


def storage(state: State, castle: str) -> int:
    return printed(state, castle).storage


def food(state: State, iid: str) -> int:
    return int(state.instances[iid]["food"])


def castle_food(state: State, seat: int) -> int:
    return sum(food(state, c) for c in castles(state, seat))


def production(state: State, iid: str) -> int:
    return printed(state, iid).production
