"""Phase 3 continued: Spoil, the Adventure Defense, Retire, Produce, Winning
the War.

- Spoil: per pair, battle by battle (Initiative holder first in a tie), the
  winner takes up to the Age number of Enemy units (a tie: one each), Vicious
  adding one; Troops before Defenses unless Conquest; Stealth needs Magic;
  Flying needs Ranged or Flying; Bounty pays the taker; an Enemy with no
  units there: one Spoil from the top of its Nation Deck. Spoils go to the
  taker's Retired Pile (taking the Enemy's last unit there ends that battle's
  Spoils: the deck is only for a Location the Enemy left empty). Then each
  Siege unit in a battle its side won or tied places a Siege Token on an Enemy Defense.
- Adventure Defense: a completed Adventure that becomes a Defense is placed
  at one of the winner's Locations.
- Retire (automatic): Troops to the Retired Pile (Return to Self / to Ally to
  a War Camp instead), Defenses stay at their Locations (at the Adventure:
  retired); Wealthy and War Cry resolve.
- Produce: Taxes and Prosperous (on Defenses without a Siege Token, and on
  defended Locations) pay at once; Gate to Self / to Ally, Lost Souls and Call
  to Arms are optional, asked one at a time.
- Winning the War: more Battle Won tokens, else the Adventure battle's
  winner; the winner's Victory Token; the loser's top Nation card to its War
  Camp and its initiative choice; a full tie: both gain the Age's gold and the
  Initiative Token changes hands.
"""

from __future__ import annotations

from typing import Any

from aggregates.ettin import cards as cd
from aggregates.ettin import seating as sg
from aggregates.ettin import war
from aggregates.ettin import zones as zn
from aggregates.ettin.commands import EndSpoils, PlaceDefense, Produce, Siege, Spoil
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.data import Ability
from aggregates.ettin.reasons import EttinReason
from aggregates.ettin.state import TURNS_RECORDED, EttinState
from aggregates.kernel import Command, RuleError

# ---------------------------------------------------------------------- spoils


def owed(g: EttinState) -> list[list[list[Any]]]:
    """Per pair, the Spoils owed after its battles: [taker, slot, count, kind],
    battle by battle (Initiative holder first in a tie), then the Siege Tokens."""
    pairs = []
    for i, pair in enumerate(g.pairs):
        first = g.initiative[i]
        other = pair[1] if first == pair[0] else pair[0]
        tasks: list[list[Any]] = []
        for result in g.results[i]:
            slot = result["slot"]
            if result["result"] == "win":
                takers = [result["winner"]]
            elif result["result"] == "tie":
                takers = [first, other]
            else:
                continue
            for taker in takers:
                tasks.append([taker, slot, spoil_count(g, taker, slot, result["result"]),
                              "spoil"])
        for result in g.results[i]:
            if result["result"] in ("win", "tie"):
                for taker in ([result["winner"]] if result["result"] == "win"
                              else [first, other]):
                    sieges = sum(1 for c in war.units_at(g, taker, result["slot"])
                                 if cd.has_keyword([c], "siege"))
                    tasks += [[taker, result["slot"], 1, "siege"]] * sieges
        pairs.append(tasks)
    return pairs


def open_spoils(g: EttinState) -> None:
    """Rules "1"-"3" record the Spoils owed (``SpoilsBegan``); rules "4" entered
    them with the last battle's fact (``apply.enter_steps``)."""
    if TURNS_RECORDED in g.earlier:
        g.emit("SpoilsBegan", owed=[
            [{"position": taker, "slot": slot, "count": count, "kind": kind}
             for taker, slot, count, kind in tasks] for tasks in owed(g)])


def spoils_head(g: EttinState, p: int) -> list[Any] | None:
    if g.phase != "spoils":
        return None
    tasks = g.work["pairs"][sg.pair_of(g, p)]["tasks"]
    return list(tasks[0]) if tasks and tasks[0][0] == p else None


def head_options(g: EttinState, p: int) -> list[int]:
    head = spoils_head(g, p)
    assert head is not None
    _, slot, _, kind = head
    return siege_options(g, p) if kind == "siege" else spoil_options(g, p, slot)


