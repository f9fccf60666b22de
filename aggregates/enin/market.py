"""The Nigh Towns: buy one item at the market, OR try to steal the Key, OR leave."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aggregates.enin import quest
from aggregates.enin import rules as r
from aggregates.enin.character import hp_after, luck_after
from aggregates.enin.commands import Buy, LeaveTown, StealKey
from aggregates.enin.data import MARKET_ITEMS, TABLES
from aggregates.kernel import Command, Reason

if TYPE_CHECKING:
    from aggregates.enin.game import Enin

KEY = "key"


def refusal(game: Enin, item: str) -> tuple[Reason, str] | None:
    """Why ``item`` cannot be bought now (None: it can)."""
    goods = TABLES.market[item]
    if item == game.last_purchase:
        return Reason.REPEAT_PURCHASE, f"you may not buy the {goods.name} twice in a row"
    if goods.effect == "map" and game.map_held:
        return Reason.ALREADY_HELD, "you already have the Map of Enin"
    if game.gold < goods.price:
        return Reason.NOT_ENOUGH_GOLD, (
            f"the {goods.name} costs {goods.price}g; you have {game.gold}g"
        )
    return None


def check_buy(game: Enin, command: Buy) -> None:
    if command.item not in MARKET_ITEMS:
        r.refuse(Reason.BAD_ARGUMENT, f"{command.item!r} is not sold at the market")
    r.require_stage(game.stage, (r.TOWN,), "buying at the market")
    why = refusal(game, command.item)
    if why:
        r.refuse(*why)


def buy(game: Enin, command: Buy) -> None:
    goods = TABLES.market[command.item]
    game._item_bought(item=goods.item, price=goods.price, gold=game.gold - goods.price)
    # Potion effects are instantaneous.
    if goods.effect == "heal":
        if game.poisoned:
            game._poison_cured()
        else:
            game._healed(hp=hp_after(game.hp, 1))
    elif goods.effect == "strength":
        game._strengthened(bonus=game.strength_bonus + 1)
    elif goods.effect == "luck":
        game._luck_gained(luck=luck_after(game.luck, 1))
    game._turn_ended(turn=game.turn + 1)


def check_steal_key(game: Enin, command: StealKey) -> None:
    r.require_stage(game.stage, (r.TOWN,), "stealing the Key")
    if KEY in game.quest_items:
        r.refuse(Reason.ALREADY_HELD, "you already hold the Key")


def steal_key(game: Enin, command: StealKey) -> None:
    q = TABLES.location(TABLES.market_location).quest
    roll, low, high, success = quest.roll_for(game, q)
    game._quest_attempted(item=q.item, roll=roll, low=low, high=high, success=success)
    if success:
        game._quest_item_gained(item=q.item)
    game._turn_ended(turn=game.turn + 1)


def check_leave_town(game: Enin, command: LeaveTown) -> None:
    r.require_stage(game.stage, (r.TOWN,), "leaving town")


def leave_town(game: Enin, command: LeaveTown) -> None:
    game._town_left()
    game._turn_ended(turn=game.turn + 1)


def legal_town(game: Enin) -> list[Command]:
    actions: list[Command] = [Buy(item=i) for i in MARKET_ITEMS if refusal(game, i) is None]
    if KEY not in game.quest_items:
        actions.append(StealKey())
    actions.append(LeaveTown())
    return actions
