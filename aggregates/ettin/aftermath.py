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

from aggregates.ettin import rules as r
from aggregates.ettin import table as t
from aggregates.ettin.commands import EndSpoils, PlaceDefense, Produce, Siege, Spoil
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.data import Ability
from aggregates.ettin.reasons import EttinReason
from aggregates.kernel import Command, RuleError

# ---------------------------------------------------------------------- spoils


def open_spoils(g: Any) -> None:
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
                tasks.append([taker, slot, r.spoil_count(g, taker, slot, result["result"]),
                              "spoil"])
        for result in g.results[i]:
            if result["result"] in ("win", "tie"):
                for taker in ([result["winner"]] if result["result"] == "win"
                              else [first, other]):
                    sieges = sum(1 for c in r.units_at(g, taker, result["slot"])
                                 if r.unit(c).has("siege"))
                    tasks += [[taker, result["slot"], 1, "siege"]] * sieges
        pairs.append({"tasks": tasks})
    r.update(g, "spoils_opened", phase="spoils", work={"pairs": pairs})


def spoils_head(g: Any, p: int) -> list[Any] | None:
    if g.phase != "spoils":
        return None
    tasks = g.work["pairs"][r.pair_of(g, p)]["tasks"]
    return list(tasks[0]) if tasks and tasks[0][0] == p else None


def head_options(g: Any, p: int) -> list[int]:
    head = spoils_head(g, p)
    assert head is not None
    _, slot, _, kind = head
    return r.siege_options(g, p) if kind == "siege" else r.spoil_options(g, p, slot)


def pop_task(g: Any, i: int, spent: int | None = None) -> None:
    tasks = [list(x) for x in g.work["pairs"][i]["tasks"]]
    if spent is not None and tasks[0][2] - spent > 0:
        tasks[0][2] -= spent
    else:
        tasks = tasks[1:]
    pairs = list(g.work["pairs"])
    pairs[i] = {"tasks": tasks}
    r.update(g, "spoils_step", work={"pairs": pairs})


def step_spoils(g: Any) -> bool:
    progressed = False
    for i in range(len(g.pairs)):
        while g.work["pairs"][i]["tasks"]:
            taker, slot, _count, kind = g.work["pairs"][i]["tasks"][0]
            options = r.siege_options(g, taker) if kind == "siege" else \
                r.spoil_options(g, taker, slot)
            if options:
                break
            pop_task(g, i)
            progressed = True
    return progressed


def check_spoil(g: Any, p: int, command: Spoil) -> None:
    head = spoils_head(g, p)
    if head is None or head[3] != "spoil":
        raise RuleError(EttinReason.NOT_A_SPOIL, "no Spoil is yours to take now")
    if command.card not in head_options(g, p):
        raise RuleError(EttinReason.NOT_A_SPOIL,
                        f"{command.card} may not be taken now (Troops before Defenses, "
                        "Stealth, Flying)")


def run_spoil(g: Any, p: int, command: Spoil) -> None:
    foe = r.enemy(g, p)
    i = r.pair_of(g, p)
    if command.card == 0:
        deck = r.nation_deck(g, foe)
        top = g.zones[deck][:1]
        r.move(g, deck, t.retired(p), top, "spoil", p)
        pay_bounty(g, p, top)  # taken as a Spoil, from the deck too
        pop_task(g, i)  # a single Spoil from the deck
        return
    slot = g.work["pairs"][i]["tasks"][0][1]
    r.move(g, r.where(g, command.card), t.retired(p), [command.card], "spoil", p)
    pay_bounty(g, p, [command.card])
    if not r.units_at(g, foe, slot):
        pop_task(g, i)  # the Enemy's last unit: the deck is only for a Location left empty
        return
    pop_task(g, i, spent=1)


def pay_bounty(g: Any, p: int, cards: list[int]) -> None:
    for card in cards:
        bounty = r.unit(card).ability("bounty") if r.is_unit(card) else None
        if bounty is not None:
            r.gold(g, {p: bounty.amount}, "bounty")


