"""More on Using Abilities: descriptors, frequency, targeting, Reacts.

Every card's text is data (``data/cards.json``) read by the kernel's
ability engine (``aggregates.kernel.abilities``); this module is the game's
side of that engine: when a descriptor may be used
(Summer and Autumn abilities as phase actions, Battle and Raid abilities as
battle and raid actions with presence and relevance, Reacts in a window), the
frequency (once per turn unless noted, unbowed only; items and spells on a
bowed hero cannot use theirs), targeting and legality (each target defined
before use; the ability goes on if one vanishes); what each verb does is
``card_effects``.

Using an ability announces it (``AbilityUsed``: costs paid, targets fixed) and
opens a React window over it; when every eligible seat has answered it
resolves (rules 1.6.0: the window closes with the last answer, and the
ability resolves in that command, ``resolve_closed``; 1.5.0 and before
recorded it resolved, ``resolve_top``). A React announced in a window is a
frame over the one it answers, with its own window: a React to a React.
By rules 1.7.0, once a React resolves, the window it answered is asked again
from the seat with precedence, and closes only when every seat in its order
passes in a row (``turn_order.reacted``; 1.6.0 and before asked each seat
once). Precedence in a window goes to the Ordained, or to the defender during a
battle or raid; in a battle or raid only a seat with a hero present may React
(Timing).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations, product
from typing import Any

from aggregates.kernel import Command, Reason, RuleError
from aggregates.kernel import flow as kflow
from aggregates.kernel.abilities import (
    Ability,
    candidates,
    cost_total,
    holds,
    interpret,
    payable,
    spent,
)
from aggregates.nine_empires import card_effects, frequency, payment, turn_order
from aggregates.nine_empires import cards as t
from aggregates.nine_empires.cards import PLAY, zone_name
from aggregates.nine_empires.commands import UseAbility
from aggregates.nine_empires.reasons import NineReason
from aggregates.nine_empires.state import EARLIER_RESOLVED, State

#: Abilities whose effect moves a card into the current battle or raid may be
#: used without a unit present (presence and relevance).
MOVERS = frozenset({"move_to_battle"})


def ability_of(state: State, source: str, index: int) -> Ability | None:
    for i, a in t.abilities_in_force(state, source):
        if i == index:
            return a
    return None


def _sources(state: State, seat: int) -> list[str]:
    """Cards whose abilities a seat may use: its cards in play, its tactics in hand."""
    out = [i for i in t.cards_in_play(state, seat)]
    out += [i for i in t.hand(state, seat) if t.printed(state, i).type == "tactic"]
    return out


def _pool(state: State) -> list[str]:
    return t.cards_in_play(state)


def _frame_window(state: State) -> dict[str, Any] | None:
    return state.stack[-1] if state.stack else None


def _event_facts(state: State, seat: int, source: str, frame: Mapping[str, Any]
                 ) -> Mapping[str, Any]:
    """What a React's ``when`` may ask of the announcement it answers."""
    if frame["what"] == "engagement":
        extra = {"against_you": t.opposed(state, seat, frame["seat"])
                 and bool(t.conflict_side(state, seat))}
    else:
        extra = {"by_opponent": t.opposed(state, seat, frame["seat"]),
                 "timing": frame["timing"]}
    return frequency.facts(state, seat, source, None, extra)


def _answers(state: State, seat: int, source: str, ability: Ability,
             frame: Mapping[str, Any]) -> bool:
    want = "Engaged" if frame["what"] == "engagement" else "AbilityUsed"
    if ability.when.get("event") != want:
        return False
    if frame.get("cancelled"):
        return False
    return holds(ability.when.get("if"), _event_facts(state, seat, source, frame))


def _presence(state: State, seat: int, source: str, ability: Ability) -> bool:
    """Presence and relevance: a unit card in the battle or raid, or any other
    card (tactic, quest, property, castle, stronghold) with a hero present, or
    an ability that moves a card into it."""
    if any(s.verb in MOVERS for s in ability.steps):
        return True
    card = t.printed(state, source)
    if card.type in ("hero", "cohort", "item", "spell") and t.in_play(state, source):
        return t.here(state, source)
    return bool(frequency.facts(state, seat, source, None)["present"])


