"""Quests: the Glory cost, one thing at a time, Renown on play and completion.

To bring a quest into play, bow unbowed heroes with total Glory at least the
quest's Glory cost; unbowed Questors add their Glory without bowing. A quest
cannot come into play while you have a copy in play or buried, nor while you
have an incomplete quest in play. Playing it gains its Renown reward; meeting
its completion condition (only by what happens after it was played) completes
it: the reward token goes over it, its Renown is gained, its reward ability
is in force. Incomplete quests are buried in Winter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any

from aggregates.kernel import RuleError
from aggregates.kernel.abilities import holds, relation
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import frequency
from aggregates.nine_empires.cards import zone_name
from aggregates.nine_empires.data import Card
from aggregates.nine_empires.reasons import NineReason
from aggregates.nine_empires.state import EARLIER_YOUR_SIDE, State

#: What a completed quest fires its ``QuestCompleted`` triggers with
#: (``card_effects.fire``, handed in by the caller: the ability engine reads the
#: quests, not the other way round).
Fire = Callable[[State, str, Mapping[str, Any]], None]

#: How ``CardsDiscarded`` names a quest discarded for its Glory unpaid (an action).
UNPAID = "quest unpaid"


def incomplete(state: State, seat: int) -> list[str]:
    return [q for q in t.cards_in_play(state, seat, "quest")
            if not state.instances[q]["memory"].get("completed")]


def completed(state: State, seat: int) -> list[str]:
    return [q for q in t.cards_in_play(state, seat, "quest")
            if state.instances[q]["memory"].get("completed")]


def why_not_quest(state: State, seat: int, card: Card) -> str:
    if incomplete(state, seat):
        return "you already have an incomplete quest in play (one thing at a time)"
    mine = t.cards_in_play(state, seat, "quest") + state.zones.get(zone_name("buried", seat),
                                                                   [])
    if any(state.instances[q]["card"] == card.key for q in mine):
        return f"you have a copy of {card.title} in play or in your buried pile"
    return ""


def unpaid(card: Card, heroes: Sequence[str]) -> bool:
    """A quest played with no hero paying its Glory: "If you can't or don't,
    discard the quest immediately" (Summer Phase)."""
    return card.type == "quest" and card.glory > 0 and not heroes


def discard_unpaid(state: State, seat: int, quest: str) -> None:
    """The quest whose Glory is not paid goes to the discard pile, as the action."""
    state.emit("CardsDiscarded", seat=seat, cards=[quest], keys=[t.printed(state, quest).key],
               why=UNPAID)


def _questor(state: State, hero: str) -> bool:
    return frequency.has_keyword(state, hero, "Questor")


def glory_options(state: State, seat: int, card: Card) -> list[tuple[str, ...]]:
    """Every minimal set of unbowed heroes whose Glory pays the quest's cost (no
    hero in one is spare; a larger set pays too and is accepted)."""
    heroes = [h for h in t.cards_in_play(state, seat, "hero") if not t.bowed(state, h)
              and frequency.stat(state, h, "G") > 0]
    if card.glory <= 0:
        return [()]
    out: list[tuple[str, ...]] = []
    for k in range(1, len(heroes) + 1):
        for combo in combinations(heroes, k):
            total = sum(frequency.stat(state, h, "G") for h in combo)
            if total >= card.glory and all(total - frequency.stat(state, h, "G") < card.glory
                                           for h in combo):
                out.append(combo)
    return out


def check_glory(state: State, seat: int, card: Card, heroes: Sequence[str]) -> None:
    mine = set(t.cards_in_play(state, seat, "hero"))
    if len(set(heroes)) != len(heroes) or any(h not in mine or t.bowed(state, h)
                                              for h in heroes):
        raise RuleError(NineReason.GLORY, "the quest's Glory is paid by your unbowed heroes")
    total = sum(frequency.stat(state, h, "G") for h in heroes)
    if total < card.glory:
        raise RuleError(NineReason.GLORY, f"the heroes named have {total} Glory; "
                        f"{card.title} costs {card.glory} (name none to discard it unpaid)")


def pay_glory(state: State, seat: int, heroes: Sequence[str]) -> None:
    """Bow the heroes paying Glory, except Questors (who need not bow)."""
    bow = [h for h in heroes if not _questor(state, h)]
    state.emit("GloryPaid", seat=seat, heroes=list(heroes), bowed=bow,
               glory=sum(frequency.stat(state, h, "G") for h in heroes))


def _complete(state: State, seat: int, quest: str, fire: Fire) -> None:
    card = t.printed(state, quest)
    state.emit("QuestCompleted", seat=seat, quest=quest, key=card.key,
               renown=card.reward_renown, total=state.renown[seat] + card.reward_renown)
    fire(state, "QuestCompleted", {"seat": seat, "quest": quest})


def check_states(state: State, fire: Fire) -> None:
    """Quests completed by the state of their owner's table (heroes, properties)."""
    for seat in t.seats_in(state):
        for quest in incomplete(state, seat):
            c = t.printed(state, quest).completion
            if c is not None and not c.event and holds(c.test, frequency.facts(state, seat, quest,
                                                                       None)):
                _complete(state, seat, quest, fire)


def _event_facts(state: State, seat: int, event: str,
                 facts: Mapping[str, Any]) -> dict[str, Any]:
    c = state.conflict or {}
    extra: dict[str, Any] = dict(facts.get("for", {}).get(seat, {})) if "for" in facts else {}
    if event == "HeroBuried":
        owner = facts["owner"]
        extra["side"] = relation(owner == seat, _opposing(state, seat, owner))
        extra["your_battle"] = bool(c.get("kind") == "battle" and t.conflict_side(state, seat))
    return extra


def _opposing(state: State, seat: int, other: int) -> bool:
    """Whether a card of ``other`` is opposing to ``seat``: on the other side of
    the battle under way, both being in it (an ally's hero is not; rules 1.0.0
    to 1.2.0: any other player's, ``EARLIER_YOUR_SIDE``)."""
    if EARLIER_YOUR_SIDE in state.EARLIER:
        return other != seat
    mine, theirs = t.conflict_side(state, seat), t.conflict_side(state, other)
    return bool(mine and theirs and mine != theirs)


def on_event(state: State, event: str, facts: Mapping[str, Any], fire: Fire) -> None:
    """Quests completed by an event after they were played."""
    for seat in t.seats_in(state):
        for quest in incomplete(state, seat):
            c = t.printed(state, quest).completion
            if c is None or c.event != event:
                continue
            extra = _event_facts(state, seat, event, facts)
            if holds(c.test, frequency.facts(state, seat, quest, None, extra)):
                _complete(state, seat, quest, fire)
    check_states(state, fire)
