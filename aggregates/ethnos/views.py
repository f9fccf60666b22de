"""What a seat sees: its own hand; other hands as counts; the deck as a count.

The hidden parts follow from the zones' visibility (``zones.py``): a hand's
faces for its owner, the counts for everyone. A spectator (``seat=None``) sees
no hand. Everything else (the face-up row and discards, bands, markers, Glory,
the boards and tokens, revealed Dragons) is public.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, NotRequired, TypedDict, cast

from aggregates.ethnos import state as r
from aggregates.ethnos import zones
from aggregates.ethnos.data import CARDS, TABLES
from aggregates.ethnos.events import Outcome
from aggregates.ethnos.state import State
from aggregates.kernel.unseen import Unseen, kind_of


class Card(TypedDict):
    """A card's face: its `tribe` and `colour` (null: a Skeleton or a Dragon)."""

    id: int
    tribe: str
    colour: str | None


class Dragon(TypedDict):
    """A Dragon revealed: a card with no colour."""

    id: int
    tribe: str
    colour: None


class Kingdom(TypedDict):
    """A Kingdom: its Glory tokens for each Age and every seat's Control markers in it."""

    key: str
    name: str
    colour: str
    glory_tokens: list[int]
    markers: list[int]


class Band(TypedDict):
    """A band on the table: its cards, its Leader (a card id) and its size."""

    cards: list[Card]
    leader: int
    size: int


class BandInPlay(TypedDict):
    """The band being played: its `seat`, its Leader and its size."""

    seat: int
    leader: int
    size: int


class View(TypedDict):
    """A seat's view of a game of Ethnos (a spectator's leaves out what is hidden
    from it): GameState.view_json. The tribes' boards and tokens are there only
    when their tribe is in the game."""

    stage: str
    age: int
    ages: int
    current: int
    first_player: int
    tribes: list[str]
    kingdoms: list[Kingdom]
    glory: list[int]
    row: list[Card]
    deck_size: int
    dragons: list[Dragon]
    hand_counts: list[int]
    bands: list[list[Band]]
    band_in_play: BandInPlay | None
    steps: list[str]
    third_dragon_seat: int | None
    outcome: Outcome | None
    seat: NotRequired[int]
    hand: NotRequired[list[Card]]
    merfolk_track: NotRequired[list[int]]
    troll_tokens: NotRequired[list[list[int]]]
    troll_tokens_free: NotRequired[list[int]]
    giant_token: NotRequired[int | None]
    orc_horde_boards: NotRequired[list[list[str]]]
    orc_horde_pending: NotRequired[list[int]]


def cards(ids: list[int]) -> list[Card]:
    return [Card(id=CARDS[c].id, tribe=CARDS[c].tribe, colour=CARDS[c].colour) for c in ids]


def view(game: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees, built as its declaration (``View``) says."""
    players = len(game.seats)
    table = zones.zones(game)
    reader = seat if seat is not None and 0 <= seat < players else None
    stage = r.OVER if game.ended or game.over else game.stage
    out: View = {
        "stage": stage,
        "age": game.age,
        "ages": game.ages,
        "current": game.current,
        "first_player": game.first_player,
        "tribes": list(game.tribes),
        "kingdoms": [
            Kingdom(key=k.key, name=k.name, colour=k.colour,
                    glory_tokens=list(game.glory_tokens[k.key]),
                    markers=list(game.markers[k.key]))
            for k in TABLES.kingdoms
        ],
        "glory": list(game.glory),
        "row": cards(game.row),
        "deck_size": table.count_seen_by(zones.DECK, reader),
        "dragons": [Dragon(id=c, tribe=CARDS[c].tribe, colour=None) for c in game.dragons],
        "hand_counts": [table.count_seen_by(zones.hand(s), reader) for s in range(players)],
        "bands": [
            [Band(cards=cards(b["cards"]), leader=b["leader"], size=b["size"])
             for b in game.bands[s]]
            for s in range(players)
        ],
        "band_in_play": BandInPlay(seat=game.band["seat"], leader=game.band["leader"],
                                   size=game.band["size"]) if game.band else None,
        "steps": list(game.steps),
        "third_dragon_seat": game.third_dragon_seat,
        "outcome": cast(Outcome | None, game.outcome if game.ended else game.finished()),
    }
    own = table.seen_by(zones.hand(reader), reader) if reader is not None else None
    if reader is not None and own is not None:
        out["seat"] = reader
        out["hand"] = cards(sorted(own))
    if "merfolk" in game.tribes:
        out["merfolk_track"] = list(game.merfolk)
    if "trolls" in game.tribes:
        out["troll_tokens"] = [list(t) for t in game.troll_tokens]
        out["troll_tokens_free"] = list(game.trolls_free)
    if "giants" in game.tribes:
        out["giant_token"] = game.giant
    if "orcs" in game.tribes:
        out["orc_horde_boards"] = [list(b) for b in game.orc_boards]
        out["orc_horde_pending"] = list(game.orc_pending)
    return dict(out)


# ------------------------------------------------------------ what a seat cannot see


def unseen() -> Unseen:
    """Every card out of a seat's sight came from the one deck: a hand could
    hold any of them. A Dragon is revealed as soon as it is drawn, so none is
    in a hand; the Age's Dragons still to come lie in the deck's bottom half."""

    def lists(g: Any) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {zones.DECK: g.deck}
        out.update({zones.hand(s): g.hands[s] for s in range(len(g.seats))})
        return out

    def place(g: Any, rng: random.Random) -> None:
        dragons = [c for c in g.deck if CARDS[c].dragon]
        deck = [c for c in g.deck if not CARDS[c].dragon]
        top = (len(g.deck) + 1) // 2 if len(g.deck) > 2 * len(dragons) else 0
        bottom = deck[top:] + dragons
        rng.shuffle(bottom)
        g.deck[:] = deck[:top] + bottom

    from aggregates.ethnos import guess

    table = Unseen(zones=zones.zones, lists=lists,
                   pool=lambda n, card: "unseen" if kind_of(n) in ("deck", "hand") else None,
                   keep=lambda card: CARDS[card].dragon, place=place)
    return dataclasses.replace(table, complete=lambda g, seen, kind, payload: guess.complete(
        table, g, seen, kind, payload))