def why_not(state: State, seat: int, source: str, index: int, react: bool,
            frame: Mapping[str, Any] | None = None) -> str:
    """Why the seat cannot use this ability now ("" when it can); ``frame``:
    the announcement a React would answer (default: the innermost window)."""
    if source not in state.instances:
        return "no such card"
    inst = state.instances[source]
    if inst["owner"] != seat:
        return "that card is not yours"
    in_hand = inst["zone"] == zone_name("hand", seat)
    if not (inst["zone"] == PLAY or (in_hand and t.printed(state, source).type == "tactic")):
        return "the card is neither in play nor a tactic in your hand"
    ability = ability_of(state, source, index)
    if ability is None or not ability.used:
        return "the card has no such ability to use"
    if inst["zone"] == PLAY:
        if inst["bowed"]:
            return "a bowed card cannot use its abilities"
        hero = t.host(state, source)
        if hero and t.printed(state, source).type in ("item", "spell") and t.bowed(state, hero):
            return "items and spells on a bowed hero cannot use their abilities"
        if t.printed(state, source).type == "spell" and hero \
                and not frequency.has_keyword(state, hero, "Wizard"):
            return "only a Wizard uses spells"
    if spent(ability, state.uses, f"{source}/{index}", state.turn):
        return "each ability is used once per turn"
    top = frame if frame is not None else _frame_window(state)
    if react:
        if ability.timing != "react" or top is None or not _answers(state, seat, source,
                                                                    ability, top):
            return "this React does not answer what was just announced"
        if state.conflict is not None and state.conflict.get("current") \
                and not frequency.facts(state, seat, source, None)["present"]:
            return "a React in a battle or raid needs a hero of yours there"
    else:
        if ability.timing == "react":
            return "a React is used when what it answers is announced"
        if not _timing_now(state, ability.timing):
            return f"a {ability.timing.title()} ability cannot be used now"
        if turn_order.acting_seat(state) != seat:
            return "it is not your action"
        if ability.timing in ("battle", "raid") and not _presence(state, seat, source,
                                                                  ability):
            return "you need a unit in this battle or raid to use that (presence)"
    if not holds(ability.condition, frequency.facts(state, seat, source, None)):
        return "the ability's condition does not hold"
    pool = _pool(state)
    for target in ability.targets:
        if target.count > 0 and len(candidates(target, pool, _filter_facts(
                state, seat, source))) < target.count:
            return "a target cannot be defined (Targeting and Legality)"
    if not payable(payment.COST_KINDS, ability.costs, state, seat, source):
        return "its costs cannot be paid"
    return ""


def _timing_now(state: State, timing: str) -> bool:
    c = state.conflict
    if timing in ("summer", "autumn"):
        return state.phase == timing and c is None and not state.stack
    if c is None or c.get("step") != "actions" or state.stack:
        return False
    return (timing == "battle") == (c["kind"] == "battle")


def _filter_facts(state: State, seat: int, source: str) -> Any:
    return lambda card: frequency.facts(state, seat, source, card)


# ------------------------------------------------------------------ using

def _bind(state: State, seat: int, source: str, ability: Ability,
          given: Sequence[str]) -> dict[str, list[str]]:
    """The chosen targets by name, checked against each filter (or all that match)."""
    pool = _pool(state)
    out: dict[str, list[str]] = {}
    rest = list(given)
    for target in ability.targets:
        admitted = candidates(target, pool, _filter_facts(state, seat, source))
        if target.count < 0:
            out[target.name] = admitted
            continue
        picked, rest = rest[:target.count], rest[target.count:]
        if len(picked) < target.count or len(set(picked)) != len(picked):
            raise RuleError(NineReason.NO_TARGET, f"name {target.count} target(s) for "
                            f"{target.name!r}")
        bad = [p for p in picked if p not in admitted]
        if bad:
            raise RuleError(NineReason.NO_TARGET, f"{bad} cannot be targeted by this ability")
        out[target.name] = picked
    if rest:
        raise RuleError(Reason.BAD_ARGUMENT, f"too many targets: {rest}")
    return out


def _check_payment(state: State, seat: int, source: str, ability: Ability,
                   command: UseAbility) -> None:
    gold, food = cost_total(ability, "gold"), cost_total(ability, "food")
    discard = cost_total(ability, "discard")
    bow_self = any(k == "bow" for k, _ in ability.costs)
    gold_from = [g for g in command.gold_from]
    if bow_self and source in gold_from:
        raise RuleError(NineReason.BAD_PAYMENT, "a card bowed for the ability cannot also "
                        "bow for gold")
    payment.check_gold(state, seat, gold_from, gold)
    payment.check_food(state, seat, command.food_from, food)
    if len(command.discard) != discard or len(set(command.discard)) != discard:
        raise RuleError(NineReason.BAD_PAYMENT, f"discard {discard} card(s) to pay")
    hand = t.hand(state, seat)
    if any(c not in hand or c == source for c in command.discard):
        raise RuleError(NineReason.NOT_HELD, "the discarded cards come from your hand")


