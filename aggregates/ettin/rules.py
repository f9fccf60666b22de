"""Shared rules helpers: what a card is, who is where, the units in a battle,
drawing from a Nation Deck with the Empty Decks rule, and the state changes
every section records (cards moved, gold changed, state updated).

Rule modules decide on the state they are given (``state.emit``); they never
import the aggregate class.
"""

from __future__ import annotations

from typing import Any

from aggregates.ettin import table as t
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.data import Ability, Unit
from aggregates.kernel import Audience

MAT = "mercenaries"


def unit(card: int) -> Unit:
    return C.unit(card)


def name(card: int) -> str:
    return C.name(card)


def positions(g: Any) -> int:
    return len(g.nations)


def ally(g: Any, p: int) -> int | None:
    return t.ally_of(p, positions(g))


def benefit_to_ally(g: Any, p: int) -> int:
    """Who gets what a card gives your Ally: the Ally, or (2 players) you."""
    a = ally(g, p)
    return p if a is None else a


def pair_of(g: Any, p: int) -> int:
    return next(i for i, pair in enumerate(g.pairs) if p in pair)


def enemy(g: Any, p: int) -> int:
    pair = g.pairs[pair_of(g, p)]
    return pair[1] if pair[0] == p else pair[0]


def box(g: Any, p: int) -> int:
    return t.box_of(p)


def pair_box(g: Any, i: int) -> int:
    return t.box_of(g.pairs[i][0])


def nation_deck(g: Any, p: int) -> str:
    """The Nation Deck of a position: its own, or (the Mercenary mat) the Age's
    mercenary deck of its box."""
    if g.nations[p] == MAT:
        return t.merc(box(g, p), g.age)
    return t.deck(p)


def is_unit(card: int) -> bool:
    return not C.is_adventure(card) or C.adventure(card).defense is not None


def vp(card: int) -> int:
    if C.is_adventure(card):
        adv = C.adventure(card)
        return adv.vp
    return unit(card).vp


# ------------------------------------------------------------- recording


def move(g: Any, source: str, target: str, cards: list[int], why: str,
         position: int | None = None) -> None:
    if not cards:
        return
    zones = g.table_zones()
    g.emit("Moved", audience=zones.move_audience(source, target),
           public={"source": source, "target": target, "count": len(cards), "why": why,
                   "position": position},
           source=source, target=target, cards=list(cards), why=why, position=position)


def gold(g: Any, deltas: dict[int, int], why: str) -> None:
    """Record gold changes: each position's change and its gold after it, so
    the event is the whole fact to any reader (issue 9, item 7)."""
    deltas = {p: d for p, d in deltas.items() if d}
    if deltas:
        g.emit("GoldChanged", deltas={str(p): d for p, d in sorted(deltas.items())},
               totals={str(p): g.gold[p] + d for p, d in sorted(deltas.items())}, why=why)


def update(g: Any, what: str, details: dict[str, Any] | None = None, **changes: Any) -> None:
    g.emit("Updated", what=what, changes=changes, details=details or {})


def draw_nation(g: Any, p: int, count: int, target: str, why: str,
                audience: Audience | None = None) -> int:
    """Move the top ``count`` cards of ``p``'s Nation Deck to ``target``; when it
    runs out, the current Age's mercenary deck; when that runs out, the Age's
    gold instead. Returns how many cards moved."""
    moved = 0
    for source in (nation_deck(g, p), t.merc(box(g, p), g.age)):
        take = g.zones[source][: count - moved]
        move(g, source, target, take, why, p)
        moved += len(take)
    if moved < count:
        gold(g, {p: C.age_gold[g.age - 1] * (count - moved)}, "empty decks")
    return moved



def apply_gain(g: Any, p: int, ability: Ability, why: str) -> None:
    """A Retire/Produce/Adventure ability that needs no choice."""
    k = ability.keyword
    if k in ("wealthy", "taxes"):
        gold(g, {p: ability.amount}, why)
    elif k == "prosperous":
        other = benefit_to_ally(g, p)
        deltas = {p: ability.amount}
        deltas[other] = deltas.get(other, 0) + ability.amount
        gold(g, deltas, why)
    elif k in ("war_cry", "call_to_arms"):
        draw_nation(g, p, 1, t.camp(p), why)
    elif k == "lost_souls":
        deck = nation_deck(g, p)
        move(g, deck, t.LOST, g.zones[deck][:1], why, p)


