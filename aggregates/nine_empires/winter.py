"""Winter Phase: food home, victory and elimination, quests, the draw, the Ordained.

In order: food on heroes is placed on their castles (what cannot be stored is
discarded); all ability effects end (markers stay); if only one player has
food on castles, that player wins; otherwise, from the Ordained clockwise,
players without food are eliminated; incomplete quests are buried; a popular
victory is checked from the Ordained; each player draws four cards and
discards down to four plus one per castle; the Ordained marker passes one seat
to the left.

Placing the food from heroes and redistributing it are one choice of each
player with two or more castles (``redistribute``: the food each castle holds
afterwards, none over its storage, all the food kept that there is room for):
the rulebook lets them place the heroes' food and move the castles' food as
they like, and only what cannot be stored is discarded. With one castle (or
none) there is nothing to choose: the heroes' food goes onto it up to its
storage, the rest is discarded. (Rules 1.0.0 placed the heroes' food itself,
where there was the most room: ``table.EARLIER_WINTER_FOOD``.)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from aggregates.kernel import Command, RuleError
from aggregates.kernel import flow as kflow
from aggregates.kernel.abilities import expire
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import draws, quests, turn_order, victory
from aggregates.nine_empires import events as ev
from aggregates.nine_empires.cards import zone_name
from aggregates.nine_empires.commands import DiscardDown, Redistribute
from aggregates.nine_empires.reasons import NineReason
from aggregates.nine_empires.state import EARLIER_PROGRESS, EARLIER_WINTER_FOOD, State

DRAW = 4
BASE_HAND = 4
MAX_DISCARD_OPTIONS = 40


def hand_size(state: State, seat: int) -> int:
    """Four plus one per castle in play (strongholds do not count)."""
    return BASE_HAND + len(t.castles(state, seat))


def _carried(state: State, seat: int) -> list[tuple[str, int]]:
    """The seat's heroes carrying food, and how much each carries."""
    return [(h, t.food(state, h)) for h in t.cards_in_play(state, seat, "hero")
            if t.food(state, h) > 0]


def _greedy(state: State, seat: int) -> tuple[list[list[str]], int]:
    """The heroes' food placed without a choice: one token at a time onto the
    castle with the most room (rules 1.0.0's placing, kept move for move); the
    moves (hero, castle) and how many tokens found no room."""
    room = {c: t.storage(state, c) - t.food(state, c) for c in t.castles(state, seat)}
    moves = []
    lost = 0
    for hero, amount in _carried(state, seat):
        for _ in range(amount):
            best = max(room, key=lambda c: room[c], default=None)
            if best is None or room[best] <= 0:
                lost += 1
                continue
            room[best] -= 1
            moves.append([hero, best])
    return moves, lost


def _chosen(state: State, seat: int, target: dict[str, int]) -> tuple[list[list[str]], int]:
    """The heroes' food placed toward the player's ``target`` (the food each
    castle holds after redistributing), then wherever there is room."""
    food = {c: t.food(state, c) for c in t.castles(state, seat)}
    moves = []
    lost = 0
    for hero, amount in _carried(state, seat):
        for _ in range(amount):
            to = next((c for c in food if food[c] < target[c]), None) or next(
                (c for c in food if food[c] < t.storage(state, c)), None)
            if to is None:
                lost += 1
                continue
            food[to] += 1
            moves.append([hero, to])
    return moves, lost


def _most_room(state: State, seat: int) -> tuple[int, ...]:
    """The castles' food once the heroes' is placed without a choice."""
    food = {c: t.food(state, c) for c in t.castles(state, seat)}
    for _, castle in _greedy(state, seat)[0]:
        food[castle] += 1
    return tuple(food.values())


def _store_food(state: State, seat: int, target: dict[str, int] | None = None) -> None:
    """Record the heroes' food placed (as chosen, or else where there is the
    most room); what finds no room is discarded."""
    carried = _carried(state, seat)
    if not carried:
        return
    moves, lost = _greedy(state, seat) if target is None else _chosen(state, seat, target)
    state.emit("FoodStored", seat=seat, moves=moves, discarded=lost,
               heroes=[h for h, _ in carried])


def keeps(state: State, seat: int) -> int:
    """The food the seat keeps through Winter: its castles' and its heroes', up
    to what its castles can store."""
    carried = 0 if EARLIER_WINTER_FOOD in state.EARLIER else sum(
        n for _, n in _carried(state, seat))
    room = sum(t.storage(state, c) for c in t.castles(state, seat))
    return min(room, t.castle_food(state, seat) + carried)


