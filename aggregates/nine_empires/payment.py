"""Paying Gold Costs and Paying Food Costs, and the costs abilities compose.

Gold: bow a combination of your stronghold and properties whose gold
production totals at least the cost; excess gold is lost. Food: destroy one
food token from any of your castles per point of cost (never food on a hero);
without enough, the card or ability cannot be used. Abilities add bowing the
card itself and discarding cards from hand (the kernel's ``abilities.CostKind``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from typing import Any

from aggregates.kernel import RuleError
from aggregates.kernel.abilities import CostKind
from aggregates.nine_empires import cards as t
from aggregates.nine_empires.reasons import NineReason
from aggregates.nine_empires.state import State

#: Bounds on the payment choices listed as legal (any valid payment is accepted).
MAX_GOLD_OPTIONS = 6
MAX_FOOD_OPTIONS = 4


def each_once(*options: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Combinations of one option per dimension in which every option of every
    dimension appears at least once: the first of each, then each other option
    of one dimension with the first of the rest (none if a dimension is empty)."""
    if any(not o for o in options):
        return []
    first = tuple(o[0] for o in options)
    out = [first]
    for d, opts in enumerate(options):
        out.extend(first[:d] + (x,) + first[d + 1:] for x in opts[1:])
    return out


def producers(state: State, seat: int) -> list[str]:
    """Unbowed stronghold and properties that produce gold."""
    return [i for i in t.cards_in_play(state, seat)
            if t.printed(state, i).type in ("stronghold", "property")
            and t.production(state, i) > 0 and not t.bowed(state, i)]


def gold_options(state: State, seat: int, amount: int) -> list[tuple[str, ...]]:
    """Minimal sets of producers paying ``amount`` (no producer in one is spare)."""
    if amount <= 0:
        return [()]
    pool = producers(state, seat)
    out: list[tuple[str, ...]] = []
    for k in range(1, len(pool) + 1):
        for combo in combinations(pool, k):
            total = sum(t.production(state, i) for i in combo)
            if total >= amount and all(total - t.production(state, i) < amount
                                       for i in combo):
                out.append(combo)
                if len(out) >= MAX_GOLD_OPTIONS:
                    return out
    return out


def check_gold(state: State, seat: int, chosen: Sequence[str], amount: int) -> None:
    if amount <= 0:
        if chosen:
            raise RuleError(NineReason.BAD_PAYMENT, "nothing to pay in gold")
        return
    pool = producers(state, seat)
    if len(set(chosen)) != len(chosen) or any(c not in pool for c in chosen):
        raise RuleError(NineReason.BAD_PAYMENT,
                        "gold is paid by bowing your own unbowed stronghold or properties")
    total = sum(t.production(state, i) for i in chosen)
    if total < amount:
        raise RuleError(NineReason.BAD_PAYMENT, f"the bowed cards produce {total} gold; "
                        f"the cost is {amount}")


def food_options(state: State, seat: int, amount: int,
                 limit: int | None = MAX_FOOD_OPTIONS) -> list[tuple[str, ...]]:
    """Ways to take ``amount`` food from your castles (one castle per token),
    the first ``limit`` of them (None: every way)."""
    if amount <= 0:
        return [()]
    stocked = [c for c in t.castles(state, seat) if t.food(state, c) > 0]
    out = []
    for combo in combinations_with_replacement(stocked, amount):
        if all(combo.count(c) <= t.food(state, c) for c in set(combo)):
            out.append(combo)
            if limit is not None and len(out) >= limit:
                break
    return out


def check_food(state: State, seat: int, chosen: Sequence[str], amount: int) -> None:
    if len(chosen) != amount:
        raise RuleError(NineReason.BAD_PAYMENT, f"name one castle per food: {amount} "
                        f"food, not {len(chosen)}")
    mine = set(t.castles(state, seat))
    for c in set(chosen):
        if c not in mine:
            raise RuleError(NineReason.BAD_PAYMENT, "food is paid from your own castles "
                            "(never from food on a hero)")
        if list(chosen).count(c) > t.food(state, c):
            raise RuleError(NineReason.NOT_ENOUGH_FOOD, f"{t.printed(state, c).title} "
                            f"holds {t.food(state, c)} food")


def pay_gold(state: State, seat: int, chosen: Sequence[str], why: str) -> None:
    if chosen:
        state.emit("Bowed", seat=seat, cards=list(chosen), why=why)


def pay_food(state: State, seat: int, chosen: Sequence[str], why: str) -> None:
    if chosen:
        state.emit("FoodSpent", seat=seat, castles=list(chosen), why=why,
                   left={c: t.food(state, c) - list(chosen).count(c) for c in set(chosen)})


# ------------------------------------------------------ ability cost kinds

def _bow_options(state: State, seat: int, source: str, amount: Any) -> list[Any]:
    return [source] if not t.bowed(state, source) else []


def _gold(state: State, seat: int, source: str, amount: Any) -> list[Any]:
    return list(gold_options(state, seat, int(amount)))


def _food(state: State, seat: int, source: str, amount: Any) -> list[Any]:
    return list(food_options(state, seat, int(amount)))


def _discard(state: State, seat: int, source: str, amount: Any) -> list[Any]:
    pool = [c for c in t.hand(state, seat) if c != source]
    return [tuple(combo) for combo in combinations(pool, int(amount))]


COST_KINDS = {
    "bow": CostKind("bow", _bow_options),
    "gold": CostKind("gold", _gold),
    "food": CostKind("food", _food),
    "discard": CostKind("discard", _discard),
}
