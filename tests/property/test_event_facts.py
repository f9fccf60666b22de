"""Events that speak for themselves (issue 9, item 7): an independent fold.

For each game, a fold applies the events' payloads to a plain-dict model of
the state, with no rules code at all: no tables, no rules modules, no
``@event`` bodies; only what each event says. After every event of many
random playouts the model must equal the aggregate's real state in every part
the events claim (resources, hands and zones, scores, HP/XP/gold/items...).
A change the fold could only know by re-running the rules is a fact missing
from an event: the test fails on the first such event and names it.

The fold models the rules' *state*, not their wording (``last_outcome``) nor
the flow's prompt of the moment (``stage``), which the kernel's ``pending``
derives.
"""

from __future__ import annotations

import copy
import functools
import os
from collections.abc import Callable
from typing import Any

import pytest

from aggregates.kernel.game import event_type, payload_of

Model = dict[str, Any]
Handler = Callable[[Model, dict[str, Any]], None]

QUICK = os.environ.get("ETTIN_QUICK") == "1"


def _fold_and_compare(
    events: list[Any], fold: dict[str, Handler], start: Callable[[dict[str, Any]], Model],
    real: Callable[[Any], Model],
) -> None:
    """Fold ``events`` and the rules' own replay side by side; equal after each."""
    model: Model = {}
    game: Any = None
    for ev in events:
        game = ev.mutate(game)
        kind = event_type(ev)
        payload = copy.deepcopy(payload_of(ev))
        if kind == "Created":
            model = start(payload)
        elif kind in fold:
            fold[kind](model, payload)
        else:
            raise AssertionError(f"the fold does not know the event {kind}")
        expected = real(game)
        assert model == expected, (
            f"after version {ev.originator_version} ({kind} {payload}) the fold says "
            f"{ {k: v for k, v in model.items() if expected.get(k) != v} }, the game "
            f"{ {k: v for k, v in expected.items() if model.get(k) != v} }"
        )


def _ignore(model: Model, payload: dict[str, Any]) -> None:
    """An event that changes none of the state the fold models."""


#: The kernel's own events, the same in every game.
KERNEL: dict[str, Handler] = {
    "Ended": _ignore, "DefaultApplied": _ignore, "ChoicesOpened": _ignore,
    "ChoiceMade": _ignore, "ChoicesRevealed": _ignore,
}

# ---------------------------------------------------------------- Land of Enin


def enin_start(created: dict[str, Any]) -> Model:
    """Setup (rulebook "Setup"): the HP and luck rolled, everything else empty."""
    setup = created["setup"]
    return {
        "hp": setup["hp"], "luck": setup["luck"], "xp": 0, "gold": 0, "level": 1,
        "poisoned": False, "location": None, "turn": 1, "quest_items": [],
        "magic_items": [], "map_held": False, "strength_bonus": 0, "last_purchase": None,
        "monster": None, "table": [], "shield_used": False, "treasure_left": 0,
        "treasure_choices": [],
    }


def enin_real(game: Any) -> Model:
    return {
        "hp": game.hp, "luck": game.luck, "xp": game.xp, "gold": game.gold,
        "level": game.level, "poisoned": game.poisoned, "location": game.location,
        "turn": game.turn, "quest_items": list(game.quest_items),
        "magic_items": list(game.magic_items), "map_held": game.map_held,
        "strength_bonus": game.strength_bonus, "last_purchase": game.last_purchase,
        "monster": None if game.encounter is None else game.encounter["monster"]["name"],
        "table": [[d["rolled"], d["luck"]] for d in game.table],
        "shield_used": game.shield_used, "treasure_left": game.treasure_left,
        "treasure_choices": list(game.treasure_choices),
    }


def _set(**keys: str) -> Handler:
    """A handler copying payload keys onto model keys (model key=payload key)."""

    def handle(model: Model, payload: dict[str, Any]) -> None:
        for mkey, pkey in keys.items():
            model[mkey] = payload[pkey]

    return handle


def _enin_monster(model: Model, p: dict[str, Any]) -> None:
    model.update(monster=p["monster"]["name"], table=[], shield_used=False)


