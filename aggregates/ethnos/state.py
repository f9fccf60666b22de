"""What the rules modules may read and do: the Ethnos state, as a Protocol,
and the steps of the flow (each decision the game can wait on, a
``Decision.kind``, with its prompt; ``flow.py`` says which moves answer each:
a command its step does not list is refused with ``WRONG_PHASE`` and the
prompt of the step awaited).

The chapter modules (``ages``, ``recruit``, ``bands``, ``tribes``, ``scoring``)
decide on the state they are given and record events with ``state.emit(name,
**facts)`` (the kernel's ``Game.emit``); they never import the aggregate
class, which imports them (decide here; each event's change of state is its
function in ``apply.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from aggregates.kernel import Audience

#: An earlier rule kept by rules 1.0.0 (``Ethnos.earlier``): it recorded the
#: Wizards answer waiting after a Wizards band's discard as an event of its own
#: (``WizardsOffered``), which rules 1.1.0 read from the discard (``apply.py``).
PROGRESS_RECORDED = "progress recorded"


class State(Protocol):
    """The Ethnos aggregate as the rules see it (``game.Ethnos`` implements it)."""

    seats: list[str]
    tribes: list[str]
    ages: int
    age: int
    first_player: int
    current: int
    deck: list[int]
    row: list[int]
    hands: list[list[int]]
    bands: list[list[dict[str, Any]]]
    dragons: list[int]
    steps: list[str]
    band: dict[str, Any] | None
    markers: dict[str, list[int]]
    glory_tokens: dict[str, list[int]]
    glory: list[int]
    merfolk: list[int]
    troll_tokens: list[list[int]]
    trolls_free: list[int]
    giant: int | None
    orc_boards: list[list[str]]
    orc_pending: list[int]
    orc_choices: list[bool | None]
    third_dragon_seat: int | None
    last_bands: list[list[int]]
    wizards_x: int
    over: bool
    ended: bool
    outcome: dict[str, Any] | None

    @property
    def stage(self) -> str: ...

    @property
    def earlier(self) -> frozenset[str]:
        """The earlier rules this game is played by (``PROGRESS_RECORDED``)."""
        ...

    def emit(self, event_name: str, *, audience: Audience | None = None,
             public: Mapping[str, Any] | None = None, **payload: Any) -> None: ...

    def finished(self) -> dict[str, Any] | None: ...

    def shuffled(self, items: list[Any]) -> list[Any]: ...


# ------------------------------------------------------------------ the steps

# ``Decision.kind``, in rulebook order.
TURN = "turn"            # Playing Through an Age: Recruit an Ally or Play a Band
WINGFOLK = "wingfolk"    # Wingfolk leader: the Kingdom of the Control marker
MERFOLK = "merfolk"      # Merfolk track space 3/7/12/18: a free Control marker anywhere
TROLL = "troll"          # Trolls leader: the Troll token to take
CENTAUR = "centaur"      # Centaurs leader placed a marker: another band, or stop
ELVES = "elves"          # Elves leader: the cards to keep
WIZARDS = "wizards"      # Wizards leader, after the discard: draw X cards, or not
ORC_HORDE = "orc_horde"  # End of an Age (not the last): score the Orc Horde board or keep it
OVER = "over"


PROMPTS = {
    TURN: "Recruit an Ally (face up, or the top of the deck) or Play a Band",
    WINGFOLK: "Wingfolk: place the Control marker in any Kingdom the band is large enough "
              "for",
    MERFOLK: "Merfolk: place a free Control marker in any Kingdom",
    TROLL: "Trolls: take an unclaimed Troll token worth at most the band's size",
    CENTAUR: "Centaurs: play another band from your hand, or stop",
    ELVES: "Elves: keep up to as many cards as the band has; the rest is discarded",
    WIZARDS: "Wizards: draw as many cards as the band has from the Allies Deck, or not",
    ORC_HORDE: "End of the Age: score and clear your Orc Horde board, or keep it",
}
