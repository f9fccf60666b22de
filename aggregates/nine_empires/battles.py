"""Battles: declare an attack, call allies, assign, a battle at every castle,
and its end.

The Flow of a Battle: the attacker declares an attack on one other player
(once per Summer); in multiplayer the attacker and then the defender may call
for allies, and if either did, each other player, clockwise from the
attacker, chooses to ally with a side that called or not; the attacker (then
attacking allies) assigns unbowed units to the defender's castles, then the
defender (then defending allies); there is a battle at each of the defender's
castles and the attacker chooses which to resolve. Each battle is resolved by
actions passed from the defender clockwise until all pass in a row
(``engaging``: engaging, returning home, immunity and absorbing). A castle that
absorbs all that remains is buried and its battle ends: attackers home bowed,
defenders home unbowed. At the end of an Attack Phase a player with no castles
is eliminated; the instant a player destroys the last castle other than their
own, they win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aggregates.kernel import Assign, Command, Reason, RuleError
from aggregates.kernel import flow as kflow
from aggregates.kernel.abilities import expire
from aggregates.nine_empires import card_effects, turn_order, victory
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import events as ev
from aggregates.nine_empires.cards import HOME, zone_name
from aggregates.nine_empires.commands import (
    AssignUnits,
    CallAllies,
    ChooseAlly,
    ChooseBattle,
    DeclareAttack,
)
from aggregates.nine_empires.reasons import NineReason
from aggregates.nine_empires.state import (
    EARLIER_ALLIES,
    State,
)

SIDES = ("attack", "defend")
FOOD = "food:"


def battle_under_way(state: State) -> dict[str, Any] | None:
    c = state.conflict
    return c if c is not None and c["kind"] == "battle" else None


# ------------------------------------------------------------ declaring

#: When each kind of conflict is declared (Attack Another Player: a Summer
#: action; Raid Another Player: an Autumn action).
DECLARED_IN = {"attack": ("summer", "an attack is declared as a Summer action"),
               "raid": ("autumn", "a raid is declared as an Autumn action")}


def check_declaring(state: State, seat: int, defender: int, what: str) -> None:
    """An attack or a raid (``what``) is declared as the seat's action in its
    phase, with no battle or raid under way, once per turn, against another
    player still in the game."""
    phase, when = DECLARED_IN[what]
    if state.phase != phase or state.conflict is not None or state.stack \
            or turn_order.acting_seat(state) != seat:
        raise RuleError(NineReason.NOT_NOW, when)
    if seat in (state.attacked if what == "attack" else state.raided):
        raise RuleError(NineReason.ONCE_PER_TURN, f"each player launches one {what} per turn")
    if defender == seat or defender not in t.seats_in(state):
        raise RuleError(Reason.BAD_ARGUMENT, f"{what} another player still in the game")


def check_declare(state: State, seat: int, command: DeclareAttack) -> None:
    check_declaring(state, seat, command.defender, "attack")


def run_declare(state: State, seat: int, command: DeclareAttack) -> None:
    d = command.defender
    others = [s for s in t.order_from(state, seat) if s not in (seat, d)]
    state.emit("BattleDeclared", attacker=seat, defender=d,
               castles=t.castles(state, d), allies_asked=others)


def legal_declare(state: State, seat: int) -> list[Command]:
    if state.phase != "summer" or seat in state.attacked or state.conflict is not None \
            or state.stack or turn_order.acting_seat(state) != seat:
        return []
    return [DeclareAttack(defender=d) for d in t.seats_in(state) if d != seat]


# ---------------------------------------------------------------- allies

def calling(state: State) -> int | None:
    """Who calls for allies now: the attacker, then the defender (Declare
    Attack: "the attacker and the defender may call for allies from the other
    players"); None once both have (or under rules 1.0.0, which had no call)."""
    c = battle_under_way(state)
    if c is None or c.get("step") != "allies" or EARLIER_ALLIES in state.EARLIER:
        return None
    calls = c.get("calls", {})
    return next((s for s in (c["attacker"], c["defender"]) if str(s) not in calls), None)


def check_call(state: State, seat: int, command: CallAllies) -> None:
    if calling(state) != seat:
        raise RuleError(NineReason.NOT_NOW, "the attacker, then the defender, call for allies")


def run_call(state: State, seat: int, command: CallAllies) -> None:
    state.emit("AlliesCalled", seat=seat, call=bool(command.call))


def legal_call(state: State, seat: int) -> list[Command]:
    return [CallAllies(call=False), CallAllies(call=True)] if calling(state) == seat else []


def ally_sides(state: State) -> tuple[str, ...]:
    """The sides another player may join: those that called for allies (every
    side under rules 1.0.0). Reading of "each player chooses whether or not to
    ally": an ally answers a call; a side that did not call gets none."""
    c = battle_under_way(state)
    if c is None or EARLIER_ALLIES in state.EARLIER:
        return SIDES
    calls = c.get("calls", {})
    return tuple(side for side, s in zip(SIDES, (c["attacker"], c["defender"]), strict=True)
                 if calls.get(str(s)))


def check_ally(state: State, seat: int, command: ChooseAlly) -> None:
    sides = ally_sides(state)
    if command.side not in ("none", *sides):
        raise RuleError(Reason.BAD_ARGUMENT, f"ally with {' or '.join(map(repr, sides))} "
                        f"(a side that called for allies), or 'none'")


def run_ally(state: State, seat: int, command: ChooseAlly) -> None:
    state.emit("AllyChosen", seat=seat, side=command.side)


def legal_ally(state: State, seat: int) -> list[Command]:
    return [ChooseAlly(side=s) for s in ("none", *ally_sides(state))]


def assign_order(conflict: dict[str, Any], order: Sequence[int]) -> list[int]:
    """The attacker, attacking allies (clockwise), the defender, defending allies."""
    allies = conflict.get("allies", {})
    att = [s for s in order if allies.get(str(s)) == "attack"]
    dfn = [s for s in order if allies.get(str(s)) == "defend"]
    return [conflict["attacker"], *att, conflict["defender"], *dfn]


# ------------------------------------------------------------- assigning

def assignable(state: State, seat: int) -> list[str]:
    """Unbowed heroes of the seat at home (a unit goes with its hero)."""
    return [h for h in t.cards_in_play(state, seat, "hero")
            if not t.bowed(state, h) and t.location(state, h) == HOME]


def check_assign(state: State, seat: int, command: AssignUnits) -> None:
    c = battle_under_way(state)
    assert c is not None
    if len(command.heroes) != len(command.castles) or \
            len(set(command.heroes)) != len(command.heroes):
        raise RuleError(NineReason.BAD_ASSIGNMENT, "name each hero once, with its castle")
    free = assignable(state, seat)
    targets = [x for x in c["castles"] if t.in_play(state, x)]
    for hero, castle in zip(command.heroes, command.castles, strict=True):
        if hero not in free:
            raise RuleError(NineReason.BAD_ASSIGNMENT, f"{hero} is not an unbowed hero of "
                            f"yours at home")
        if castle not in (*targets, HOME):
            raise RuleError(NineReason.BAD_ASSIGNMENT, f"{castle} is not a castle of the "
                            f"defender (nor {HOME!r}, to stay at home)")


def run_assign(state: State, seat: int, command: AssignUnits) -> None:
    """The heroes sent to a castle (those given ``home`` stay there)."""
    c = battle_under_way(state)
    assert c is not None
    side = t.conflict_side(state, seat)
    sent = [(h, x) for h, x in zip(command.heroes, command.castles, strict=True) if x != HOME]
    state.emit("UnitsAssigned", seat=seat, side=side, heroes=[h for h, _ in sent],
               castles=[x for _, x in sent])


def assign_choice(state: State, seat: int) -> Assign:
    """Every assignment: each unbowed hero at home to one of the defender's
    castles or ``home`` (the legal list names only some of them)."""
    c = battle_under_way(state)
    assert c is not None
    heroes = tuple(assignable(state, seat))
    castles = tuple(x for x in c["castles"] if t.in_play(state, x))
    return Assign(command=AssignUnits.NAME, arg="castles", items=heroes,
                  slots=(*castles, HOME), fixed={"heroes": list(heroes)},
                  prompt="Send each hero to a castle, or keep it at home",
                  slot_labels=(*(t.printed(state, x).title for x in castles), "home"))


def legal_assign(state: State, seat: int) -> list[Command]:
    """None, every hero to one castle, or one hero to one castle (every
    assignment is reached by ``assign_choice``)."""
    c = battle_under_way(state)
    assert c is not None
    heroes = assignable(state, seat)
    castles = [x for x in c["castles"] if t.in_play(state, x)]
    out: list[Command] = [AssignUnits()]
    for castle in castles:
        if len(heroes) > 1:
            out.append(AssignUnits(heroes=tuple(heroes), castles=tuple(castle for _ in heroes)))
        for h in heroes:
            out.append(AssignUnits(heroes=(h,), castles=(castle,)))
    return out


# --------------------------------------------------------- choosing battles

def unresolved(state: State) -> list[str]:
    c = state.conflict
    assert c is not None
    return [x for x in c["castles"] if t.in_play(state, x) and x not in c["resolved"]]


def check_choose(state: State, seat: int, command: ChooseBattle) -> None:
    if command.castle not in unresolved(state):
        raise RuleError(Reason.BAD_ARGUMENT, "choose a castle whose battle is not resolved")


def run_choose(state: State, seat: int, command: ChooseBattle) -> None:
    choose(state, command.castle)


def choose(state: State, castle: str) -> None:
    c = state.conflict
    assert c is not None
    sides = [int(s) for s in c.get("allies", {}) if c["allies"][s] in SIDES]
    people = {c["attacker"], c["defender"], *sides}
    order = [s for s in t.order_from(state, c["defender"]) if s in people]
    name = "BattleChosen" if c["kind"] == "battle" else "RaidChosen"
    state.emit(name, seat=c["attacker"], castle=castle, order=order)


def legal_choose(state: State, seat: int) -> list[Command]:
    return [ChooseBattle(castle=x) for x in unresolved(state)]


def bury_castle(state: State, castle: str) -> None:
    """The castle absorbs all that remains: buried; the battle ends at once."""
    c = state.conflict
    assert c is not None
    state.emit("CastleBuried", seat=t.owner(state, castle), castle=castle,
               key=t.printed(state, castle).key, attacker=c["attacker"])
    card_effects.fire(state, "CastleBuried", {"castle": castle})
    if victory.conquest(state, c["attacker"]):
        return
    end_battle(state)


def end_battle(state: State) -> None:
    """Bow the attackers at the battle and send them home; defenders stay
    (unless the castle fell: then they go home unbowed)."""
    c = state.conflict
    assert c is not None
    castle = c["current"]
    stands = t.in_play(state, castle)
    at = [h for h in t.cards_in_play(state, kind="hero")
          if t.location(state, h) == castle and t.side(state, h)]
    attackers = [h for h in at if t.side(state, h) == "attack"]
    defenders = [h for h in at if t.side(state, h) == "defend"]
    state.emit("BattleEnded", castle=castle, castle_stands=stands, attackers=attackers,
               defenders_home=[] if stands else defenders)
    card_effects.fire(state, "BattleEnded", {"for": {c["defender"]: {
        "you_defend": True, "castle_stands": stands, "attackers": len(attackers)}}})


def end_attack(state: State) -> None:
    """Once all battles are resolved, defenders go home; no castles: eliminated."""
    c = state.conflict
    assert c is not None
    state.emit("AttackEnded", attacker=c["attacker"], defender=c["defender"])
    for seat in t.seats_in(state):
        if not t.castles(state, seat):
            victory.eliminate(state, seat, "no castles")


# ------------------------------- applied (each takes its event; apply.py registers it)

def battle_declared(e: ev.BattleDeclared, state: State) -> None:
    turn_order.acted(state)
    state.attacked.append(e.attacker)
    conflict: dict[str, Any] = {"kind": "battle", "attacker": e.attacker, "defender": e.defender,
                                "allies": {}, "castles": list(e.castles), "resolved": [],
                                "current": None, "stealth": {}}
    if e.allies_asked:
        conflict.update(step="allies", ask=list(e.allies_asked))
    else:
        conflict.update(step="assign", ask=[e.attacker, e.defender])
    state.conflict = conflict
    kflow.push(state, kflow.sub_phase("attack"))


def ally_chosen(e: ev.AllyChosen, state: State) -> None:
    c = state.conflict
    assert c is not None
    order = t.order_from(state, c["attacker"])
    if e.side in SIDES:
        c["allies"][str(e.seat)] = e.side
    c["ask"].pop(0)
    if not c["ask"]:
        c["step"] = "assign"
        c["ask"] = assign_order(c, order)


def units_assigned(e: ev.UnitsAssigned, state: State) -> None:
    c = state.conflict
    assert c is not None
    table = t.table(state)
    for hero, castle in zip(e.heroes, e.castles, strict=True):
        table.locate(hero, castle)
        state.instances[hero]["memory"]["side"] = e.side
    c["ask"].pop(0)
    if not c["ask"]:
        c["step"] = "choose"


def chosen(e: ev.BattleChosen | ev.RaidChosen, state: State) -> None:
    c = state.conflict
    assert c is not None
    c["current"] = e.castle
    c["step"] = "actions"
    kflow.push(state, kflow.passing(e.order))


def engaged(e: ev.Engaged, state: State) -> None:
    turn_order.acted(state)
    for x in e.cards:
        state.instances[x]["bowed"] = True
    turn_order.push_window(state, "engagement", e.order, seat=e.seat, side=e.side,
                           cards=list(e.cards), damage=e.damage, brutal=e.brutal, immune=[],
                           source="")


def returned_home(e: ev.ReturnedHome, state: State) -> None:
    turn_order.acted(state)
    for card in e.bowed:
        state.instances[card]["bowed"] = True
    _home(state, e.hero)


def _home(state: State, hero: str) -> None:
    t.table(state).locate(hero, HOME)
    state.instances[hero]["memory"].pop("side", None)


def damage_reduced(e: ev.DamageReduced, state: State) -> None:
    """The engagement's damage is reduced; by rules 1.6.0 an engagement whose
    window closed with the React reducing it (nothing was left to absorb) is
    gone, and keeps no damage."""
    if e.engagement < len(state.stack):
        state.stack[e.engagement]["damage"] = e.damage


def immunity_step(e: ev.ImmunityStep, state: State) -> None:
    state.stack[-1]["step"] = "immunity"
    state.stack[-1]["declaring"] = e.seat


def absorb_step(e: ev.AbsorbStep, state: State) -> None:
    state.stack[-1]["step"] = "absorb"


def immunity_declared(e: ev.ImmunityDeclared, state: State) -> None:
    """The cards are immune; the seat has declared (rules 1.3.0 and before
    recorded the next step: absorbing, unless another ``ImmunityStep``)."""
    frame = state.stack[-1]
    frame["immune"] = [*frame["immune"], *e.cards]
    frame["declared"] = [*frame.get("declared", []), e.seat]
    if frame["step"] == "immunity":
        frame["step"] = "absorb"


def allies_called(e: ev.AlliesCalled, state: State) -> None:
    """A call for allies (or none); when neither side called, no one is asked."""
    c = state.conflict
    assert c is not None
    c.setdefault("calls", {})[str(e.seat)] = e.call
    if len(c["calls"]) == 2 and not any(c["calls"].values()):
        c["step"] = "assign"
        c["ask"] = assign_order(c, t.order_from(state, c["attacker"]))


def damage_absorbed(e: ev.DamageAbsorbed, state: State) -> None:
    state.stack[-1]["damage"] = e.remaining
    state.stack[-1]["absorbing"] = True
    if e.kind == "food":
        t.table(state).add_food(e.card, -1)
    if e.discard:
        t.table(state).move(e.discard, zone_name("discard", e.seat))


def engagement_resolved(e: ev.EngagementResolved, state: State) -> None:
    """Rules 1.5.0 and before: the engagement resolved, its window closes (1.6.0
    closes it with the fact that left nothing to absorb: ``apply.evolve``)."""
    turn_order.pop_window(state)


def castle_buried(e: ev.CastleBuried, state: State) -> None:
    inst = state.instances[e.castle]
    inst["food"] = 0
    t.table(state).move(e.castle, zone_name("buried", e.seat))


def battle_ended(e: ev.BattleEnded, state: State) -> None:
    c = state.conflict
    assert c is not None
    while state.stack and state.stack[-1]["what"] == "engagement":
        turn_order.pop_window(state)
    kflow.pop(state, "passing")
    for hero in e.attackers:
        for member in t.unit(state, hero):
            state.instances[member]["bowed"] = True
        _home(state, hero)
    for hero in e.defenders_home:
        _home(state, hero)
    c["resolved"].append(e.castle)
    c["current"] = None
    c["step"] = "choose"
    state.lasting = expire(state.lasting, "battle")


def attack_ended(e: ev.AttackEnded, state: State) -> None:
    for hero in t.cards_in_play(state, kind="hero"):
        if t.location(state, hero) != HOME or t.side(state, hero):
            _home(state, hero)
    state.conflict = None
    kflow.pop(state, "phase")
    state.lasting = expire(state.lasting, "battle")
