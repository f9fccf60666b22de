"""The round: the tide rises (coins, a full shore, a secret bid), the shore is
worked until everyone passes in a row, the tide ebbs.

Decider shape: each function decides on the state it is given and records
events with ``state.emit`` (or the kernel's ``open_choices``); none imports the
aggregate class, and the ``@event`` bodies in ``game.py`` only evolve.
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel import flow as kflow
from aggregates.kernel import zones as kzones
from tests.template_game.components import COMPONENTS as C
from tests.template_game.table import SHORE, hand


def deal_hands(state: Any) -> None:
    """Setup: each position draws its hand, one event each, read only by its
    controller (the audience comes from the zones: deck -> hand)."""
    for position in range(4):
        state.emit("CardsDealt", target=hand(position),
                   cards=kzones.draw(state.zones["deck"], C.hand_size))


def open_round(state: Any) -> None:
    """The tide rises: refill the shore face up, pay the coins, open the bid."""
    missing = C.shore_size - len(state.zones[SHORE])
    # ``draw`` takes from the top; CardsDealt removes what it names from the deck.
    cards = kzones.draw(state.zones["deck"], missing)
    if cards:
        state.emit("CardsDealt", target=SHORE, cards=cards)
    number = state.round + 1
    gain = state.tide_gain(number)
    state.emit("TideRose", round=number, first=(number - 1) % 4, coins=[gain] * 4,
               totals=[c + gain for c in state.coins])
    # Kernel: a simultaneous hidden choice, every seat at once.
    state.open_choices("bid", list(range(len(state.seats))))


def all_passed(state: Any) -> bool:
    """The round is over once every position has passed in a row."""
    return state.passing is not None and kflow.all_passed(state.passing)


def close_round(state: Any) -> None:
    """Everyone passed in a row: the tide ebbs."""
    state.emit("TideEbbed", round=state.round)


def next_round(state: Any) -> str | None:
    """The next round, or (after the last) the end."""
    return "round" if state.round < state.rounds else None
