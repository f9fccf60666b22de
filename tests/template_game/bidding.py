"""1. The Tide Bid: every seat secretly bids coins for each position it plays;
the bids are revealed together; the highest bidder works the shore first.

Kernel features shown: a simultaneous hidden choice (``Game.open_choices`` in
``rounds.open_round``, then ``Game.collect``: each bid is read by its bidder
alone, and the last one in reveals them all in one ``ChoicesRevealed`` event);
an ``Assign`` choice (each of the seat's positions gets one of the bid values,
the server checking the combination against the coins); a decision with a
deadline and a ``random`` default (``Game.act_default``).
"""

from __future__ import annotations

import itertools
from typing import Any

from aggregates.kernel import Assign, Command, RuleError
from aggregates.kernel import flow as kflow
from tests.template_game.commands import Bid
from tests.template_game.components import COMPONENTS as C
from tests.template_game.reasons import TideReason
from tests.template_game.table import POSITIONS


def limits(state: Any, seat: int) -> list[tuple[int, int]]:
    """(position, highest bid) for each position the seat plays."""
    return [(p, min(C.max_bid, state.coins[p])) for p in state.seating().positions_of(seat)]


def check(state: Any, seat: int, command: Bid) -> None:
    mine = limits(state, seat)
    if len(command.bids) != len(mine):
        raise RuleError(TideReason.BID_TOO_HIGH,
                        f"bid once for each of {', '.join(POSITIONS[p] for p, _ in mine)}")
    for (position, high), bid in zip(mine, command.bids, strict=True):
        if not 0 <= bid <= high:
            raise RuleError(TideReason.BID_TOO_HIGH,
                            f"{POSITIONS[position]} can bid 0 to {high}, not {bid}")


def run(state: Any, seat: int, command: Bid) -> None:
    chosen = state.collect(seat, list(command.bids))
    if chosen is None:
        return  # others are still bidding; they see only that this seat has bid
    bids = [0] * 4
    for bidder, values in chosen.items():
        for position, value in zip(state.seating().positions_of(bidder), values, strict=True):
            bids[position] = value
    # Highest bid first; ties go round the table from this round's first position.
    order = sorted(kflow.order_from(state.first, 4), key=lambda p: -bids[p])
    state.emit("BidsSettled", bids=bids, order=order,
               totals=[c - b for c, b in zip(state.coins, bids, strict=True)])


def legal(state: Any, seat: int) -> list[Command]:
    ranges = [range(high + 1) for _, high in limits(state, seat)]
    return [Bid(tuple(values)) for values in itertools.product(*ranges)]


def choice(state: Any, seat: int) -> Assign:
    names = tuple(POSITIONS[p] for p in state.seating().positions_of(seat))
    return Assign("bid", "bids", items=names, slots=tuple(range(C.max_bid + 1)),
                  prompt="a secret bid of coins for " + " and ".join(names),
                  slot_labels=tuple(f"bid {n}" for n in range(C.max_bid + 1)))
