"""Battle Action & Resolution, Engaging and Damage: the actions of a battle
under way, and the damage of an engagement absorbed.

A battle's actions pass from the defender clockwise until all pass in a row:
Battle abilities (``abilities``), engaging, returning a unit home (the whole
unit bowed: "Bow your target unit to return it home"), passing. Engaging:
bow cards of one unit and announce their Strength as damage (a React window
over it); the attacker and attacking allies (against the defending side) or
the defending allies (against the attacking side) may each declare cards of
their own immune whose Strength is greater than the damage; the opposing side
then absorbs: each food token 1, each hero or cohort its Strength (a hero plus
a discarded card's Fate, not against Brutal), the castle all that remains (it
is buried and the battle ends, ``battles.bury_castle``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from aggregates.kernel import Command, Reason, RuleError
from aggregates.nine_empires import abilities, battles, card_effects, frequency, turn_order
from aggregates.nine_empires import cards as t
from aggregates.nine_empires.commands import Absorb, DeclareImmune, Engage, ReturnHome
from aggregates.nine_empires.reasons import NineReason
from aggregates.nine_empires.state import (
    EARLIER_IMMUNITY,
    EARLIER_RESOLVED,
    EARLIER_RETURN_HERO,
    EARLIER_STEPS,
    State,
)

FOOD = battles.FOOD

# -------------------------------------------------------------- engaging

def _my_cards_here(state: State, seat: int) -> list[str]:
    return [i for i in t.cards_in_play(state, seat) if t.here(state, i)
            and t.printed(state, i).type in ("hero", "cohort")]


def _with_items(state: State, cards: Sequence[str]) -> list[str]:
    """Items adding Strength engage with their hero, and never alone."""
    out = list(cards)
    for c in cards:
        if t.printed(state, c).type == "hero":
            for a in t.table(state).attachments(c):
                if t.printed(state, a).type == "item" and t.printed(state, a).S > 0 \
                        and a not in out:
                    out.append(a)
    return out


def check_engage(state: State, seat: int, command: Engage) -> None:
    c = battles.battle_under_way(state)
    if c is None or not c.get("current") or state.stack or turn_order.acting_seat(state) != seat:
        raise RuleError(NineReason.NOT_NOW, "engage as your action in the current battle")
    cards = list(command.cards)
    if not cards or len(set(cards)) != len(cards):
        raise RuleError(Reason.BAD_ARGUMENT, "engage one or more cards, each once")
    mine = _my_cards_here(state, seat)
    for card in cards:
        if card not in mine:
            raise RuleError(NineReason.NOT_PRESENT, f"{card} is not a hero or cohort of "
                            f"yours in this battle")
        if t.bowed(state, card):
            raise RuleError(NineReason.BOWED, f"{card} is bowed")
    if len({t.unit_hero(state, x) for x in cards}) != 1:
        raise RuleError(NineReason.BAD_ASSIGNMENT, "engage cards of a single unit")


def run_engage(state: State, seat: int, command: Engage) -> None:
    cards = _with_items(state, command.cards)
    damage = sum(frequency.stat(state, x, "S") for x in command.cards)
    brutal = any(frequency.has_keyword(state, x, "Brutal") for x in cards)
    c = state.conflict
    assert c is not None
    side = t.conflict_side(state, seat)
    preview = {"what": "engagement", "seat": seat, "side": side, "damage": damage}
    state.emit("Engaged", seat=seat, side=side, cards=cards, damage=damage, brutal=brutal,
               castle=c["current"], order=abilities.eligible(state, preview))


def legal_engage(state: State, seat: int) -> list[Command]:
    """Every set of the unbowed heroes and cohorts of each of your units here
    (the whole unit first; items adding Strength go with their hero)."""
    c = battles.battle_under_way(state)
    if c is None or not c.get("current") or state.stack or turn_order.acting_seat(state) != seat:
        return []
    out: list[Command] = []
    ready = [x for x in _my_cards_here(state, seat) if not t.bowed(state, x)]
    heroes = {t.unit_hero(state, x) for x in ready}
    for hero in sorted(heroes):
        unit = [x for x in ready if t.unit_hero(state, x) == hero]
        out.extend(Engage(cards=combo) for k in range(len(unit), 0, -1)
                   for combo in combinations(unit, k))
    return out


def check_return(state: State, seat: int, command: ReturnHome) -> None:
    c = battles.battle_under_way(state)
    if c is None or not c.get("current") or state.stack or turn_order.acting_seat(state) != seat:
        raise RuleError(NineReason.NOT_NOW, "return a unit home as your battle action")
    hero = command.hero
    if hero not in _my_cards_here(state, seat) or t.printed(state, hero).type != "hero":
        raise RuleError(NineReason.NOT_PRESENT, "return a hero of yours in this battle")
    if t.bowed(state, hero):
        raise RuleError(NineReason.BOWED, "a bowed hero cannot be bowed to return home")


def run_return(state: State, seat: int, command: ReturnHome) -> None:
    """"Bow your target unit to return it home": the unit is "a single hero along
    with all attached cohorts, items, and spells", so every straight card of it
    bows, as at the end of a battle and of a raid; the event names them, the
    hero first (rules 1.0.0 to 1.2.0 bowed the hero alone, ``EARLIER_RETURN_HERO``)."""
    hero = command.hero
    bowed = [hero] if EARLIER_RETURN_HERO in state.EARLIER else \
        [c for c in t.unit(state, hero) if not t.bowed(state, c)]
    state.emit("ReturnedHome", seat=seat, hero=hero, bowed=bowed)


def legal_return(state: State, seat: int) -> list[Command]:
    c = battles.battle_under_way(state)
    if c is None or not c.get("current") or state.stack or turn_order.acting_seat(state) != seat:
        return []
    return [ReturnHome(hero=h) for h in _my_cards_here(state, seat)
            if t.printed(state, h).type == "hero" and not t.bowed(state, h)]


# ------------------------------------------------------ immunity, absorbing

def _engagement(state: State) -> dict[str, Any]:
    frame = state.stack[-1]
    assert frame["what"] == "engagement"
    return frame


def absorbing_seat(state: State, frame: dict[str, Any]) -> int:
    c = state.conflict
    assert c is not None
    return int(c["attacker"] if frame["side"] == "defend" else c["defender"])


def _army_cards(state: State, side: str) -> list[str]:
    return [i for i in t.cards_in_play(state) if t.here(state, i)
            and t.printed(state, i).type in ("hero", "cohort") and t.side(state, i) == side]


def declaring(state: State, frame: dict[str, Any]) -> list[int]:
    """Who may declare cards immune to this engagement, in order, each for its
    own cards: against the defending side's damage the attacker, then attacking
    allies; against the attacking side's, the defending allies ("allies (both
    attacking and defending) can choose whether or not to declare their own
    cards immune ... The defender is not allowed to"). Rules 1.0.0: the
    attacker alone, for the whole attacking army, against the defender's side."""
    c = state.conflict
    assert c is not None
    if EARLIER_IMMUNITY in state.EARLIER:
        return [c["attacker"]] if frame["side"] == "defend" else []
    allies = c.get("allies", {})
    order = t.order_from(state, c["attacker"])
    if frame["side"] == "defend":
        return [c["attacker"], *(s for s in order if allies.get(str(s)) == "attack")]
    return [s for s in order if allies.get(str(s)) == "defend"]


