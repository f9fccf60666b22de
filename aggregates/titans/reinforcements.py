"""End of the Round, step 3: Reinforcements; step 4: Preparing Cards for the new Round.

Starting with the (new) Starting Player and going clockwise, each player takes
both his Reinforcements before the next does:

1st: 2 Support Cards (from the 4 face up, from the top of the Deck, or 1 of
     each), or 2 Secret Objective Cards, keeping 1 and putting the other at the
     bottom of their deck (not in the Simplified variant);
2nd: purchase a Nation Card (the new Round's discount applies), or discard 1
     Support Card and add any 1 unit onto a region he controls. One of the two
     is taken whenever one can be: nothing is bought only when no Nation Card
     of the top 3 can be paid for and no unit can be added (and then no card
     goes to the bottom of the Nation Deck, which follows a purchase).

Then the 4 face-up Support Cards are discarded and 4 new turned up, the Order
Cards are shuffled into a new Order Deck, and the once-per-Round Nation Cards
are turned back; the new Round begins with the Starting Player's Pools.
"""

from __future__ import annotations

from itertools import combinations

from aggregates.kernel import Command, Reason, RuleError
from aggregates.kernel import flow as kflow
from aggregates.titans import cards, deployment, purchase
from aggregates.titans.commands import (
    NONE,
    ReinforceObjectives,
    ReinforcePurchase,
    ReinforceSupport,
    ReinforceUnit,
)
from aggregates.titans.data import UNITS
from aggregates.titans.reasons import TitansReason
from aggregates.titans.state import State

TAKE = 2


def reinforcing_seat(game: State) -> int | None:
    """Who reinforces now: each player in turn from the Starting Player, once."""
    return None if game.reinforcing is None else kflow.responder(game.reinforcing)


def stage(game: State) -> str | None:
    """"first", "keep" or "second": what the reinforcing seat is asked."""
    r = game.reinforcing
    if reinforcing_seat(game) is None or r is None:
        return None
    if not r["first"]:
        return "keep" if r["drawn"] else "first"
    return "second"


# ------------------------------------------------------------- 1st Reinforcement


def check_reinforce_support(game: State, seat: int, command: ReinforceSupport) -> None:
    picked = command.row
    if len(picked) > TAKE or len(set(picked)) != len(picked) or any(
            c not in game.support_row for c in picked):
        raise RuleError(Reason.BAD_ARGUMENT, f"take at most {TAKE} different face-up cards")
    if not full_take(game, len(picked)):
        raise RuleError(TitansReason.SUPPLY_EXHAUSTED, "the Support Deck cannot give so many")


def full_take(game: State, from_row: int) -> bool:
    """Whether taking ``from_row`` face-up cards and the rest from the Deck gets as
    many cards as can be had (2, unless the row and the Deck hold fewer)."""
    gets = from_row + min(TAKE - from_row, cards.available(game))
    return gets == min(TAKE, len(game.support_row) + cards.available(game))


def run_reinforce_support(game: State, seat: int, command: ReinforceSupport) -> None:
    game.emit("ReinforcementChosen", seat=seat, reinforcement=1, option="support")
    for card in command.row:
        game.emit("SupportDrawn", seat=seat, cards=[card], source="row", why="reinforcement")
    cards.draw(game, seat, TAKE - len(command.row), why="reinforcement")
    cards.refill_row(game)


def legal_reinforce_support(game: State, seat: int) -> list[Command]:
    out: list[Command] = []
    for k in range(min(TAKE, len(game.support_row)) + 1):
        if full_take(game, k):
            out.extend(ReinforceSupport(row=c)
                       for c in combinations(sorted(game.support_row), k))
    return out


def objectives_allowed(game: State) -> bool:
    return game.variant != "simplified" and bool(game.objective_deck)


def check_reinforce_objectives(game: State, seat: int, command: ReinforceObjectives) -> None:
    if not objectives_allowed(game):
        raise RuleError(Reason.ILLEGAL_MOVE, "no Secret Objectives to draw in this game")


