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
import random
from collections.abc import Callable
from typing import Any

import pytest

from aggregates.kernel.game import event_type, payload_of

Model = dict[str, Any]
Handler = Callable[[Model, dict[str, Any]], None]

QUICK = bool(os.environ.get("ETTIN_QUICK"))


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



# ---------------------------------------------------------------------- Ethnos


def ethnos_start(created: dict[str, Any]) -> Model:
    """Setup (rulebook "Setup"): the tribes and Glory tokens drawn, empty boards."""
    players = created["setup"]["players"]
    return {
        "age": 0, "current": created["setup"]["first_player"], "deck": [], "row": [],
        "hands": [[] for _ in range(players)], "bands": [[] for _ in range(players)],
        "dragons": [], "markers": {}, "glory": [0] * players, "merfolk": [0] * players,
        "troll_tokens": [[] for _ in range(players)], "giant": None,
        "orc_boards": [[] for _ in range(players)], "third_dragon_seat": None,
        "last_bands": [[] for _ in range(players)], "over": False, "orc_pending": [],
        "orc_choices": [None] * players,
    }


def ethnos_real(game: Any) -> Model:
    return {
        "age": game.age, "current": game.current, "deck": list(game.deck),
        "row": list(game.row), "hands": [list(h) for h in game.hands],
        "bands": [[dict(b, cards=list(b["cards"])) for b in bands] for bands in game.bands],
        "dragons": list(game.dragons),
        # The kingdoms' boards, those with a marker on them (the fold
        # knows a kingdom once a marker is placed there).
        "markers": {k: list(v) for k, v in game.markers.items() if any(v)},
        "glory": list(game.glory), "merfolk": list(game.merfolk),
        "troll_tokens": [list(t) for t in game.troll_tokens], "giant": game.giant,
        "orc_boards": [list(b) for b in game.orc_boards],
        "third_dragon_seat": game.third_dragon_seat,
        "last_bands": [list(b) for b in game.last_bands], "over": game.over,
        "orc_pending": list(game.orc_pending), "orc_choices": list(game.orc_choices),
    }


def _ethnos_age_began(m: Model, p: dict[str, Any]) -> None:
    players = len(m["glory"])
    m.update(age=p["age"], current=p["first_player"], deck=list(p["deck"]), row=[],
             hands=[[] for _ in range(players)], bands=[[] for _ in range(players)],
             dragons=[], orc_pending=[], orc_choices=[None] * players)


def _take(m: Model, zone: str, p: dict[str, Any]) -> None:
    m[zone].remove(p["card"])
    m["hands"][p["seat"]].append(p["card"])


def _ethnos_band(m: Model, p: dict[str, Any]) -> None:
    for c in p["cards"]:
        m["hands"][p["seat"]].remove(c)
    m["bands"][p["seat"]].append({"cards": list(p["cards"]), "leader": p["leader"],
                                  "size": p["size"]})


def _ethnos_marker(m: Model, p: dict[str, Any]) -> None:
    players = len(m["glory"])
    m["markers"].setdefault(p["kingdom"], [0] * players)[p["seat"]] += 1


def _add_glory(m: Model, awards: list[int], totals: list[int]) -> None:
    """Glory given, checked against the new scores the event states."""
    m["glory"] = [g + a for g, a in zip(m["glory"], awards, strict=True)]
    assert m["glory"] == totals, "the new scores stated must be the old ones plus the Glory"


def _one_seat(m: Model, p: dict[str, Any]) -> None:
    awards = [0] * len(m["glory"])
    awards[p["seat"]] = p["glory"]
    _add_glory(m, awards, p["totals"])


def _ethnos_age_ended(m: Model, p: dict[str, Any]) -> None:
    for hand in m["hands"]:
        m["row"].extend(hand)
    m["hands"] = [[] for _ in m["hands"]]
    m.update(third_dragon_seat=p["seat"], orc_pending=list(p["orc_seats"]),
             orc_choices=[None] * len(m["glory"]))


def _ethnos_orc_chosen(m: Model, p: dict[str, Any]) -> None:
    m["orc_pending"].remove(p["seat"])
    m["orc_choices"][p["seat"]] = p["score"]


def _ethnos_orc_scored(m: Model, p: dict[str, Any]) -> None:
    _one_seat(m, p)
    m["orc_boards"][p["seat"]] = []


def _ethnos_skeletons(m: Model, p: dict[str, Any]) -> None:
    gone = set(p["cards"])
    for bands in m["bands"]:
        for band in bands:
            band["cards"] = [c for c in band["cards"] if c not in gone]
    m["row"].extend(p["cards"])