def pop_task(g: EttinState, i: int, spent: int | None = None, chosen: bool = False) -> None:
    """The pair ``i``'s current Spoil (or Siege) is done with: ``left`` say how
    many of it its taker may still take (0: the next one's turn). Rules "4"
    record it only when its taker ``chosen`` to stop (``EndSpoils``): the
    rest follows from the Spoil or Siege Token taken (``apply``)."""
    if TURNS_RECORDED not in g.earlier and not chosen:
        return
    taker, slot, count, kind = g.work["pairs"][i]["tasks"][0]
    left = count - spent if spent is not None and count - spent > 0 else 0
    g.emit("SpoilsPassed", pair=i, position=taker, slot=slot, kind=kind, left=left)


def head_done(g: EttinState, tasks: list[list[Any]]) -> bool:
    """A pair's head Spoil (or Siege) that its taker has nothing to take for."""
    taker, slot, _count, kind = tasks[0]
    return not (siege_options(g, taker) if kind == "siege" else spoil_options(g, taker, slot))


def step_spoils(g: EttinState) -> bool:
    """Rules "1"-"3": record each Spoil passed over for want of a unit to take
    (rules "4" read it from the units left: ``apply.enter_steps``)."""
    if TURNS_RECORDED not in g.earlier:
        return False
    progressed = False
    for i in range(len(g.pairs)):
        while g.work["pairs"][i]["tasks"]:
            taker, slot, _count, kind = g.work["pairs"][i]["tasks"][0]
            options = siege_options(g, taker) if kind == "siege" else \
                spoil_options(g, taker, slot)
            if options:
                break
            pop_task(g, i)
            progressed = True
    return progressed


def check_spoil(g: EttinState, p: int, command: Spoil) -> None:
    head = spoils_head(g, p)
    if head is None or head[3] != "spoil":
        raise RuleError(EttinReason.NOT_A_SPOIL, "no Spoil is yours to take now")
    if command.card not in head_options(g, p):
        raise RuleError(EttinReason.NOT_A_SPOIL,
                        f"{command.card} may not be taken now (Troops before Defenses, "
                        "Stealth, Flying)")


def run_spoil(g: EttinState, p: int, command: Spoil) -> None:
    foe = sg.enemy(g, p)
    i = sg.pair_of(g, p)
    slot = g.work["pairs"][i]["tasks"][0][1]
    if command.card == 0:
        deck = zn.nation_deck(g, foe)
        top = g.zones[deck][:1]
        zn.moved(g, "SpoilTaken", deck, zn.retired(p), top, p, slot=slot, from_deck=True)
        pay_bounty(g, p, top, from_deck=True)  # taken as a Spoil, from the deck too
        pop_task(g, i)  # a single Spoil from the deck
        return
    zn.moved(g, "SpoilTaken", zn.where(g, command.card), zn.retired(p), [command.card], p,
            slot=slot, from_deck=False)
    pay_bounty(g, p, [command.card])
    if not war.units_at(g, foe, slot):
        pop_task(g, i)  # the Enemy's last unit: the deck is only for a Location left empty
        return
    pop_task(g, i, spent=1)


def pay_bounty(g: EttinState, p: int, cards: list[int], from_deck: bool = False) -> None:
    """Bounty pays the taker. The gold is everyone's to see; the card only when
    it was taken from the battle (a deck-top Spoil is its taker's alone: the
    event names no card then)."""
    for card in cards:
        bounty = cd.unit(card).ability("bounty") if cd.is_unit(card) else None
        if bounty is not None:
            zn.gained(g, "BountyPaid", p, bounty.amount, card=None if from_deck else card)


def legal_spoil(g: EttinState, p: int) -> list[Command]:
    head = spoils_head(g, p)
    assert head is not None
    if head[3] == "siege":
        return [Siege(c) for c in head_options(g, p)]
    return [*(Spoil(c) for c in head_options(g, p)), EndSpoils()]


def check_end(g: EttinState, p: int, command: EndSpoils) -> None:
    head = spoils_head(g, p)
    if head is None or head[3] != "spoil":
        raise RuleError(EttinReason.NOT_A_SPOIL, "a Siege Token must be placed")