def immune_candidates(state: State, frame: dict[str, Any], seat: int) -> list[str]:
    """The seat's cards in the opposing army with Strength greater than the
    damage just engaged (rules 1.0.0: the attacker's, the whole army's)."""
    side = "attack" if frame["side"] == "defend" else "defend"
    whole = EARLIER_IMMUNITY in state.EARLIER
    return [x for x in _army_cards(state, side) if frequency.stat(state, x, "S") > frame["damage"]
            and (whole or t.owner(state, x) == seat)]


def _next_declaring(state: State, frame: dict[str, Any], after: int | None) -> int | None:
    order = declaring(state, frame)
    rest = order if after is None else order[order.index(after) + 1:]
    return next((s for s in rest if immune_candidates(state, frame, s)), None)


def step(state: State, frame: dict[str, Any]) -> tuple[str, int | None]:
    """Where the engagement ``frame`` stands, and the seat it waits on: its React
    window (``react``; so too when no damage is left to declare against or
    absorb), a seat declaring immunity (``immunity``), the damage being
    absorbed (``absorb``).

    Once the window has closed, each seat that may declare cards immune
    declares in turn, after the last that declared (``declared``), then the
    opposing side absorbs until the damage is spent (``absorbing``: the
    candidates for immunity are not asked again as the damage falls). Rules
    1.3.0 and before recorded these steps (``ImmunityStep``, ``AbsorbStep``:
    the frame's ``step`` and ``declaring``)."""
    if EARLIER_STEPS in state.EARLIER or frame["step"] != "react":
        if frame["step"] == "immunity":
            return "immunity", immunity_seat(state, frame)
        if frame["step"] == "absorb":
            return "absorb", absorbing_seat(state, frame)
        return frame["step"], None
    if not state.stack or state.stack[-1] is not frame or abilities.responder(state) is not None:
        return "react", None
    if frame.get("absorbing"):
        return "absorb", absorbing_seat(state, frame)
    if frame["damage"] <= 0:
        return "react", None    # nothing to declare or absorb: resolved at once
    declared = frame.get("declared", [])
    seat = _next_declaring(state, frame, declared[-1] if declared else None)
    if seat is not None:
        return "immunity", seat
    return "absorb", absorbing_seat(state, frame)