def _ethnos_age_closed(m: Model, p: dict[str, Any]) -> None:
    m["last_bands"] = [[b["size"] for b in bands] for bands in m["bands"]]
    for bands in m["bands"]:
        for band in bands:
            m["row"].extend(band["cards"])
    players = len(m["glory"])
    m.update(bands=[[] for _ in range(players)], troll_tokens=[[] for _ in range(players)],
             giant=None, orc_choices=[None] * players)
    if p["final"]:
        m["over"] = True


def _ethnos_discard(m: Model, p: dict[str, Any]) -> None:
    for c in p["cards"]:
        m["hands"][p["seat"]].remove(c)
    m["row"].extend(p["cards"])


ETHNOS: dict[str, Handler] = {
    **KERNEL,
    "AgeBegan": _ethnos_age_began,
    "CardDealt": lambda m, p: _take(m, "deck", p),
    "RowTurned": lambda m, p: (m.update(deck=m["deck"][len(p["cards"]):]),
                               m["row"].extend(p["cards"])),
    "RecruitedFaceUp": lambda m, p: _take(m, "row", p),
    "DrewFromDeck": lambda m, p: _take(m, "deck", p),
    "DragonRevealed": lambda m, p: (m["deck"].remove(p["card"]), m["dragons"].append(p["card"])),
    "TurnEnded": lambda m, p: m.update(current=p["next_seat"]),
    "BandPlayed": _ethnos_band,
    "MarkerPlaced": _ethnos_marker,
    "GiantTokenTaken": lambda m, p: (m.update(giant=p["seat"]), _one_seat(m, p)),
    "MerfolkAdvanced": lambda m, p: m["merfolk"].__setitem__(p["seat"], p["position"]),
    "OrcMarkerPlaced": lambda m, p: m["orc_boards"][p["seat"]].append(p["colour"]),
    "TrollTokenTaken": lambda m, p: m["troll_tokens"][p["seat"]].append(p["value"]),
    "WizardsOffered": _ignore,
    "WizardsAnswered": _ignore,
    "HandDiscarded": _ethnos_discard,
    "AgeEnded": _ethnos_age_ended,
    "OrcHordeChosen": _ethnos_orc_chosen,
    "KingdomScored": lambda m, p: _add_glory(m, p["awards"], p["totals"]),
    "GiantScored": _one_seat,
    "MerfolkScored": lambda m, p: _add_glory(m, p["awards"], p["totals"]),
    "OrcHordeScored": _ethnos_orc_scored,
    "SkeletonsRemoved": _ethnos_skeletons,
    "BandsScored": lambda m, p: _add_glory(m, p["awards"], p["totals"]),
    "AgeClosed": _ethnos_age_closed,
}


@functools.cache
def ethnos_games() -> list[list[Any]]:
    """Random Ethnos playouts of every table size (``tests/property``'s bot)."""
    from tests.property.test_ethnos_playouts import playout

    return [playout(seed, players)[1] for players in (2, 3, 4, 5, 6) for seed in range(4)]


@pytest.mark.parametrize("index", range(20))
def test_ethnos_events_fold_to_the_state__rulebook_Playing_a_Band(index: int) -> None:
    """Every card's move (deck, row, hands, bands, Dragons), every Control
    marker, token and Glory point is in an event."""
    _fold_and_compare(ethnos_games()[index], ETHNOS, ethnos_start, ethnos_real)

# ----------------------------------------------------------------------- Ettin


def ettin_start(created: dict[str, Any]) -> Model:
    """Setup (rulebook "Setup"): the Nation Decks as dealt, no gold, no tokens."""
    count = len(created["setup"]["nations"])
    return {
        "zones": {k: list(v) for k, v in created["setup"]["decks"].items() if v},
        "gold": [0] * count, "updated": {},
    }


def ettin_real_for(model_keys: Callable[[], set[str]]) -> Callable[[Any], Model]:
    """The game's zones (non-empty ones), gold, and every attribute an
    ``Updated`` event has set so far (the fold knows those from their events)."""

    def real(game: Any) -> Model:
        return {
            "zones": {k: list(v) for k, v in game.zones.items() if v},
            "gold": list(game.gold),
            "updated": {k: copy.deepcopy(getattr(game, k)) for k in model_keys()},
        }

    return real


def _ettin_moved(m: Model, p: dict[str, Any]) -> None:
    zones = m["zones"]
    for card in p["cards"]:
        zones[p["source"]].remove(card)
        zones.setdefault(p["target"], []).append(card)
    if not zones[p["source"]]:
        del zones[p["source"]]


def _ettin_gold(m: Model, p: dict[str, Any]) -> None:
    for seat, delta in p["deltas"].items():
        m["gold"][int(seat)] += delta
    assert [m["gold"][int(s)] for s in p["totals"]] == list(p["totals"].values()), (
        "the new totals stated must be the old ones plus the deltas")


