"""Ethnos' events: each a fact of the rulebook, one immutable class whose typed
fields are the whole payload (``aggregates.kernel.facts``).

The rules modules decide (shuffle, check, choose) and record these with
``state.emit("Name", **facts)``; ``apply.py`` changes the state from each.
The JSON schemas of ``schemas.json``'s events and the event table of
docs/games/ethnos.md are generated from these classes (``make schemas``), each
class's docstring being what the event states.

Cards are named by their number in the deck list (``data.py``). Glory is
stated as the change (``awards`` for every seat, or ``glory`` for one) and
every seat's Glory after it (``totals``: null in an event recorded before the
rules recorded it, ``upcasts.py``). Who may read an event follows from the
zones its cards move between (``zones.py``); a reader who may not gets its
public form, without the hidden cards (and with the deck's size instead of
its order: ``PUBLIC_COUNTS``).
"""

from __future__ import annotations

from typing import TypedDict

from aggregates.kernel import Game


class GloryTokens(TypedDict):
    """Each Kingdom's Glory tokens (ascending), by the Kingdom's key."""

    ithys: list[int]
    straton: list[int]
    rhea: list[int]
    duris: list[int]
    althea: list[int]
    pelagon: list[int]


class Setup(TypedDict):
    """The setup: the tribes in play, the Glory tokens of each Kingdom, the first
    player; nothing in it is secret."""

    players: int
    tribes: list[str]
    glory_tokens: GloryTokens
    first_player: int


class Outcome(TypedDict):
    """How the game ended (the Ended event's ``outcome``): the winners, every seat's
    Glory and Control markers, and the sizes of the last Age's bands (the tie-breaks)."""

    result: str
    winners: list[int]
    glory: list[int]
    markers: list[int]
    last_age_bands: list[list[int]]


# ---------------------------------------------------------------- Beginning an Age


class AgeBegan(Game.Event):
    """An Age begins: the `age`, the `first_player`, the `deck` in its shuffled order
    (read by nobody: the public form gives its size)."""

    PUBLIC_COUNTS = (("deck", "deck_size"),)

    age: int
    first_player: int
    deck: list[int]


class CardDealt(Game.Event):
    """A `card` is dealt from the top of the deck to a `seat` (read by that seat)."""

    seat: int
    card: int


class RowTurned(Game.Event):
    """The `cards` are turned face up from the deck onto the row."""

    cards: list[int]


# ----------------------------------------------------------------------- Recruiting


class RecruitedFaceUp(Game.Event):
    """A `seat` recruits the `card` from the row."""

    seat: int
    card: int


class DrewFromDeck(Game.Event):
    """A `seat` draws the `card` from the top of the deck (read by that seat)."""

    seat: int
    card: int


class DragonRevealed(Game.Event):
    """A `seat` draws a Dragon, the `card`, and sets it aside."""

    seat: int
    card: int


class TurnEnded(Game.Event):
    """A `seat`'s turn ends: the `next_seat` plays."""

    seat: int
    next_seat: int


# ------------------------------------------------------------------- Playing a Band


class BandPlayed(Game.Event):
    """A `seat` plays a band: its `cards`, its `leader`, its `size`, and the `steps`
    its Leader's ability leaves to decide."""

    seat: int
    cards: list[int]
    leader: int
    size: int
    steps: list[str]


class MarkerPlaced(Game.Event):
    """A `seat` places a Control marker in a `kingdom`; the `source`: the band, the
    Wingfolk or the Merfolk."""

    seat: int
    kingdom: str
    source: str


class GiantTokenTaken(Game.Event):
    """A `seat` takes the Giant token: the `glory` it gives, every seat's `totals`
    after."""

    seat: int
    glory: int
    totals: list[int] | None


class MerfolkAdvanced(Game.Event):
    """A `seat`'s Merfolk marker reaches `position` on the track."""

    seat: int
    position: int


class OrcMarkerPlaced(Game.Event):
    """A `seat` marks a `colour` on its Orc Horde board."""

    seat: int
    colour: str


class TrollTokenTaken(Game.Event):
    """A `seat` takes the Troll token of `value`."""

    seat: int
    value: int


class WizardsOffered(Game.Event):
    """A `seat`'s Wizards Leader may draw `x` cards, after the discard. Recorded by
    rules 1.0.0 only: it is the engine's progress, which rules 1.1.0 read from the
    `HandDiscarded` of a band a Wizard leads."""

    seat: int
    x: int


class WizardsAnswered(Game.Event):
    """A `seat` answers its Wizards: `draw` the cards, or not."""

    seat: int
    draw: bool


class HandDiscarded(Game.Event):
    """A `seat` discards the `cards` left in its hand face up to the row."""

    seat: int
    cards: list[int]


# ----------------------------------------------------------------- End of an Age


class AgeEnded(Game.Event):
    """The third Dragon ends the `age`, drawn by a `seat`: the hands are `scattered`
    face up to the row, and the `orc_seats` choose whether to score their Horde."""

    age: int
    seat: int
    scattered: list[list[int]]
    orc_seats: list[int]


class OrcHordeChosen(Game.Event):
    """A `seat` chooses to `score` its Orc Horde now, or keep it."""

    seat: int
    score: bool


class KingdomScored(Game.Event):
    """A `kingdom` is scored: the `awards` of every seat, the `totals` after."""

    kingdom: str
    awards: list[int]
    totals: list[int] | None


class GiantScored(Game.Event):
    """The Giant token scores for a `seat`: its `glory`, the `totals` after."""

    seat: int
    glory: int
    totals: list[int] | None


class MerfolkScored(Game.Event):
    """The Merfolk track is scored: the `awards` of every seat, the `totals` after."""

    awards: list[int]
    totals: list[int] | None


class OrcHordeScored(Game.Event):
    """A `seat`'s Orc Horde is scored: the `colours` on it (the board empties), the
    `glory`, the `totals` after."""

    seat: int
    colours: list[str]
    glory: int
    totals: list[int] | None


class SkeletonsRemoved(Game.Event):
    """The Skeletons, the `cards`, leave the bands for the row before the bands score."""

    cards: list[int]


class BandsScored(Game.Event):
    """The bands are scored: the `awards` of every seat, the `totals` after."""

    awards: list[int]
    totals: list[int] | None


class AgeClosed(Game.Event):
    """The `age` is over (the game, if `final`): the bands go to the row, the Troll and
    Giant tokens back to the supply."""

    age: int
    final: bool


#: Every event of the game, in rulebook order (the game's ``EVENTS``).
EVENTS: tuple[type[Game.Event], ...] = (
    AgeBegan, CardDealt, RowTurned, RecruitedFaceUp, DrewFromDeck, DragonRevealed,
    TurnEnded, BandPlayed, MarkerPlaced, GiantTokenTaken, MerfolkAdvanced,
    OrcMarkerPlaced, TrollTokenTaken, WizardsOffered, WizardsAnswered, HandDiscarded,
    AgeEnded, OrcHordeChosen, KingdomScored, GiantScored, MerfolkScored, OrcHordeScored,
    SkeletonsRemoved, BandsScored, AgeClosed,
)
