"""Setup's initiative, Phase 1: New Age, Phase 2: Skirmish and Peacetime.

- Initiative: between each pair of Enemies the higher Initiative number
  (after a War: the loser) takes the Initiative Token or gives it away.
- New Age: every position gains the Age's gold; the Enemy with the
  Initiative Token draws the Age's Adventure for the pair.
- Skirmish: per pair of Enemies, four mercenaries face up; the Initiative
  holder drafts first and fourth. Peacetime: per pair of Allies, two cards of
  each Nation Deck (2 players: two of your deck and two mercenaries, the two
  left go to the Lost Pile); the lower position of the alliance drafts its two
  first (Allies agree freely), then the other. Then each drafted card is
  recruited (pay its cost) or sold (gain its value at once), one at a time.
- Every pair plays at once; a group finishes on its own, the phase when all have.
"""

from __future__ import annotations

from typing import Any

from aggregates.ettin import rules as r
from aggregates.ettin import table as t
from aggregates.ettin.commands import Draft, Initiative, Recruit, Sell
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.reasons import EttinReason
from aggregates.kernel import Command, RuleError

# ------------------------------------------------------------------ initiative


def open_initiative(g: Any, choosers: list[list[int]]) -> None:
    r.update(g, "initiative_opened", phase="initiative", work={"choosers": choosers})


def first_choosers(g: Any) -> list[list[int]]:
    out = []
    for i, (a, b) in enumerate(g.pairs):
        ia = C.nation(g.nations[a]).initiative
        ib = C.nation(g.nations[b]).initiative
        out.append([i, a if ia > ib else b])
    return out


def chooser(g: Any, p: int) -> int | None:
    for i, pos in g.work.get("choosers", []):
        if pos == p:
            return int(i)
    return None


def run_initiative(g: Any, p: int, command: Initiative) -> None:
    i = chooser(g, p)
    assert i is not None
    holder = p if command.take else r.enemy(g, p)
    initiative = list(g.initiative)
    initiative[i] = holder
    work = {"choosers": [c for c in g.work["choosers"] if c[0] != i]}
    r.update(g, "initiative", {"pair": i, "holder": holder, "chooser": p},
             initiative=initiative, work=work)


def legal_initiative(g: Any, p: int) -> list[Command]:
    return [Initiative(True), Initiative(False)]


# ------------------------------------------------------------------ new age


def new_age(g: Any) -> None:
    age = g.age + 1
    r.update(g, "new_age", {"age": age}, age=age, step=-1, phase="new_age", work={})
    r.gold(g, {p: C.age_gold[age - 1] for p in range(r.positions(g))}, "new age")
    for i, holder in enumerate(g.initiative):
        deck = t.adv_deck(r.pair_box(g, i), age)
        r.move(g, deck, t.adventure(i), g.zones[deck][:1], "adventure", holder)
    open_draft(g, 0)


def open_draft(g: Any, step: int) -> None:
    kind = C.sequence[g.age - 1][step]
    groups: list[dict[str, Any]] = []
    count = r.positions(g)
    if kind == "skirmish":
        for i, (a, b) in enumerate(g.pairs):
            first = g.initiative[i]
            other = b if first == a else a
            groups.append({"members": [a, b], "order": [first, other, other, first],
                           "lineup": t.lineup(i)})
    else:
        for i, members in enumerate(t.ally_groups(count)):
            order = [members[0], members[0]] + ([members[1]] * 2 if len(members) > 1
                                                 else [])
            groups.append({"members": members, "order": order, "lineup": t.lineup(i)})
    r.update(g, "draft_opened", {"kind": kind}, step=step, phase="draft",
             work={"kind": kind, "groups": [{**gr, "at": 0} for gr in groups]})
    for i, gr in enumerate(groups):
        if kind == "skirmish":
            deck = t.merc(r.pair_box(g, i), g.age)
            cards = g.zones[deck][:4]
            r.move(g, deck, gr["lineup"], cards, "skirmish lineup")
            for p in gr["order"][len(cards):]:  # an empty mercenary deck: gold instead
                r.gold(g, {p: C.age_gold[g.age - 1]}, "empty decks")
        else:
            for p in gr["members"]:
                r.draw_nation(g, p, 2, gr["lineup"], "peacetime lineup")
            if len(gr["members"]) == 1:  # 2 players: two mercenaries join the lineup
                p = gr["members"][0]
                deck = t.merc(r.box(g, p), g.age)
                r.move(g, deck, gr["lineup"], g.zones[deck][:2], "peacetime lineup", p)
    trim_orders(g)