def _ettin_updated(m: Model, p: dict[str, Any]) -> None:
    m["updated"].update(copy.deepcopy(p["changes"]))


@functools.cache
def ettin_games() -> list[list[Any]]:
    """Random Ettin playouts of several table sizes (``tests/property``'s bot)."""
    from tests.property.test_ettin_playouts import play

    counts = (2, 3, 4) if QUICK else (2, 3, 4, 5, 6, 8)
    return [play(players, 5000 * players + n)[1] for players in counts for n in range(2)]


@pytest.mark.parametrize("index", range(6 if QUICK else 12))
def test_ettin_events_fold_to_the_state__rulebook_Ages_and_War(index: int) -> None:
    """Every card's move between zones, every gold change (and the new gold),
    and every other state change is in an event."""
    model_keys: set[str] = set()
    fold: dict[str, Handler] = {
        **KERNEL,
        "Moved": _ettin_moved,
        "GoldChanged": _ettin_gold,
        "Updated": lambda m, p: (_ettin_updated(m, p), model_keys.update(p["changes"])),
    }
    _fold_and_compare(ettin_games()[index], fold, ettin_start,
                      ettin_real_for(lambda: set(model_keys)))

# ---------------------------------------------------------- Tidewatch (template)


def template_start(created: dict[str, Any]) -> Model:
    """Setup (``tests/template_game``, "components"): the deck as shuffled, no coins."""
    return {"zones": {"deck": list(created["setup"]["deck"])}, "coins": [0, 0, 0, 0],
            "bids": None}


def template_real(game: Any) -> Model:
    return {"zones": {k: list(v) for k, v in game.zones.items() if v},
            "coins": list(game.coins), "bids": game.bids}


def _tide_move(m: Model, source: str, target: str, cards: list[int]) -> None:
    zones = m["zones"]
    for card in cards:
        zones[source].remove(card)
        zones.setdefault(target, []).append(card)
    if not zones[source]:
        del zones[source]


def _coins(m: Model, changes: list[int], totals: list[int]) -> None:
    """Coins changed, checked against the new totals the event states."""
    m["coins"] = [c + d for c, d in zip(m["coins"], changes, strict=True)]
    assert m["coins"] == totals, "the coins stated must be the old ones plus the change"


def _only(position: int, amount: int) -> list[int]:
    return [amount if p == position else 0 for p in range(4)]


TEMPLATE: dict[str, Handler] = {
    **KERNEL,
    "CardsDealt": lambda m, p: _tide_move(m, "deck", p["target"], p["cards"]),
    "TideRose": lambda m, p: (_coins(m, p["coins"], p["totals"]), m.update(bids=None)),
    "BidsSettled": lambda m, p: (_coins(m, [-b for b in p["bids"]], p["totals"]),
                                 m.update(bids=list(p["bids"]))),
    "Claimed": lambda m, p: _tide_move(m, "shore", f"hand:{p['position']}", [p["card"]]),
    "EffectUsed": lambda m, p: _coins(
        m, _only(p["position"], p["amount"] if p["change"] == "gain_coins" else 0),
        p["totals"]),
    "WindowOpened": _ignore,
    "Snatched": lambda m, p: (
        _tide_move(m, f"hand:{p['position']}", "discard", [p["discard"]]),
        _tide_move(m, f"hand:{p['victim']}", f"hand:{p['position']}", [p["card"]])),
    "LetGo": _ignore,
    "Banked": lambda m, p: _tide_move(m, f"hand:{p['position']}", p["vault"], p["cards"]),
    "Dived": lambda m, p: (_coins(m, _only(p["position"], -p["depth"]), p["totals"]),
                           _tide_move(m, "deck", f"hand:{p['position']}", p["cards"])),
    "Passed": _ignore,
    "TideEbbed": _ignore,
}


@functools.cache
def template_games() -> list[list[Any]]:
    """Random Tidewatch games of 2-4 seats (the kernel tests' template bot)."""
    from tests.template_game import Template
    from tests.unit.kernel.template_bot import play_out

    out = []
    for seats in (2, 3, 4):
        for n in range(4):
            game = Template.start([f"s{i}" for i in range(seats)], seed=f"{seats}{n:063x}")
            out.append(play_out(game, random.Random(n)))
    return out


@pytest.mark.parametrize("index", range(12))
def test_template_events_fold_to_the_state__tidewatch_Working_the_Shore(index: int) -> None:
    """Every card's move (deck, shore, hands, vaults, discard) and every coin
    change, with the new coins, is in an event."""
    _fold_and_compare(template_games()[index], TEMPLATE, template_start, template_real)