def run_reinforce_objectives(game: State, seat: int, command: ReinforceObjectives) -> None:
    drawn = list(game.objective_deck[:TAKE])
    game.emit("ObjectivesDrawn", audience=cards.private(seat),
              public={"seat": seat, "count": len(drawn)}, seat=seat, cards=drawn)


def legal_reinforce_objectives(game: State, seat: int) -> list[Command]:
    return [ReinforceObjectives()] if objectives_allowed(game) else []


# ------------------------------------------------------------- 2nd Reinforcement


def nothing_to_take(game: State, seat: int) -> bool:
    """The 2nd Reinforcement can be taken neither way: no Nation Card of the top 3
    can be paid for, and no unit can be added (no Support Card to discard, or no
    unit left in the reserve)."""
    return not purchase.purchases(game, seat) and not legal_reinforce_unit(game, seat)


def check_reinforce_purchase(game: State, seat: int, command: ReinforcePurchase) -> None:
    if command.card == NONE:
        if not nothing_to_take(game, seat):
            raise RuleError(Reason.ILLEGAL_MOVE, "the 2nd Reinforcement is 1 of 2 options: "
                            "purchase a Nation Card you can pay for, or discard 1 Support "
                            "Card for 1 unit (reinforce_unit)")
        if command.bottom != NONE or command.pay:
            raise RuleError(Reason.BAD_ARGUMENT, "nothing is bought: pay nothing, and no "
                            "card goes to the bottom of your Nation Deck")
        return
    purchase.check_purchase(game, seat, command.card, command.pay, command.bottom)


def legal_reinforce_purchase(game: State, seat: int) -> list[Command]:
    if nothing_to_take(game, seat):
        return [ReinforcePurchase(card=NONE, pay=(), bottom=NONE)]
    return [ReinforcePurchase(card=c, pay=p, bottom=b)
            for c, p, b in purchase.purchases(game, seat)]


def run_reinforce_purchase(game: State, seat: int, command: ReinforcePurchase) -> None:
    if command.card == NONE:  # neither option could be taken
        game.emit("ReinforcementChosen", seat=seat, reinforcement=2, option="none")
        return
    game.emit("ReinforcementChosen", seat=seat, reinforcement=2, option="purchase")
    purchase.purchase(game, seat, command.card, command.pay, command.bottom,
                      why="reinforcement")


def check_reinforce_unit(game: State, seat: int, command: ReinforceUnit) -> None:
    if command.discard not in game.hands[seat]:
        raise RuleError(TitansReason.NOT_HELD, f"Support Card {command.discard} is not in your "
                        "hand")
    deployment.can_deploy(game, seat, command.unit, command.region)


def run_reinforce_unit(game: State, seat: int, command: ReinforceUnit) -> None:
    game.emit("ReinforcementChosen", seat=seat, reinforcement=2, option="unit")
    cards.discard(game, seat, [command.discard], why="reinforcement")
    game.emit("UnitDeployed", seat=seat, action="reinforcement", unit=command.unit,
              region=command.region)


def legal_reinforce_unit(game: State, seat: int) -> list[Command]:
    out: list[Command] = []
    for discard in sorted(game.hands[seat]):
        for unit in UNITS:
            out.extend(ReinforceUnit(discard=discard, unit=unit, region=r)
                       for r in deployment.deploy_targets(game, seat, unit))
    return out


# ------------------------------------------------------------- the new Round


def prepare_round(game: State) -> None:
    """Decide: step 4, Preparing Cards for the new Round (its Order Deck is
    shuffled as the Round begins: ``order_pool.begin_round``)."""
    game.emit("RoundPrepared", round=game.round, row_discarded=list(game.support_row),
              restored=[c for seat in game.rotated for c in seat])
    cards.refill_row(game)


def done(game: State) -> bool:
    """The End of the Round is over: the game's end, or the cards prepared."""
    return game.over or game.reinforcing is None


def settle(game: State) -> bool:
    """Decide one automatic step of the Reinforcements; True if one was taken."""
    if game.reinforcing is None:
        return False
    if reinforcing_seat(game) is None:
        prepare_round(game)
        return True
    return False