def legal_spoil(g: Any, p: int) -> list[Command]:
    head = spoils_head(g, p)
    assert head is not None
    if head[3] == "siege":
        return [Siege(c) for c in head_options(g, p)]
    return [*(Spoil(c) for c in head_options(g, p)), EndSpoils()]


def check_end(g: Any, p: int, command: EndSpoils) -> None:
    head = spoils_head(g, p)
    if head is None or head[3] != "spoil":
        raise RuleError(EttinReason.NOT_A_SPOIL, "a Siege Token must be placed")


def run_end(g: Any, p: int, command: EndSpoils) -> None:
    pop_task(g, r.pair_of(g, p))


def check_siege(g: Any, p: int, command: Siege) -> None:
    head = spoils_head(g, p)
    if head is None or head[3] != "siege" or command.card not in head_options(g, p):
        raise RuleError(EttinReason.BAD_TARGET, f"{command.card} cannot be besieged now")


def run_siege(g: Any, p: int, command: Siege) -> None:
    r.update(g, "siege", {"position": p, "card": command.card},
             sieges=sorted([*g.sieges, command.card]))
    pop_task(g, r.pair_of(g, p))


def spoils_done(g: Any) -> bool:
    return all(not w["tasks"] for w in g.work["pairs"])


# ------------------------------------------------------------ adventure defense


def placing(g: Any, p: int) -> bool:
    return g.phase == "adventure_defense" and bool(g.zones[t.won(p)])


def check_place(g: Any, p: int, command: PlaceDefense) -> None:
    if command.card not in g.zones[t.won(p)] or not 0 <= command.slot < t.ADVENTURE:
        raise RuleError(EttinReason.BAD_SLOT, "place a Defense you won at Location 0, 1 or 2")


def run_place(g: Any, p: int, command: PlaceDefense) -> None:
    r.move(g, t.won(p), t.loc(p, command.slot), [command.card], "adventure defense", p)


def legal_place(g: Any, p: int) -> list[Command]:
    return [PlaceDefense(c, s) for c in sorted(g.zones[t.won(p)]) for s in range(t.ADVENTURE)]


# ---------------------------------------------------------------------- retire


def retire(g: Any) -> None:
    r.update(g, "retire", phase="retire", work={})
    for p in range(r.positions(g)):
        for slot in range(t.SLOTS):
            for card in list(g.zones[t.field(p, slot)]):
                u = r.unit(card)
                source = t.field(p, slot)
                if not u.troop and slot < t.ADVENTURE:
                    r.move(g, source, t.loc(p, slot), [card], "defense stays", p)
                    continue
                if u.has("return_to_self"):
                    r.move(g, source, t.camp(p), [card], "return to self", p)
                    continue
                if u.has("return_to_ally"):
                    r.move(g, source, t.camp(r.benefit_to_ally(g, p)), [card],
                           "return to ally", p)
                    continue
                r.move(g, source, t.retired(p), [card], "retired", p)
                for ability in u.abilities:
                    if ability.keyword in ("wealthy", "war_cry"):
                        r.apply_gain(g, p, ability, ability.keyword.replace("_", " "))
    for i in range(len(g.pairs)):
        r.move(g, t.adventure(i), t.LOST, list(g.zones[t.adventure(i)]), "adventure over")


# --------------------------------------------------------------------- produce


def open_produce(g: Any) -> None:
    queues: dict[str, list[list[Any]]] = {}
    for p in range(r.positions(g)):
        mat = C.nation(g.nations[p])
        queue: list[list[Any]] = []
        for slot in range(t.ADVENTURE):
            defenses = g.zones[t.loc(p, slot)]
            for card in sorted(defenses):
                if card in g.sieges:
                    continue
                for ability in r.unit(card).abilities:
                    if ability.keyword in ("taxes", "prosperous"):
                        r.apply_gain(g, p, ability, ability.keyword)
                    elif ability.keyword in ("gate_to_self", "gate_to_ally"):
                        queue.append([ability.keyword, card])
            if defenses:
                ability = mat.locations[slot].ability
                if ability.keyword in ("taxes", "prosperous"):
                    r.apply_gain(g, p, ability, ability.keyword)
                else:
                    queue.append([ability.keyword, slot])
        if queue:
            queues[str(p)] = queue
    r.update(g, "produce_opened", phase="produce", work={"queues": queues})


