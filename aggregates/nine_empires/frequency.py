"""Frequency and Zero: a card's current numbers and keywords, with the
always-on text of the cards in play, and the facts an ability's filter or
condition asks (Targeting and Legality).

Read off the table, never stored: Strength is the printed value plus
attached items, markers, lasting effects and the always-on text of cards in
play (Frequency: text with no descriptor is active at all times), combined
before the floor at zero (Zero). Facts are what an ability's filter or
condition may ask (``data.FACTS``), computed when asked, so a filter that
asks only a card's type never computes its Strength.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from aggregates.kernel.abilities import Ability, Step, holds, modifier, net
from aggregates.nine_empires.cards import (
    HOME,
    PLAY,
    bowed,
    cards_in_play,
    castles,
    current_castle,
    food,
    here,
    host,
    in_play,
    location,
    owner,
    printed,
    relation,
    side,
    storage,
    table,
)
from aggregates.nine_empires.data import ALL
from aggregates.nine_empires.state import State

#: Always-on text's effects by what they change ((verb, stat): ("modify", "W"),
#: ("keyword", None)), then by card key, each with its ability, in the card's
#: order: read from the data once, so that reading one number of one card
#: visits only the cards in play whose text changes that number. A quest's
#: reward text is in force once the quest is completed.
StaticSteps = dict[tuple[str, Any], dict[str, list[tuple[Ability, Step]]]]


def _static_steps(reward: bool) -> StaticSteps:
    index: StaticSteps = {}
    for key, card in ALL.items():
        for ability in card.reward_abilities if reward else card.abilities:
            if ability.timing != "static":
                continue
            for step in ability.steps:
                topic = (step.verb, step.params.get("stat"))
                index.setdefault(topic, {}).setdefault(key, []).append((ability, step))
    return index


_STATIC, _REWARD_STATIC = _static_steps(reward=False), _static_steps(reward=True)


def _statics(state: State, verb: str, stat: Any = None) -> Iterator[tuple[str, Ability, Step]]:
    """Each card in play with always-on text changing ``stat`` by ``verb``:
    the card, the ability and its step, in play's order and the card's."""
    printed_steps = _STATIC.get((verb, stat), {})
    reward_steps = _REWARD_STATIC.get((verb, stat), {})
    if not printed_steps and not reward_steps:
        return
    for iid in state.zones.get(PLAY, []):
        inst = state.instances[iid]
        key = inst["card"]
        yield from ((iid, ability, step) for ability, step in printed_steps.get(key, ()))
        if key in reward_steps and inst["memory"].get("completed"):
            yield from ((iid, ability, step) for ability, step in reward_steps[key])


#: Always-on text in force: each card in play whose text changes a number,
#: the ability and its step, its condition holding now (``_in_force``).
InForce = list[tuple[str, Ability, Step]]


def _in_force(state: State, verb: str, stat: Any = None) -> InForce:
    """Always-on text in play changing ``stat`` by ``verb``, its condition
    holding: read once for every card it may change (``stats``)."""
    return [(source, ability, step) for source, ability, step in _statics(state, verb, stat)
            if holds(ability.condition, facts(state, owner(state, source), source, None))]


def _applies_to(state: State, source: str, ability: Ability, step: Step, target: str) -> bool:
    if step.target == "@self":
        return target == source
    if step.target == "@host":
        return host(state, source) == target
    for t in ability.targets:
        if t.name == step.target:
            return holds(t.filter, facts(state, owner(state, source), source, target))
    return False


def keywords(state: State, iid: str) -> list[str]:
    """Printed keywords, plus those granted by lasting effects and always-on text."""
    out = list(printed(state, iid).keywords)
    for e in state.lasting:
        if e["target"] == iid and e["verb"] == "keyword":
            out.append(e["params"]["keyword"])
    out.extend(step.params["keyword"] for source, ability, step in _in_force(state, "keyword")
               if _applies_to(state, source, ability, step, iid))
    return out


def has_keyword(state: State, iid: str, keyword: str) -> bool:
    return keyword in keywords(state, iid)


def at_zero(state: State, iids: list[str], name: str) -> list[str]:
    """The cards among ``iids`` whose ``name`` is 0 (Zero), the always-on text
    in force read once for all: a card whose other changes keep it above all
    the lowering in force is not read further."""
    in_force = _in_force(state, "modify", name)
    lowest = sum(min(0, int(step.params.get("amount", 0))) for _, _, step in in_force)
    return [iid for iid in iids if _unwritten(state, iid, name) + lowest <= 0
            and stat(state, iid, name, in_force) == 0]


def stat(state: State, iid: str, name: str, in_force: InForce | None = None) -> int:
    """A card's current S, W, G, raid or carry (Zero: net change, floor zero):
    its number without always-on text (``_unwritten``) and that text's changes."""
    if in_force is None:
        in_force = _in_force(state, "modify", name)
    static = sum(int(step.params.get("amount", 0)) for source, ability, step in in_force
                 if _applies_to(state, source, ability, step, iid))
    return net(_unwritten(state, iid, name), static)


