"""The Nigh Towns: buy one item at the market, OR try to steal the Key, OR leave."""

from __future__ import annotations

from aggregates.enin.character import hp_after, luck_after
from aggregates.enin.commands import Buy, LeaveTown, StealKey
from aggregates.enin.data import MARKET_ITEMS, TABLES
from aggregates.enin.quest import end_of_turn, roll_for
from aggregates.enin.reasons import EninReason
from aggregates.enin.state import EninState
from aggregates.kernel import Command, Reason, RuleError

KEY = "key"


def refusal(state: EninState, item: str) -> tuple[EninReason, str] | None:
    """Why ``item`` cannot be bought now (None: it can)."""
    goods = TABLES.market[item]
    if item == state.last_purchase:
        return EninReason.REPEAT_PURCHASE, f"you may not buy the {goods.name} twice in a row"
    if goods.effect == "map" and state.map_held:
        return EninReason.ALREADY_HELD, "you already have the Map of Enin"
    if state.gold < goods.price:
        return EninReason.NOT_ENOUGH_GOLD, (
            f"the {goods.name} costs {goods.price}g; you have {state.gold}g"
        )
    return None


def nothing_to_buy(state: EninState) -> str:
    """Why the market sells this hero nothing now, in words ("" when something
    can be bought): the Nigh Towns' turn then offers only the Key or leaving,
    and the player is told why rather than left to wonder."""
    if any(refusal(state, item) is None for item in MARKET_ITEMS):
        return ""
    cheapest = min(TABLES.market[item].price for item in MARKET_ITEMS)
    if state.gold < cheapest:
        return (f"with {state.gold} gold nothing can be bought (the cheapest item costs "
                f"{cheapest})")
    return "nothing at the market can be bought now: " + "; ".join(
        why for item in MARKET_ITEMS if (found := refusal(state, item)) for why in found[1:])


def check_buy(state: EninState, seat: int, command: Buy) -> None:
    if command.item not in MARKET_ITEMS:
        raise RuleError(Reason.BAD_ARGUMENT, f"{command.item!r} is not sold at the market")
    why = refusal(state, command.item)
    if why:
        raise RuleError(*why)


def buy(state: EninState, seat: int, command: Buy) -> None:
    goods = TABLES.market[command.item]
    state.emit("ItemBought", item=goods.item, price=goods.price, gold=state.gold - goods.price,
               gains_map=goods.effect == "map")
    # Potion effects are instantaneous.
    if goods.effect == "heal":
        if state.poisoned:
            state.emit("PoisonCured")
        else:
            state.emit("Healed", hp=hp_after(state.hp, 1), amount=1)
    elif goods.effect == "strength":
        state.emit("Strengthened", bonus=state.strength_bonus + 1, amount=1)
    elif goods.effect == "luck":
        state.emit("LuckGained", luck=luck_after(state.luck, 1), amount=1)
    end_of_turn(state)


def check_steal_key(state: EninState, seat: int, command: StealKey) -> None:
    if KEY in state.quest_items:
        raise RuleError(EninReason.ALREADY_HELD, "you already hold the Key")


def steal_key(state: EninState, seat: int, command: StealKey) -> None:
    q = TABLES.location(TABLES.market_location).quest
    roll, low, high, success = roll_for(state, q)
    state.emit("QuestAttempted", item=q.item, roll=roll, low=low, high=high, success=success)
    if success:
        state.emit("QuestItemGained", item=q.item)
    end_of_turn(state)


def check_leave_town(state: EninState, seat: int, command: LeaveTown) -> None:
    """Only in the Nigh Towns' Questing Phase (the flow checks it)."""


def leave_town(state: EninState, seat: int, command: LeaveTown) -> None:
    state.emit("TownLeft")
    end_of_turn(state)


def legal_buy(state: EninState, seat: int) -> list[Command]:
    return [Buy(item=i) for i in MARKET_ITEMS if refusal(state, i) is None]


def legal_steal_key(state: EninState, seat: int) -> list[Command]:
    return [StealKey()] if KEY not in state.quest_items else []


def legal_leave_town(state: EninState, seat: int) -> list[Command]:
    return [LeaveTown()]
