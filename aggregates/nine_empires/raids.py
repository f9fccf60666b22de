"""Raids: stealth cards, Raid abilities, Fate plus Raid bonuses, Carry X.

The Flow of a Raid: the raider declares a raid on one other player (once per
Autumn; no allies); assigns at most one unbowed unit per castle, each with a
stealth card from hand face down on it; the defender may assign one unbowed
unit to each castle, each with a stealth card (none on an undefended castle;
no cards in hand, no units). The raider chooses each raid to resolve: the
defender first, the two alternate Raid abilities until both pass; then the
stealth cards' Fate values plus the units' Raid bonuses are compared: the
raider wins with a higher total (with no defender: a total exceeding the
castle's Might), and places one food from the castle (plus Carry X, up to what
is there) on the raiding hero. Stealth cards are discarded; the raiding unit
bows and goes home; the defending unit goes home unbowed.
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel import Audience, Command, Reason, RuleError
from aggregates.kernel import flow as kflow
from aggregates.kernel.abilities import expire
from aggregates.nine_empires import battles, card_effects, frequency, payment, turn_order
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import events as ev
from aggregates.nine_empires.cards import HOME, zone_name
from aggregates.nine_empires.commands import AssignRaid, ChooseRaid, DeclareRaid
from aggregates.nine_empires.reasons import NineReason
from aggregates.nine_empires.state import State

STEALTH = "stealth"


def _raid(state: State) -> dict[str, Any]:
    c = state.conflict
    assert c is not None and c["kind"] == "raid"
    return c


def check_declare(state: State, seat: int, command: DeclareRaid) -> None:
    battles.check_declaring(state, seat, command.defender, "raid")
    if not battles.assignable(state, seat) or not t.hand(state, seat):
        raise RuleError(NineReason.BAD_ASSIGNMENT, "a raid needs an unbowed hero at home "
                        "and a card in hand for its stealth card")


def run_declare(state: State, seat: int, command: DeclareRaid) -> None:
    state.emit("RaidDeclared", raider=seat, defender=command.defender,
               castles=t.castles(state, command.defender))


def legal_declare(state: State, seat: int) -> list[Command]:
    if state.phase != "autumn" or seat in state.raided or state.conflict is not None \
            or state.stack or turn_order.acting_seat(state) != seat \
            or not battles.assignable(state, seat) or not t.hand(state, seat):
        return []
    return [DeclareRaid(defender=d) for d in t.seats_in(state) if d != seat]


def check_assign(state: State, seat: int, command: AssignRaid) -> None:
    c = _raid(state)
    n = len(command.heroes)
    if len(command.castles) != n or len(command.stealth) != n:
        raise RuleError(NineReason.BAD_ASSIGNMENT, "each unit has one castle and one "
                        "stealth card")
    if len(set(command.heroes)) != n or len(set(command.castles)) != n \
            or len(set(command.stealth)) != n:
        raise RuleError(NineReason.BAD_ASSIGNMENT, "at most one unit per castle, each hero "
                        "and stealth card once")
    free = battles.assignable(state, seat)
    hand = t.hand(state, seat)
    targets = [x for x in c["castles"] if t.in_play(state, x)]
    for hero, castle, card in zip(command.heroes, command.castles, command.stealth,
                                  strict=True):
        if hero not in free:
            raise RuleError(NineReason.BAD_ASSIGNMENT, f"{hero} is not an unbowed hero of "
                            f"yours at home")
        if castle not in targets:
            raise RuleError(NineReason.BAD_ASSIGNMENT, f"{castle} is not a castle raided")
        if card not in hand:
            raise RuleError(NineReason.NOT_HELD, "stealth cards come from your hand")


def run_assign(state: State, seat: int, command: AssignRaid) -> None:
    side = "raid" if seat == _raid(state)["attacker"] else "defend"
    public = {"seat": seat, "side": side, "heroes": list(command.heroes),
              "castles": list(command.castles), "stealth_count": len(command.stealth)}
    state.emit("RaidUnitsAssigned", audience=Audience(frozenset({seat})), public=public,
               seat=seat, side=side, heroes=list(command.heroes),
               castles=list(command.castles), stealth=list(command.stealth),
               stealth_count=len(command.stealth))


def legal_assign(state: State, seat: int) -> list[Command]:
    """None, or one hero at one castle with a stealth card: every hero with every
    castle, and every card of the hand as the stealth card, each at least once
    (several units at once, any valid mix, are accepted)."""
    c = _raid(state)
    heroes = battles.assignable(state, seat)
    hand = t.hand(state, seat)
    castles = [x for x in c["castles"] if t.in_play(state, x)]
    if seat == c["defender"]:
        attacked = {t.location(state, h) for h in t.cards_in_play(state, c["attacker"], "hero")
                    if t.side(state, h) == "raid"}
        castles = [x for x in castles if x in attacked] + [x for x in castles
                                                          if x not in attacked]
    pairs = [(h, x) for x in castles for h in heroes]
    return [AssignRaid(), *(AssignRaid(heroes=(h,), castles=(x,), stealth=(card,))
                            for (h, x), card in payment.each_once(pairs, hand))]


def unresolved(state: State) -> list[str]:
    """Castles raided or defended whose raid is not resolved (a castle with
    neither unit has nothing to resolve: no card in this set moves a unit into
    a raid)."""
    c = _raid(state)
    manned = {t.location(state, h) for h in c["stealth"] if t.in_play(state, h)}
    return [x for x in battles.unresolved(state) if x in manned]


def check_choose(state: State, seat: int, command: ChooseRaid) -> None:
    if command.castle not in unresolved(state):
        raise RuleError(Reason.BAD_ARGUMENT, "choose a castle whose raid is not resolved")


def run_choose(state: State, seat: int, command: ChooseRaid) -> None:
    battles.choose(state, command.castle)


def legal_choose(state: State, seat: int) -> list[Command]:
    return [ChooseRaid(castle=x) for x in unresolved(state)]


def _unit_at(state: State, seat: int, castle: str, side: str) -> str | None:
    for h in t.cards_in_play(state, seat, "hero"):
        if t.location(state, h) == castle and t.side(state, h) == side:
            return h
    return None


def resolve(state: State) -> None:
    """Both passed: reveal the stealth cards, compare, steal, send home."""
    c = _raid(state)
    castle = c["current"]
    raider = _unit_at(state, c["attacker"], castle, "raid")
    defender = _unit_at(state, c["defender"], castle, "defend")
    stealth = c["stealth"]
    r_card = stealth.get(raider) if raider else None
    d_card = stealth.get(defender) if defender else None
    r_fate = t.printed(state, r_card).fate if r_card else 0
    d_fate = t.printed(state, d_card).fate if d_card else 0
    r_bonus = frequency.stat(state, raider, "raid") if raider else 0
    d_bonus = frequency.stat(state, defender, "raid") if defender else 0
    r_total = r_fate + r_bonus
    against = d_fate + d_bonus if defender else t.printed(state, castle).might
    success = raider is not None and r_total > against
    stolen = 0
    if success:
        assert raider is not None
        stolen = min(t.food(state, castle), 1 + frequency.stat(state, raider, "carry"))
    state.emit("RaidResolved", castle=castle, raider=c["attacker"], defender=c["defender"],
               raiding_hero=raider, defending_hero=defender,
               raider_stealth=r_card, raider_fate=r_fate, raider_bonus=r_bonus,
               raider_total=r_total, defender_stealth=d_card, defender_fate=d_fate,
               defender_bonus=d_bonus, against=against, against_might=defender is None,
               success=success, stolen=stolen)
    card_effects.fire(state, "RaidResolved", {"for": {
        c["attacker"]: {"you_raid": True, "success": success},
        c["defender"]: {"you_raid": False, "success": success}}})


def end_raid_phase(state: State) -> None:
    c = _raid(state)
    state.emit("RaidEnded", raider=c["attacker"], defender=c["defender"])


# ------------------------------- applied (each takes its event; apply.py registers it)

def raid_declared(e: ev.RaidDeclared, state: State) -> None:
    turn_order.acted(state)
    state.raided.append(e.raider)
    state.conflict = {"kind": "raid", "attacker": e.raider, "defender": e.defender, "allies": {},
                      "castles": list(e.castles), "resolved": [], "current": None,
                      "stealth": {}, "step": "assign", "ask": [e.raider, e.defender]}
    kflow.push(state, kflow.sub_phase("raid"))


def units_assigned(e: ev.RaidUnitsAssigned, state: State) -> None:
    c = state.conflict
    assert c is not None
    table = t.table(state)
    hand = state.zones.get(zone_name("hand", e.seat), [])
    for i, (hero, castle) in enumerate(zip(e.heroes, e.castles, strict=True)):
        table.locate(hero, castle)
        state.instances[hero]["memory"]["side"] = e.side
        card = e.stealth[i] if e.stealth else hand[0]
        table.move(card, STEALTH)
        c["stealth"][hero] = card
    c["ask"].pop(0)
    if not c["ask"]:
        c["step"] = "choose"


def sent_home(e: ev.SentHome, state: State) -> None:
    c = state.conflict
    if e.stealth and c is not None:
        owner = t.owner(state, e.stealth)
        t.table(state).move(e.stealth, zone_name("discard", owner))
        c["stealth"].pop(e.hero, None)
    battles._home(state, e.hero)


def raid_resolved(e: ev.RaidResolved, state: State) -> None:
    c = state.conflict
    assert c is not None
    table = t.table(state)
    if e.stolen and e.raiding_hero:
        table.add_food(e.castle, -e.stolen)
        table.add_food(e.raiding_hero, e.stolen)
    for hero in (e.raiding_hero, e.defending_hero):
        if hero is None:
            continue
        card = c["stealth"].pop(hero, None)
        if card is not None:
            table.move(card, zone_name("discard", t.owner(state, card)))
        if hero == e.raiding_hero:
            for member in t.unit(state, hero):
                state.instances[member]["bowed"] = True
        battles._home(state, hero)
    c["resolved"].append(e.castle)
    c["current"] = None
    c["step"] = "choose"
    kflow.pop(state, "passing")
    state.lasting = expire(state.lasting, "raid")


def raid_ended(e: ev.RaidEnded, state: State) -> None:
    c = state.conflict
    assert c is not None
    table = t.table(state)
    for hero, card in list(c["stealth"].items()):
        table.move(card, zone_name("discard", t.owner(state, card)))
        if t.in_play(state, hero):
            battles._home(state, hero)
    for hero in t.cards_in_play(state, kind="hero"):
        if t.location(state, hero) != HOME:
            battles._home(state, hero)
    state.conflict = None
    kflow.pop(state, "phase")
    state.lasting = expire(state.lasting, "raid")