def after_reacts(state: State) -> bool:
    """The engagement's React window closed: immunity, then absorbing (rules
    1.3.0 and before record each step); True if an event was recorded. By rules
    1.6.0 nothing is: an engagement with nothing left to absorb was closed by
    the fact that closed its window (``spent``), and one with damage to absorb
    asks for immunity, then absorbing (``step``)."""
    frame = _engagement(state)
    if EARLIER_RESOLVED not in state.EARLIER:
        return False
    if frame["damage"] <= 0:
        state.emit("EngagementResolved", seat=frame["seat"], wasted=0)
        return True
    if EARLIER_STEPS not in state.EARLIER:
        return finish_if_absorbed(state)
    first = _next_declaring(state, frame, None)
    if first is not None:
        state.emit("ImmunityStep", seat=first, damage=frame["damage"])
        return True
    state.emit("AbsorbStep", seat=absorbing_seat(state, frame), damage=frame["damage"])
    finish_if_absorbed(state)
    return True


def immunity_seat(state: State, frame: dict[str, Any]) -> int:
    """The seat declaring immunity now, as rules 1.3.0 and before recorded it
    (rules 1.0.0's frames: the attacker)."""
    return int(frame.get("declaring", absorbing_seat(state, frame)))


def check_immune(state: State, seat: int, command: DeclareImmune) -> None:
    allowed = immune_candidates(state, _engagement(state), seat)
    bad = [x for x in command.cards if x not in allowed]
    if bad or len(set(command.cards)) != len(command.cards):
        raise RuleError(NineReason.BAD_ABSORB, f"{bad} cannot be declared immune: immunity "
                        f"is for your own cards with Strength greater than the damage")


def run_immune(state: State, seat: int, command: DeclareImmune) -> None:
    """The cards declared immune (by rules 1.6.0, when nothing is left that must
    absorb the damage, this closes the engagement: ``spent``)."""
    frame = _engagement(state)
    state.emit("ImmunityDeclared", seat=seat, cards=list(command.cards))
    if EARLIER_STEPS in state.EARLIER:
        after = _next_declaring(state, frame, seat)
        if after is not None:
            state.emit("ImmunityStep", seat=after, damage=frame["damage"])
            return
    finish_if_absorbed(state)


#: Immunity lists every subset of the candidates up to this many of them.
MAX_IMMUNE_LISTED = 6


def legal_immune(state: State, seat: int) -> list[Command]:
    """Every set of candidates (the whole set first), when there are at most
    ``MAX_IMMUNE_LISTED`` (2^6 answers); beyond that, all, none or one."""
    allowed = immune_candidates(state, _engagement(state), seat)
    if len(allowed) <= MAX_IMMUNE_LISTED:
        return [DeclareImmune(cards=combo) for k in range(len(allowed), -1, -1)
                for combo in combinations(allowed, k)]
    return [DeclareImmune(cards=tuple(allowed)), DeclareImmune(),
            *(DeclareImmune(cards=(x,)) for x in allowed)]