def run_end(g: EttinState, p: int, command: EndSpoils) -> None:
    pop_task(g, sg.pair_of(g, p), chosen=True)


def check_siege(g: EttinState, p: int, command: Siege) -> None:
    head = spoils_head(g, p)
    if head is None or head[3] != "siege" or command.card not in head_options(g, p):
        raise RuleError(EttinReason.BAD_TARGET, f"{command.card} cannot be besieged now")


def run_siege(g: EttinState, p: int, command: Siege) -> None:
    g.emit("SiegeTokenPlaced", position=p, card=command.card)
    pop_task(g, sg.pair_of(g, p))


def spoils_done(g: EttinState) -> bool:
    return all(not w["tasks"] for w in g.work["pairs"])


# ------------------------------------------------------------ adventure defense


def placing(g: EttinState, p: int) -> bool:
    return g.phase == "adventure_defense" and bool(g.zones[zn.won(p)])


def check_place(g: EttinState, p: int, command: PlaceDefense) -> None:
    if command.card not in g.zones[zn.won(p)] or not 0 <= command.slot < zn.ADVENTURE:
        raise RuleError(EttinReason.BAD_SLOT, "place a Defense you won at Location 0, 1 or 2")


def run_place(g: EttinState, p: int, command: PlaceDefense) -> None:
    zn.moved(g, "AdventureDefensePlaced", zn.won(p), zn.loc(p, command.slot), [command.card], p,
            slot=command.slot)


def legal_place(g: EttinState, p: int) -> list[Command]:
    return [PlaceDefense(c, s) for c in sorted(g.zones[zn.won(p)]) for s in range(zn.ADVENTURE)]


# ---------------------------------------------------------------------- retire


def open_adventure_defense(g: EttinState) -> None:
    """The Adventure's winners place the Defense they won (if any): rules
    "1"-"3" record it beginning; rules "4" entered it with the Spoils' last fact."""
    if TURNS_RECORDED in g.earlier:
        g.emit("AdventureDefenseBegan")


def defense_placed(g: EttinState) -> bool:
    """Every Defense won on an Adventure is placed (the Adventure Defense is over)."""
    return not any(g.zones[zn.won(p)] for p in range(sg.positions(g)))


def open_retire(g: EttinState) -> None:
    """Rules "1"-"3" record the Retire beginning; rules "4" entered it with the
    Adventure Defense's last fact."""
    if TURNS_RECORDED in g.earlier:
        g.emit("RetireBegan")


def retired(g: EttinState) -> bool:
    """Nothing is left deployed nor on an Adventure: the Retire is over."""
    return not any(g.zones[zn.field(p, slot)] for p in range(sg.positions(g))
                   for slot in range(zn.SLOTS)) and \
        not any(g.zones[zn.adventure(i)] for i in range(len(g.pairs)))


def retire(g: EttinState) -> bool:
    """Every deployed card retires (the flow's automatic step of the Retire);
    True when something was recorded, nothing once all have."""
    if retired(g):
        return False
    for p in range(sg.positions(g)):
        for slot in range(zn.SLOTS):
            for card in list(g.zones[zn.field(p, slot)]):
                u = cd.unit(card)
                source = zn.field(p, slot)
                if not u.troop and slot < zn.ADVENTURE:
                    zn.moved(g, "DefenseStays", source, zn.loc(p, slot), [card], p)
                    continue
                if cd.has_keyword([card], "return_to_self"):
                    zn.moved(g, "ReturnedToSelf", source, zn.camp(p), [card], p)
                    continue
                if cd.has_keyword([card], "return_to_ally"):
                    zn.moved(g, "ReturnedToAlly", source, zn.camp(sg.benefit_to_ally(g, p)),
                            [card], p)
                    continue
                zn.moved(g, "Retired", source, zn.retired(p), [card], p)
                for ability in u.abilities:
                    if ability.keyword in ("wealthy", "war_cry"):
                        war.apply_gain(g, p, ability, "retire", card)
    for i in range(len(g.pairs)):
        zn.moved(g, "AdventureDiscarded", zn.adventure(i), zn.LOST,
                list(g.zones[zn.adventure(i)]), pair=i)
    return True