def _unwritten(state: State, iid: str, name: str) -> int:
    """A card's number before the floor and the always-on text of cards in
    play: printed, markers, lasting effects. Items add their bonuses to the
    hero (Item Card); a unit's Raid and Carry count the keywords of every card
    in it (Raid bonuses "given by cards in that player's unit")."""
    card = printed(state, iid)
    changes = [state.instances[iid]["markers"].get(name, 0), modifier(state.lasting, iid, name)]
    if name in ("raid", "carry"):
        base = card.raid if name == "raid" else card.carry
        if card.type == "hero" and in_play(state, iid):
            for a in table(state).attachments(iid):
                extra = printed(state, a)
                changes.append(extra.raid if name == "raid" else extra.carry)
        return base + sum(changes)
    base = int(getattr(card, name, 0))
    if card.type == "hero" and in_play(state, iid):
        for a in table(state).attachments(iid):
            if printed(state, a).type == "item":
                changes.append(int(getattr(printed(state, a), name)))
    return base + sum(changes)


class Facts(Mapping[str, Any]):
    """What a filter or condition may ask, from the side of ``seat`` using an
    ability of ``source``, about ``card`` (None: the state only), each fact
    computed when asked (a filter asks only what it names) by the words of
    ``STATE_FACTS`` and ``CARD_FACTS``; ``extra`` gives facts of its own."""

    __slots__ = ("state", "seat", "source", "card", "extra", "_known")

    def __init__(self, state: State, seat: int, source: str | None, card: str | None,
                 extra: Mapping[str, Any] | None = None) -> None:
        self.state, self.seat, self.source, self.card = state, seat, source, card
        self.extra = extra or {}
        self._known: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        if key in self.extra:
            return self.extra[key]
        if key not in self._known:
            read = STATE_FACTS.get(key) or (CARD_FACTS.get(key) if self.card is not None else None)
            if read is None:
                raise KeyError(key)
            self._known[key] = read(self)
        return self._known[key]

    def __iter__(self) -> Iterator[str]:
        return iter({**STATE_FACTS, **(CARD_FACTS if self.card is not None else {}), **self.extra})

    def __len__(self) -> int:
        return sum(1 for _ in self)

    @property
    def conflict(self) -> dict[str, Any] | None:
        return self.state.conflict

    @property
    def host(self) -> str | None:
        """The card the source is attached to, if any."""
        source = self.source
        return host(self.state, source) if source and source in self.state.instances else None


def _army_here(state: State, seat: int, wanted: str | None = None) -> bool:
    castle = current_castle(state)
    if castle is None:
        return False
    for inst in table(state).in_play(seat):
        if ALL[inst["card"]].type == "hero" and inst["location"] == castle \
                and inst["memory"].get("side") and (wanted is None
                                                    or inst["memory"]["side"] == wanted):
            return True
    return False


