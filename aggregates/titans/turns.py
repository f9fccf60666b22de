"""Playing the Game: the Active Player's turn and its four phases.

1. Order Phase: choose 1 Order Card (not to be skipped), use its actions in any
   order, or leave some unused; the card then goes to the Order discard pile.
2. Resolving Battles: the Battles instigated, in the order the Active Player
   chooses (``battles.py``).
3. Draw 1 Support Card (``support.py``).
4. Clean-Up: discard down to the Support Card Hand Limit; a Titan destroyed
   this turn (lying on the Nation Board) is raised, a standing one deployed
   onto a controlled region.
A player may accomplish 1 Secret Objective on his turn (``objectives.py``).
After the turn, an Order Pool down to its last card slides (``order_pool.py``)
and the next player clockwise takes his turn, or the Round ends.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from aggregates.kernel import Command, Reason, RuleError
from aggregates.kernel import flow as kflow
from aggregates.kernel.present import plural
from aggregates.titans import (
    abilities,
    battle_outcome,
    battles,
    cards,
    order_pool,
    regions,
    support,
)
from aggregates.titans.commands import DeployTitan, DiscardSupport, EndOrders
from aggregates.titans.state import EARLIER_SUPPORT_UNAVAILABLE, State

ORDERS, BATTLES, SUPPORT, CLEANUP = "orders", "battles", "support", "cleanup"


def step(game: State) -> str | None:
    """The phase of the Active Player's turn (None: no turn is under way)."""
    turn = game.turn
    if turn is None:
        return None
    if not turn["orders_done"]:
        return ORDERS
    if turn["battles"] or game.battle is not None:
        return BATTLES
    if not turn["support_drawn"]:
        return SUPPORT
    return CLEANUP


def support_step_entered(game: State) -> None:
    """Evolve, after a fact that may end the Battles (``OrdersEnded``, a
    ``BattleResolved``): a Support step entered with no Support Card to draw
    (the deck, its discards and the row empty) is passed, nothing drawn.
    Rules 1.2.0 and before recorded it as ``SupportUnavailable``
    (``state.EARLIER_SUPPORT_UNAVAILABLE``)."""
    if (EARLIER_SUPPORT_UNAVAILABLE not in game.earlier and step(game) == SUPPORT
            and not support.can_draw(game)):
        assert game.turn is not None
        game.turn["support_drawn"] = True


def excess(game: State, seat: int) -> int:
    return max(0, len(game.hands[seat]) - abilities.hand_limit(game, seat))


def titan_to_deploy(game: State, seat: int) -> bool:
    assert game.turn is not None
    return (not game.turn["titan_done"] and game.titan[seat] == "standing"
            and bool(regions.controlled(game, seat)))


# ------------------------------------------------------------ end_orders


def check_end_orders(game: State, seat: int, command: EndOrders) -> None:
    if step(game) != ORDERS or game.turn is None or game.turn["order"] is None:
        raise RuleError(Reason.WRONG_PHASE, "choose an Order Card first")


def run_end_orders(game: State, seat: int, command: EndOrders) -> None:
    end_orders(game, seat)


def end_orders(game: State, seat: int) -> None:
    assert game.turn is not None
    game.emit("OrdersEnded", seat=seat, card=game.turn["order"],
              unused=list(game.turn["actions"]),
              battles=[b["region"] for b in game.turn["battles"]])


def legal_end_orders(game: State, seat: int) -> list[Command]:
    return [EndOrders()]


# ------------------------------------------------------------ Clean-Up


def check_discard_support(game: State, seat: int, command: DiscardSupport) -> None:
    need = excess(game, seat)
    if len(command.cards) != need or len(set(command.cards)) != need:
        raise RuleError(Reason.BAD_ARGUMENT, f"discard exactly {plural(need, 'Support Card')}")
    if any(c not in game.hands[seat] for c in command.cards):
        raise RuleError(Reason.BAD_ARGUMENT, "discard cards of your hand")


def run_discard_support(game: State, seat: int, command: DiscardSupport) -> None:
    cards.discard(game, seat, list(command.cards), why="hand limit")


def legal_discard_support(game: State, seat: int) -> list[Command]:
    need = excess(game, seat)
    if not need:
        return []
    return [DiscardSupport(cards=c) for c in combinations(sorted(game.hands[seat]), need)]


def check_deploy_titan(game: State, seat: int, command: DeployTitan) -> None:
    if not titan_to_deploy(game, seat):
        raise RuleError(Reason.WRONG_PHASE, "your Titan is not standing on your Nation Board")
    if game.control.get(command.region) != seat:
        raise RuleError(Reason.ILLEGAL_MOVE, f"you do not control {command.region}")


def run_deploy_titan(game: State, seat: int, command: DeployTitan) -> None:
    game.emit("TitanDeployed", seat=seat, region=command.region)


def legal_deploy_titan(game: State, seat: int) -> list[Command]:
    if not titan_to_deploy(game, seat):
        return []
    return [DeployTitan(region=r) for r in sorted(regions.controlled(game, seat))]


def cleanup_decision(game: State, seat: int) -> str | None:
    """The Clean-Up decision pending, if any: "discard" or "titan"."""
    if excess(game, seat):
        return "discard"
    if game.titan[seat] == "standing" and titan_to_deploy(game, seat) and len(
            regions.controlled(game, seat)) > 1:
        return "titan"
    return None


# ------------------------------------------------------------ automatic steps


def settle(game: State) -> bool:
    """Decide one automatic step of the turn; True if one was taken."""
    turn = game.turn
    if turn is None:
        return False
    seat = int(turn["seat"])
    now = step(game)
    if now == ORDERS:
        if turn["order"] is not None and not turn["actions"]:
            end_orders(game, seat)  # every action used
            return True
        return False
    if now == BATTLES:
        if game.battle is not None:
            return battle_outcome.settle(game)
        if len(turn["battles"]) == 1:
            battles.begin(game, turn["battles"][0]["region"])
            return True
        return False  # the Active Player chooses the next Battle
    if now == SUPPORT:
        # Nothing to draw: rules 1.2.0 and before record the step passed (1.3.0
        # passed it as it was entered: ``support_step_entered``).
        if EARLIER_SUPPORT_UNAVAILABLE in game.earlier and not support.can_draw(game):
            game.emit("SupportUnavailable", seat=seat)
            return True
        return False
    if cleanup_decision(game, seat) is not None:
        return False
    if not turn["titan_done"]:
        if game.titan[seat] == "lying":
            game.emit("TitanRaised", seat=seat)
            return True
        if titan_to_deploy(game, seat):
            game.emit("TitanDeployed", seat=seat, region=regions.controlled(game, seat)[0])
            return True
    game.emit("TurnEnded", seat=seat)
    return True


def between_turns(game: State) -> bool:
    """Decide, after a turn: slide the Order Pool down, then the next turn or the
    end of the Round (``scoring.end_round``). True if a step was taken."""
    if order_pool.needs_slide(game):
        order_pool.slide_down(game)
        return True
    if order_pool.round_over(game):
        return False
    game.emit("TurnBegan", seat=kflow.next_seat(game.current, len(game.seats)))
    return True


def new_turn(seat: int) -> dict[str, Any]:
    """A turn as it begins: no Order taken, no action, no Battle yet."""
    return {"seat": seat, "order": None, "actions": [], "orders_done": False, "battles": [],
            "entered": [], "objective": False, "support_drawn": False, "titan_done": False}


def use_action(game: State, action: str) -> None:
    """An action of the Order taken is spent."""
    if game.turn is not None and action in game.turn["actions"]:
        game.turn["actions"].remove(action)
