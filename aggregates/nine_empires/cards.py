"""Card instances with state: what a card game's table holds, as plain JSON.

A printed card is data (its title, numbers and text); a card *instance* is one
physical copy on the table with the state the rules give it: bowed or
straight, counters and markers (``+1S``, ``-1W``), food or other tokens resting
on it, the card it is attached to (a cohort, item or spell on a hero), its
location (``home``, or a castle's instance id during a battle), and whether it
is a token made during play (which is removed from the game, never put in a
pile, when it leaves play).

The state lives in the aggregate as two plain dicts, so snapshots and replays
carry it: ``instances`` (instance id -> record) and ``zones`` (zone name ->
ordered list of instance ids). ``CardTable`` reads and changes them; it is used
by the event applies (``apply.py``) and read by the rules (decide). ``memory`` holds
what a game remembers about an instance while it is in play (the side it
fights on, a quest completed). Card memory is
the kernel's rule here: an instance that leaves play loses its markers, its
bowing, its food and its attachments, and one that comes back is a new card.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from typing import Any

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
