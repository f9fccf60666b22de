"""The event bodies: how each recorded fact changes the state, and nothing else.

The aggregate's ``@event`` methods call these (``APPLY[name](state,
payload)``); so do the tests below the aggregate. They never validate, roll or
read the clock: replaying the events rebuilds the same state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aggregates.kernel import flow as kflow
from aggregates.kernel.abilities import forget, record_use
from aggregates.kernel.cards import PLAY, zone_name
from aggregates.nine_empires import (
    actions,
    battles,
    draws,
    frames,
    playing,
    quests,
    raids,
    setup,
    victory,
    winter,
)
from aggregates.nine_empires import table as t
from aggregates.nine_empires.state import State

Payload = Mapping[str, Any]


def _bowed(s: State, p: Payload) -> None:
    for c in p["cards"]:
        s.instances[c]["bowed"] = True


def _straightened(s: State, p: Payload) -> None:
    for c in p["cards"]:
        s.instances[c]["bowed"] = False


def _food_spent(s: State, p: Payload) -> None:
    for c in p["castles"]:
        t.table(s).add_food(c, -1)


def _renown(s: State, p: Payload) -> None:
    s.renown[p["seat"]] = p["total"]


def _announced(s: State, p: Payload, react: bool) -> None:
    if not react:
        actions.acted(s)
    else:
        kflow.after_response(s.stack[-1], p["seat"], p["source"])
    record_use(s.uses, p["source"], p["ability"], s.turn)
    if p["tactic"]:
        t.table(s).move(p["source"], zone_name("discard", p["seat"]))
    frames.push_window(s, "ability", list(p["order"]), seat=p["seat"], source=p["source"],
                       key=p["key"], index=p["ability"], timing=p["timing"],
                       targets={k: list(v) for k, v in p["targets"].items()},
                       discarded_fate=p["discarded_fate"])


def _resolved(s: State, p: Payload) -> None:
    frames.pop_window(s)


def _leave(s: State, card: str, zone: str) -> None:
    """Card memory: effects on the card end, and if it comes back it is a new
    card that may use all its abilities again."""
    s.lasting = forget(s.lasting, card)
    for key in [k for k in s.uses if k.startswith(f"{card}/")]:
        del s.uses[key]
    t.table(s).move(card, zone)


def _hero_buried(s: State, p: Payload) -> None:
    seat = p["seat"]
    c = s.conflict
    if c is not None and p["hero"] in c.get("stealth", {}):
        stealth = c["stealth"].pop(p["hero"])
        t.table(s).move(stealth, zone_name("discard", t.owner(s, stealth)))
    for a in p["buried"]:
        _leave(s, a, zone_name("buried", t.owner(s, a)))
    for a in p["discarded"]:
        _leave(s, a, zone_name("discard", t.owner(s, a)))
    _leave(s, p["hero"], zone_name("buried", seat))


def _card_buried(s: State, p: Payload) -> None:
    _leave(s, p["card"], zone_name("buried", p["seat"]))


def _moved(s: State, p: Payload) -> None:
    t.table(s).locate(p["hero"], p["castle"])
    s.instances[p["hero"]]["memory"]["side"] = p["side"]


def _token(s: State, p: Payload) -> None:
    table = t.table(s)
    table.create(p["token"], p["card"], p["seat"], PLAY, token=True)
    table.attach(p["token"], p["attached_to"])


def _effect(s: State, p: Payload) -> None:
    s.lasting.append({"id": p["id"], "target": p["target"], "verb": p["verb"],
                      "params": dict(p["params"]), "duration": p["duration"]})


def _nothing(s: State, p: Payload) -> None:
    """A fact with no change of state (a trigger fired, the Ordained announced)."""


APPLY: dict[str, Callable[[State, Payload], None]] = {
    "Passed": lambda s, p: actions.passed(s, p["where"]),
    "TurnBegan": lambda s, p: actions.turn_began(s, p["turn"]),
    "SpringBegan": lambda s, p: actions.spring_began(s, p["straightened"]),
    "PhaseBegan": lambda s, p: actions.phase_began(s, p["phase"], p["order"]),
    "PhaseEnded": lambda s, p: actions.phase_ended(s),
    "Bowed": _bowed,
    "Straightened": _straightened,
    "FoodSpent": _food_spent,
    "CardPlayed": lambda s, p: playing.card_played(s, p["seat"], p["card"], p["attach_to"],
                                                   p["bowed"]),
    "GloryPaid": lambda s, p: quests.glory_paid(s, p["bowed"]),
    "RenownGained": _renown,
    "QuestCompleted": lambda s, p: quests.quest_completed(s, p["seat"], p["quest"],
                                                          p["renown"]),
    "CardsDiscarded": lambda s, p: winter.cards_discarded(s, p["seat"], p["cards"],
                                                          p["why"]),
    "AbilityUsed": lambda s, p: _announced(s, p, react=False),
    "ReactPlayed": lambda s, p: _announced(s, p, react=True),
    "ReactPassed": lambda s, p: kflow.after_response(s.stack[-1], p["seat"], None),
    "AbilityResolved": _resolved,
    "AbilityCancelled": lambda s, p: s.stack[p["frame"]].__setitem__("cancelled", True),
    "AbilityTriggered": _nothing,
    "EffectApplied": _effect,
    "MarkerPlaced": lambda s, p: t.table(s).add_marker(p["target"], p["stat"], p["amount"]),
    "DamageReduced": lambda s, p: battles.damage_reduced(s, p["engagement"], p["damage"]),
    "FoodAdded": lambda s, p: t.table(s).add_food(p["castle"], p["amount"]),
    "FoodLost": lambda s, p: t.table(s).add_food(p["castle"], -p["amount"]),
    "CardsDrawn": lambda s, p: draws.cards_drawn(s, p["seat"], p["cards"]),
    "DeckReshuffled": lambda s, p: draws.deck_reshuffled(s, p["seat"], p["order"]),
    "SentHome": lambda s, p: raids.sent_home(s, p["hero"], p["stealth"]),
    "HeroBuried": _hero_buried,
    "CardBuried": _card_buried,
    "MovedToBattle": _moved,
    "TokenMade": _token,
    "BattleDeclared": lambda s, p: battles.battle_declared(s, p["attacker"], p["defender"],
                                                           p["castles"], p["allies_asked"]),
    "AllyChosen": lambda s, p: battles.ally_chosen(s, p["seat"], p["side"]),
    "AlliesCalled": lambda s, p: battles.allies_called(s, p["seat"], p["call"]),
    "UnitsAssigned": lambda s, p: battles.units_assigned(s, p["side"], p["heroes"],
                                                         p["castles"]),
    "BattleChosen": lambda s, p: battles.chosen(s, p["castle"], p["order"]),
    "RaidChosen": lambda s, p: battles.chosen(s, p["castle"], p["order"]),
    "Engaged": lambda s, p: battles.engaged(s, p["seat"], p["side"], p["cards"], p["damage"],
                                            p["brutal"], p["order"]),
    "ReturnedHome": lambda s, p: battles.returned_home(s, p["hero"], p["bowed"]),
    "ImmunityStep": lambda s, p: battles.immunity_step(s, p["seat"]),
    "AbsorbStep": lambda s, p: battles.absorb_step(s),
    "ImmunityDeclared": lambda s, p: battles.immunity_declared(s, p["cards"]),
    "DamageAbsorbed": lambda s, p: battles.damage_absorbed(s, p["seat"], p["card"], p["kind"],
                                                           p["discard"], p["remaining"]),
    "EngagementResolved": lambda s, p: battles.engagement_resolved(s),
    "CastleBuried": lambda s, p: battles.castle_buried(s, p["seat"], p["castle"]),
    "BattleEnded": lambda s, p: battles.battle_ended(s, p["castle"], p["castle_stands"],
                                                     p["attackers"], p["defenders_home"]),
    "AttackEnded": lambda s, p: battles.attack_ended(s),
    "RaidDeclared": lambda s, p: raids.raid_declared(s, p["raider"], p["defender"],
                                                     p["castles"]),
    "RaidUnitsAssigned": lambda s, p: raids.units_assigned(s, p["seat"], p["side"],
                                                           p["heroes"], p["castles"],
                                                           p.get("stealth")),
    "RaidResolved": lambda s, p: raids.raid_resolved(s, p["castle"], p["raiding_hero"],
                                                     p["defending_hero"], p["stolen"]),
    "RaidEnded": lambda s, p: raids.raid_ended(s),
    "WinterBegan": lambda s, p: winter.winter_began(s),
    "FoodStored": lambda s, p: winter.food_stored(s, p["moves"], p["heroes"]),
    "RedistributionBegan": lambda s, p: winter.redistribution_began(s, p["seats"]),
    "FoodRedistributed": lambda s, p: winter.food_redistributed(s, p["seat"], p["food"]),
    "EffectsEnded": lambda s, p: winter.effects_ended(s),
    "QuestBuried": lambda s, p: winter.quest_buried(s, p["seat"], p["quest"]),
    "HandSizeChecked": lambda s, p: winter.hand_size_checked(s, p["over"]),
    "OrdainedPassed": lambda s, p: winter.ordained_passed(s, p["to"]),
    "PlayerEliminated": lambda s, p: victory.player_eliminated(s, p["seat"]),
    "GameWon": lambda s, p: victory.game_won(s, p["winner"], p["how"]),
    "Mulliganed": lambda s, p: setup.mulliganed(s, p["seat"], p["discarded"], p["food_from"]),
    "HandKept": lambda s, p: setup.hand_kept(s, p["seat"]),
    "HandsDealt": lambda s, p: setup.hands_dealt(s, p["seats"]),
    "OrdainedTaken": _nothing,
}

EVENTS = tuple(APPLY)