def check_use(state: State, seat: int, command: UseAbility) -> None:
    react = bool(state.stack) and _frame_window(state) is not None
    reason = why_not(state, seat, command.source, command.index, react)
    if reason:
        raise RuleError(NineReason.NOT_NOW, reason)
    ability = ability_of(state, command.source, command.index)
    assert ability is not None
    _bind(state, seat, command.source, ability, command.targets)
    _check_payment(state, seat, command.source, ability, command)


def run_use(state: State, seat: int, command: UseAbility) -> None:
    """Announce: pay the costs, fix the targets; a React window opens over it."""
    ability = ability_of(state, command.source, command.index)
    assert ability is not None
    react = bool(state.stack)
    targets = _bind(state, seat, command.source, ability, command.targets)
    card = t.printed(state, command.source)
    if any(k == "bow" for k, _ in ability.costs):
        state.emit("Bowed", seat=seat, cards=[command.source], why="ability")
    payment.pay_gold(state, seat, command.gold_from, "ability")
    payment.pay_food(state, seat, command.food_from, "ability")
    fates = [t.printed(state, c).fate for c in command.discard]
    if command.discard:
        state.emit("CardsDiscarded", seat=seat, cards=list(command.discard),
                   keys=[state.instances[c]["card"] for c in command.discard], why="cost")
    preview = {"what": "ability", "seat": seat, "source": command.source,
               "timing": ability.timing}
    order = eligible(state, preview)

    def announce() -> None:
        state.emit("ReactPlayed" if react else "AbilityUsed", seat=seat,
                   source=command.source, key=card.key, ability=command.index,
                   timing=ability.timing, text=ability.text, targets=targets,
                   discarded_fate=sum(fates), tactic=card.type == "tactic", order=order)
        card_effects.settle_will(state)

    announced = {**preview, "key": card.key, "index": command.index, "targets": targets,
                 "discarded_fate": sum(fates)}
    recorded(state, announce, announced)


def window_order(state: State) -> list[int]:
    """Precedence: the defender during a battle or raid, else the Ordained; clockwise."""
    c = state.conflict
    start = c["defender"] if c is not None and c.get("current") else state.ordained
    return t.order_from(state, start)


def legal_use(state: State, seat: int) -> list[Command]:
    """Usable abilities of the seat, each with targets and a payment that work."""
    react = bool(state.stack)
    out: list[Command] = []
    for source in _sources(state, seat):
        for index, ability in t.abilities_in_force(state, source):
            if not ability.used or why_not(state, seat, source, index, react):
                continue
            out.extend(_instances(state, seat, source, index, ability))
    return out


def _instances(state: State, seat: int, source: str, index: int,
               ability: Ability) -> list[Command]:
    """Every choice of targets (each target's every set of its count, no card
    twice), every minimal gold payment, every way to pay the food and every
    set of cards to discard, each at least once (``payment.each_once``)."""
    pool = _pool(state)
    per_target = [list(combinations(candidates(target, pool, _filter_facts(state, seat,
                                                                          source)),
                                    target.count))
                  for target in ability.targets if target.count >= 0]
    chosen = [flat for combo in product(*per_target)
              for flat in [tuple(x for part in combo for x in part)]
              if len(set(flat)) == len(flat)]
    gold, food = cost_total(ability, "gold"), cost_total(ability, "food")
    discard = cost_total(ability, "discard")
    golds = [g for g in payment.gold_options(state, seat, gold)
             if not (any(k == "bow" for k, _ in ability.costs) and source in g)]
    foods = payment.food_options(state, seat, food, limit=None)
    hand = [c for c in t.hand(state, seat) if c != source]
    discards = list(combinations(hand, discard))
    return [UseAbility(source=source, index=index, targets=flat, gold_from=g, food_from=f,
                       discard=d)
            for flat, g, f, d in payment.each_once(chosen, golds, foods, discards)]


# -------------------------------------------------------------- windows

def can_react(state: State, seat: int, frame: Mapping[str, Any]) -> bool:
    """Whether the seat has a React answering ``frame`` it could use now."""
    if seat in state.out:
        return False
    return any(ability.timing == "react"
               and not why_not(state, seat, source, index, True, frame)
               for source in _sources(state, seat)
               for index, ability in t.abilities_in_force(state, source))


