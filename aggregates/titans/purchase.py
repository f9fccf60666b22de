"""Purchasing Nation Cards (rulebook, "Purchasing Nation Card Action"; Game Setup 6;
2nd Reinforcement).

The player picks up the top 3 cards of his Nation Deck (which he may look at
any time), buys one by discarding as many Support Cards as its cost, less the
Round's discount (Round 3: 1; in the Extended game Round 4: 2) and less 1 more
for the discounted action, never below 0; then he may put one of the others at
the bottom of the Nation Deck, the rest going back on top. At the Game Setup
the purchase is made by everyone at once, revealed together, and may be none.
"""

from __future__ import annotations

from itertools import combinations

from aggregates.kernel import Command, Reason, RuleError
from aggregates.titans.cards import private
from aggregates.titans.commands import (
    NONE,
    OpeningPurchase,
    PurchaseNationCard,
)
from aggregates.titans.data import NATION_CARDS, TABLES
from aggregates.titans.movement import actions_left, check_order_action
from aggregates.titans.reasons import TitansReason
from aggregates.titans.state import State

OFFER = 3
PURCHASES = ("purchase", "purchase_discount")


def offer(game: State, seat: int) -> list[int]:
    """The top 3 Nation Cards of ``seat``'s deck."""
    return list(game.nation_decks[seat][:OFFER])


def cost(game: State, card: int, extra: int = 0) -> int:
    """The card's cost now: its printed cost less the Round's discount and ``extra``."""
    discount = TABLES.discount(game.rounds, game.round) + extra
    return max(0, NATION_CARDS[card].cost - discount)


def check_purchase(game: State, seat: int, card: int, pay: tuple[int, ...], bottom: int,
                   extra: int = 0, optional: bool = False) -> None:
    """The purchase's rules (``optional``: buying no card is allowed)."""
    top = offer(game, seat)
    if card == NONE:
        if not optional:
            raise RuleError(Reason.BAD_ARGUMENT, "name the Nation Card you purchase")
        if pay:
            raise RuleError(TitansReason.CANNOT_PAY, "nothing is bought: pay nothing")
    elif card not in top:
        raise RuleError(TitansReason.NOT_HELD, f"Nation Card {card} is not among your top "
                        f"{OFFER} {top}")
    if bottom != NONE and (bottom not in top or bottom == card):
        raise RuleError(Reason.BAD_ARGUMENT, "the card put at the bottom is one of the others "
                        "you picked up")
    if len(set(pay)) != len(pay) or any(c not in game.hands[seat] for c in pay):
        raise RuleError(TitansReason.NOT_HELD, "pay with Support Cards of your hand")
    if card != NONE and len(pay) != cost(game, card, extra):
        raise RuleError(TitansReason.CANNOT_PAY,
                        f"Nation Card {card} costs {cost(game, card, extra)} Support Cards")


def purchase(game: State, seat: int, card: int, pay: tuple[int, ...], bottom: int,
             why: str, extra: int = 0) -> None:
    """Decide: record the purchase; which card went to the bottom is the buyer's to know."""
    public = {"seat": seat, "card": card, "paid": sorted(pay), "why": why,
              "cost": cost(game, card, extra)}
    game.emit("NationCardPurchased", audience=private(seat), public=public,
              bottom=bottom, **public)
    show_top(game, seat)


def show_top(game: State, seat: int) -> None:
    """Decide: "a player may look at the top 3 Nation Cards freely at any time":
    the owner is told which they are now (nobody else)."""
    game.emit("NationDeckTopSeen", audience=private(seat), public={"seat": seat},
              seat=seat, cards=offer(game, seat))


def purchases(game: State, seat: int, extra: int = 0, optional: bool = False
              ) -> list[tuple[int, tuple[int, ...], int]]:
    """Every legal (card, pay, bottom), pay sorted, each once."""
    top = offer(game, seat)
    hand = sorted(game.hands[seat])
    out = []
    for card in ([NONE] if optional else []) + top:
        need = 0 if card == NONE else cost(game, card, extra)
        if need > len(hand):
            continue
        pays = [()] if card == NONE else list(combinations(hand, need))
        for pay in pays:
            for bottom in [NONE] + [c for c in top if c != card]:
                out.append((card, tuple(pay), bottom))
    return out


# ------------------------------------------------------ the Order's action


def check_purchase_nation_card(game: State, seat: int, command: PurchaseNationCard) -> None:
    check_order_action(game, command.action, PURCHASES, "a purchase")
    check_purchase(game, seat, command.card, command.pay, command.bottom,
                   extra=1 if command.action == "purchase_discount" else 0)


def run_purchase_nation_card(game: State, seat: int, command: PurchaseNationCard) -> None:
    extra = 1 if command.action == "purchase_discount" else 0
    purchase(game, seat, command.card, command.pay, command.bottom, why=command.action,
             extra=extra)


def legal_purchase_nation_card(game: State, seat: int) -> list[Command]:
    out: list[Command] = []
    for action in [a for a in PURCHASES if a in actions_left(game)]:
        extra = 1 if action == "purchase_discount" else 0
        out.extend(PurchaseNationCard(action=action, card=c, pay=p, bottom=b)
                   for c, p, b in purchases(game, seat, extra))
    return out


# ------------------------------------------------------ Game Setup 6


def check_opening_purchase(game: State, seat: int, command: OpeningPurchase) -> None:
    if game.opening is None or str(seat) in game.opening["chosen"]:
        raise RuleError(Reason.ILLEGAL_MOVE, "you have made your opening purchase")
    check_purchase(game, seat, command.card, command.pay, command.bottom, optional=True)


def run_opening_purchase(game: State, seat: int, command: OpeningPurchase) -> None:
    """Decide: the choice is recorded for its chooser only; when the last seat has
    chosen, every purchase is revealed at once (rulebook: "revealed simultaneously")."""
    bought = None if command.card == NONE else command.card  # no card: none is named
    game.emit("OpeningPurchaseChosen", audience=private(seat), public={"seat": seat},
              seat=seat, card=bought, pay=sorted(command.pay), bottom=command.bottom)


def reveal_openings(game: State) -> None:
    """Decide: every opening purchase shown together (the bottom cards stay private)."""
    assert game.opening is not None
    chosen = game.opening["chosen"]
    game.emit("OpeningPurchasesRevealed", purchases=[
        {"seat": s, "card": chosen[str(s)]["card"], "paid": list(chosen[str(s)]["pay"]),
         "cost": len(chosen[str(s)]["pay"])} for s in range(len(game.seats))])
    for seat in range(len(game.seats)):
        show_top(game, seat)


def legal_opening_purchase(game: State, seat: int) -> list[Command]:
    return [OpeningPurchase(card=c, pay=p, bottom=b)
            for c, p, b in purchases(game, seat, optional=True)]


def to_bottom(game: State, seat: int, card: int) -> None:
    """A card of the seat's Nation Deck goes to its bottom (``NONE``: no card)."""
    if card != NONE and card in game.nation_decks[seat]:
        game.nation_decks[seat].remove(card)
        game.nation_decks[seat].append(card)
