"""Phase 3: War — Deploy, the four Battles (start-of-battle abilities, Battle
Scores, Swift, Protected, No Battle) and the Adventure.

- Deploy: the Initiative holder places one War Camp card face down, then the
  Enemies alternate two at a time until both have placed all. A card is
  placed one command at a time (so the legal list stays small: cards x 4
  slots, instead of the 4^n of whole deployments); Scouting reveals the card
  and every Enemy unit at the chosen Enemy Location (one of the three on the
  mat: the rulebook's "Location", not the Adventure).
- Battle: all deployed cards flip; per pair the battles run farthest
  Location first, then the Adventure. Start-of-battle targets are chosen by
  the Initiative holder first, then the Enemy, and resolve together.
- Adventure: the winner of the Adventure battle with an Adventure Score > 0
  attempts it against base difficulty + the Adventure Die (rolled and
  recorded). Success: gold, effect, and the card to the Retired Pile or, if it
  becomes a Defense, set aside; failure: one Troop with Adventure Strength is Lost.
"""

from __future__ import annotations

from typing import Any

from aggregates.ettin import cards as cd
from aggregates.ettin import seating as sg
from aggregates.ettin import zones as zn
from aggregates.ettin.commands import Deploy, Lose, Target
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.data import Ability
from aggregates.ettin.reasons import EttinReason
from aggregates.ettin.state import STEPS_RECORDED, TURNS_RECORDED, EttinState
from aggregates.kernel import Command, RuleError

START_OF_BATTLE = ("terrify", "dragonslayer", "ranged")

# --------------------------------------------------------------------- deploy


def deploy_turns(g: EttinState) -> list[dict[str, int]]:
    """Each pair's first deploy: the Initiative holder places one card (or, with
    an empty War Camp, its Enemy two)."""
    pairs = []
    for i, (a, b) in enumerate(g.pairs):
        first = g.initiative[i]
        other = b if first == a else a
        pairs.append(next_turn(g, first, other, 1))
    return pairs


def open_deploy(g: EttinState) -> None:
    """Rules "1"-"3" record the first turns (``DeployBegan``); rules "4" entered
    the deploy with the draft's last fact (``apply.enter_steps``)."""
    if TURNS_RECORDED in g.earlier:
        g.emit("DeployBegan", turns=[turn_fact(i, w) for i, w in enumerate(deploy_turns(g))])


def turn_fact(i: int, w: dict[str, int]) -> dict[str, int | None]:
    """Whose deploy it is in the pair ``i`` and how many cards they place now."""
    return {"pair": i, "position": w["turn"] if w["turn"] >= 0 else None,
            "deploys": w["left"]}


def after_deploy(g: EttinState, p: int) -> dict[str, int]:
    """The pair's turn once ``p`` has placed a card: theirs while cards are left
    to place now, else the Enemy's (two at a time), else done."""
    turn = dict(g.work["pairs"][sg.pair_of(g, p)])
    turn["left"] -= 1
    if turn["left"] <= 0 or not g.zones[zn.camp(p)]:
        turn = next_turn(g, sg.enemy(g, p), p, 2)
    return turn


def next_turn(g: EttinState, first: int, other: int, left: int) -> dict[str, int]:
    if g.zones[zn.camp(first)]:
        return {"turn": first, "left": min(left, len(g.zones[zn.camp(first)]))}
    if g.zones[zn.camp(other)]:
        return {"turn": other, "left": min(2, len(g.zones[zn.camp(other)]))}
    return {"turn": -1, "left": 0}


def deploying(g: EttinState, p: int) -> bool:
    return g.phase == "deploy" and g.work["pairs"][sg.pair_of(g, p)]["turn"] == p


