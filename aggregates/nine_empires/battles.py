"""Battles: declare, call allies, assign, a battle at every castle, engage, absorb.

The Flow of a Battle: the attacker declares an attack on one other player
(once per Summer); in multiplayer the attacker and then the defender may call
for allies, and if either did, each other player, clockwise from the
attacker, chooses to ally with a side that called or not; the attacker (then attacking
allies) assigns unbowed units to the defender's castles, then the defender
(then defending allies); there is a battle at each of the defender's castles
and the attacker chooses which to resolve. Each battle is resolved by actions
passed from the defender clockwise until all pass in a row: Battle abilities
(presence and relevance), engaging, returning a unit home (the whole unit
bowed), passing.

Engaging and Damage: bow cards of one unit and announce their Strength as
damage (React window); the attacker and attacking allies (against the
defending side) or the defending allies (against the attacking side) may
each declare cards of their own immune whose Strength is greater than the
damage; the opposing side then
absorbs: each food token 1, each hero or cohort its Strength (a hero plus a
discarded card's Fate, not against Brutal), the castle all that remains (it
is buried and the battle ends: attackers home bowed, defenders home unbowed).
At the end of an Attack Phase a player with no castles is eliminated; the
instant a player destroys the last castle other than their own, they win.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from aggregates.kernel import Assign, Command, Reason, RuleError
from aggregates.kernel import flow as kflow
from aggregates.kernel.abilities import expire
from aggregates.kernel.cards import HOME, zone_name
from aggregates.nine_empires import abilities, actions, frames, victory
from aggregates.nine_empires import table as t
from aggregates.nine_empires.commands import (
    Absorb,
    AssignUnits,
    CallAllies,
    ChooseAlly,
    ChooseBattle,
    DeclareAttack,
    DeclareImmune,
    Engage,
    ReturnHome,
)
from aggregates.nine_empires.reasons import NineReason
from aggregates.nine_empires.state import (
    EARLIER_ALLIES,
    EARLIER_IMMUNITY,
    EARLIER_RETURN_HERO,
    State,
)

SIDES = ("attack", "defend")
FOOD = "food:"


def _battle(state: State) -> dict[str, Any] | None:
    c = state.conflict
    return c if c is not None and c["kind"] == "battle" else None


# ------------------------------------------------------------ declaring

def check_declare(state: State, seat: int, command: DeclareAttack) -> None:
    if state.phase != "summer" or state.conflict is not None or state.stack \
            or actions.acting_seat(state) != seat:
        raise RuleError(NineReason.NOT_NOW, "an attack is declared as a Summer action")
    if seat in state.attacked:
        raise RuleError(NineReason.ONCE_PER_TURN, "each player launches one attack per turn")
    d = command.defender
    if d == seat or d not in t.seats_in(state):
        raise RuleError(Reason.BAD_ARGUMENT, "attack another player still in the game")


def run_declare(state: State, seat: int, command: DeclareAttack) -> None:
    d = command.defender
    others = [s for s in t.order_from(state, seat) if s not in (seat, d)]
    state.emit("BattleDeclared", attacker=seat, defender=d,
               castles=t.castles(state, d), allies_asked=others)


def legal_declare(state: State, seat: int) -> list[Command]:
    if state.phase != "summer" or seat in state.attacked or state.conflict is not None \
            or state.stack or actions.acting_seat(state) != seat:
        return []
    return [DeclareAttack(defender=d) for d in t.seats_in(state) if d != seat]


# ---------------------------------------------------------------- allies

def calling(state: State) -> int | None:
    """Who calls for allies now: the attacker, then the defender (Declare
    Attack: "the attacker and the defender may call for allies from the other
    players"); None once both have (or under rules 1.0.0, which had no call)."""
    c = _battle(state)
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
    c = _battle(state)
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
    c = _battle(state)
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
    c = _battle(state)
    assert c is not None
    side = t.conflict_side(state, seat)
    sent = [(h, x) for h, x in zip(command.heroes, command.castles, strict=True) if x != HOME]
    state.emit("UnitsAssigned", seat=seat, side=side, heroes=[h for h, _ in sent],
               castles=[x for _, x in sent])


def assign_choice(state: State, seat: int) -> Assign:
    """Every assignment: each unbowed hero at home to one of the defender's
    castles or ``home`` (the legal list names only some of them)."""
    c = _battle(state)
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
    c = _battle(state)
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
    c = _battle(state)
    if c is None or not c.get("current") or state.stack or actions.acting_seat(state) != seat:
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
    damage = sum(t.stat(state, x, "S") for x in command.cards)
    brutal = any(t.has_keyword(state, x, "Brutal") for x in cards)
    c = state.conflict
    assert c is not None
    side = t.conflict_side(state, seat)
    preview = {"what": "engagement", "seat": seat, "side": side, "damage": damage}
    state.emit("Engaged", seat=seat, side=side, cards=cards, damage=damage, brutal=brutal,
               castle=c["current"], order=abilities.eligible(state, preview))


def legal_engage(state: State, seat: int) -> list[Command]:
    """Every set of the unbowed heroes and cohorts of each of your units here
    (the whole unit first; items adding Strength go with their hero)."""
    c = _battle(state)
    if c is None or not c.get("current") or state.stack or actions.acting_seat(state) != seat:
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
    c = _battle(state)
    if c is None or not c.get("current") or state.stack or actions.acting_seat(state) != seat:
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
    c = _battle(state)
    if c is None or not c.get("current") or state.stack or actions.acting_seat(state) != seat:
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
    return [x for x in _army_cards(state, side) if t.stat(state, x, "S") > frame["damage"]
            and (whole or t.owner(state, x) == seat)]


def _next_declaring(state: State, frame: dict[str, Any], after: int | None) -> int | None:
    order = declaring(state, frame)
    rest = order if after is None else order[order.index(after) + 1:]
    return next((s for s in rest if immune_candidates(state, frame, s)), None)


def after_reacts(state: State) -> None:
    """The engagement's React window closed: immunity, then absorbing."""
    frame = _engagement(state)
    if frame["damage"] <= 0:
        state.emit("EngagementResolved", seat=frame["seat"], wasted=0)
        return
    first = _next_declaring(state, frame, None)
    if first is not None:
        state.emit("ImmunityStep", seat=first, damage=frame["damage"])
        return
    state.emit("AbsorbStep", seat=absorbing_seat(state, frame), damage=frame["damage"])
    finish_if_absorbed(state)


def immunity_seat(state: State, frame: dict[str, Any]) -> int:
    """The seat declaring immunity now (rules 1.0.0's frames: the attacker)."""
    return int(frame.get("declaring", absorbing_seat(state, frame)))


def check_immune(state: State, seat: int, command: DeclareImmune) -> None:
    allowed = immune_candidates(state, _engagement(state), seat)
    bad = [x for x in command.cards if x not in allowed]
    if bad or len(set(command.cards)) != len(command.cards):
        raise RuleError(NineReason.BAD_ABSORB, f"{bad} cannot be declared immune: immunity "
                        f"is for your own cards with Strength greater than the damage")


def run_immune(state: State, seat: int, command: DeclareImmune) -> None:
    state.emit("ImmunityDeclared", seat=seat, cards=list(command.cards))
    frame = _engagement(state)
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
        bury_castle(state, card)
        return
    else:
        kind = t.printed(state, card).type
        strength = t.stat(state, card, "S")
        fate = t.printed(state, command.discard).fate if command.discard else 0
        state.emit("DamageAbsorbed", seat=seat, card=card, kind=kind, absorbed=strength + fate,
                   discard=command.discard or None, fate=fate,
                   remaining=damage - strength - fate)
        abilities.bury(state, card, why="absorb", with_items=True)
        abilities.settle_will(state)
    finish_if_absorbed(state)


def finish_if_absorbed(state: State) -> None:
    if not state.stack or state.stack[-1]["what"] != "engagement":
        return
    frame = state.stack[-1]
    if frame.get("step") != "absorb":
        return
    if frame["damage"] <= 0 or not absorbers(state, frame, mandatory=True):
        state.emit("EngagementResolved", seat=frame["seat"], wasted=max(0, frame["damage"]))


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


def bury_castle(state: State, castle: str) -> None:
    """The castle absorbs all that remains: buried; the battle ends at once."""
    c = state.conflict
    assert c is not None
    state.emit("CastleBuried", seat=t.owner(state, castle), castle=castle,
               key=t.printed(state, castle).key, attacker=c["attacker"])
    abilities.fire(state, "CastleBuried", {"castle": castle})
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
    abilities.fire(state, "BattleEnded", {"for": {c["defender"]: {
        "you_defend": True, "castle_stands": stands, "attackers": len(attackers)}}})


def end_attack(state: State) -> None:
    """Once all battles are resolved, defenders go home; no castles: eliminated."""
    c = state.conflict
    assert c is not None
    state.emit("AttackEnded", attacker=c["attacker"], defender=c["defender"])
    for seat in t.seats_in(state):
        if not t.castles(state, seat):
            victory.eliminate(state, seat, "no castles")


# ------------------------------------------------------------------ evolve

def battle_declared(state: State, attacker: int, defender: int, castles: list[str],
                    allies_asked: list[int]) -> None:
    actions.acted(state)
    state.attacked.append(attacker)
    conflict: dict[str, Any] = {"kind": "battle", "attacker": attacker, "defender": defender,
                                "allies": {}, "castles": list(castles), "resolved": [],
                                "current": None, "stealth": {}}
    if allies_asked:
        conflict.update(step="allies", ask=list(allies_asked))
    else:
        conflict.update(step="assign", ask=[attacker, defender])
    state.conflict = conflict
    kflow.push(state, kflow.sub_phase("attack"))


def ally_chosen(state: State, seat: int, side: str) -> None:
    c = state.conflict
    assert c is not None
    order = t.order_from(state, c["attacker"])
    if side in SIDES:
        c["allies"][str(seat)] = side
    c["ask"].pop(0)
    if not c["ask"]:
        c["step"] = "assign"
        c["ask"] = assign_order(c, order)


def units_assigned(state: State, side: str, heroes: list[str], castles: list[str]) -> None:
    c = state.conflict
    assert c is not None
    table = t.table(state)
    for hero, castle in zip(heroes, castles, strict=True):
        table.locate(hero, castle)
        state.instances[hero]["memory"]["side"] = side
    c["ask"].pop(0)
    if not c["ask"]:
        c["step"] = "choose"


def chosen(state: State, castle: str, order: list[int]) -> None:
    c = state.conflict
    assert c is not None
    c["current"] = castle
    c["step"] = "actions"
    kflow.push(state, kflow.passing(order))


def engaged(state: State, seat: int, side: str, cards: list[str], damage: int,
            brutal: bool, order: list[int]) -> None:
    actions.acted(state)
    for x in cards:
        state.instances[x]["bowed"] = True
    frames.push_window(state, "engagement", order, seat=seat, side=side, cards=list(cards),
                       damage=damage, brutal=brutal, immune=[], source="")


def returned_home(state: State, hero: str, bowed: list[str]) -> None:
    actions.acted(state)
    for card in bowed:
        state.instances[card]["bowed"] = True
    _home(state, hero)


def _home(state: State, hero: str) -> None:
    t.table(state).locate(hero, HOME)
    state.instances[hero]["memory"].pop("side", None)


def damage_reduced(state: State, engagement: int, damage: int) -> None:
    state.stack[engagement]["damage"] = damage


def immunity_step(state: State, seat: int) -> None:
    state.stack[-1]["step"] = "immunity"
    state.stack[-1]["declaring"] = seat


def absorb_step(state: State) -> None:
    state.stack[-1]["step"] = "absorb"


def immunity_declared(state: State, cards: list[str]) -> None:
    state.stack[-1]["immune"] = [*state.stack[-1]["immune"], *cards]
    state.stack[-1]["step"] = "absorb"


def allies_called(state: State, seat: int, call: bool) -> None:
    """A call for allies (or none); when neither side called, no one is asked."""
    c = state.conflict
    assert c is not None
    c.setdefault("calls", {})[str(seat)] = call
    if len(c["calls"]) == 2 and not any(c["calls"].values()):
        c["step"] = "assign"
        c["ask"] = assign_order(c, t.order_from(state, c["attacker"]))


def damage_absorbed(state: State, seat: int, card: str, kind: str, discard: str | None,
                    remaining: int) -> None:
    state.stack[-1]["damage"] = remaining
    if kind == "food":
        t.table(state).add_food(card, -1)
    if discard:
        t.table(state).move(discard, zone_name("discard", seat))


def engagement_resolved(state: State) -> None:
    frames.pop_window(state)


def castle_buried(state: State, seat: int, castle: str) -> None:
    inst = state.instances[castle]
    inst["food"] = 0
    t.table(state).move(castle, zone_name("buried", seat))


def battle_ended(state: State, castle: str, castle_stands: bool, attackers: list[str],
                 defenders_home: list[str]) -> None:
    c = state.conflict
    assert c is not None
    while state.stack and state.stack[-1]["what"] == "engagement":
        frames.pop_window(state)
    kflow.pop(state, "passing")
    for hero in attackers:
        for member in t.unit(state, hero):
            state.instances[member]["bowed"] = True
        _home(state, hero)
    for hero in defenders_home:
        _home(state, hero)
    c["resolved"].append(castle)
    c["current"] = None
    c["step"] = "choose"
    state.lasting = expire(state.lasting, "battle")


def attack_ended(state: State) -> None:
    for hero in t.cards_in_play(state, kind="hero"):
        if t.location(state, hero) != HOME or t.side(state, hero):
            _home(state, hero)
    state.conflict = None
    kflow.pop(state, "phase")
    state.lasting = expire(state.lasting, "battle")