def redistributors(state: State) -> list[int]:
    """Who redistributes their food, from the Ordained: each player with two
    castles or more and food to keep."""
    return [s for s in t.order_from(state, state.ordained) if len(t.castles(state, s)) > 1
            and keeps(state, s) > 0]


def begin_winter(state: State) -> None:
    """Food from heroes onto castles, as each player with two castles or more
    chooses (``redistribute``); with one castle or none, at once. Rules 1.4.0
    and before record the Winter's beginning and who redistributes
    (``WinterBegan``, ``RedistributionBegan``); by 1.5.0 the Autumn's
    ``PhaseEnded`` enters the Winter (``enter_winter``)."""
    earlier = EARLIER_PROGRESS in state.EARLIER
    if earlier:
        state.emit("WinterBegan", turn=state.turn)
    for seat in t.seats_in(state):
        if EARLIER_WINTER_FOOD in state.EARLIER or len(t.castles(state, seat)) < 2:
            _store_food(state, seat)
    if earlier:
        state.emit("RedistributionBegan", seats=redistributors(state))


def redistributed(state: State) -> bool:
    """Every player has redistributed: the reckoning of Winter is next."""
    return state.phase == "winter" and state.winter_step == "redistribute" \
        and not state.redistributing


def reckon(state: State) -> None:
    """Effects end; dominance, elimination, quests buried, popularity; the draw."""
    state.emit("EffectsEnded", turn=state.turn)
    if victory.dominance(state):
        return
    for seat in t.order_from(state, state.ordained):
        if t.castle_food(state, seat) == 0:
            victory.eliminate(state, seat, "no food")
            if state.over:
                return
    for seat in t.seats_in(state):
        for quest in quests.incomplete(state, seat):
            state.emit("QuestBuried", seat=seat, quest=quest, key=t.printed(state, quest).key)
    if victory.popular(state):
        return
    for seat in t.order_from(state, state.ordained):
        draws.draw(state, seat, DRAW, why="winter")
    if EARLIER_PROGRESS in state.EARLIER:
        state.emit("HandSizeChecked", over=over_hand_size(state))


def over_hand_size(state: State) -> list[int]:
    """The players holding more than their hand size, from the Ordained."""
    return [s for s in t.order_from(state, state.ordained)
            if len(t.hand(state, s)) > hand_size(state, s)]


def discarding(state: State) -> list[int]:
    """Who is to discard down to hand size now: by rules 1.5.0 each player
    over it once the cards are drawn (read from the hands), where 1.4.0 and
    before recorded them (``HandSizeChecked``)."""
    if state.winter_step != "discard":
        return []
    return state.discard_down if EARLIER_PROGRESS in state.EARLIER else over_hand_size(state)


def hands_checked(state: State) -> bool:
    """Winter is over once every player is down to hand size."""
    return state.winter_step == "discard" and not discarding(state)


def _plan(state: State, seat: int, food: Sequence[int]) -> dict[str, int]:
    return dict(zip(t.castles(state, seat), food, strict=True))


def check_redistribute(state: State, seat: int, command: Redistribute) -> None:
    mine = t.castles(state, seat)
    if len(command.food) != len(mine):
        raise RuleError(NineReason.BAD_PAYMENT, f"name the food of each of your {len(mine)} "
                        f"castles, in order")
    for castle, n in _plan(state, seat, command.food).items():
        if n < 0 or n > t.storage(state, castle):
            raise RuleError(NineReason.BAD_PAYMENT, f"{t.printed(state, castle).title} stores "
                            f"0 to {t.storage(state, castle)} food")
    kept = keeps(state, seat)
    if sum(command.food) != kept:
        raise RuleError(NineReason.BAD_PAYMENT, f"place and redistribute your {kept} food "
                        f"(on your castles and heroes, as much as your castles store): no "
                        f"more, no less")


def run_redistribute(state: State, seat: int, command: Redistribute) -> None:
    plan = _plan(state, seat, command.food)
    _store_food(state, seat, plan)
    state.emit("FoodRedistributed", seat=seat, food=plan)