def facts(state: State, seat: int, source: str | None, card: str | None,
          extra: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    """What a filter or condition may ask (``Facts``)."""
    return Facts(state, seat, source, card, extra)


def _in_conflict(f: Facts, kind: str | None = None, role: str = "attacker") -> bool:
    c = f.conflict
    return bool(c and (kind is None or c["kind"] == kind) and c[role] == f.seat)


def _current(f: Facts, kind: str) -> bool:
    c = f.conflict
    return bool(c and c["kind"] == kind and c.get("current"))


#: The facts of the state, from the side of a seat using a card's ability.
STATE_FACTS: dict[str, Callable[[Facts], Any]] = {
    "present": lambda f: _army_here(f.state, f.seat),
    "defending_here": lambda f: _army_here(f.state, f.seat, "defend"),
    "raiding_here": lambda f: _army_here(f.state, f.seat, "raid"),
    "you_attack": lambda f: _in_conflict(f, "battle"),
    "you_defend": lambda f: _in_conflict(f, role="defender"),
    "you_raid": lambda f: _in_conflict(f, "raid"),
    "battle": lambda f: _current(f, "battle"),
    "raid": lambda f: _current(f, "raid"),
    "source_attacking": lambda f: bool(f.source and side(f.state, f.source) == "attack"),
    "source_defending": lambda f: bool(f.source and side(f.state, f.source) == "defend"),
    "source_here": lambda f: bool(f.source and here(f.state, f.source)),
    "source_room": lambda f: (storage(f.state, f.source) - food(f.state, f.source)
                              if f.source else 0),
    "host_here": lambda f: bool(f.host and here(f.state, f.host)),
    "host_at_home": lambda f: bool(f.host and location(f.state, f.host) == HOME),
    "host_raiding_here": lambda f: bool(f.host and here(f.state, f.host)
                                        and side(f.state, f.host) == "raid"),
    "heroes": lambda f: len(cards_in_play(f.state, f.seat, "hero")),
    "properties": lambda f: len(cards_in_play(f.state, f.seat, "property")),
    "quests": lambda f: len(cards_in_play(f.state, f.seat, "quest")),
    "renown": lambda f: f.state.renown[f.seat],
    "castles": lambda f: len(castles(f.state, f.seat)),
}


def _card(f: Facts) -> str:
    assert f.card is not None
    return f.card


#: The facts of a card, as the seat sees it.
CARD_FACTS: dict[str, Callable[[Facts], Any]] = {
    "type": lambda f: printed(f.state, _card(f)).type,
    "title": lambda f: printed(f.state, _card(f)).title,
    "keywords": lambda f: keywords(f.state, _card(f)),
    "side": lambda f: relation(f.state, f.seat, _card(f)),
    "bowed": lambda f: bowed(f.state, _card(f)),
    "here": lambda f: here(f.state, _card(f)),
    "attacking": lambda f: side(f.state, _card(f)) == "attack",
    "defending": lambda f: side(f.state, _card(f)) == "defend",
    "raiding": lambda f: side(f.state, _card(f)) == "raid",
    "at_home": lambda f: location(f.state, _card(f)) == HOME,
    "S": lambda f: stat(f.state, _card(f), "S"),
    "W": lambda f: stat(f.state, _card(f), "W"),
    "G": lambda f: stat(f.state, _card(f), "G"),
    "fate": lambda f: printed(f.state, _card(f)).fate,
    "food": lambda f: food(f.state, _card(f)),
    "room": lambda f: (storage(f.state, _card(f)) - food(f.state, _card(f))
                       if f["type"] == "castle" else 0),
    "is_source": lambda f: f.card == f.source,
    "attached_to_source": lambda f: f.source is not None and host(f.state, _card(f)) == f.source,
    "at_source": lambda f: f.source is not None and location(f.state, _card(f)) == f.source,
    "token": lambda f: bool(f.state.instances[_card(f)]["token"]),
    "has_item": lambda f: any(printed(f.state, a).type == "item"
                              for a in table(f.state).attachments(_card(f))),
}