def check_deploy(g: EttinState, p: int, command: Deploy) -> None:
    if command.card not in g.zones[zn.camp(p)]:
        raise RuleError(EttinReason.NOT_IN_CAMP, f"card {command.card} is not in your War Camp")
    if not 0 <= command.slot < zn.SLOTS:
        raise RuleError(EttinReason.BAD_SLOT, "slots are 0-2 (Locations) and 3 (the Adventure)")
    if command.scout and (not cd.has_keyword([command.card], "scouting")
                          or not 0 < command.scout <= zn.ADVENTURE):
        raise RuleError(EttinReason.NO_SCOUTING,
                        "only a Scouting unit scouts, an Enemy Location 1-3 (slot + 1)")


def run_deploy(g: EttinState, p: int, command: Deploy) -> None:
    zn.moved(g, "Deployed", zn.camp(p), zn.field(p, command.slot), [command.card], p,
            slot=command.slot, scouting=command.scout)
    if command.scout:
        foe = sg.enemy(g, p)
        slot = command.scout - 1
        seen = [command.card] + list(g.zones[zn.field(foe, slot)])
        g.emit("Scouted", position=p, enemy=foe, slot=slot, cards=seen)
    if TURNS_RECORDED in g.earlier:  # rules "4": the Deployed's apply moves the turn
        turn = after_deploy(g, p)  # the card has left the War Camp
        g.emit("DeployPassed", pair=sg.pair_of(g, p),
               position=turn["turn"] if turn["turn"] >= 0 else None, deploys=turn["left"])


def legal_deploy(g: EttinState, p: int) -> list[Command]:
    out: list[Command] = []
    for card in sorted(g.zones[zn.camp(p)]):
        scouts = [0] + (list(range(1, zn.ADVENTURE + 1)) if cd.has_keyword([card], "scouting")
                        else [])
        out += [Deploy(card, s, sc) for s in range(zn.SLOTS) for sc in scouts]
    return out


def deploy_done(g: EttinState) -> bool:
    return all(w["turn"] < 0 for w in g.work["pairs"])


# --------------------------------------------------------------------- battles


def open_battles(g: EttinState) -> None:
    reveal = {str(p): {str(s): list(g.zones[zn.field(p, s)]) for s in range(zn.SLOTS)}
              for p in range(sg.positions(g))}
    g.emit("CardsFlipped", cards=reveal)


def abilities_queue(g: EttinState, i: int, slot: int) -> list[list[Any]]:
    first = g.initiative[i]
    a, b = g.pairs[i]
    other = b if first == a else a
    queue = []
    for p in (first, other):
        for card in sorted(units_at(g, p, slot)):
            for ability in cd.unit(card).abilities:
                if ability.keyword in START_OF_BATTLE:
                    queue.append([p, card, ability.keyword])
    return queue


def targets(g: EttinState, p: int, card: int, keyword: str, slot: int) -> list[int]:
    theirs = units_at(g, sg.enemy(g, p), slot)
    if keyword == "terrify":
        return sorted(theirs)
    if keyword == "dragonslayer":
        return sorted(c for c in theirs if cd.unit(c).dragon)
    strength = cd.unit(card).strength
    return sorted(c for c in theirs if cd.unit(c).troop and cd.unit(c).strength <= strength)


def slot_of(g: EttinState, i: int) -> int:
    return zn.BATTLE_ORDER[g.work["pairs"][i]["b"]]


def waiting(g: EttinState, i: int) -> list[list[Any]] | None:
    """The pair ``i``'s start-of-battle abilities still to be targeted in its
    current battle, Initiative holder first (None: no battle is being fought).

    Rules "3" derive them: the battle's abilities in order, less those whose
    target was chosen (``TargetChosen``, in the order chosen) and those before
    the next choice that have no target (passed over; nothing moves before
    they all resolve together, so a target found now was there when the
    battle began). Earlier rules recorded the queue (``BattleStep``) and read
    it as recorded.

    Between the ``StartOfBattleRemoved`` events of one resolution (a version
    inside one command, which only time travel reads) a chosen ability's unit
    may have left the slot already: the abilities are resolving, and none is
    left to target.
    """
    w = g.work["pairs"][i]
    if STEPS_RECORDED in g.earlier or w["queue"] is not None:
        return w["queue"]
    if w["b"] >= len(zn.BATTLE_ORDER):
        return None
    slot = slot_of(g, i)
    queue = abilities_queue(g, i, slot)
    at = 0
    for p, card, keyword, _target in w["chosen"]:
        while at < len(queue) and queue[at] != [p, card, keyword]:
            at += 1  # passed over: it had no target
        if at == len(queue):
            return []  # resolving: the removals have begun
        at += 1
    rest = queue[at:]
    while rest and not targets(g, rest[0][0], rest[0][1], rest[0][2], slot):
        rest = rest[1:]
    return rest


