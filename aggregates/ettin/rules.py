"""Shared rules helpers: what a card is, who is where, the units in a battle,
drawing from a Nation Deck with the Empty Decks rule, and the state changes
the facts every section records (cards moved, gold gained or paid).

Rule modules decide on the state they are given (``state.emit``); they never
import the aggregate class.
"""

from __future__ import annotations

from typing import Any

from aggregates.ettin import table as t
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.data import Ability, Unit
from aggregates.ettin.state import EttinState

MAT = "mercenaries"


def unit(card: int) -> Unit:
    return C.unit(card)


def name(card: int) -> str:
    return C.name(card)


def positions(g: EttinState) -> int:
    return len(g.nations)


def ally(g: EttinState, p: int) -> int | None:
    return t.ally_of(p, positions(g))


def benefit_to_ally(g: EttinState, p: int) -> int:
    """Who gets what a card gives your Ally: the Ally, or (2 players) you."""
    a = ally(g, p)
    return p if a is None else a


def pair_of(g: EttinState, p: int) -> int:
    return next(i for i, pair in enumerate(g.pairs) if p in pair)


def enemy(g: EttinState, p: int) -> int:
    pair = g.pairs[pair_of(g, p)]
    return pair[1] if pair[0] == p else pair[0]


def box(g: EttinState, p: int) -> int:
    return t.box_of(p)


def pair_box(g: EttinState, i: int) -> int:
    return t.box_of(g.pairs[i][0])


def nation_deck(g: EttinState, p: int) -> str:
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
#
# Every event is one fact of the rulebook (``aggregates.ettin.events`` names
# them and their facts). Cards that move name the zones they leave and reach
# (the table's own zone names, ``table``), so whoever may not see the cards
# gets the same fact with a count instead (``Zones.move_audience``).


def moved(g: EttinState, kind: str, source: str, target: str, cards: list[int],
          position: int | None = None, **facts: Any) -> None:
    """Record cards leaving ``source`` for ``target`` as the event ``kind``."""
    if not cards:
        return
    payload = {"position": position, "source": source, "target": target, **facts}
    g.emit(kind, audience=g.table_zones().move_audience(source, target),
           public={**payload, "count": len(cards)}, cards=list(cards), **payload)


def gained(g: EttinState, kind: str, p: int, amount: int, **facts: Any) -> None:
    """Record one position's gold changing by ``amount`` (none if 0): the
    change and the gold it has after, so the event is the whole fact."""
    if amount:
        g.emit(kind, position=p, amount=amount, gold=g.gold[p] + amount, **facts)


def gains(g: EttinState, kind: str, deltas: dict[int, int], **facts: Any) -> None:
    """Record several positions' gold changing at once (none if all 0)."""
    deltas = {p: d for p, d in deltas.items() if d}
    if deltas:
        g.emit(kind, gains={str(p): d for p, d in sorted(deltas.items())},
               gold={str(p): g.gold[p] + d for p, d in sorted(deltas.items())}, **facts)


def draw_nation(g: EttinState, p: int, count: int, target: str, kind: str,
                instead_of: str) -> int:
    """Move the top ``count`` cards of ``p``'s Nation Deck to ``target`` (the
    event ``kind``); when it runs out, the current Age's mercenary deck; when
    that runs out, the Age's gold instead (Empty Decks: ``instead_of`` names
    the draw it replaces). Returns how many cards moved."""
    drawn = 0
    for source in (nation_deck(g, p), t.merc(box(g, p), g.age)):
        take = g.zones[source][: count - drawn]
        moved(g, kind, source, target, take, p)
        drawn += len(take)
    if drawn < count:
        gained(g, "EmptyDecksGold", p, C.age_gold[g.age - 1] * (count - drawn),
               instead_of=instead_of)
    return drawn


#: The event a card-drawing ability records, by when it is used.
DRAWS = {("war_cry", "retire"): "WarCry", ("call_to_arms", "produce"): "CallToArms",
         ("lost_souls", "produce"): "LostSouls"}


def apply_gain(g: EttinState, p: int, ability: Ability, by: str,
               card: int | None = None) -> None:
    """A Retire/Produce/Adventure ability that needs no choice; ``by``: when
    (``retire``, ``produce`` or ``adventure``), ``card``: whose ability (None:
    a Location's, or the Adventure's: no card has it)."""
    k = ability.keyword
    if k in ("wealthy", "taxes", "prosperous"):
        deltas = {p: ability.amount}
        if k == "prosperous":
            other = benefit_to_ally(g, p)
            deltas[other] = deltas.get(other, 0) + ability.amount
        if by == "retire":
            gained(g, "Wealthy", p, ability.amount, card=card)
        elif by == "produce":
            gains(g, "Produced", deltas, ability=k, card=card)
        else:
            gains(g, "AdventureReward", deltas, position=p)
        return
    kind = DRAWS.get((k, by), "AdventureEffect")
    if k in ("war_cry", "call_to_arms"):
        draw_nation(g, p, 1, t.camp(p), kind, k)
    elif k == "lost_souls":
        deck = nation_deck(g, p)
        moved(g, kind, deck, t.LOST, g.zones[deck][:1], p)


# ------------------------------------------------------------- battles


def units_at(g: EttinState, p: int, slot: int) -> list[int]:
    """``p``'s units in the battle at ``slot``: deployed there, and the Defenses
    under that Location."""
    cards = list(g.zones[t.field(p, slot)])
    if slot < t.ADVENTURE:
        cards += g.zones[t.loc(p, slot)]
    return cards


def where(g: EttinState, card: int) -> str:
    return next(z for z, cards in g.zones.items() if card in cards)


def has_keyword(cards: list[int], keyword: str) -> bool:
    return any(unit(c).has(keyword) for c in cards)


def location_defense(g: EttinState, p: int, slot: int) -> int:
    if slot >= t.ADVENTURE:
        return 0
    return C.nation(g.nations[p]).locations[slot].defense


def battle_score(g: EttinState, p: int, slot: int) -> int:
    return sum(unit(c).strength for c in units_at(g, p, slot)) + location_defense(g, p, slot)


def unprotected_against(g: EttinState, defender: int, attacker: int, slot: int) -> bool:
    """True when ``defender`` has a Protected Defense in the battle whose parapet
    abilities none of the attacker's units there have: it cannot be attacked."""
    attackers = units_at(g, attacker, slot)
    for card in units_at(g, defender, slot):
        shield = unit(card).ability("protected")
        if shield is not None and not any(has_keyword(attackers, w) for w in shield.weak_to):
            return True
    return False


def battle_result(g: EttinState, pair: list[int], slot: int) -> dict[str, Any]:
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


def spoil_count(g: EttinState, taker: int, slot: int, result: str) -> int:
    """Spoils: the Age number for a win, one for a tie, plus Vicious."""
    base = g.age if result == "win" else 1
    in_force = [a.text for c in units_at(g, taker, slot) for a in unit(c).abilities]
    return base + C.book.modifier("spoils", {"result": result}, in_force)


def spoil_options(g: EttinState, taker: int, slot: int) -> list[int]:
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


def siege_options(g: EttinState, taker: int) -> list[int]:
    foe = enemy(g, taker)
    cards = [c for s in range(t.ADVENTURE) for c in units_at(g, foe, s)]
    return sorted(c for c in cards if not unit(c).troop and c not in g.sieges)