def absorbers(state: State, frame: dict[str, Any], mandatory: bool = False) -> list[str]:
    """What may absorb now: units of the opposing army (immune ones only if not
    ``mandatory``), and for the defender the castle's food, or the castle."""
    side = "attack" if frame["side"] == "defend" else "defend"
    immune = set(frame.get("immune", []))
    out = [x for x in _army_cards(state, side) if not (mandatory and x in immune)]
    if side == "defend" and state.conflict is not None:
        castle = state.conflict["current"]
        if t.in_play(state, castle):
            out.append(FOOD + castle if t.food(state, castle) > 0 else castle)
    return out


def check_absorb(state: State, seat: int, command: Absorb) -> None:
    frame = _engagement(state)
    if command.card not in absorbers(state, frame):
        raise RuleError(NineReason.BAD_ABSORB, f"{command.card} cannot absorb this damage")
    if command.discard:
        if command.card.startswith(FOOD) or t.printed(state, command.card).type != "hero":
            raise RuleError(NineReason.BAD_ABSORB, "a card is discarded only for a hero")
        if frame["brutal"]:
            raise RuleError(NineReason.BAD_ABSORB, "no card is discarded against Brutal")
        if command.discard not in t.hand(state, seat):
            raise RuleError(NineReason.NOT_HELD, "discard a card from your hand")


def run_absorb(state: State, seat: int, command: Absorb) -> None:
    frame = _engagement(state)
    damage = frame["damage"]
    card = command.card
    c = state.conflict
    assert c is not None
    if card.startswith(FOOD):
        castle = card[len(FOOD):]
        state.emit("DamageAbsorbed", seat=seat, card=castle, kind="food", absorbed=1,
                   discard=None, fate=0, remaining=damage - 1)
    elif t.printed(state, card).type == "castle":
        state.emit("DamageAbsorbed", seat=seat, card=card, kind="castle", absorbed=damage,
                   discard=None, fate=0, remaining=0)
        battles.bury_castle(state, card)
        return
    else:
        kind = t.printed(state, card).type
        strength = frequency.stat(state, card, "S")
        fate = t.printed(state, command.discard).fate if command.discard else 0
        state.emit("DamageAbsorbed", seat=seat, card=card, kind=kind, absorbed=strength + fate,
                   discard=command.discard or None, fate=fate,
                   remaining=damage - strength - fate)
        card_effects.bury(state, card, why="absorb", with_items=True)
        card_effects.settle_will(state)
    finish_if_absorbed(state)


def finish_if_absorbed(state: State) -> bool:
    """Rules 1.5.0 and before: the engagement is resolved once no damage is left
    or nothing is left that must absorb it, recorded (``EngagementResolved``);
    True if it was. Rules 1.6.0 record nothing: the fact that left nothing to
    absorb closed the engagement's window (``spent``, read by ``apply.evolve``)."""
    if EARLIER_RESOLVED not in state.EARLIER:
        return False
    if not state.stack or state.stack[-1]["what"] != "engagement":
        return False
    frame = state.stack[-1]
    if step(state, frame)[0] != "absorb":
        return False
    if frame["damage"] <= 0 or not absorbers(state, frame, mandatory=True):
        state.emit("EngagementResolved", seat=frame["seat"], wasted=max(0, frame["damage"]))
        return True
    return False


def spent(state: State, frame: dict[str, Any]) -> bool:
    """Whether an engagement whose React window has closed is over: no damage
    is left ("until all damage is absorbed", Engaging and Damage), or nothing is
    left that must absorb it ("any non-immune cards at the battle must be used
    to absorb damage so long as there is damage left to absorb": only immune
    cards are left, or none; the defender always has the castle or its food).
    What is left then goes unabsorbed: the last ``DamageAbsorbed``'s
    ``remaining``, or with none the damage engaged (``Engaged``, less any
    ``DamageReduced``). Rules 1.6.0 close the engagement's window with the fact
    after which this holds (``apply.evolve``), where 1.5.0 and before recorded
    ``EngagementResolved``. No seat is left to declare immunity then: each
    seat's candidates are cards of the army not yet immune."""
    return frame["damage"] <= 0 or not absorbers(state, frame, mandatory=True)


def legal_absorb(state: State, seat: int) -> list[Command]:
    frame = _engagement(state)
    out: list[Command] = []
    hand = t.hand(state, seat)
    for card in absorbers(state, frame):
        out.append(Absorb(card=card))
        if not card.startswith(FOOD) and t.printed(state, card).type == "hero" \
                and not frame["brutal"]:
            out.extend(Absorb(card=card, discard=h) for h in hand)
    return out