def produce_head(g: Any, p: int) -> list[Any] | None:
    if g.phase != "produce":
        return None
    queue = g.work["queues"].get(str(p))
    return list(queue[0]) if queue else None


def gate_options(g: Any, p: int) -> list[int]:
    return sorted(c for c in g.zones[t.retired(p)] if r.is_unit(c) and r.unit(c).troop)


def usable(g: Any, p: int, head: list[Any]) -> bool:
    if head[0].startswith("gate"):
        return bool(gate_options(g, p))
    return True


def step_produce(g: Any) -> bool:
    progressed = False
    for key in sorted(g.work["queues"], key=int):
        p = int(key)
        head = produce_head(g, p)
        while head is not None and not usable(g, p, head):
            pop_produce(g, p)
            progressed = True
            head = produce_head(g, p)
    return progressed


def pop_produce(g: Any, p: int) -> None:
    queues = {k: list(v) for k, v in g.work["queues"].items()}
    queues[str(p)] = queues[str(p)][1:]
    if not queues[str(p)]:
        del queues[str(p)]
    r.update(g, "produce_step", work={"queues": queues})


def check_produce(g: Any, p: int, command: Produce) -> None:
    head = produce_head(g, p)
    assert head is not None
    if command.use and head[0].startswith("gate") and command.card not in gate_options(g, p):
        raise RuleError(EttinReason.BAD_CHOICE, "a Gate moves a Troop of your Retired Pile")
    if command.card and not (command.use and head[0].startswith("gate")):
        raise RuleError(EttinReason.BAD_CHOICE, f"{head[0]} takes no card")


def run_produce(g: Any, p: int, command: Produce) -> None:
    keyword, _source = produce_head(g, p) or ["", 0]
    if command.use:
        if keyword == "gate_to_self":
            r.move(g, t.retired(p), t.camp(p), [command.card], "gate to self", p)
        elif keyword == "gate_to_ally":
            r.move(g, t.retired(p), t.camp(r.benefit_to_ally(g, p)), [command.card],
                   "gate to ally", p)
        else:
            r.apply_gain(g, p, Ability(keyword, keyword), keyword.replace("_", " "))
    pop_produce(g, p)


def legal_produce(g: Any, p: int) -> list[Command]:
    head = produce_head(g, p)
    assert head is not None
    if head[0].startswith("gate"):
        return [*(Produce(True, c) for c in gate_options(g, p)), Produce(False, 0)]
    return [Produce(True, 0), Produce(False, 0)]


def produce_done(g: Any) -> bool:
    return not g.work["queues"]


# ----------------------------------------------------------------- the War won


def end_war(g: Any) -> list[list[int]]:
    """Decide every pair's War; returns the initiative choosers (the losers)."""
    choosers: list[list[int]] = []
    tokens = [list(x) for x in g.tokens]
    initiative = list(g.initiative)
    summary = []
    for i, (a, b) in enumerate(g.pairs):
        wins = {a: 0, b: 0}
        adventure_winner = None
        for result in g.results[i]:
            if result["result"] == "win":
                wins[result["winner"]] += 1
                if result["slot"] == t.ADVENTURE:
                    adventure_winner = result["winner"]
        winner = (a if wins[a] > wins[b] else b) if wins[a] != wins[b] else adventure_winner
        if winner is None:
            summary.append({"pair": i, "winner": None, "wins": [wins[a], wins[b]]})
            initiative[i] = b if initiative[i] == a else a
            r.gold(g, {a: C.age_gold[g.age - 1], b: C.age_gold[g.age - 1]}, "tied war")
            continue
        loser = b if winner == a else a
        tokens[winner].append(g.age)
        summary.append({"pair": i, "winner": winner, "wins": [wins[a], wins[b]]})
        r.draw_nation(g, loser, 1, t.camp(loser), "war lost")
        choosers.append([i, loser])
    r.update(g, "war", {"age": g.age, "wars": summary}, tokens=tokens, initiative=initiative,
             sieges=[], results=[[] for _ in g.pairs], flipped=False, shown=[])
    return choosers
