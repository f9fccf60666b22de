"""Card effects: what each verb of card text does when an ability resolves,
trigger text fired by events, and Zero (a hero at 0 Will is buried at once).

An ability's effects are interpreted by the kernel's ``abilities.interpret`` with this
module's verbs (``VERBS``), its words (``@self``, ``@host``, ``@engagement``...)
read against the table. Trigger text waits for an event and fires by itself,
bowed or not (``fire``), then the quests completed by that event
(``quests.on_event``). Burying a Hero with Attached Cards: its attachments are
discarded, or buried with it when it absorbed damage and an item added to its
Strength.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aggregates.kernel.abilities import Step, holds, interpret, relation
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import draws, frequency, quests
from aggregates.nine_empires.cards import HOME
from aggregates.nine_empires.state import State


def words(state: State, frame: Mapping[str, Any]) -> Callable[[str], list[str]]:
    """The words of card text (``@self``, ``@host``...) as read for this ability."""
    return lambda word: _word(state, frame, word)


def _word(state: State, frame: Mapping[str, Any], word: str) -> list[str]:
    source = frame["source"]
    if word == "@self":
        return [source]
    if word == "@host":
        h = t.host(state, source) if source in state.instances else None
        return [h] if h else []
    if word == "@you":
        return []
    if word == "@engagement":
        return [str(i) for i, f in sorted(_windows(state, frame).items())
                if f["what"] == "engagement"][-1:]
    if word == "@ability":
        below = frame.get("position", len(state.stack) - 1) - 1
        return [str(below)] if below >= 0 else []
    if word == "@roomiest_castle":
        mine = [c for c in t.castles(state, frame["seat"])
                if t.storage(state, c) > t.food(state, c)]
        mine.sort(key=lambda c: t.food(state, c) - t.storage(state, c))
        return mine[:1]
    raise KeyError(word)


def _windows(state: State, frame: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    """The windows as the resolving ability sees them, by their places on the
    stack: those still open, and those closed with it (rules 1.6.0 take a
    window off the stack as it closes, before its ability resolves:
    ``frame["closed"]``, by place; earlier rules resolve it on top of the
    stack)."""
    places = dict(enumerate(state.stack))
    for index, closed in frame.get("closed", {}).items():
        places.setdefault(index, closed)
    return places


def window_at(state: State, frame: Mapping[str, Any], index: int) -> dict[str, Any]:
    """The window at place ``index``, open or closed with the resolving ability."""
    return _windows(state, frame)[index]


# ------------------------------------------------------------------ verbs

def _alive(state: State, who: list[str]) -> list[str]:
    return [w for w in who if t.in_play(state, w)]


def _modify(state: State, frame: Mapping[str, Any], step: Step, who: list[str]) -> None:
    for target in _alive(state, who):
        state.emit("EffectApplied", source=frame["source"], target=target, verb=step.verb,
                   params=dict(step.params), duration=step.duration,
                   id=f"e{state.turn}.{len(state.lasting)}.{target}")


def _marker(state: State, frame: Mapping[str, Any], step: Step, who: list[str]) -> None:
    for target in _alive(state, who):
        state.emit("MarkerPlaced", source=frame["source"], target=target,
                   stat=step.params["stat"], amount=int(step.params["amount"]))


def _amount(frame: Mapping[str, Any], step: Step) -> int:
    raw = step.params.get("amount", 0)
    return int(frame.get("discarded_fate", 0)) if raw == "discarded_fate" else int(raw)


def _reduce(state: State, frame: Mapping[str, Any], step: Step, who: list[str]) -> None:
    for index in who:
        eng = window_at(state, frame, int(index))
        closed = int(index) >= len(state.stack)
        cut = min(_amount(frame, step), eng["damage"])
        state.emit("DamageReduced", source=frame["source"], seat=frame["seat"],
                   engagement=int(index), amount=cut, damage=eng["damage"] - cut)
        if closed:
            eng["damage"] -= cut    # closed already (rules 1.6.0): the copy read here


def _add_food(state: State, frame: Mapping[str, Any], step: Step, who: list[str]) -> None:
    for castle in _alive(state, who):
        room = t.storage(state, castle) - t.food(state, castle)
        amount = min(room, _amount(frame, step))
        if amount > 0:
            state.emit("FoodAdded", castle=castle, seat=t.owner(state, castle),
                       amount=amount, total=t.food(state, castle) + amount,
                       source=frame["source"])


def _lose_food(state: State, frame: Mapping[str, Any], step: Step, who: list[str]) -> None:
    for castle in _alive(state, who):
        amount = min(t.food(state, castle), _amount(frame, step))
        if amount > 0:
            state.emit("FoodLost", castle=castle, seat=t.owner(state, castle),
                       amount=amount, total=t.food(state, castle) - amount,
                       source=frame["source"])


def _draw(state: State, frame: Mapping[str, Any], step: Step, who: list[str]) -> None:
    draws.draw(state, frame["seat"], int(step.params["count"]), why=frame["key"])


def _renown(state: State, frame: Mapping[str, Any], step: Step, who: list[str]) -> None:
    gain(state, frame["seat"], int(step.params["amount"]), frame["key"])


def gain(state: State, seat: int, amount: int, why: str) -> None:
    state.emit("RenownGained", seat=seat, amount=amount, total=state.renown[seat] + amount,
               why=why)


def _bow(state: State, frame: Mapping[str, Any], step: Step, who: list[str]) -> None:
    cards = [w for w in _alive(state, who) if not t.bowed(state, w)]
    if cards:
        state.emit("Bowed", seat=frame["seat"], cards=cards, why="effect")


def _straighten(state: State, frame: Mapping[str, Any], step: Step, who: list[str]) -> None:
    cards = [w for w in _alive(state, who) if t.bowed(state, w)]
    if cards:
        state.emit("Straightened", seat=frame["seat"], cards=cards)


def _send_home(state: State, frame: Mapping[str, Any], step: Step, who: list[str]) -> None:
    for hero in _alive(state, who):
        if t.location(state, hero) != HOME:
            send_home(state, hero)


def send_home(state: State, hero: str) -> None:
    """A unit goes home; in a raid its stealth card is discarded."""
    stealth = (state.conflict or {}).get("stealth", {}).get(hero)
    state.emit("SentHome", hero=hero, stealth=stealth)


def _bury(state: State, frame: Mapping[str, Any], step: Step, who: list[str]) -> None:
    for card in _alive(state, who):
        bury(state, card, why="effect")


def bury(state: State, card: str, why: str, with_items: bool = False) -> None:
    """Bury a card; a hero's attachments not buried with it are discarded
    (Burying a Hero with Attached Cards), or buried too when the hero absorbed
    damage and an item added to its Strength."""
    printed = t.printed(state, card)
    if printed.type == "hero":
        buried, discarded = [], []
        for a in t.table(state).attachments(card):
            if with_items and t.printed(state, a).type == "item" and t.printed(state, a).S > 0:
                buried.append(a)
            else:
                discarded.append(a)
        state.emit("HeroBuried", seat=t.owner(state, card), hero=card, key=printed.key,
                   why=why, buried=buried, discarded=discarded,
                   food=t.food(state, card))
        fire(state, "HeroBuried", {"hero": card, "owner": t.owner(state, card)})
    else:
        state.emit("CardBuried", seat=t.owner(state, card), card=card, key=printed.key,
                   why=why, token=bool(state.instances[card]["token"]))


def _move_to_battle(state: State, frame: Mapping[str, Any], step: Step,
                    who: list[str]) -> None:
    c = state.conflict
    if c is None or not c.get("current"):
        return
    for hero in _alive(state, who):
        if t.location(state, hero) == HOME and not t.bowed(state, hero):
            state.emit("MovedToBattle", hero=hero, castle=c["current"],
                       side=t.conflict_side(state, frame["seat"]) or "attack")


def _make_token(state: State, frame: Mapping[str, Any], step: Step, who: list[str]) -> None:
    for hero in _alive(state, who):
        state.emit("TokenMade", seat=frame["seat"], token=t.table(state).next_id(),
                   card=step.params["card"], attached_to=hero)


def _cancel(state: State, frame: Mapping[str, Any], step: Step, who: list[str]) -> None:
    for index in who:
        target = window_at(state, frame, int(index))
        closed = int(index) >= len(state.stack)
        state.emit("AbilityCancelled", seat=frame["seat"], frame=int(index),
                   source=target.get("source", ""), by=frame["source"])
        if closed:
            target["cancelled"] = True  # closed with its React (rules 1.6.0): spent


VERBS = {
    "modify": _modify, "keyword": _modify, "marker": _marker, "reduce_damage": _reduce,
    "add_food": _add_food, "lose_food": _lose_food, "draw": _draw, "renown": _renown,
    "bow": _bow, "straighten": _straighten, "send_home": _send_home, "bury": _bury,
    "move_to_battle": _move_to_battle, "make_token": _make_token, "cancel": _cancel,
}


# --------------------------------------------------------------- triggers

def _trigger_facts(state: State, seat: int, source: str, event: str,
                   facts: Mapping[str, Any]) -> Mapping[str, Any]:
    extra: dict[str, Any] = {}
    if event == "HeroBuried":
        extra = {"side": _side(state, seat, facts["owner"]), "is_source": facts["hero"] == source}
    elif event == "QuestCompleted":
        extra = {"side": _side(state, seat, facts["seat"])}
    return frequency.facts(state, seat, source, None, extra)


def _side(state: State, seat: int, other: int) -> str:
    """The filter word for the seat an event is about ("a hero of yours")."""
    return relation(other == seat, t.opposed(state, seat, other))


def fire(state: State, event: str, facts: Mapping[str, Any]) -> None:
    """Trigger text of cards in play that waits for this event (always on,
    bowed or not), then quests whose completion it is."""
    for inst in list(t.table(state).in_play()):
        source = inst["id"]
        if not t.in_play(state, source):
            continue
        for index, ability in t.abilities_in_force(state, source):
            if ability.timing != "trigger" or ability.when.get("event") != event:
                continue
            seat = inst["owner"]
            if seat in state.out:
                continue
            if not holds(ability.when.get("if"), _trigger_facts(state, seat, source, event,
                                                                facts)):
                continue
            frame = {"seat": seat, "source": source, "key": inst["card"], "index": index,
                     "discarded_fate": 0}
            state.emit("AbilityTriggered", seat=seat, source=source, key=inst["card"],
                       ability=index, event=event, text=ability.text)
            interpret(ability, VERBS, state, frame, {}, words(state, frame))
    quests.on_event(state, event, facts, fire)


def willless(state: State) -> list[str]:
    """The heroes in play at 0 Will (Zero), read together: asked after every step."""
    return frequency.at_zero(state, t.cards_in_play(state, kind="hero"), "W")


def settle_will(state: State) -> None:
    """A hero with 0 Will is buried immediately (Zero), whatever lowered it."""
    while heroes := willless(state):
        bury(state, heroes[0], why="will")
