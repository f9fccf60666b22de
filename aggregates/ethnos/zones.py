"""The zones of Ethnos and who sees their cards (kernel ``ZoneSpec``).

- ``deck``: the Allies Deck, face down: everyone sees only its count;
- ``row``: the face-up row (and the discards, which join it): public;
- ``dragons``: the Dragons revealed: public;
- ``hand:N``: seat N's hand: only its owner sees the faces, others the count;
- ``bands:N``: the bands seat N played this Age: public.

Each event that moves cards names its source and target zones (``MOVES``);
who may read which cards moved follows from the two zones' visibility, and
the public form drops the fields naming hidden cards (``HIDDEN_FIELDS``). So
the audiences of the private events (a card dealt or drawn: its receiver; the
deck order: nobody) and the views' hidden parts derive from the zones.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aggregates.ethnos.state import State
from aggregates.kernel import EVERYONE, Audience, Seating, Visibility, Zones, ZoneSpec

DECK, ROW, DRAGONS = "deck", "row", "dragons"

#: event -> (source zone, target zone) of the cards it names ("{seat}": the payload's).
MOVES: dict[str, tuple[str, str]] = {
    "AgeBegan": (DECK, DECK),              # the new deck's order
    "CardDealt": (DECK, "hand:{seat}"),
    "DrewFromDeck": (DECK, "hand:{seat}"),
    "RowTurned": (DECK, ROW),
    "DragonRevealed": (DECK, DRAGONS),
    "RecruitedFaceUp": (ROW, "hand:{seat}"),
    "BandPlayed": ("hand:{seat}", "bands:{seat}"),
    "HandDiscarded": ("hand:{seat}", ROW),
    "AgeEnded": ("hand:{seat}", ROW),      # every hand scattered face up
    "SkeletonsRemoved": ("bands:{seat}", ROW),
}
#: the payload fields that name the moved cards, dropped from the public form
HIDDEN_FIELDS = {"AgeBegan": ("deck",), "CardDealt": ("card",), "DrewFromDeck": ("card",)}


def hand(seat: int) -> str:
    return f"hand:{seat}"


def spec(name: str) -> ZoneSpec:
    """The spec of a zone by name (hands and bands are per seat)."""
    kind, _, owner = name.partition(":")
    if kind == DECK:
        return ZoneSpec(DECK, Visibility.COUNT_ONLY, ordered=True)
    if kind in (ROW, DRAGONS):
        return ZoneSpec(kind, Visibility.PUBLIC)
    if kind == "hand":
        return ZoneSpec(name, Visibility.OWNER, owner=int(owner))
    if kind == "bands":
        return ZoneSpec(name, Visibility.PUBLIC, owner=int(owner))
    raise KeyError(name)


def specs(players: int) -> list[ZoneSpec]:
    return [spec(DECK), spec(ROW), spec(DRAGONS),
            *(spec(f"hand:{s}") for s in range(players)),
            *(spec(f"bands:{s}") for s in range(players))]


def zones(game: State) -> Zones:
    """The game's zones with their contents, as the kernel reads them."""
    players = len(game.seats)
    contents: dict[str, list[Any]] = {DECK: game.deck, ROW: game.row, DRAGONS: game.dragons}
    for s in range(players):
        contents[f"hand:{s}"] = game.hands[s]
        contents[f"bands:{s}"] = [c for b in game.bands[s] for c in b["cards"]]
    return Zones(specs(players), contents, Seating.one_each(players))


def move_audience(source: ZoneSpec, target: ZoneSpec, seating: Seating) -> Audience:
    """Who may read which cards moved from ``source`` to ``target``.

    As the kernel's ``Zones.move_audience``, except that a card leaving a public
    zone stays known to everyone (the kernel gives it to the target's readers
    only, which would hide a face-up recruit that everyone saw taken).
    """
    if source.visibility is Visibility.PUBLIC:
        return EVERYONE
    contents: dict[str, list[Any]] = {source.name: [], target.name: []}
    return Zones([source, target], contents, seating).move_audience(source.name, target.name)


def audience(event_type: str, payload: Mapping[str, Any]) -> Audience:
    """Who may read an event's private form, from the zones its cards move between."""
    move = MOVES.get(event_type)
    if move is None:
        return EVERYONE
    seat = int(payload.get("seat", 0))
    source, target = (spec(z.format(seat=seat)) for z in move)
    return move_audience(source, target, Seating.one_each(seat + 1))


def public_form(event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """What others see of a private event: the payload without the hidden cards
    (the deck as its size)."""
    hidden = HIDDEN_FIELDS.get(event_type, ())
    public = {k: v for k, v in payload.items() if k not in hidden}
    if "deck" in hidden:
        public["deck_size"] = len(payload["deck"])
    return public