def _enin_luck_spent(model: Model, p: dict[str, Any]) -> None:
    model["table"][p["die"]][1] += p["amount"]
    model["luck"] = p["luck"]


def _enin_exchange(model: Model, p: dict[str, Any]) -> None:
    model["table"] = []
    model["strength_bonus"] = p["strength_bonus"]
    if "hp" in p:
        model["hp"] = p["hp"]


def _enin_item_bought(model: Model, p: dict[str, Any]) -> None:
    model["gold"] = p["gold"]
    model["last_purchase"] = p["item"]
    if p["gains_map"]:
        model["map_held"] = True


def _enin_treasure(model: Model, p: dict[str, Any]) -> None:
    model["treasure_left"] = p["left"]


def _enin_chosen(model: Model, p: dict[str, Any]) -> None:
    model.update(magic_items=[*model["magic_items"], p["item"]], hp=p["hp"], luck=p["luck"],
                 treasure_choices=[])


def _enin_turn(model: Model, p: dict[str, Any]) -> None:
    model.update(turn=p["turn"], monster=None, table=[])


ENIN: dict[str, Handler] = {
    **KERNEL,
    "StartRolled": _set(location="location"),
    "Travelled": _set(location="to"),
    "QuestRolled": _ignore,
    "Rested": _set(hp="hp"),
    "Robbed": _set(gold="gold"),
    "TrapSprung": _ignore,
    "Poisoned": lambda m, p: m.update(poisoned=True),
    "Wounded": _set(hp="hp"),
    "ImpStruck": _ignore,
    "ItemLost": lambda m, p: m.update(magic_items=[i for i in m["magic_items"]
                                                   if i != p["item"]]),
    "MonsterMet": _enin_monster,
    "AttackRolled": lambda m, p: m.update(table=[[d, 0] for d in p["dice"]]),
    "LuckSpent": _enin_luck_spent,
    "Rerolled": lambda m, p: (m["table"].__setitem__(p["die"], [p["value"], 0]),
                              m.update(shield_used=True)),
    "ExchangeWon": _enin_exchange,
    "ExchangeLost": _enin_exchange,
    "Fled": lambda m, p: m.update(hp=p["hp"], monster=None, table=[]),
    "XpRolled": lambda m, p: m.update(table=[[p["value"], 0]]),
    "XpGained": lambda m, p: m.update(xp=p["xp"], table=[]),
    "LevelGained": _set(level="level", hp="hp"),
    "EncounterEnded": lambda m, p: m.update(monster=None, table=[]),
    "TreasureRolled": _enin_treasure,
    "GoldFound": _set(gold="gold"),
    "MagicItemFound": lambda m, p: m.update(treasure_choices=list(p["choices"])),
    "MagicItemChosen": _enin_chosen,
    "ItemBought": _enin_item_bought,
    "Healed": _set(hp="hp"),
    "PoisonCured": lambda m, p: m.update(poisoned=False),
    "Strengthened": _set(strength_bonus="bonus"),
    "LuckGained": _set(luck="luck"),
    "TownLeft": _ignore,
    "QuestAttemptOffered": _ignore,
    "QuestAttempted": _ignore,
    "QuestItemGained": lambda m, p: m.update(quest_items=[*m["quest_items"], p["item"]]),
    "TurnEnded": _enin_turn,
}


@functools.cache
def enin_games() -> list[list[Any]]:
    """Random and goal-seeking Enin playouts (``tests/property``'s own bots)."""
    from tests.property.test_enin_playouts import playout, random_choice, seeking_choice

    out = []
    for seed in range(30):
        out.append(playout(seed, random_choice)[1])
    for seed in range(10_000, 10_030):
        out.append(playout(seed, seeking_choice)[1])
    return out


@pytest.mark.parametrize("index", range(60))
def test_enin_events_fold_to_the_state__rulebook_Character_Card(index: int) -> None:
    """Every change to the Character Card (HP, luck, XP, gold, level, poison,
    items, the Map, the strength potion) and the combat table is in an event."""
    _fold_and_compare(enin_games()[index], ENIN, enin_start, enin_real)