def trim_orders(g: Any) -> None:
    """A lineup short of cards (empty decks) shortens its drafting order."""
    work = g.work
    groups = []
    changed = False
    for gr in work["groups"]:
        size = len(g.zones[gr["lineup"]])
        keep = 2 if len(gr["members"]) == 1 else size
        order = gr["order"][: min(keep, size)] if gr["at"] == 0 else gr["order"]
        changed |= order != gr["order"]
        groups.append({**gr, "order": order})
    if changed:
        r.update(g, "draft_orders", work={**work, "groups": groups})


def group_of(g: Any, p: int) -> tuple[int, dict[str, Any]] | None:
    for i, gr in enumerate(g.work.get("groups", [])):
        if p in gr["members"]:
            return i, gr
    return None


def drafting(g: Any, p: int) -> bool:
    found = group_of(g, p)
    return found is not None and found[1]["at"] < len(found[1]["order"]) and \
        found[1]["order"][found[1]["at"]] == p


def deciding(g: Any, p: int) -> bool:
    found = group_of(g, p)
    return (found is not None and found[1]["at"] >= len(found[1]["order"])
            and bool(g.zones[t.drafted(p)]))


def check_draft(g: Any, p: int, command: Draft) -> None:
    found = group_of(g, p)
    assert found is not None
    if command.card not in g.zones[found[1]["lineup"]]:
        raise RuleError(EttinReason.NOT_IN_LINEUP, f"card {command.card} is not in the lineup")


def run_draft(g: Any, p: int, command: Draft) -> None:
    found = group_of(g, p)
    assert found is not None
    i, gr = found
    r.move(g, gr["lineup"], t.drafted(p), [command.card], "drafted", p)
    groups = list(g.work["groups"])
    groups[i] = {**gr, "at": gr["at"] + 1}
    r.update(g, "drafted", work={**g.work, "groups": groups})
    if groups[i]["at"] >= len(gr["order"]) and g.zones[gr["lineup"]]:
        r.move(g, gr["lineup"], t.LOST, list(g.zones[gr["lineup"]]), "undrafted")


def legal_draft(g: Any, p: int) -> list[Command]:
    found = group_of(g, p)
    assert found is not None
    return [Draft(c) for c in sorted(g.zones[found[1]["lineup"]])]


def check_recruit(g: Any, p: int, command: Recruit) -> None:
    if command.card not in g.zones[t.drafted(p)]:
        raise RuleError(EttinReason.NOT_DRAFTED, f"card {command.card} was not drafted by you")
    cost = r.unit(command.card).cost
    if cost > g.gold[p]:
        raise RuleError(EttinReason.CANNOT_AFFORD,
                        f"{r.name(command.card)} costs {cost} gold; you have {g.gold[p]}")


def run_recruit(g: Any, p: int, command: Recruit) -> None:
    r.gold(g, {p: -r.unit(command.card).cost}, "recruit")
    r.move(g, t.drafted(p), t.camp(p), [command.card], "recruited", p)


def check_sell(g: Any, p: int, command: Sell) -> None:
    if command.card not in g.zones[t.drafted(p)]:
        raise RuleError(EttinReason.NOT_DRAFTED, f"card {command.card} was not drafted by you")


def run_sell(g: Any, p: int, command: Sell) -> None:
    r.gold(g, {p: r.unit(command.card).sell}, "sell")
    r.move(g, t.drafted(p), t.LOST, [command.card], "sold", p)


def legal_recruit_sell(g: Any, p: int) -> list[Command]:
    out: list[Command] = []
    for card in sorted(g.zones[t.drafted(p)]):
        if r.unit(card).cost <= g.gold[p]:
            out.append(Recruit(card))
        out.append(Sell(card))
    return out


def draft_done(g: Any) -> bool:
    return all(gr["at"] >= len(gr["order"]) and not any(
        g.zones[t.drafted(p)] for p in gr["members"]) for gr in g.work["groups"])
