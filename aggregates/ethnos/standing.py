"""Glory as it stands: what each player would have if the Age ended now.

Ethnos scores Glory only at the end of an Age (rulebook "The End of an Age"),
so during an Age the Glory track says nothing of the Kingdoms a player leads
or the Bands it has laid down. A game in progress is ranked (``standings``)
by the Glory track plus what the end of the current Age would award if it
came now, in the rulebook's order: Glory for the Kingdoms (the current Age's
places, "Special Scoring For 2-player Games" at two), the Giants' and
Merfolk's Glory, an Orc Horde on its board, and Glory for the Bands of Allies
with the Skeletons gone. Nothing here records an event or touches the state:
the rules' own scoring of an Age (``scoring.score_age``) is unchanged, and a
finished game's standings read only its recorded outcome.

Where the rulebook leaves a choice open at the end of an Age (an Orc Horde
before the last Age may be kept for later), the Horde is counted as if
scored: it is Glory its player can take.
"""

from __future__ import annotations

from aggregates.ethnos import abilities
from aggregates.ethnos.data import TABLES, size_class
from aggregates.ethnos.scoring import kingdom_awards, merfolk_awards
from aggregates.ethnos.state import State
from aggregates.kernel.outcome import Outcome, rank, scored


def band_glory_now(game: State, seat: int) -> int:
    """Glory for the seat's Bands of Allies at the end of this Age: each band's
    cards less its Skeletons (they leave before the bands are scored), then the
    band's leader's scoring size (Dwarves count one more)."""
    total = 0
    for band in game.bands[seat]:
        kept = sum(not abilities.card_has(c, "leaves_before_band_scoring") for c in band["cards"])
        total += TABLES.band_points(abilities.modified("band_scoring_size", band["leader"], kept))
    return total


def age_end_awards(game: State) -> list[int]:
    """Each seat's Glory from the end of the current Age, were it now (none
    before the first Age begins)."""
    players = len(game.seats)
    awards = [0] * players
    if game.age < 1:
        return awards
    for kingdom in TABLES.kingdom_keys:
        awards = [a + k for a, k in zip(awards, kingdom_awards(game, kingdom), strict=True)]
    if "giants" in game.tribes and game.giant is not None:
        awards[game.giant] += TABLES.giant_age_glory[size_class(players)][game.age - 1]
    if "merfolk" in game.tribes:
        awards = [a + m for a, m in zip(awards, merfolk_awards(game), strict=True)]
    if "orcs" in game.tribes:
        for seat, board in enumerate(game.orc_boards):
            if board:
                awards[seat] += TABLES.orc_glory[len(board)]
    return [a + band_glory_now(game, s) for s, a in enumerate(awards)]


def glory_as_it_stands(game: State) -> list[int]:
    """The Glory track plus the current Age's awards, were it to end now."""
    return [g + a for g, a in zip(game.glory, age_end_awards(game), strict=True)]


def standings(game: State) -> Outcome:
    """The shared outcome: Glory is the score; the ranking applies the
    recorded tie-breaks (Control markers, then the last Age's bands), so the
    seats still tied after them share a place, as the recorded winners do.
    Before the end, the Glory is as it stands: the track plus what the end of
    the current Age would award now (``glory_as_it_stands``)."""
    recorded = game.outcome or {}
    glory = [int(v) for v in recorded.get("glory")
             or (game.glory if game.over else glory_as_it_stands(game))]
    markers = recorded.get("markers") or [0] * len(glory)
    bands = recorded.get("last_age_bands") or [[] for _ in glory]
    ranking = rank(len(glory), lambda s: (glory[s], markers[s], sorted(bands[s], reverse=True)))
    return scored(recorded, glory, ranking, "Glory")