# --------------------------------------------------------------------- produce


#: The Produce abilities that pay at once; the others are optional, asked one at a time.
PAYING = ("taxes", "prosperous")


def produce_abilities(g: EttinState, p: int) -> list[tuple[Ability, int | None, int]]:
    """``p``'s Produce abilities in order, each with its card (None: a defended
    Location's) and its source (the card, or the Location's slot): those of the
    Defenses without a Siege Token, then of the Location they defend."""
    mat = C.nation(g.nations[p])
    out: list[tuple[Ability, int | None, int]] = []
    for slot in range(zn.ADVENTURE):
        defenses = g.zones[zn.loc(p, slot)]
        for card in sorted(defenses):
            if card not in g.sieges:
                out += [(a, card, card) for a in cd.unit(card).abilities
                        if a.keyword in (*PAYING, "gate_to_self", "gate_to_ally")]
        if defenses:
            out.append((mat.locations[slot].ability, None, slot))
    return out


def produce_queues(g: EttinState) -> dict[str, list[list[Any]]]:
    """The optional Produce abilities each position is asked about, in order."""
    queues = {str(p): [[a.keyword, source] for a, _card, source in produce_abilities(g, p)
                       if a.keyword not in PAYING] for p in range(sg.positions(g))}
    return {p: queue for p, queue in queues.items() if queue}


def pay_produce(g: EttinState) -> bool:
    """Taxes and Prosperous pay at once; True when something was recorded."""
    before = list(g.gold)  # a payment is recorded only when it changes some gold
    for p in range(sg.positions(g)):
        for ability, card, _source in produce_abilities(g, p):
            if ability.keyword in PAYING:
                war.apply_gain(g, p, ability, "produce", card)
    return g.gold != before


def open_produce(g: EttinState) -> None:
    """Rules "1"-"3": the paying abilities pay, then the optional ones are
    recorded (``ProduceBegan``). Rules "4" entered the Produce with the
    Retire's last fact and pay in its first step (``step_produce``)."""
    if TURNS_RECORDED in g.earlier:
        pay_produce(g)
        g.emit("ProduceBegan", optional=[
            {"position": int(p), "ability": keyword, "source": source}
            for p, queue in produce_queues(g).items() for keyword, source in queue])


def produce_head(g: EttinState, p: int) -> list[Any] | None:
    if g.phase != "produce":
        return None
    queue = g.work["queues"].get(str(p))
    return list(queue[0]) if queue else None


def gate_options(g: EttinState, p: int) -> list[int]:
    return sorted(c for c in g.zones[zn.retired(p)] if cd.is_unit(c) and cd.unit(c).troop)


def usable(g: EttinState, p: int, head: list[Any]) -> bool:
    if head[0].startswith("gate"):
        return bool(gate_options(g, p))
    return True


def step_produce(g: EttinState) -> bool:
    """Pay the paying abilities (rules "4": once, ``work``'s ``paid``), then pass
    over each optional ability that cannot be used; True when something was
    recorded."""
    if TURNS_RECORDED not in g.earlier and not g.work.get("paid") and pay_produce(g):
        return True
    progressed = False
    for key in sorted(g.work["queues"], key=int):
        p = int(key)
        head = produce_head(g, p)
        while head is not None and not usable(g, p, head):
            pop_produce(g, p)
            progressed = True
            head = produce_head(g, p)
    return progressed


def pop_produce(g: EttinState, p: int, used: bool = False) -> None:
    """``p``'s optional Produce ability at the head of its list is answered
    (``used``, or not; passed over when it cannot be used)."""
    keyword, source = g.work["queues"][str(p)][0]
    g.emit("ProduceAnswered", position=p, ability=keyword, source=source, used=used)


def check_produce(g: EttinState, p: int, command: Produce) -> None:
    head = produce_head(g, p)
    assert head is not None
    if command.use and head[0].startswith("gate") and command.card not in gate_options(g, p):
        raise RuleError(EttinReason.BAD_CHOICE, "a Gate moves a Troop of your Retired Pile")
    if command.card and not (command.use and head[0].startswith("gate")):
        raise RuleError(EttinReason.BAD_CHOICE, f"{head[0]} takes no card")


