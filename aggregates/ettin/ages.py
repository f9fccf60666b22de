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

from aggregates.ettin import cards as cd
from aggregates.ettin import seating as sg
from aggregates.ettin import zones as zn
from aggregates.ettin.commands import Draft, Initiative, Recruit, Sell
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.reasons import EttinReason
from aggregates.ettin.state import STEPS_RECORDED, TURNS_RECORDED, EttinState
from aggregates.kernel import Command, RuleError

# ------------------------------------------------------------------ initiative


#: The Ages as the rulebook numbers them: Age I, II, III.
ROMAN = ("I", "II", "III")


def age_name(age: int) -> str:
    """``Age II``; Age 0 (before Phase 1 of the first Age) is the Setup."""
    return f"Age {ROMAN[age - 1]}" if 1 <= age <= len(ROMAN) else "Setup"



def open_initiative(g: EttinState) -> None:
    """Between each pair of Enemies, who chooses: the higher Initiative number
    (Setup); after a War, its loser (a tied War's pair has no choice). The
    phase is entered by the event before it (the creation's setup, the War's
    ``AgeEnded``); rules "1" and "2" recorded the choosers again."""
    if STEPS_RECORDED in g.earlier:
        choosers = first_choosers(g) if g.age == 0 else war_losers(g)
        g.emit("InitiativeChoices",
               choosers=[{"pair": i, "position": p} for i, p in choosers])


def after_initiative(g: EttinState) -> str:
    """A new Age follows the initiative, until the third Age is over."""
    return "over" if g.age >= 3 else "new_age"


def war_losers(g: EttinState) -> list[list[int]]:
    """[pair, loser] of each pair whose War of this Age was won: the winner
    holds this Age's War token."""
    out = []
    for i, (a, b) in enumerate(g.pairs):
        if g.age in g.tokens[a]:
            out.append([i, b])
        elif g.age in g.tokens[b]:
            out.append([i, a])
    return out


def after_war(g: EttinState) -> str:
    """After the War: the initiative for the next Age, or (the third) the end."""
    return "over" if g.age >= 3 else "initiative"


def first_choosers(g: EttinState) -> list[list[int]]:
    out = []
    for i, (a, b) in enumerate(g.pairs):
        ia = C.nation(g.nations[a]).initiative
        ib = C.nation(g.nations[b]).initiative
        out.append([i, a if ia > ib else b])
    return out


def chooser(g: EttinState, p: int) -> int | None:
    for i, pos in g.work.get("choosers", []):
        if pos == p:
            return int(i)
    return None


def run_initiative(g: EttinState, p: int, command: Initiative) -> None:
    i = chooser(g, p)
    assert i is not None
    holder = p if command.take else sg.enemy(g, p)
    g.emit("InitiativeTaken" if command.take else "InitiativeGiven",
           pair=i, chooser=p, holder=holder)


def legal_initiative(g: EttinState, p: int) -> list[Command]:
    return [Initiative(True), Initiative(False)]


# ------------------------------------------------------------------ new age


def new_age(g: EttinState) -> None:
    age = g.age + 1
    g.emit("AgeBegan", age=age)
    zn.gains(g, "AgeGold", {p: C.age_gold[age - 1] for p in range(sg.positions(g))})
    for i, holder in enumerate(g.initiative):
        deck = zn.adv_deck(sg.pair_box(g, i), age)
        zn.moved(g, "AdventureRevealed", deck, zn.adventure(i), g.zones[deck][:1], holder,
                pair=i, age=age)


def open_next_draft(g: EttinState) -> None:
    """The Age's next draft (a New Age leaves ``step`` at -1: its first)."""
    open_draft(g, g.step + 1)


def after_draft(g: EttinState) -> str:
    """Each Age drafts three times (its sequence), then goes to War."""
    return "draft" if g.step < 2 else "deploy"


def open_draft(g: EttinState, step: int) -> None:
    kind = C.sequence[g.age - 1][step]
    groups: list[dict[str, Any]] = []
    count = sg.positions(g)
    if kind == "skirmish":
        for i, (a, b) in enumerate(g.pairs):
            first = g.initiative[i]
            other = b if first == a else a
            groups.append({"members": [a, b], "order": [first, other, other, first],
                           "lineup": zn.lineup(i)})
    else:
        for i, members in enumerate(sg.ally_groups(count)):
            order = [members[0], members[0]] + ([members[1]] * 2 if len(members) > 1
                                                 else [])
            groups.append({"members": members, "order": order, "lineup": zn.lineup(i)})
    if STEPS_RECORDED in g.earlier:  # rules "1", "2": the order, then the lineups
        g.emit("DraftBegan", kind=kind, step=step, lineups=[
            {"lineup": gr["lineup"], "members": gr["members"], "order": gr["order"]}
            for gr in groups])
        deal_lineups(g, kind, groups)
        trim_orders(g)
        return
    deal_lineups(g, kind, groups)
    g.emit("DraftBegan", kind=kind, step=step, lineups=[
        {"lineup": gr["lineup"], "members": gr["members"], "order": drafting_order(g, gr)}
        for gr in groups])