def targeting(g: EttinState, p: int) -> list[Any] | None:
    if g.phase != "battle":
        return None
    i = sg.pair_of(g, p)
    if g.work["pairs"][i]["lose"] == p:
        return None
    queue = waiting(g, i)
    if queue and queue[0][0] == p:
        return list(queue[0])
    return None


def check_target(g: EttinState, p: int, command: Target) -> None:
    head = targeting(g, p)
    assert head is not None
    _, card, keyword = head
    if command.unit != card:
        raise RuleError(EttinReason.BAD_TARGET,
                        f"choose the target of {cd.name(card)}'s {keyword} first")
    slot = slot_of(g, sg.pair_of(g, p))
    if command.target == 0 and keyword == "ranged":
        return
    if command.target not in targets(g, p, card, keyword, slot):
        raise RuleError(EttinReason.BAD_TARGET, f"{command.target} is not a {keyword} target")


def run_target(g: EttinState, p: int, command: Target) -> None:
    head = targeting(g, p)
    assert head is not None
    g.emit("TargetChosen", position=p, unit=command.unit, target=command.target,
           keyword=head[2])


def legal_target(g: EttinState, p: int) -> list[Command]:
    head = targeting(g, p)
    assert head is not None
    _, card, keyword = head
    slot = slot_of(g, sg.pair_of(g, p))
    out: list[Command] = [Target(card, c) for c in targets(g, p, card, keyword, slot)]
    if keyword == "ranged":
        out.append(Target(card, 0))
    return out


def battle_step(g: EttinState, i: int, slot: int, step: str, position: int | None = None,
                unit: int | None = None, keyword: str | None = None) -> None:
    """Earlier rules ("1", "2") only: record a step of the pair ``i``'s current
    battle that needs no choice: ``abilities`` (its start-of-battle abilities
    line up, Initiative holder first), ``no target`` (``unit``'s ``keyword``
    has none and is passed), ``to lose`` (``position`` must choose the Troop
    Lost on the Adventure) or ``lost`` (it has). Rules "3" record none of
    these: they are the engine's progress, which ``waiting`` and the
    Adventure's events give."""
    if STEPS_RECORDED in g.earlier:
        g.emit("BattleStep", pair=i, slot=slot, step=step, position=position,
               unit=unit, keyword=keyword)


def step_battles(g: EttinState) -> bool:
    """Run every pair's battles as far as they go without a decision; True
    when something was recorded."""
    progressed = False
    for i in range(len(g.pairs)):
        while True:
            w = g.work["pairs"][i]
            if w["b"] >= len(zn.BATTLE_ORDER) or w["lose"] >= 0:
                break
            slot = slot_of(g, i)
            if STEPS_RECORDED not in g.earlier:
                if waiting(g, i):
                    break  # a decision: the head's owner chooses its target
                resolve_start(g, i, slot, w["chosen"])
                fight(g, i, slot)
                if g.phase != "battle":
                    return True  # rules "4": the last battle's facts entered the Spoils
                progressed = True
                continue
            if w["queue"] is None:
                battle_step(g, i, slot, "abilities")
                progressed = True
                continue
            if w["queue"]:
                p, card, keyword = w["queue"][0]
                if targets(g, p, card, keyword, slot):
                    break  # a decision: the head's owner chooses its target
                battle_step(g, i, slot, "no target", p, card, keyword)
                progressed = True
                continue
            resolve_start(g, i, slot, w["chosen"])
            fight(g, i, slot)
            progressed = True
    return progressed


