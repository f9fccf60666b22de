"""Ettin records of older releases, read as the events the rules record now.

- Issue 9, item 7: ``GoldChanged`` gained ``totals`` (the gold after). An old
  event alone cannot tell the gold before it, so they read as None.
- Issue 17, item 3: the release before recorded three patch-style types,
  ``Moved(source, target, cards, why, position)``, ``GoldChanged(deltas,
  totals, why)`` and ``Updated(what, changes, details)``. Each stored event
  now reads as the one rulebook fact the current rules record at that point
  (``aggregates.kernel.record.upcast.Retype``): its ``why``/``what`` names which,
  its payload (and, for a deploy, its command) supplies the facts. What an
  old event never stated is ``unrecorded`` (None; re-execution leaves it out
  of the comparison): which Lineup passed to whom after a pick, whose deploy
  or Spoil came next, which step a battle took, which Produce ability was
  answered, the card a gold change paid or sold for, the draw Empty Decks
  gold replaced. Loading such a game applies each stored event as that
  release applied it (its ``changes`` were the whole state change), since no
  evolve may guess a fact the record lacks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aggregates.kernel.record.upcast import Retype, Step, retype

Converted = tuple[str, dict[str, Any], tuple[str, ...]]


def _gold_changed(p: dict[str, Any]) -> None:
    """v2 adds ``totals``, the gold after; v1 stated only the deltas."""


TOTALS = Step(_gold_changed, added=("totals",), unrecorded=("totals",))

# ------------------------------------------------------------------- Moved

#: The event each old ``why`` of a card move is now.
MOVES = {
    "skirmish lineup": "SkirmishLineupDealt", "peacetime lineup": "PeacetimeLineupDealt",
    "drafted": "Drafted", "undrafted": "UndraftedLost", "recruited": "Recruited",
    "sold": "SoldCardLost", "deployed": "Deployed", "start of battle": "StartOfBattleRemoved",
    "adventure completed": "AdventureCompleted", "adventure failed": "AdventurerLost",
    "spoil": "SpoilTaken", "adventure defense": "AdventureDefensePlaced",
    "defense stays": "DefenseStays", "return to self": "ReturnedToSelf",
    "return to ally": "ReturnedToAlly", "retired": "Retired",
    "adventure over": "AdventureDiscarded", "gate to self": "GateUsed",
    "gate to ally": "GateUsed", "war lost": "LoserDrew", "war cry": "WarCry",
    "call to arms": "CallToArms", "lost souls": "LostSouls",
}


def _part(zone: str, index: int) -> int:
    return int(zone.split(":")[index])


def _moved(old: dict[str, Any], meta: Mapping[str, Any]) -> Converted:
    why, source, target = old["why"], old["source"], old["target"]
    if why == "adventure":
        kind = "AdventureRevealed" if source.startswith("adv:") else "AdventureEffect"
    else:
        kind = MOVES[why]
    new: dict[str, Any] = {"position": old.get("position"), "source": source,
                           "target": target}
    missing: tuple[str, ...] = ()
    if kind == "AdventureRevealed":
        new.update(pair=_part(target, 1), age=_part(source, 2))
    elif kind == "Deployed":
        new["slot"] = _part(target, 2)
        command = meta.get("cmd") or {}
        if command.get("name") == "deploy" and "scout" in command.get("args", {}):
            new["scouting"] = command["args"]["scout"]
        else:
            missing = ("scouting",)
    elif kind == "StartOfBattleRemoved":
        new.update(pair=None, slot=_part(source, 2))
        missing = ("pair",)
    elif kind in ("AdventureCompleted", "AdventureDiscarded"):
        new["pair"] = _part(source, 1)  # from the pair's Adventure
    elif kind == "SpoilTaken":
        from_deck = not source.startswith(("field:", "loc:"))
        new.update(from_deck=from_deck, slot=None if from_deck else _part(source, 2))
        missing = ("slot",) if from_deck else ()
    elif kind == "AdventureDefensePlaced":
        new["slot"] = _part(target, 2)
    elif kind == "GateUsed":
        new["ability"] = why.replace(" ", "_")
    if "cards" in old:
        new["cards"] = old["cards"]
    else:  # the public form: a count instead of the cards
        new["count"] = old["count"]
    return kind, new, missing


def _apply_moved(game: Any, old: dict[str, Any]) -> None:
    for card in old["cards"]:
        game.zones[old["source"]].remove(card)
        game.zones[old["target"]].append(card)


# ------------------------------------------------------------- GoldChanged

#: Old ``why`` -> (event, its facts the old one lacks) for one position's gold.
ONE_GOLD = {"empty decks": ("EmptyDecksGold", "instead_of"), "recruit": ("RecruitPaid", "card"),
            "sell": ("Sold", "card"), "bounty": ("BountyPaid", "card"),
            "wealthy": ("Wealthy", "card")}


def _gold(old: dict[str, Any], meta: Mapping[str, Any]) -> Converted:
    why, deltas, totals = old["why"], old["deltas"], old.get("totals")
    missing: list[str] = [] if totals is not None else ["gold"]
    if why in ONE_GOLD:
        kind, lacking = ONE_GOLD[why]
        (p, amount), = deltas.items()
        new: dict[str, Any] = {"position": int(p), "amount": amount,
                               "gold": None if totals is None else totals[p], lacking: None}
        return kind, new, (*missing, lacking)
    new = {"gains": deltas, "gold": totals}
    if why == "new age":
        return "AgeGold", new, tuple(missing)
    if why == "adventure":
        position = int(next(iter(deltas))) if len(deltas) == 1 else None
        return "AdventureReward", {**new, "position": position}, (
            *missing, *(("position",) if position is None else ()))
    if why in ("taxes", "prosperous"):
        return "Produced", {**new, "ability": why, "card": None}, (*missing, "card")
    if why == "tied war":
        return "TiedWarGold", {**new, "pair": None}, (*missing, "pair")
    raise ValueError(f"an Ettin gold change for {why!r} is not one this game recorded")


def _apply_gold(game: Any, old: dict[str, Any]) -> None:
    for p, d in old["deltas"].items():
        game.gold[int(p)] += d


# ----------------------------------------------------------------- Updated


def _initiative(old: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    d = old["details"]
    kind = "InitiativeTaken" if d["holder"] == d["chooser"] else "InitiativeGiven"
    return kind, {"pair": d["pair"], "chooser": d["chooser"], "holder": d["holder"]}


def _work(old: dict[str, Any]) -> dict[str, Any]:
    return dict(old["changes"].get("work") or {})


#: Old ``what`` -> the event now and its facts, each from the stored event alone.
STEPS: dict[str, Callable[[dict[str, Any]], tuple[str, dict[str, Any]]]] = {
    "initiative_opened": lambda o: ("InitiativeChoices", {"choosers": [
        {"pair": i, "position": p} for i, p in _work(o)["choosers"]]}),
    "initiative": _initiative,
    "new_age": lambda o: ("AgeBegan", {"age": o["details"]["age"]}),
    "draft_opened": lambda o: ("DraftBegan", {
        "kind": o["details"]["kind"], "step": o["changes"]["step"],
        "lineups": [{"lineup": gr["lineup"], "members": gr["members"], "order": gr["order"]}
                    for gr in _work(o)["groups"]]}),
    "draft_orders": lambda o: ("DraftOrderShortened", {"lineups": [
        {"lineup": gr["lineup"], "order": gr["order"]} for gr in _work(o)["groups"]]}),
    "scouted": lambda o: ("Scouted", {k: o["details"][k]
                                      for k in ("position", "enemy", "slot", "cards")}),
    "deploy_opened": lambda o: ("DeployBegan", {"turns": [
        {"pair": i, "position": w["turn"] if w["turn"] >= 0 else None, "deploys": w["left"]}
        for i, w in enumerate(_work(o)["pairs"])]}),
    "flipped": lambda o: ("CardsFlipped", {"cards": o["details"]["cards"]}),
    "target": lambda o: ("TargetChosen", {k: o["details"][k]
                                          for k in ("position", "unit", "target", "keyword")}),
    "battle": lambda o: ("BattleResolved", {
        **{k: o["details"][k] for k in ("pair", "slot", "scores", "result", "winner")},
        "why": o["details"].get("why")}),
    "adventure": lambda o: ("AdventureAttempted", {k: o["details"][k] for k in (
        "pair", "position", "adventure", "score", "die", "difficulty", "success")}),
    "spoils_opened": lambda o: ("SpoilsBegan", {"owed": [
        [{"position": p, "slot": s, "count": n, "kind": k} for p, s, n, k in pair["tasks"]]
        for pair in _work(o)["pairs"]]}),
    "siege": lambda o: ("SiegeTokenPlaced", {k: o["details"][k] for k in ("position", "card")}),
    "adventure_defense": lambda o: ("AdventureDefenseBegan", {}),
    "retire": lambda o: ("RetireBegan", {}),
    "produce_opened": lambda o: ("ProduceBegan", {"optional": [
        {"position": int(p), "ability": keyword, "source": source}
        for p, queue in _work(o)["queues"].items() for keyword, source in queue]}),
    "game_over": lambda o: ("GameOver", {}),
    "war": lambda o: ("AgeEnded", {"age": o["details"]["age"],
                                   "wars": o["details"]["wars"]}),
}
#: Old bookkeeping steps: a fact of the rulebook (whose turn it passes to, what
#: was answered) the old event did not state, so every fact is unrecorded.
UNSTATED = {
    "drafted": ("DraftPassed", ("lineup", "to")),
    "deploy_turn": ("DeployPassed", ("pair", "position", "deploys")),
    "battle_step": ("BattleStep", ("pair", "slot", "step", "position", "unit", "keyword")),
    "spoils_step": ("SpoilsPassed", ("pair", "position", "slot", "kind", "left")),
    "produce_step": ("ProduceAnswered", ("position", "ability", "source", "used")),
}
#: What an old ``Updated`` could set (the state it patched).
UPDATABLE = frozenset({"phase", "work", "initiative", "age", "step", "results", "flipped",
                       "shown", "sieges", "tokens", "done"})


def _updated(old: dict[str, Any], meta: Mapping[str, Any]) -> Converted:
    what = old["what"]
    if what in UNSTATED:
        kind, missing = UNSTATED[what]
        return kind, dict.fromkeys(missing), missing
    kind, new = STEPS[what](old)
    return kind, new, ()


def _apply_updated(game: Any, old: dict[str, Any]) -> None:
    for key, value in old["changes"].items():
        assert key in UPDATABLE, key
        setattr(game, key, value)


def install(game_class: Any) -> None:
    """Declare the old types' readers on ``game_class``."""
    retype(
        game_class,
        Retype("Moved", _moved, _apply_moved, reader_name="StoredMoveReader"),
        Retype("GoldChanged", _gold, _apply_gold, steps=(TOTALS,),
               reader_name="StoredGoldReader"),
        Retype("Updated", _updated, _apply_updated, reader_name="StoredStepReader"),
    )