def _spreads(caps: Sequence[int], total: int) -> list[tuple[int, ...]]:
    """Every way to hold ``total`` tokens in castles of these storages."""
    if not caps:
        return [()] if total == 0 else []
    rest = sum(caps[1:])
    return [(n, *more) for n in range(max(0, total - rest), min(caps[0], total) + 1)
            for more in _spreads(caps[1:], total - n)]


def legal_redistribute(state: State, seat: int) -> list[Command]:
    """Every distribution of the food kept (a few castles of storage 2 to 4
    make at most a few hundred); first the food left where it is, the heroes'
    placed where there is the most room."""
    mine = t.castles(state, seat)
    first = _most_room(state, seat)
    rest = [Redistribute(food=f) for f in _spreads([t.storage(state, c) for c in mine],
                                                   keeps(state, seat)) if f != first]
    return [Redistribute(food=first), *rest]


def pass_ordained(state: State) -> None:
    """Finally, the Ordained marker passes one seat to the left, to the next
    seat still in (two are at least: with one left, it has won)."""
    state.emit("OrdainedPassed", seat=state.ordained,
               to=kflow.next_seat(state.ordained, len(state.seats), skip=state.out))


def check_discard(state: State, seat: int, command: DiscardDown) -> None:
    excess = len(t.hand(state, seat)) - hand_size(state, seat)
    cards = list(command.cards)
    if len(cards) != excess or len(set(cards)) != len(cards):
        raise RuleError(NineReason.HAND_SIZE, f"discard exactly {excess} card(s)")
    if any(c not in t.hand(state, seat) for c in cards):
        raise RuleError(NineReason.NOT_HELD, "discard cards from your hand")


def run_discard(state: State, seat: int, command: DiscardDown) -> None:
    state.emit("CardsDiscarded", seat=seat, cards=list(command.cards),
               keys=[state.instances[c]["card"] for c in command.cards], why="hand size")


def legal_discard(state: State, seat: int) -> list[Command]:
    hand = t.hand(state, seat)
    excess = len(hand) - hand_size(state, seat)
    out: list[Command] = []
    for combo in combinations(hand, excess):
        out.append(DiscardDown(cards=combo))
        if len(out) >= MAX_DISCARD_OPTIONS:
            break
    return out


# ------------------------------- applied (each takes its event; apply.py registers it)

def enter_winter(state: State) -> None:
    """Apply: the Winter Phase begins with its food redistributed; by rules
    1.5.0 its redistributing players are read here, from the state the Autumn
    left (1.4.0 and before: ``RedistributionBegan``)."""
    kflow.enter(state, "winter")
    state.winter_step = "redistribute"
    if EARLIER_PROGRESS not in state.EARLIER:
        state.redistributing = redistributors(state)


def winter_began(e: ev.WinterBegan, state: State) -> None:
    enter_winter(state)


def redistribution_began(e: ev.RedistributionBegan, state: State) -> None:
    state.redistributing = list(e.seats)


def food_redistributed(e: ev.FoodRedistributed, state: State) -> None:
    for castle, n in e.food.items():
        state.instances[castle]["food"] = n
    state.redistributing.remove(e.seat)


def food_stored(e: ev.FoodStored, state: State) -> None:
    table = t.table(state)
    for hero, castle in e.moves:
        table.add_food(hero, -1)
        table.add_food(castle, 1)
    for hero in e.heroes:
        state.instances[hero]["food"] = 0  # what found no room is discarded


def effects_ended(e: ev.EffectsEnded, state: State) -> None:
    """Effects lasting the turn end; by rules 1.5.0 the Winter's reckoning
    has begun, and its last step is the discarding (``discarding``)."""
    state.lasting = expire(state.lasting, "turn")
    if EARLIER_PROGRESS not in state.EARLIER:
        state.winter_step = "discard"


def quest_buried(e: ev.QuestBuried, state: State) -> None:
    t.table(state).move(e.quest, zone_name("buried", e.seat))


def hand_size_checked(e: ev.HandSizeChecked, state: State) -> None:
    state.discard_down = list(e.over)
    state.winter_step = "discard"


def cards_discarded(e: ev.CardsDiscarded, state: State) -> None:
    table = t.table(state)
    for c in e.cards:
        table.move(c, zone_name("discard", e.seat))
    if e.why == "hand size" and e.seat in state.discard_down:
        state.discard_down.remove(e.seat)
    if e.why == quests.UNPAID:
        turn_order.acted(state)


def ordained_passed(e: ev.OrdainedPassed, state: State) -> None:
    state.ordained = e.to