def run_produce(g: EttinState, p: int, command: Produce) -> None:
    keyword, _source = produce_head(g, p) or ["", 0]
    if command.use:
        if keyword == "gate_to_self":
            zn.moved(g, "GateUsed", zn.retired(p), zn.camp(p), [command.card], p, ability=keyword)
        elif keyword == "gate_to_ally":
            zn.moved(g, "GateUsed", zn.retired(p), zn.camp(sg.benefit_to_ally(g, p)),
                    [command.card], p, ability=keyword)
        else:
            war.apply_gain(g, p, Ability(keyword, keyword), "produce")
    pop_produce(g, p, command.use)


def legal_produce(g: EttinState, p: int) -> list[Command]:
    head = produce_head(g, p)
    assert head is not None
    if head[0].startswith("gate"):
        return [*(Produce(True, c) for c in gate_options(g, p)), Produce(False, 0)]
    return [Produce(True, 0), Produce(False, 0)]


def produce_done(g: EttinState) -> bool:
    return not g.work["queues"]


# ----------------------------------------------------------------- the War won


def end_war(g: EttinState) -> list[list[int]]:
    """Decide every pair's War; returns the initiative choosers (the losers)."""
    choosers: list[list[int]] = []
    summary = []
    for i, (a, b) in enumerate(g.pairs):
        wins = {a: 0, b: 0}
        adventure_winner = None
        for result in g.results[i]:
            if result["result"] == "win":
                wins[result["winner"]] += 1
                if result["slot"] == zn.ADVENTURE:
                    adventure_winner = result["winner"]
        winner = (a if wins[a] > wins[b] else b) if wins[a] != wins[b] else adventure_winner
        if winner is None:
            summary.append({"pair": i, "winner": None, "wins": [wins[a], wins[b]]})
            zn.gains(g, "TiedWarGold", {a: C.age_gold[g.age - 1], b: C.age_gold[g.age - 1]},
                    pair=i)
            continue
        loser = b if winner == a else a
        summary.append({"pair": i, "winner": winner, "wins": [wins[a], wins[b]]})
        zn.draw_nation(g, loser, 1, zn.camp(loser), "LoserDrew", "war lost")
        choosers.append([i, loser])
    g.emit("AgeEnded", age=g.age, wars=summary)
    return choosers


def spoil_count(g: EttinState, taker: int, slot: int, result: str) -> int:
    """Spoils: the Age number for a win, one for a tie, plus Vicious."""
    base = g.age if result == "win" else 1
    return base + C.book.modifier("spoils", {"result": result},
                                  cd.in_force(war.units_at(g, taker, slot)))


def spoil_options(g: EttinState, taker: int, slot: int) -> list[int]:
    """The Enemy units ``taker`` may take now: Stealth needs Magic, Flying needs
    Ranged or Flying, Troops before Defenses unless Conquest. 0 stands for the
    top of the Enemy's Nation Deck when the Enemy has no units there."""
    foe = sg.enemy(g, taker)
    mine = war.units_at(g, taker, slot)
    theirs = war.units_at(g, foe, slot)
    if not theirs:
        return [0] if g.zones[zn.nation_deck(g, foe)] else []
    ok = []
    for card in theirs:
        if cd.has_keyword([card], "stealth") and not cd.has_keyword(mine, "magic"):
            continue
        if cd.has_keyword([card], "flying") and not (cd.has_keyword(mine, "ranged")
                                                     or cd.has_keyword(mine, "flying")):
            continue
        ok.append(card)
    if cd.has_keyword(mine, "conquest"):
        return sorted(ok)
    troops = [c for c in ok if cd.unit(c).troop]
    if troops:
        return sorted(troops)
    if any(cd.unit(c).troop for c in theirs):
        return []  # Troops remain that may not be taken: Defenses stay behind them
    return sorted(ok)


def siege_options(g: EttinState, taker: int) -> list[int]:
    foe = sg.enemy(g, taker)
    cards = [c for s in range(zn.ADVENTURE) for c in war.units_at(g, foe, s)]
    return sorted(c for c in cards if not cd.unit(c).troop and c not in g.sieges)