def resolve_start(g: EttinState, i: int, slot: int, chosen: list[list[Any]]) -> None:
    """All start-of-battle abilities resolve together: each target goes where its
    ability sends it (the first choice of a card wins); a Ranged unit used goes
    to its owner's Retired Pile unless it is itself a target."""
    dest: dict[int, str] = {}
    for p, _card, keyword, target in chosen:
        if not target:
            continue
        foe = sg.enemy(g, p)
        dest.setdefault(target, zn.retired(foe if keyword == "terrify" else p))
    for p, card, keyword, target in chosen:
        if keyword == "ranged" and target:
            dest.setdefault(card, zn.retired(p))
    for card, target in sorted(dest.items()):
        source = zn.where(g, card)
        if source.startswith(("field:", "loc:")):
            zn.moved(g, "StartOfBattleRemoved", source, target, [card], pair=i, slot=slot)


def fight(g: EttinState, i: int, slot: int) -> None:
    result = battle_result(g, g.pairs[i], slot)
    g.emit("BattleResolved", pair=i, slot=slot, scores=result["scores"],
           result=result["result"], winner=result["winner"], why=result.get("why"))
    if slot == zn.ADVENTURE and result["result"] == "win":
        attempt(g, i, result["winner"])


def adventure_score(g: EttinState, p: int) -> int:
    return sum(cd.unit(c).adventure for c in g.zones[zn.field(p, zn.ADVENTURE)] if cd.unit(c).troop)


def attempts(g: EttinState, i: int, p: int) -> bool:
    """The winner ``p`` of the pair ``i``'s Adventure battle attempts its
    Adventure: one is there, and ``p`` has Adventure Strength in the battle."""
    return bool(g.zones[zn.adventure(i)]) and adventure_score(g, p) > 0


def attempt_due(g: EttinState, i: int) -> bool:
    """The pair ``i``'s Adventure battle is won and its Adventure not yet
    attempted, or attempted and not over: the battle's end comes after a
    failed attempt (noted in the pair's work) or after the completed
    Adventure's card has left (``AdventureCompleted``, its last fact)."""
    w = g.work["pairs"][i]
    won = [r["winner"] for r in g.results[i] if r["slot"] == zn.ADVENTURE and
           r["result"] == "win"]
    return not w.get("attempted") and bool(won) and attempts(g, i, won[0])


def attempt(g: EttinState, i: int, p: int) -> None:
    if not attempts(g, i, p):
        return
    cards = g.zones[zn.adventure(i)]
    score = adventure_score(g, p)
    card = cards[0]
    adv = C.adventure(card)
    face = C.die[g.roll(len(C.die)) - 1]
    difficulty = adv.difficulty + face
    success = score >= difficulty
    g.emit("AdventureAttempted", pair=i, position=p, adventure=card, score=score, die=face,
           difficulty=difficulty, success=success)
    if success:
        zn.gains(g, "AdventureReward", {p: adv.gold}, position=p)
        if adv.effect is not None:
            apply_gain(g, p, adv.effect, "adventure")
        zn.moved(g, "AdventureCompleted", zn.adventure(i),
                zn.won(p) if adv.defense else zn.retired(p), [card], p, pair=i)
        return
    lost = sorted(c for c in g.zones[zn.field(p, zn.ADVENTURE)]
                  if cd.unit(c).troop and cd.unit(c).adventure)
    if len(lost) == 1:
        zn.moved(g, "AdventurerLost", zn.field(p, zn.ADVENTURE), zn.LOST, lost, p)
    elif lost:
        battle_step(g, i, zn.ADVENTURE, "to lose", p)


def losing(g: EttinState, p: int) -> bool:
    return g.phase == "battle" and g.work["pairs"][sg.pair_of(g, p)]["lose"] == p


def lose_options(g: EttinState, p: int) -> list[int]:
    return sorted(c for c in g.zones[zn.field(p, zn.ADVENTURE)]
                  if cd.unit(c).troop and cd.unit(c).adventure)


