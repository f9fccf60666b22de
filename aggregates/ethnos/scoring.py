"""Glory at the end of an Age, and the end of the game.

Order (rulebook "The End of an Age"): Glory for the Kingdoms, the Tribes'
influence (Giants, Merfolk, Orcs; Skeletons leave the bands; Dwarves count
X+1 and Trolls break ties), Glory for the Bands of Allies; then the bands are
discarded and the Troll and Giant tokens return (``AgeClosed``).
"""

from __future__ import annotations

from typing import Any

from aggregates.ethnos import abilities
from aggregates.ethnos.data import TABLES, size_class
from aggregates.ethnos.kingdoms import markers_on_board
from aggregates.ethnos.state import State


def troll_total(game: State, seat: int) -> int:
    return sum(game.troll_tokens[seat])


def place_awards(keys: dict[int, tuple[int, int]], places: list[int], players: int) -> list[int]:
    """Award ``places`` (1st, 2nd...) by descending key; tied players pool the awards of
    the places they occupy and split them equally, rounded down."""
    awards = [0] * players
    ranked = sorted(keys, key=lambda s: keys[s], reverse=True)
    place = 0
    while place < len(ranked):
        group = [s for s in ranked if keys[s] == keys[ranked[place]]]
        pool = sum(places[place: place + len(group)])
        for s in group:
            awards[s] = pool // len(group)
        place += len(group)
    return awards


def kingdom_awards(game: State, kingdom: str) -> list[int]:
    """Glory for one Kingdom at the end of the current Age."""
    players = len(game.seats)
    counts = game.markers[kingdom]
    tokens = game.glory_tokens[kingdom]  # ascending: spaces I, II, III
    present = {s: (counts[s], troll_total(game, s)) for s in range(players) if counts[s] > 0}
    if players == 2 and game.age == game.ages:
        if len(present) == 1:
            (only,) = present
            awards = [0] * players
            awards[only] = sum(tokens)
            return awards
        places = [tokens[-1]]
    else:
        places = [tokens[game.age - 1 - p] for p in range(game.age)]
    return place_awards(present, places, players)


def merfolk_awards(game: State) -> list[int]:
    players = len(game.seats)
    value = TABLES.merfolk_age_glory[size_class(players)][game.age - 1]
    present = {s: (game.merfolk[s], troll_total(game, s))
               for s in range(players) if game.merfolk[s] > 0}
    if not present:
        return [0] * players
    best = max(present.values())
    leaders = [s for s, key in present.items() if key == best]
    awards = [0] * players
    for s in leaders:
        awards[s] = value // len(leaders)
    return awards


def band_points(band: dict[str, Any]) -> int:
    """A band's Glory: its cards (Skeletons already removed), Dwarves +1."""
    count = abilities.modified("band_scoring_size", band["leader"], len(band["cards"]))
    return TABLES.band_points(count)


def totals(game: State, awards: list[int]) -> list[int]:
    """Every seat's Glory after ``awards``: a Glory event states the change and
    the new score, so it is the whole fact to any reader (issue 9, item 7)."""
    return [g + a for g, a in zip(game.glory, awards, strict=True)]


def one(game: State, seat: int, glory: int) -> list[int]:
    """``totals`` for Glory that goes to one seat."""
    return totals(game, [glory if s == seat else 0 for s in range(len(game.glory))])


def score_age(game: State) -> None:
    players = len(game.seats)
    last = game.age == game.ages
    for kingdom in TABLES.kingdom_keys:
        awards = kingdom_awards(game, kingdom)
        if any(awards):
            game.emit("KingdomScored", kingdom=kingdom, awards=awards,
                      totals=totals(game, awards))
    if "giants" in game.tribes and game.giant is not None:
        value = TABLES.giant_age_glory[size_class(players)][game.age - 1]
        game.emit("GiantScored", seat=game.giant, glory=value,
                  totals=one(game, game.giant, value))
    if "merfolk" in game.tribes:
        awards = merfolk_awards(game)
        if any(awards):
            game.emit("MerfolkScored", awards=awards, totals=totals(game, awards))
    if "orcs" in game.tribes:
        for seat, board in enumerate(game.orc_boards):
            if board and (last or game.orc_choices[seat]):
                glory = TABLES.orc_glory[len(board)]
                game.emit("OrcHordeScored", seat=seat, colours=list(board), glory=glory,
                          totals=one(game, seat, glory))
    skeletons = [c for bands in game.bands for b in bands for c in b["cards"]
                 if abilities.card_has(c, "leaves_before_band_scoring")]
    if skeletons:
        game.emit("SkeletonsRemoved", cards=skeletons)
    awards = [sum(band_points(b) for b in game.bands[s]) for s in range(players)]
    if any(awards):
        game.emit("BandsScored", awards=awards, totals=totals(game, awards))
    game.emit("AgeClosed", age=game.age, final=last)


def outcome(game: State) -> dict[str, Any]:
    """Most Glory; ties: most Control markers on the board, then the largest band of the
    last Age, the next largest...; then shared."""
    players = len(game.seats)
    markers = [markers_on_board(game, s) for s in range(players)]

    def key(s: int) -> tuple[int, int, list[int]]:
        return (game.glory[s], markers[s], sorted(game.last_bands[s], reverse=True))

    best = max(key(s) for s in range(players))
    winners = [s for s in range(players) if key(s) == best]
    return {
        "result": "finished",
        "winners": winners,
        "glory": list(game.glory),
        "markers": markers,
        "last_age_bands": [sorted(b, reverse=True) for b in game.last_bands],
    }