# ------------------------------------------------------------- battles


def units_at(g: Any, p: int, slot: int) -> list[int]:
    """``p``'s units in the battle at ``slot``: deployed there, and the Defenses
    under that Location."""
    cards = list(g.zones[t.field(p, slot)])
    if slot < t.ADVENTURE:
        cards += g.zones[t.loc(p, slot)]
    return cards


def where(g: Any, card: int) -> str:
    return next(z for z, cards in g.zones.items() if card in cards)


def has_keyword(cards: list[int], keyword: str) -> bool:
    return any(unit(c).has(keyword) for c in cards)


def location_defense(g: Any, p: int, slot: int) -> int:
    if slot >= t.ADVENTURE:
        return 0
    return C.nation(g.nations[p]).locations[slot].defense


def battle_score(g: Any, p: int, slot: int) -> int:
    return sum(unit(c).strength for c in units_at(g, p, slot)) + location_defense(g, p, slot)


def unprotected_against(g: Any, defender: int, attacker: int, slot: int) -> bool:
    """True when ``defender`` has a Protected Defense in the battle whose parapet
    abilities none of the attacker's units there have: it cannot be attacked."""
    attackers = units_at(g, attacker, slot)
    for card in units_at(g, defender, slot):
        shield = unit(card).ability("protected")
        if shield is not None and not any(has_keyword(attackers, w) for w in shield.weak_to):
            return True
    return False


def battle_result(g: Any, pair: list[int], slot: int) -> dict[str, Any]:
    """The result of one battle: win (with its winner), tie, or none."""
    a, b = pair
    ua, ub = units_at(g, a, slot), units_at(g, b, slot)
    scores = [battle_score(g, a, slot), battle_score(g, b, slot)]
    base = {"slot": slot, "scores": scores}
    if not any(unit(c).troop for c in ua + ub):
        return {**base, "result": "none", "winner": None, "why": "no troops"}
    if scores[0] != scores[1]:
        winner, loser = (a, b) if scores[0] > scores[1] else (b, a)
        if unprotected_against(g, loser, winner, slot):
            return {**base, "result": "none", "winner": None, "why": "protected"}
        return {**base, "result": "win", "winner": winner}
    if unprotected_against(g, a, b, slot) or unprotected_against(g, b, a, slot):
        return {**base, "result": "none", "winner": None, "why": "protected"}
    swift = [sum(unit(c).swift_icons() for c in ua), sum(unit(c).swift_icons() for c in ub)]
    if swift[0] != swift[1]:
        return {**base, "result": "win", "winner": a if swift[0] > swift[1] else b,
                "why": "swift"}
    return {**base, "result": "tie", "winner": None}


def spoil_count(g: Any, taker: int, slot: int, result: str) -> int:
    """Spoils: the Age number for a win, one for a tie, plus Vicious."""
    base = g.age if result == "win" else 1
    in_force = [a.text for c in units_at(g, taker, slot) for a in unit(c).abilities]
    return base + C.book.modifier("spoils", {"result": result}, in_force)


def spoil_options(g: Any, taker: int, slot: int) -> list[int]:
    """The Enemy units ``taker`` may take now: Stealth needs Magic, Flying needs
    Ranged or Flying, Troops before Defenses unless Conquest. 0 stands for the
    top of the Enemy's Nation Deck when the Enemy has no units there."""
    foe = enemy(g, taker)
    mine = units_at(g, taker, slot)
    theirs = units_at(g, foe, slot)
    if not theirs:
        return [0] if g.zones[nation_deck(g, foe)] else []
    ok = []
    for card in theirs:
        u = unit(card)
        if u.has("stealth") and not has_keyword(mine, "magic"):
            continue
        if u.has("flying") and not (has_keyword(mine, "ranged") or has_keyword(mine, "flying")):
            continue
        ok.append(card)
    if has_keyword(mine, "conquest"):
        return sorted(ok)
    troops = [c for c in ok if unit(c).troop]
    if troops:
        return sorted(troops)
    if any(unit(c).troop for c in theirs):
        return []  # Troops remain that may not be taken: Defenses stay behind them
    return sorted(ok)


def siege_options(g: Any, taker: int) -> list[int]:
    foe = enemy(g, taker)
    cards = [c for s in range(t.ADVENTURE) for c in units_at(g, foe, s)]
    return sorted(c for c in cards if not unit(c).troop and c not in g.sieges)