def deal_lineups(g: EttinState, kind: str, groups: list[dict[str, Any]]) -> None:
    """Each group's Lineup: a pair's four mercenaries (Skirmish), or two cards of
    each member's Nation Deck (Peacetime; 2 players: and two mercenaries);
    Empty Decks pays gold for a card missing."""
    for i, gr in enumerate(groups):
        if kind == "skirmish":
            deck = zn.merc(sg.pair_box(g, i), g.age)
            cards = g.zones[deck][:4]
            zn.moved(g, "SkirmishLineupDealt", deck, gr["lineup"], cards)
            for p in gr["order"][len(cards):]:  # an empty mercenary deck: gold instead
                zn.gained(g, "EmptyDecksGold", p, C.age_gold[g.age - 1],
                         instead_of="skirmish lineup")
        else:
            for p in gr["members"]:
                zn.draw_nation(g, p, 2, gr["lineup"], "PeacetimeLineupDealt", "peacetime lineup")
            if len(gr["members"]) == 1:  # 2 players: two mercenaries join the lineup
                p = gr["members"][0]
                deck = zn.merc(sg.box(g, p), g.age)
                zn.moved(g, "PeacetimeLineupDealt", deck, gr["lineup"], g.zones[deck][:2], p)


def drafting_order(g: EttinState, gr: dict[str, Any]) -> list[int]:
    """A group's drafting order for its Lineup as dealt: one pick per card (Empty
    Decks may leave it short); 2 players' Peacetime: two picks, the other two
    cards Lost."""
    size = len(g.zones[gr["lineup"]])
    keep = 2 if len(gr["members"]) == 1 else size
    return list(gr["order"][: min(keep, size)])


def trim_orders(g: EttinState) -> None:
    """Rules "1", "2": a lineup short of cards (empty decks) shortens its
    drafting order, recorded as an event of its own."""
    groups = [{**gr, "order": drafting_order(g, gr)} if gr["at"] == 0 else gr
              for gr in g.work["groups"]]
    if any(new["order"] != old["order"] for new, old in zip(groups, g.work["groups"],
                                                             strict=True)):
        g.emit("DraftOrderShortened",
               lineups=[{"lineup": gr["lineup"], "order": gr["order"]} for gr in groups])


def group_of(g: EttinState, p: int) -> tuple[int, dict[str, Any]] | None:
    for i, gr in enumerate(g.work.get("groups", [])):
        if p in gr["members"]:
            return i, gr
    return None


def drafting(g: EttinState, p: int) -> bool:
    found = group_of(g, p)
    return found is not None and found[1]["at"] < len(found[1]["order"]) and \
        found[1]["order"][found[1]["at"]] == p


def deciding(g: EttinState, p: int) -> bool:
    found = group_of(g, p)
    return (found is not None and found[1]["at"] >= len(found[1]["order"])
            and bool(g.zones[zn.drafted(p)]))


def check_draft(g: EttinState, p: int, command: Draft) -> None:
    found = group_of(g, p)
    assert found is not None
    if command.card not in g.zones[found[1]["lineup"]]:
        raise RuleError(EttinReason.NOT_IN_LINEUP, f"card {command.card} is not in the lineup")


def run_draft(g: EttinState, p: int, command: Draft) -> None:
    found = group_of(g, p)
    assert found is not None
    _, gr = found
    zn.moved(g, "Drafted", gr["lineup"], zn.drafted(p), [command.card], p)
    at = gr["at"] + 1
    if TURNS_RECORDED in g.earlier:  # rules "1"-"3": the next drafter again
        g.emit("DraftPassed", lineup=gr["lineup"],
               to=gr["order"][at] if at < len(gr["order"]) else None)
    if at >= len(gr["order"]) and g.zones[gr["lineup"]]:
        zn.moved(g, "UndraftedLost", gr["lineup"], zn.LOST, list(g.zones[gr["lineup"]]))


def legal_draft(g: EttinState, p: int) -> list[Command]:
    found = group_of(g, p)
    assert found is not None
    return [Draft(c) for c in sorted(g.zones[found[1]["lineup"]])]


def check_recruit(g: EttinState, p: int, command: Recruit) -> None:
    if command.card not in g.zones[zn.drafted(p)]:
        raise RuleError(EttinReason.NOT_DRAFTED, f"card {command.card} was not drafted by you")
    cost = cd.unit(command.card).cost
    if cost > g.gold[p]:
        raise RuleError(EttinReason.CANNOT_AFFORD,
                        f"{cd.name(command.card)} costs {cost} gold; you have {g.gold[p]}")


def run_recruit(g: EttinState, p: int, command: Recruit) -> None:
    zn.gained(g, "RecruitPaid", p, -cd.unit(command.card).cost, card=command.card)
    zn.moved(g, "Recruited", zn.drafted(p), zn.camp(p), [command.card], p)


def check_sell(g: EttinState, p: int, command: Sell) -> None:
    if command.card not in g.zones[zn.drafted(p)]:
        raise RuleError(EttinReason.NOT_DRAFTED, f"card {command.card} was not drafted by you")


def run_sell(g: EttinState, p: int, command: Sell) -> None:
    zn.gained(g, "Sold", p, cd.unit(command.card).sell, card=command.card)
    zn.moved(g, "SoldCardLost", zn.drafted(p), zn.LOST, [command.card], p)


def legal_recruit_sell(g: EttinState, p: int) -> list[Command]:
    out: list[Command] = []
    for card in sorted(g.zones[zn.drafted(p)]):
        if cd.unit(card).cost <= g.gold[p]:
            out.append(Recruit(card))
        out.append(Sell(card))
    return out


def draft_done(g: EttinState) -> bool:
    return all(gr["at"] >= len(gr["order"]) and not any(
        g.zones[zn.drafted(p)] for p in gr["members"]) for gr in g.work["groups"])