def check_lose(g: EttinState, p: int, command: Lose) -> None:
    if command.card not in lose_options(g, p):
        raise RuleError(EttinReason.BAD_CHOICE, "choose one of your adventuring Troops")


def run_lose(g: EttinState, p: int, command: Lose) -> None:
    zn.moved(g, "AdventurerLost", zn.field(p, zn.ADVENTURE), zn.LOST, [command.card], p)
    battle_step(g, sg.pair_of(g, p), zn.ADVENTURE, "lost", p)


def legal_lose(g: EttinState, p: int) -> list[Command]:
    return [Lose(c) for c in lose_options(g, p)]


def battles_done(g: EttinState) -> bool:
    return all(w["b"] >= len(zn.BATTLE_ORDER) and w["lose"] < 0 for w in g.work["pairs"])


def units_at(g: EttinState, p: int, slot: int) -> list[int]:
    """``p``'s units in the battle at ``slot``: deployed there, and the Defenses
    under that Location."""
    cards = list(g.zones[zn.field(p, slot)])
    if slot < zn.ADVENTURE:
        cards += g.zones[zn.loc(p, slot)]
    return cards


def location_defense(g: EttinState, p: int, slot: int) -> int:
    if slot >= zn.ADVENTURE:
        return 0
    return C.nation(g.nations[p]).locations[slot].defense


def battle_score(g: EttinState, p: int, slot: int) -> int:
    return sum(cd.unit(c).strength for c in units_at(g, p, slot)) + location_defense(g, p, slot)


def unprotected_against(g: EttinState, defender: int, attacker: int, slot: int) -> bool:
    """True when ``defender`` has a Protected Defense in the battle whose parapet
    abilities none of the attacker's units there have: it cannot be attacked."""
    attackers = units_at(g, attacker, slot)
    for card in units_at(g, defender, slot):
        shield = cd.unit(card).ability("protected")
        if shield is not None and not any(cd.has_keyword(attackers, w) for w in shield.weak_to):
            return True
    return False


def battle_result(g: EttinState, pair: list[int], slot: int) -> dict[str, Any]:
    """The result of one battle: win (with its winner), tie, or none."""
    a, b = pair
    ua, ub = units_at(g, a, slot), units_at(g, b, slot)
    scores = [battle_score(g, a, slot), battle_score(g, b, slot)]
    base = {"slot": slot, "scores": scores}
    if not any(cd.unit(c).troop for c in ua + ub):
        return {**base, "result": "none", "winner": None, "why": "no troops"}
    if scores[0] != scores[1]:
        winner, loser = (a, b) if scores[0] > scores[1] else (b, a)
        if unprotected_against(g, loser, winner, slot):
            return {**base, "result": "none", "winner": None, "why": "protected"}
        return {**base, "result": "win", "winner": winner}
    if unprotected_against(g, a, b, slot) or unprotected_against(g, b, a, slot):
        return {**base, "result": "none", "winner": None, "why": "protected"}
    swift = [sum(cd.unit(c).swift_icons() for c in ua), sum(cd.unit(c).swift_icons() for c in ub)]
    if swift[0] != swift[1]:
        return {**base, "result": "win", "winner": a if swift[0] > swift[1] else b,
                "why": "swift"}
    return {**base, "result": "tie", "winner": None}


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
            other = sg.benefit_to_ally(g, p)
            deltas[other] = deltas.get(other, 0) + ability.amount
        if by == "retire":
            zn.gained(g, "Wealthy", p, ability.amount, card=card)
        elif by == "produce":
            zn.gains(g, "Produced", deltas, ability=k, card=card)
        else:
            zn.gains(g, "AdventureReward", deltas, position=p)
        return
    kind = DRAWS.get((k, by), "AdventureEffect")
    if k in ("war_cry", "call_to_arms"):
        zn.draw_nation(g, p, 1, zn.camp(p), kind, k)
    elif k == "lost_souls":
        deck = zn.nation_deck(g, p)
        zn.moved(g, kind, deck, zn.LOST, g.zones[deck][:1], p)