def eligible(state: State, preview: Mapping[str, Any]) -> list[int]:
    """The seats, in precedence, that could React to what is being announced:
    the window's order (a seat with no React is not asked)."""
    return [s for s in window_order(state) if can_react(state, s, preview)]


def responder(state: State) -> int | None:
    """The seat the innermost window's precedence has come to (None: closed)."""
    top = _frame_window(state)
    if top is None or top.get("step") != "react":
        return None
    return kflow.responder(top)


def asked(state: State) -> int | None:
    """The seat the innermost window waits on, if it can still React (a seat
    that no longer can is passed over by ``pass_over``)."""
    seat = responder(state)
    top = _frame_window(state)
    return seat if seat is not None and top is not None and can_react(state, seat, top) \
        else None


def pass_over(state: State) -> None:
    """The seat in precedence can no longer React (its cost became unpayable):
    it passes, recorded as forced."""
    seat = responder(state)
    top = _frame_window(state)
    assert seat is not None and top is not None
    recorded(state, lambda: state.emit("ReactPassed", seat=seat, source=top["source"],
                                       forced=True))


def run_react_pass(state: State, seat: int) -> None:
    top = _frame_window(state)
    recorded(state, lambda: state.emit("ReactPassed", seat=seat,
                                       source=top["source"] if top else "", forced=False))


def resolve_top(state: State) -> None:
    """Rules 1.5.0 and before: the window over an announced ability closed:
    the ability resolves (unless cancelled), recorded (``AbilityResolved``),
    and its window closes with that."""
    frame = state.stack[-1]
    ability = ability_of(state, frame["source"], frame["index"])
    if not frame.get("cancelled") and ability is not None:
        interpret(ability, card_effects.VERBS, state, frame, frame["targets"],
                  card_effects.words(state, frame))
    state.emit("AbilityResolved", seat=frame["seat"], source=frame["source"],
               key=frame["key"], cancelled=bool(frame.get("cancelled")))
    card_effects.settle_will(state)


# ------------------------------------------------ resolving (rules 1.6.0)

def placed(state: State) -> list[dict[str, Any]]:
    """The open windows, each copied with its place on the stack (``position``)."""
    return [{**frame, "position": i} for i, frame in enumerate(state.stack)]


def recorded(state: State, record: Callable[[], None],
             announced: Mapping[str, Any] | None = None) -> None:
    """Record a React answered or passed, or an ability announced (``record``:
    its events); by rules 1.6.0 the abilities whose windows it closed resolve
    then (``resolve_closed``). Earlier rules resolve each window in the flow's
    automatic step and record it (``resolve_top``)."""
    before = placed(state)
    record()
    if EARLIER_RESOLVED not in state.EARLIER:
        resolve_closed(state, before, announced)


def resolve_closed(state: State, before: list[dict[str, Any]],
                   announced: Mapping[str, Any] | None = None) -> None:
    """Rules 1.6.0: the windows the facts just recorded closed, innermost first.

    Their applies took them off the stack (``apply.evolve``): a window closes
    once every seat that could React has answered (the last ``ReactPassed``,
    or the announcement itself when nobody can React to it), and (by 1.6.0; 1.7.0
    asks them again, ``turn_order.reacted``) the windows below whose last answer
    was the React just resolved close with it; an
    engagement closes there when nothing is left to absorb
    (``engaging.spent``). ``before``: the windows open before those facts
    (``placed``); ``announced``: the facts of the ability just announced, whose
    own window was pushed and, when nobody could React, closed at once.

    Each closed ability resolves in turn: "Players must completely resolve an
    action before another can be taken (except in the case of React
    abilities)": a React resolves before what it answers. Its effects are
    facts of their own, none when it was cancelled (``AbilityCancelled``)."""
    left = len(state.stack)
    closed = list(reversed(before[left:]))
    if announced is not None:
        if left > len(before):
            return          # its window is open: the seats may React
        closed.insert(0, {**announced, "position": len(before)})
    places = {frame["position"]: frame for frame in closed}
    for frame in closed:
        if state.over:
            return
        if frame["what"] != "ability":
            continue
        ability = ability_of(state, frame["source"], frame["index"])
        if not frame.get("cancelled") and ability is not None:
            still = placed(state)
            context = {**frame, "closed": places}
            interpret(ability, card_effects.VERBS, state, context, frame["targets"],
                      card_effects.words(state, context))
            for gone in still[len(state.stack):]:
                places.setdefault(gone["position"], gone)
        card_effects.settle_will(state)
