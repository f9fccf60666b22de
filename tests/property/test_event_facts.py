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

from aggregates.kernel.record.recording import event_type, payload_of
from tests import soak

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


#: The kernel's own events, the same in every game (``Created`` is each
#: game's ``start``). An entropy contribution changes the dice to come, not
#: the state the folds model.
KERNEL: dict[str, Handler] = {
    "Ended": _ignore, "DefaultApplied": _ignore, "EntropyAdded": _ignore,
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
    if p.get("choices"):  # a magic find to choose from (rules 1.2.0 record no MagicItemFound)
        model["treasure_choices"] = list(p["choices"])


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
    """Setup (rulebook "Setup"): the Nation Decks as dealt, no gold, no tokens, the
    Initiative Token with each pair's first position until it is chosen."""
    from aggregates.ettin import seating as sg

    count = len(created["setup"]["nations"])
    pairs = sg.enemy_pairs(count)
    return {
        "zones": {k: list(v) for k, v in created["setup"]["decks"].items() if v},
        "gold": [0] * count, "age": 0, "initiative": [pair[0] for pair in pairs],
        "tokens": [[] for _ in range(count)], "results": [[] for _ in pairs],
        "sieges": [], "shown": [], "flipped": False, "done": False, "pairs": pairs,
    }


#: What the fold models of Ettin's state: the rulebook's table (never ``work``,
#: the engine's own progress through a phase).
ETTIN_STATE = ("age", "initiative", "tokens", "results", "sieges", "shown", "flipped", "done")


def ettin_real(game: Any) -> Model:
    """The game's zones (non-empty ones), gold and the rulebook's state."""
    return {
        "zones": {k: list(v) for k, v in game.zones.items() if v},
        "gold": list(game.gold), "pairs": game.pairs,
        **{k: copy.deepcopy(getattr(game, k)) for k in ETTIN_STATE},
    }


def _ettin_cards(m: Model, p: dict[str, Any]) -> None:
    """Cards move from the zone they leave to the zone they reach."""
    zones = m["zones"]
    for card in p["cards"]:
        zones[p["source"]].remove(card)
        zones.setdefault(p["target"], []).append(card)
    if not zones[p["source"]]:
        del zones[p["source"]]


def _ettin_gold(m: Model, p: dict[str, Any]) -> None:
    """One position's gold changes; the gold it states after is the sum."""
    m["gold"][p["position"]] += p["amount"]
    assert m["gold"][p["position"]] == p["gold"], "the gold stated after the change"


def _ettin_gains(m: Model, p: dict[str, Any]) -> None:
    for seat, delta in p["gains"].items():
        m["gold"][int(seat)] += delta
    assert [m["gold"][int(s)] for s in p["gold"]] == list(p["gold"].values()), (
        "the gold stated after must be the gold before plus the gains")


def _ettin_initiative(m: Model, p: dict[str, Any]) -> None:
    m["initiative"][p["pair"]] = p["holder"]
    assert p["holder"] in m["pairs"][p["pair"]]


def _ettin_battle(m: Model, p: dict[str, Any]) -> None:
    """A battle's result is kept for the Spoils and for Winning the War."""
    result = {k: p[k] for k in ("slot", "scores", "result", "winner")}
    m["results"][p["pair"]].append({**result, **({"why": p["why"]} if p["why"] else {})})


def _ettin_age_ended(m: Model, p: dict[str, Any]) -> None:
    """Winning the War: the winner's Victory Token; a tie passes the Initiative
    Token; the War's results, Siege Tokens and face-up cards are done with."""
    for war in p["wars"]:
        a, b = m["pairs"][war["pair"]]
        if war["winner"] is None:
            i = war["pair"]
            m["initiative"][i] = b if m["initiative"][i] == a else a
        else:
            m["tokens"][war["winner"]].append(p["age"])
    m.update(results=[[] for _ in m["pairs"]], sieges=[], shown=[], flipped=False)


#: Ettin's events and how each changes the modelled state (read from its facts).
ETTIN_FOLD: dict[str, Handler] = {
    **KERNEL,
    **dict.fromkeys(
        ("AdventureRevealed", "SkirmishLineupDealt", "PeacetimeLineupDealt", "Drafted",
         "UndraftedLost", "Recruited", "SoldCardLost", "Deployed", "StartOfBattleRemoved",
         "AdventureEffect", "AdventureCompleted", "AdventurerLost", "SpoilTaken",
         "AdventureDefensePlaced", "DefenseStays", "ReturnedToSelf", "ReturnedToAlly",
         "Retired", "WarCry", "AdventureDiscarded", "GateUsed", "CallToArms", "LostSouls",
         "LoserDrew"), _ettin_cards),
    **dict.fromkeys(("EmptyDecksGold", "RecruitPaid", "Sold", "BountyPaid", "Wealthy"),
                    _ettin_gold),
    **dict.fromkeys(("AgeGold", "AdventureReward", "Produced", "TiedWarGold"), _ettin_gains),
    "InitiativeTaken": _ettin_initiative, "InitiativeGiven": _ettin_initiative,
    "AgeBegan": lambda m, p: m.update(age=p["age"]),
    "Scouted": lambda m, p: m.update(shown=sorted(set(m["shown"]) | set(p["cards"]))),
    "CardsFlipped": lambda m, p: m.update(flipped=True),
    "BattleResolved": _ettin_battle,
    "SiegeTokenPlaced": lambda m, p: m.update(sieges=sorted([*m["sieges"], p["card"]])),
    "AgeEnded": _ettin_age_ended,
    "GameOver": lambda m, p: m.update(done=True),
    # The turns within a phase: who chooses, drafts, deploys, takes, answers next.
    **dict.fromkeys(("InitiativeChoices", "DraftBegan", "DraftOrderShortened", "DraftPassed",
                     "DeployBegan", "DeployPassed", "BattleStep", "TargetChosen",
                     "AdventureAttempted", "SpoilsBegan", "SpoilsPassed",
                     "AdventureDefenseBegan", "RetireBegan", "ProduceBegan",
                     "ProduceAnswered"), _ignore),
}


@functools.cache
def ettin_games() -> list[list[Any]]:
    """Random Ettin playouts of several table sizes (``tests/property``'s bot)."""
    from tests.property.test_ettin_playouts import play

    counts = (2, 3, 4) if QUICK else (2, 3, 4, 5, 6, 8)
    return [play(players, 5000 * players + n)[1] for players in counts for n in range(2)]


@pytest.mark.parametrize("index", range(6 if QUICK else 12))
def test_ettin_events_fold_to_the_state__rulebook_Ages_and_War(index: int) -> None:
    """Every card's move between zones, every gold change (and the gold after),
    the Age, the Initiative Token, each battle's result, Siege Tokens, Scouting,
    the flip, Victory Tokens and the end are facts of the events, folded here
    without the rules (nothing of the engine's ``work``)."""
    _fold_and_compare(ettin_games()[index], ETTIN_FOLD, ettin_start, ettin_real)


def test_the_ettin_fold_knows_every_event_type() -> None:
    """Each event type the game declares is folded (or said to change nothing modelled)."""
    from aggregates.ettin import Ettin
    from aggregates.kernel import declared

    assert set(declared.own_events(Ettin)) == set(ETTIN_FOLD) - set(KERNEL)


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
    # The Tide Bid's hidden choices (its own events): the bids settle in BidsSettled.
    "ChoicesOpened": _ignore, "ChoiceMade": _ignore, "ChoicesRevealed": _ignore,
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


# ---------------------------------------------------------------------- Titans


def titans_start(created: dict[str, Any]) -> Model:
    """Game Setup (rulebook): the board setup's armies, Capitols and reserves, and the
    deck orders, as the creation event states them."""
    setup = created["setup"]
    players = len(created["seats"])
    return {
        "armies": copy.deepcopy(setup["armies"]),
        "control": {r: a["nation"] for r, a in setup["armies"].items()},
        "capitols": {r: {"owner": s, "damaged": False} for r, s in setup["capitols"].items()},
        "strongholds": [], "reserve": copy.deepcopy(setup["reserve"]),
        "titan": list(setup["titan"]), "vp": [0] * players,
        "support_deck": list(setup["support_deck"]), "support_row": [], "support_discard": [],
        "hands": [[] for _ in range(players)],
        "nation_decks": copy.deepcopy(setup["nation_decks"]),
        "nation_cards": [[] for _ in range(players)],
        "objective_deck": list(setup["objective_deck"]),
        "objectives": [[] for _ in range(players)], "accomplished": [[] for _ in range(players)],
        "order_deck": [], "order_pool": [], "upcoming": [], "order_discard": [],
        "round": 0, "start_player": 0, "waiting": [], "battle": None,
        "opening": {} if setup["variant"] != "simplified" else None,
    }


def titans_real(game: Any) -> Model:
    battle = None
    if game.battle is not None:
        battle = {"region": game.battle["region"], "sides": {
            role: {"seat": side["seat"], "troops": [dict(t) for t in side["troops"]],
                   "played": list(side["played"])}
            for role, side in game.battle["sides"].items()}}
    return {
        "armies": copy.deepcopy(game.armies), "control": dict(game.control),
        "capitols": copy.deepcopy(game.capitols), "strongholds": list(game.strongholds),
        "reserve": [{k: v for k, v in r.items() if v} for r in game.reserve],
        "titan": list(game.titan), "vp": list(game.vp),
        "support_deck": list(game.support_deck), "support_row": list(game.support_row),
        "support_discard": list(game.support_discard), "hands": [list(h) for h in game.hands],
        "nation_decks": [list(d) for d in game.nation_decks],
        "nation_cards": [list(c) for c in game.nation_cards],
        "objective_deck": list(game.objective_deck),
        "objectives": [list(o) for o in game.objectives],
        "accomplished": [list(a) for a in game.accomplished],
        "order_deck": list(game.order_deck), "order_pool": list(game.order_pool),
        "upcoming": list(game.upcoming), "order_discard": list(game.order_discard),
        "round": game.round, "start_player": game.start_player,
        "waiting": [{"region": b["region"], "troops": [dict(t) for t in b["troops"]]}
                    for b in (game.turn or {}).get("battles", [])],
        "battle": battle,
        "opening": (None if game.opening is None else
                    {k: dict(v, pay=list(v["pay"])) for k, v in game.opening["chosen"].items()}),
    }


def _t_units(m: Model, region: str, seat: int, units: dict[str, int], sign: int) -> None:
    army = m["armies"].setdefault(region, {"nation": seat, "units": {}})
    for kind, n in units.items():
        army["units"][kind] = army["units"].get(kind, 0) + sign * n
        if not army["units"][kind]:
            del army["units"][kind]
    if not army["units"]:
        del m["armies"][region]
    elif sign > 0:
        m["control"][region] = seat


def _t_reserve(m: Model, seat: int, units: dict[str, int], sign: int) -> None:
    reserve = m["reserve"][seat]
    for kind, n in units.items():
        reserve[kind] = reserve.get(kind, 0) + sign * n
        if not reserve[kind]:
            del reserve[kind]


def _t_drawn(m: Model, p: dict[str, Any]) -> None:
    for c in p["cards"]:
        m["support_deck" if p["source"] == "deck" else "support_row"].remove(c)
    m["hands"][p["seat"]].extend(p["cards"])


def _t_pay(m: Model, seat: int, cards: list[int]) -> None:
    for c in cards:
        m["hands"][seat].remove(c)
    m["support_discard"].extend(cards)


def _t_bottom(m: Model, seat: int, card: int) -> None:
    if card != -1:
        m["nation_decks"][seat].remove(card)
        m["nation_decks"][seat].append(card)


def _t_revealed(m: Model, p: dict[str, Any]) -> None:
    chosen = m["opening"] or {}
    for x in p["purchases"]:
        if x["card"] is not None:
            m["nation_decks"][x["seat"]].remove(x["card"])
            m["nation_cards"][x["seat"]].append(x["card"])
        _t_pay(m, x["seat"], x["paid"])
        _t_bottom(m, x["seat"], chosen.get(str(x["seat"]), {}).get("bottom", -1))
    m["opening"] = None


def _t_purchased(m: Model, p: dict[str, Any]) -> None:
    m["nation_decks"][p["seat"]].remove(p["card"])
    m["nation_cards"][p["seat"]].append(p["card"])
    _t_pay(m, p["seat"], p["paid"])
    _t_bottom(m, p["seat"], p["bottom"])


def _t_kept(m: Model, p: dict[str, Any]) -> None:
    m["objectives"][p["seat"]].append(p["card"])
    m["objective_deck"].extend(p["returned"])


def _t_moved(m: Model, p: dict[str, Any]) -> None:
    _t_units(m, p["origin"], p["seat"], p["units"], -1)
    if p["result"] == "battle":
        waiting = next(w for w in m["waiting"] if w["region"] == p["to"])
        waiting["troops"] += [{"unit": u, "from": p["origin"]}
                              for u in ("infantry", "cavalry", "artillery", "titan")
                              for _ in range(p["units"].get(u, 0))]
    else:
        _t_units(m, p["to"], p["seat"], p["units"], 1)


def _t_taken(m: Model, p: dict[str, Any]) -> None:
    if p["capitol"]:
        m["capitols"][p["region"]]["damaged"] = True
    m["vp"][p["seat"]] += p["vp"]


def _t_deployed(m: Model, p: dict[str, Any]) -> None:
    _t_reserve(m, p["seat"], {p["unit"]: 1}, -1)
    _t_units(m, p["region"], p["seat"], {p["unit"]: 1}, 1)
    if p["unit"] == "titan":
        m["titan"][p["seat"]] = "map"


def _t_begun(m: Model, p: dict[str, Any]) -> None:
    m["waiting"] = [w for w in m["waiting"] if w["region"] != p["region"]]
    m["armies"].pop(p["region"], None)
    m["battle"] = {"region": p["region"], "sides": {
        role: {"seat": side["seat"], "troops": [dict(t) for t in side["troops"]],
               "played": list(side["played"])} for role, side in p["sides"].items()}}


def _t_played(m: Model, p: dict[str, Any]) -> None:
    side = m["battle"]["sides"][p["role"]]
    for c in p["cards"]:
        m["hands"][p["seat"]].remove(c)
    side["played"].extend(p["cards"])
    if p["unit"] is not None:
        _t_units(m, p["origin"], p["seat"], {p["unit"]: 1}, -1)
        side["troops"].append({"unit": p["unit"], "from": p["origin"]})


def _t_destroyed(m: Model, p: dict[str, Any]) -> None:
    troops = m["battle"]["sides"][p["role"]]["troops"]
    for i in sorted(p["troops"], reverse=True):
        troops.pop(i)
    _t_reserve(m, p["seat"], p["units"], 1)
    if p["titan"]:
        m["titan"][p["seat"]] = "lying" if p["role"] == "attacker" else "standing"


def _t_withdrew(m: Model, p: dict[str, Any]) -> None:
    for move in p["moves"]:
        _t_units(m, move["to"], p["seat"], {move["unit"]: 1}, 1)
    m["battle"]["sides"][p["role"]]["troops"] = []


def _t_resolved(m: Model, p: dict[str, Any]) -> None:
    battle = m["battle"]
    units: dict[str, int] = {}
    for t in battle["sides"][p["winner_role"]]["troops"]:
        units[t["unit"]] = units.get(t["unit"], 0) + 1
    if units:
        _t_units(m, p["region"], p["winner"], units, 1)
    m["control"][p["region"]] = p["winner"]
    if p["stronghold_destroyed"]:
        m["strongholds"].remove(p["region"])
    if p["capitol_damaged"]:
        m["capitols"][p["region"]]["damaged"] = True
    m["vp"][p["winner"]] += p["vp"]
    for side in battle["sides"].values():
        m["support_discard"].extend(side["played"])
    m["battle"] = None


def _t_titan_deployed(m: Model, p: dict[str, Any]) -> None:
    _t_reserve(m, p["seat"], {"titan": 1}, -1)
    _t_units(m, p["region"], p["seat"], {"titan": 1}, 1)
    m["titan"][p["seat"]] = "map"


def _t_accomplished(m: Model, p: dict[str, Any]) -> None:
    m["objectives"][p["seat"]].remove(p["card"])
    m["accomplished"][p["seat"]].append(p["card"])
    m["vp"][p["seat"]] += p["vp"]


def _t_remove(zone: str, key: str = "cards") -> Handler:
    def handler(m: Model, p: dict[str, Any]) -> None:
        for c in p[key]:
            m[zone].remove(c)
    return handler


def _t_row(m: Model, p: dict[str, Any]) -> None:
    for c in p["cards"]:
        m["support_deck"].remove(c)
    m["support_row"].extend(p["cards"])


def _t_reshuffled(m: Model, p: dict[str, Any]) -> None:
    m["support_discard"] = [c for c in m["support_discard"] if c not in p["deck"]]
    m["support_deck"] = list(p["deck"])


def _t_order_shuffled(m: Model, p: dict[str, Any]) -> None:
    m.update(order_deck=list(p["deck"]), order_pool=[], upcoming=[], order_discard=[])


def _t_pool_drawn(zone: str) -> Handler:
    def handler(m: Model, p: dict[str, Any]) -> None:
        m["order_deck"] = m["order_deck"][len(p["cards"]):]
        m[zone] = list(p["cards"])
    return handler


def _t_slid(m: Model, p: dict[str, Any]) -> None:
    m["order_discard"].append(p["card"])
    m["order_deck"] = m["order_deck"][len(p["cards"]):]
    m.update(order_pool=m["upcoming"], upcoming=list(p["cards"]))


def _t_discarded(m: Model, p: dict[str, Any]) -> None:
    _t_pay(m, p["seat"], p["cards"])


def _t_prepared(m: Model, p: dict[str, Any]) -> None:
    m["support_discard"].extend(p["row_discarded"])
    m["support_row"] = []


TITANS: dict[str, Handler] = {
    **{k: _ignore for k in ("Ended", "EntropyAdded", "DefaultApplied", "SupportUnavailable",
                            "ObjectivesPassed", "DraftPassed", "DraftEnded", "DiceRerolled",
                            "NationCardUsed", "TitanAbilityUsed", "NationAbilityUsed",
                            "StageEnded", "ReactionDeclined", "BattleWon", "TurnBegan",
                            "TurnEnded", "ReinforcementChosen", "NationDeckTopSeen")},
    "SupportDrawn": _t_drawn,
    "SupportRowRefilled": _t_row,
    "SupportDeckReshuffled": _t_reshuffled,
    "SupportDiscarded": _t_discarded,
    "OpeningPurchaseChosen": lambda m, p: m["opening"].__setitem__(
        str(p["seat"]), {"card": p["card"], "pay": list(p["pay"]), "bottom": p["bottom"]}),
    "OpeningPurchasesRevealed": _t_revealed,
    "ObjectivesDealt": _t_remove("objective_deck"),
    "ObjectiveKept": _t_kept,
    "ObjectivesDrawn": _t_remove("objective_deck"),
    "RoundBegan": lambda m, p: m.update(round=p["round"], start_player=p["start_player"]),
    "OrderDeckShuffled": _t_order_shuffled,
    "OrderPoolDrawn": _t_pool_drawn("order_pool"),
    "UpcomingPoolDrawn": _t_pool_drawn("upcoming"),
    "OrderPoolSlid": _t_slid,
    "OrderTaken": lambda m, p: m["order_pool"].remove(p["card"]),
    "OrdersEnded": lambda m, p: m["order_discard"].append(p["card"]),
    "UnitMoved": _t_moved,
    "BattleDeclared": lambda m, p: m["waiting"].append({"region": p["region"], "troops": []}),
    "RegionTaken": _t_taken,
    "UnitDeployed": _t_deployed,
    "StrongholdBuilt": lambda m, p: m["strongholds"].append(p["region"]),
    "NationCardPurchased": _t_purchased,
    "ObjectiveAccomplished": _t_accomplished,
    "BattleBegun": _t_begun,
    "SupportPlayed": _t_played,
    "UnitsDestroyed": _t_destroyed,
    "UnitsWithdrew": _t_withdrew,
    "BattleResolved": _t_resolved,
    "TitanRaised": lambda m, p: m["titan"].__setitem__(p["seat"], "standing"),
    "TitanDeployed": _t_titan_deployed,
    "RoundScored": lambda m, p: m.update(vp=[a + b for a, b in zip(m["vp"], p["vp"],
                                                                   strict=True)]),
    "StartingPlayerPassed": lambda m, p: m.update(round=p["round"],
                                                  start_player=p["start_player"]),
    "RoundPrepared": _t_prepared,
}


@functools.cache
def titans_games() -> list[list[Any]]:
    """Random Titans playouts of every table size (``tests/property``'s bot)."""
    from tests.property.test_titans_playouts import play

    return [play(players, 8_100_000 + 10 * players + n,
                 {"variant": "simplified"} if n == 1 else {})[1]
            for players in (2, 3, 4) for n in range(2)]


@pytest.mark.parametrize("index", range(6))
def test_titans_events_fold_to_the_state__rulebook_Resolving_Battles(index: int) -> None:
    """Every unit's move, deployment, destruction and withdrawal, every region's
    control, Capitol and Stronghold, every card's move (Support, Order, Nation,
    Secret Objective) and every Victory Point is in an event."""
    _fold_and_compare(titans_games()[index], TITANS, titans_start, titans_real)


# ---------------------------------------------------------- Nine Empires


def nine_start(created: dict[str, Any]) -> Model:
    """Setup (rulebook "Setup"): each player's stronghold, starting castles (with the
    food the setup states), Motte and Bailey in play and the shuffled deck, numbered
    ``i0``, ``i1``... in that order; each faction's starting Renown; the Ordained."""
    m: Model = {"zones": {}, "cards": {}, "renown": [], "out": [], "turn": 0,
                "ordained": created["setup"]["ordained"], "over": False, "stealth": {},
                "lasting": [], "uses": {}, "attacked": [], "raided": [], "mulligans": []}
    for seat, p in enumerate(created["setup"]["players"]):
        m["renown"].append(p["renown"])
        food = [0, *p["food"], 0]
        for n in range(len(p["castles"]) + 2):
            _ne_create(m, f"i{len(m['cards'])}", "play", seat)["food"] = food[n]
        for _ in p["cards"]:
            _ne_create(m, f"i{len(m['cards'])}", f"deck:{seat}", seat)
    return m


def nine_real(game: Any) -> Model:
    c = game.conflict
    return {
        "zones": {k: list(v) for k, v in game.zones.items() if v},
        "cards": {i: {k: copy.deepcopy(inst[k]) for k in _NE_CARD} | {"zone": inst["zone"]}
                  for i, inst in game.instances.items()},
        "renown": list(game.renown), "out": list(game.out), "turn": game.turn,
        "ordained": game.ordained, "over": game.over,
        "stealth": {} if c is None else dict(c["stealth"]),
        "lasting": copy.deepcopy(game.lasting), "uses": dict(game.uses),
        "attacked": list(game.attacked),
        "raided": list(game.raided), "mulligans": list(game.mulligans),
    }


#: What the fold knows of each card instance (with its zone).
_NE_CARD = ("owner", "token", "bowed", "food", "markers", "attached_to", "location",
            "memory")


def _ne_create(m: Model, iid: str, zone: str, owner: int, token: bool = False
               ) -> dict[str, Any]:
    m["zones"].setdefault(zone, []).append(iid)
    m["cards"][iid] = {"owner": owner, "token": token, "bowed": False, "food": 0,
                       "markers": {}, "attached_to": None, "location": "home", "memory": {},
                       "zone": zone}
    return m["cards"][iid]


def _ne_move(m: Model, iid: str, zone: str) -> None:
    """A card changes zone (to the end); leaving play it forgets everything on it,
    and a token leaving play leaves the game."""
    card = m["cards"][iid]
    m["zones"][card["zone"]].remove(iid)
    if not m["zones"][card["zone"]]:
        del m["zones"][card["zone"]]
    if card["zone"] == "play" and zone != "play":
        card.update(bowed=False, food=0, markers={}, attached_to=None, location="home",
                    memory={})
    if card["token"] and zone != "play":
        card["zone"] = ""
        return
    card["zone"] = zone
    m["zones"].setdefault(zone, []).append(iid)


def _ne_unit(m: Model, hero: str) -> list[str]:
    return [hero, *(i for i in m["zones"].get("play", []) if m["cards"][i]["attached_to"] == hero)]


def _ne_locate(m: Model, hero: str, where: str) -> None:
    for i in _ne_unit(m, hero):
        m["cards"][i]["location"] = where


def _ne_home(m: Model, hero: str) -> None:
    _ne_locate(m, hero, "home")
    m["cards"][hero]["memory"].pop("side", None)


def _ne_all_home(m: Model) -> None:
    """The conflict is over: every unit still at a castle, or on a side, goes home."""
    for i in list(m["zones"].get("play", [])):
        card = m["cards"][i]
        if card["attached_to"] is None and (card["location"] != "home"
                                            or card["memory"].get("side")):
            _ne_home(m, i)


def _ne_bow(flag: bool, key: str = "cards") -> Handler:
    def handle(m: Model, p: dict[str, Any]) -> None:
        for c in p[key]:
            m["cards"][c]["bowed"] = flag
    return handle


def _ne_food(m: Model, iid: str, amount: int) -> None:
    m["cards"][iid]["food"] += amount


def _ne_played(m: Model, p: dict[str, Any]) -> None:
    _ne_move(m, p["card"], "play")
    if p["attach_to"]:
        m["cards"][p["card"]].update(attached_to=p["attach_to"],
                                     location=m["cards"][p["attach_to"]]["location"])
    if p["bowed"]:
        m["cards"][p["card"]]["bowed"] = True


def _ne_marker(m: Model, p: dict[str, Any]) -> None:
    markers = m["cards"][p["target"]]["markers"]
    markers[p["stat"]] = markers.get(p["stat"], 0) + p["amount"]
    if not markers[p["stat"]]:
        del markers[p["stat"]]


def _ne_token(m: Model, p: dict[str, Any]) -> None:
    card = _ne_create(m, p["token"], "play", p["seat"], token=True)
    card.update(attached_to=p["attached_to"],
                location=m["cards"][p["attached_to"]]["location"])


def _ne_stealth_discarded(m: Model, hero: str) -> None:
    stealth = m["stealth"].pop(hero, None)
    if stealth is not None:
        _ne_move(m, stealth, f"discard:{_ne_owner(m, stealth)}")


def _ne_owner(m: Model, iid: str) -> int:
    """Whose card (set when it was made: its deck's seat, a token's maker)."""
    return int(m["cards"][iid]["owner"])


def _ne_forget(m: Model, card: str) -> None:
    """Card memory: the effects in force on a card buried end with it, and its uses
    are forgotten (if it comes back, it is a new card)."""
    m["lasting"] = [e for e in m["lasting"] if e["target"] != card]
    m["uses"] = {k: n for k, n in m["uses"].items() if not k.startswith(f"{card}/")}


def _ne_hero_buried(m: Model, p: dict[str, Any]) -> None:
    _ne_stealth_discarded(m, p["hero"])
    for a in p["buried"]:
        _ne_forget(m, a)
        _ne_move(m, a, f"buried:{_ne_owner(m, a)}")
    for a in p["discarded"]:
        _ne_forget(m, a)
        _ne_move(m, a, f"discard:{_ne_owner(m, a)}")
    _ne_forget(m, p["hero"])
    _ne_move(m, p["hero"], f"buried:{p['seat']}")


def _ne_card_buried(m: Model, p: dict[str, Any]) -> None:
    _ne_forget(m, p["card"])
    _ne_move(m, p["card"], f"buried:{p['seat']}")


#: Which lasting effects end when a battle, a raid, a phase or the turn ends
#: (their durations name it).
_NE_ENDS = {"battle": {"end_of_battle"}, "raid": {"end_of_raid"}, "phase": {"end_of_phase"},
            "turn": {"end_of_battle", "end_of_raid", "end_of_phase", "end_of_turn"}}


def _ne_expire(m: Model, boundary: str) -> None:
    m["lasting"] = [e for e in m["lasting"] if e["duration"] not in _NE_ENDS[boundary]]


def _ne_after(handler: Handler, boundary: str) -> Handler:
    """``handler``, then the effects lasting until the end of ``boundary`` end."""
    def handle(m: Model, p: dict[str, Any]) -> None:
        handler(m, p)
        _ne_expire(m, boundary)
    return handle


def _ne_effect(m: Model, p: dict[str, Any]) -> None:
    m["lasting"].append({"id": p["id"], "target": p["target"], "verb": p["verb"],
                         "params": dict(p["params"]), "duration": p["duration"]})


def _ne_remove(key: str, seat: str = "seat") -> Handler:
    """The seat the event names is no longer awaited in ``key`` (a pending review)."""
    def handle(m: Model, p: dict[str, Any]) -> None:
        if p[seat] in m[key]:
            m[key].remove(p[seat])
    return handle


def _ne_mulligan_done(m: Model, p: dict[str, Any]) -> None:
    _ne_mulliganed(m, p)
    _ne_remove("mulligans")(m, p)


def _ne_units_assigned(m: Model, p: dict[str, Any]) -> None:
    for i, (hero, castle) in enumerate(zip(p["heroes"], p["castles"], strict=True)):
        _ne_locate(m, hero, castle)
        m["cards"][hero]["memory"]["side"] = p["side"]
        if "stealth" in p:
            _ne_move(m, p["stealth"][i], "stealth")
            m["stealth"][hero] = p["stealth"][i]


def _ne_raid_resolved(m: Model, p: dict[str, Any]) -> None:
    raider, defender = p["raiding_hero"], p["defending_hero"]
    if p["stolen"] and raider:
        _ne_food(m, p["castle"], -p["stolen"])
        _ne_food(m, raider, p["stolen"])
    for hero in (raider, defender):
        if hero is None:
            continue
        _ne_stealth_discarded(m, hero)
        if hero == raider:
            for i in _ne_unit(m, hero):
                m["cards"][i]["bowed"] = True
        _ne_home(m, hero)


def _ne_conflict_ended(m: Model, p: dict[str, Any]) -> None:
    for hero in list(m["stealth"]):
        _ne_stealth_discarded(m, hero)
    _ne_all_home(m)


def _ne_battle_ended(m: Model, p: dict[str, Any]) -> None:
    for hero in p["attackers"]:
        for i in _ne_unit(m, hero):
            m["cards"][i]["bowed"] = True
        _ne_home(m, hero)
    for hero in p["defenders_home"]:
        _ne_home(m, hero)


def _ne_food_stored(m: Model, p: dict[str, Any]) -> None:
    for hero, castle in p["moves"]:
        _ne_food(m, hero, -1)
        _ne_food(m, castle, 1)
    for hero in p["heroes"]:
        m["cards"][hero]["food"] = 0


def _ne_to(kind: str, key: str) -> Handler:
    """The cards the event names go, in its order, to the end of the seat's zone."""
    def handle(m: Model, p: dict[str, Any]) -> None:
        for c in p[key]:
            _ne_move(m, c, f"{kind}:{p['seat']}")
    return handle


def _ne_discard(key: str) -> Handler:
    return _ne_to("discard", key)


def _ne_spring(m: Model, p: dict[str, Any]) -> None:
    """Spring: the cards named straighten (those still in play)."""
    for c in p["straightened"]:
        if m["cards"][c]["zone"] == "play":
            m["cards"][c]["bowed"] = False


def _ne_returned_home(m: Model, p: dict[str, Any]) -> None:
    for c in p["bowed"]:
        m["cards"][c]["bowed"] = True
    _ne_home(m, p["hero"])


def _ne_food_spent(m: Model, p: dict[str, Any]) -> None:
    for c in p["castles"]:
        _ne_food(m, c, -1)
    assert all(m["cards"][c]["food"] == n for c, n in p["left"].items()), "food left stated"


def _ne_redistributed(m: Model, p: dict[str, Any]) -> None:
    for c, n in p["food"].items():
        m["cards"][c]["food"] = n


def _ne_mulliganed(m: Model, p: dict[str, Any]) -> None:
    _ne_discard("discarded")(m, p)
    for castle in p["food_from"]:
        _ne_food(m, castle, -1)


def _ne_absorbed(m: Model, p: dict[str, Any]) -> None:
    if p["kind"] == "food":
        _ne_food(m, p["card"], -1)
    if p["discard"]:
        _ne_move(m, p["discard"], f"discard:{p['seat']}")


def _ne_moved(m: Model, p: dict[str, Any]) -> None:
    _ne_locate(m, p["hero"], p["castle"])
    m["cards"][p["hero"]]["memory"]["side"] = p["side"]


def _ne_sent_home(m: Model, p: dict[str, Any]) -> None:
    if p["stealth"] and p["hero"] in m["stealth"]:
        _ne_stealth_discarded(m, p["hero"])
    _ne_home(m, p["hero"])


def _ne_quest_completed(m: Model, p: dict[str, Any]) -> None:
    m["cards"][p["quest"]]["memory"]["completed"] = True
    m["renown"][p["seat"]] += p["renown"]
    assert m["renown"][p["seat"]] == p["total"], "the new Renown stated is the old plus the reward"


def _ne_announced(m: Model, p: dict[str, Any]) -> None:
    """An ability used (a React included): one more use of that ability of that card
    this turn; a tactic goes to its owner's discard pile."""
    key = f"{p['source']}/{p['ability']}@{m['turn']}"
    m["uses"][key] = m["uses"].get(key, 0) + 1
    if p["tactic"]:
        _ne_move(m, p["source"], f"discard:{p['seat']}")


def _ne_eliminated(m: Model, p: dict[str, Any]) -> None:
    if p["seat"] not in m["out"]:
        m["out"].append(p["seat"])


NINE_EMPIRES: dict[str, Handler] = {
    **KERNEL,
    **{k: _ignore for k in (
        # The flow's bookkeeping (action passing, React windows, the steps of an
        # engagement) and abilities announced, triggered or cancelled: the
        # kernel's frames, which the fold does not model; who redistributes and
        # who discards down in Winter (recorded by rules 1.4.0 and before only:
        # 1.5.0 reads them from the castles and the hands); an ability or an
        # engagement resolved (recorded by rules 1.5.0 and before only: 1.6.0
        # closes each window with the fact that closes it, the effects being
        # facts of their own).
        "Passed", "PhaseBegan", "ReactPassed", "RedistributionBegan", "HandSizeChecked",
        "AbilityResolved", "AbilityCancelled", "AbilityTriggered",
        "DamageReduced", "AlliesCalled", "AllyChosen", "BattleChosen", "RaidChosen",
        "ImmunityStep", "AbsorbStep", "ImmunityDeclared", "EngagementResolved",
        "WinterBegan", "OrdainedTaken")},
    "TurnBegan": lambda m, p: m.update(turn=p["turn"], attacked=[], raided=[]),
    "BattleDeclared": lambda m, p: m["attacked"].append(p["attacker"]),
    "RaidDeclared": lambda m, p: m["raided"].append(p["raider"]),
    "EffectApplied": _ne_effect,
    "PhaseEnded": lambda m, p: _ne_expire(m, "phase"),
    "EffectsEnded": lambda m, p: _ne_expire(m, "turn"),
    "HandsDealt": lambda m, p: m.update(mulligans=list(p["seats"])),
    "HandKept": _ne_remove("mulligans"),
    "AbilityUsed": _ne_announced,
    "ReactPlayed": _ne_announced,
    "SpringBegan": _ne_spring,
    "Bowed": _ne_bow(True),
    "Straightened": _ne_bow(False),
    "GloryPaid": _ne_bow(True, "bowed"),
    "Engaged": _ne_bow(True),
    "ReturnedHome": _ne_returned_home,
    "FoodSpent": _ne_food_spent,
    "FoodAdded": lambda m, p: _ne_food(m, p["castle"], p["amount"]),
    "FoodLost": lambda m, p: _ne_food(m, p["castle"], -p["amount"]),
    "FoodRedistributed": _ne_redistributed,
    "FoodStored": _ne_food_stored,
    "CardPlayed": _ne_played,
    "RenownGained": lambda m, p: m["renown"].__setitem__(p["seat"], p["total"]),
    "QuestCompleted": _ne_quest_completed,
    "CardsDiscarded": _ne_discard("cards"),
    "Mulliganed": _ne_mulligan_done,
    "CardsDrawn": _ne_to("hand", "cards"),
    "DeckReshuffled": _ne_to("deck", "order"),
    "MarkerPlaced": _ne_marker,
    "TokenMade": _ne_token,
    "HeroBuried": _ne_hero_buried,
    "CardBuried": _ne_card_buried,
    "QuestBuried": lambda m, p: _ne_move(m, p["quest"], f"buried:{p['seat']}"),
    "CastleBuried": lambda m, p: _ne_move(m, p["castle"], f"buried:{p['seat']}"),
    "DamageAbsorbed": _ne_absorbed,
    "MovedToBattle": _ne_moved,
    "SentHome": _ne_sent_home,
    "UnitsAssigned": _ne_units_assigned,
    "RaidUnitsAssigned": _ne_units_assigned,
    "RaidResolved": _ne_after(_ne_raid_resolved, "raid"),
    "BattleEnded": _ne_after(_ne_battle_ended, "battle"),
    "AttackEnded": _ne_after(_ne_conflict_ended, "battle"),
    "RaidEnded": _ne_after(_ne_conflict_ended, "raid"),
    "OrdainedPassed": lambda m, p: m.update(ordained=p["to"]),
    "PlayerEliminated": _ne_eliminated,
    "GameWon": lambda m, p: m.update(over=True),
}


@functools.cache
def nine_empires_games() -> list[list[Any]]:
    """Random Nine Empires playouts at 2, 3 and 4 seats (``tests/property``'s bot)."""
    from tests.property.test_nine_empires_playouts import play

    return [play(seed, players)[1] for players in (2, 3, 4) for seed in range(NINE_GAMES)]


#: Games per table size: one in CI, a few under ``make soak``.
NINE_GAMES = soak.games(1, 4)


@pytest.mark.parametrize("index", range(3 * NINE_GAMES))
def test_nine_empires_events_fold_to_the_state__rulebook_Battles_and_Raids(index: int) -> None:
    """Every card's move (deck, hand, play, stealth, discard, buried), every bow and
    straighten, every food token, marker, attachment and unit's place, every point of
    Renown, every elimination and the Ordained are in an event."""
    _fold_and_compare(nine_empires_games()[index], NINE_EMPIRES, nine_start, nine_real)


# ------------------------------------------------ every declared event is folded

#: Each registered game's fold table, by rules id.
FOLDS: dict[str, dict[str, Handler]] = {"enin": ENIN, "ethnos": ETHNOS, "ettin": ETTIN_FOLD,
                                        "template": TEMPLATE, "titans": TITANS,
                                        "nine_empires": NINE_EMPIRES}


def _registered() -> list[Any]:
    from aggregates import catalog

    template = catalog.extra_games("tests.template_game:Template")
    games = (*catalog.SERVED, *catalog.released_classes(), *template)
    return [pytest.param(cls, id=f"{cls.RULES_ID}-{cls.RULES_VERSION}") for cls in games]


@pytest.mark.parametrize("cls", _registered())
def test_each_fold_covers_exactly_the_declared_events(cls: Any) -> None:
    """A fold knows every event the game declares (``aggregates.kernel.declared``),
    the kernel's included, and no event that is not declared: a new event type
    cannot pass the fold untested, nor a removed one linger in it."""
    from aggregates.kernel import declared

    fold = FOLDS.get(cls.RULES_ID)
    assert fold is not None, f"no fold of {cls.RULES_ID}'s events in this test"
    events = set(declared.events(cls))
    assert {*fold, "Created"} == events, (
        f"not folded: {sorted(events - {*fold, 'Created'})}; "
        f"folded, not declared: {sorted(set(fold) - events)}")
