"""Titans component data, loaded from ``data/*.json`` and validated on load.

The rulebook refers the map, the printed cards, the dice and the Nation
Boards to a separate "Glossary and Solo Mode" book the project does not have,
so the shipped files are DESIGNED (each file's ``designed`` header says so
and what in it is the rulebook's):

- ``map.json``: the regions (with a drawing position and a home Nation),
  the borders, and the board setups for 2, 3 and 4 players (Nations in
  starting turn order, Capitols, starting Units, inactive Regions);
- ``components.json``: the unit supply, the dice faces and the dice set,
  the 16 Order Cards' actions, the 32 Support Cards, each Nation's data and
  10 Nation Cards, and the rulebook's tables (Order Pool sizes, Battle
  Outcome tiers, Support sets, Round discounts);
- ``objectives.json``: the 18 Secret Objectives.

Set ``TITANS_MAP``, ``TITANS_COMPONENTS`` or ``TITANS_OBJECTIVES`` to the
path of a replacement file (a printed set) to load it instead; it is
validated the same way, and a bad one fails at import with where it is wrong.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aggregates.kernel.abilities import (
    Ability,
    AbilityError,
    Vocabulary,
    check_expr,
    leaves,
    read_ability,
)
from aggregates.kernel.data import DataError, Record, integer, read_json, validator
from aggregates.titans.board import Board
from aggregates.titans.dice import DiceSet
from aggregates.titans.pieces import Supply

HERE = Path(__file__).parent / "data"

UNITS = ("infantry", "cavalry", "artillery", "titan")
TITAN = "titan"
#: The actions an Order Card may show (rulebook, "A) Order Phase").
MOVE_ACTIONS = {"move_infantry": "infantry", "move_cavalry": "cavalry",
                "move_artillery": "artillery", "move_titan": "titan", "move_any": None}
DEPLOY_ACTIONS = {"deploy_infantry": "infantry", "deploy_cavalry": "cavalry", "deploy_any": None}
ACTIONS = (*MOVE_ACTIONS, "group_move", *DEPLOY_ACTIONS, "purchase", "purchase_discount",
           "stronghold")
#: The three printed Support Card effects (rulebook, "Playing Support Card(s)").
SUPPORT_EFFECTS = ("move_unit", "add_die", "add_strength")
#: Effects of Nation Cards and abilities, as the kernel's ability engine reads
#: them (``abilities.py`` gives each verb its rule).
EFFECTS = ("strength", "die", "reroll_blanks", "draw_support", "hand_limit")
TIMINGS = ("battle", "round", "always")
#: What a condition may ask of the Battle, from the user's side: ``role``
#: (attacker or defender), ``fortified`` (defending a Stronghold or an
#: undamaged Capitol), ``outnumbered`` (fewer units in the Battle than the
#: opponent); and of each side's army, under ``your`` or ``opposing``:
#: ``army`` (its unit types) and ``units`` (how many).
WORDS = Vocabulary(verbs=frozenset(EFFECTS), timings=frozenset(TIMINGS),
                   facts=frozenset({"role", "fortified", "outnumbered"}),
                   sided=frozenset({"army", "units"}))
CONDITIONS = ("regions", "named_regions", "units_on_map", "unit_type_on_map", "strongholds",
              "battles_won", "enemy_capitol", "nation_cards", "support_hand", "armies",
              "units_destroyed", "titan_beside_enemy", "army_size")
ORDER_MARKS = {"all": 2, "3+": 3, "4": 4}  # the fewest players a card is used with


class Order(Record):
    id: int
    players: str         # "all", "3+" or "4"
    actions: tuple[str, ...]

    def used_with(self, players: int) -> bool:
        return players >= ORDER_MARKS[self.players]


class Support(Record):
    id: int
    effect: str          # one of SUPPORT_EFFECTS
    condition: Mapping[str, Any]  # a unit type in "your" or the "opposing" army (``WORDS``)


class NationCard(Record):
    id: int
    nation: str
    name: str
    cost: int
    timing: str          # "battle" (once per Battle), "round" (once per Round), "always"
    ability: Ability     # the card's text, read by the kernel's ability engine
    x: bool = False      # the card the Simplified variant starts with


class Nation(Record):
    key: str
    name: str
    hand_limit: int
    starting_ability: Ability
    titan_ability: Ability
    cards: tuple[int, ...]   # NationCard ids

    @property
    def x_card(self) -> int:
        return next(c for c in self.cards if NATION_CARDS[c].x)


class Start(Record):
    capitol: str
    units: Mapping[str, Mapping[str, int]]


class Setup(Record):
    key: str
    players: int
    nations: tuple[str, ...]
    start: Mapping[str, Start]
    inactive: tuple[str, ...]


class Objective(Record):
    id: int
    name: str
    vp: int
    condition: Mapping[str, Any]


class Outcome(Record):
    """One row of the Battle Outcome Card: strength difference -> its effects."""

    low: int
    high: int | None
    destroy: int
    cards: int
    vp: int


class Tables(Record):
    designed: tuple[str, ...]
    supply: Supply
    control_tokens: int
    strongholds: int
    dice: DiceSet
    order_pool_size: Mapping[int, int]
    rounds: Mapping[str, int]
    discounts: Mapping[str, Mapping[int, int]]
    outcomes: tuple[Outcome, ...]
    bonus_vp: Mapping[str, int]
    support_sets: Mapping[str, Mapping[int, Mapping[str, Any]]]
    support_row: int
    support_start: Mapping[str, int]
    inactive_tokens: int

    def outcome(self, difference: int) -> Outcome:
        for row in self.outcomes:
            if difference >= row.low and (row.high is None or difference <= row.high):
                return row
        raise AssertionError(f"no Battle Outcome row for {difference}")

    def discount(self, rounds: int, round_no: int) -> int:
        table = self.discounts["extended" if rounds > self.rounds["standard"] else "standard"]
        return table.get(round_no, 0)


# ------------------------------------------------------------------ loading


def _support_condition(item: Mapping[str, Any], i: int) -> Mapping[str, Any]:
    """A Support Card's requirement: one unit type in one army, yours or the
    opposing one, in the ability engine's grammar."""
    condition = item.get("condition")
    try:
        check_expr(condition, f"support card {i}", WORDS.facts, WORDS.sided)
    except AbilityError as exc:
        raise DataError(str(exc)) from exc
    tests = list(leaves(condition))
    if len(tests) != 1 or tests[0][:2] not in (("your", "army"), ("opposing", "army")) \
            or not isinstance(tests[0][2], Mapping) or tests[0][2].get("has") not in UNITS:
        raise DataError(f"support card {i}: requires a unit type in your or the opposing army")
    return dict(condition or {})


#: A Nation Card's fields that are not its ability's.
_CARD_FIELDS = ("id", "cost", "x")


def _ability(raw: Mapping[str, Any], where: str) -> Ability:
    """One ability record (a Nation Card's fields aside), read by the kernel's
    engine against ``WORDS``; then what the words cannot say: one effect, its
    amounts, dice and units known, a hand limit always on."""
    record = {k: v for k, v in raw.items() if k not in _CARD_FIELDS}
    try:
        ability = read_ability({"name": where, **record}, where, WORDS)
    except AbilityError as exc:
        raise DataError(str(exc)) from exc
    if len(ability.steps) != 1 or ability.steps[0].target:
        raise DataError(f"{where}: one effect, on the Battle or the player")
    kind, params = ability.verb, ability.params
    if kind in ("strength", "draw_support", "hand_limit"):
        integer(params.get("amount"), f"{where} amount", low=1)
    if kind == "die" and params.get("die") not in UNITS:
        raise DataError(f"{where}: unknown die {params.get('die')!r}")
    if kind == "hand_limit" and ability.timing != "always":
        raise DataError(f"{where}: a hand limit effect is always on")
    for _scope, fact, want in leaves(ability.condition):
        value = want.get("has", want.get("min")) if isinstance(want, Mapping) else want
        if fact == "army" and value not in UNITS:
            raise DataError(f"{where}: unknown unit {value!r}")
        if fact == "role" and value not in ("attacker", "defender"):
            raise DataError(f"{where}: a role is attacker or defender")
        if fact == "units":
            integer(value, f"{where} units", low=1)
    return ability


@validator("Titans components")
def load_components(raw: Mapping[str, Any]) -> tuple[Tables, tuple[Order, ...],
                                                      tuple[Support, ...],
                                                      dict[str, Nation],
                                                      tuple[NationCard, ...]]:
    supply = Supply.from_data(raw["units"])
    if tuple(supply.kinds) != UNITS:
        raise DataError(f"the units are {UNITS}")
    dice = DiceSet.from_data(raw["dice"])
    if set(dice.dice) != set(UNITS):
        raise DataError(f"a die for each unit type {UNITS}")
    orders = []
    for i, item in enumerate(raw["orders"]):
        if item["id"] != i:
            raise DataError(f"order card {i} has id {item['id']}")
        if item["players"] not in ORDER_MARKS:
            raise DataError(f"order card {i}: players is one of {list(ORDER_MARKS)}")
        actions = tuple(item["actions"])
        bad = [a for a in actions if a not in ACTIONS]
        if not actions or bad:
            raise DataError(f"order card {i}: unknown action(s) {bad}")
        orders.append(Order(i, item["players"], actions))
    pool = {int(k): integer(v, "order pool size", 2) for k, v in raw["order_pool_size"].items()}
    for players, size in pool.items():
        deck = sum(1 for o in orders if o.used_with(players))
        if deck < 2 * size:
            raise DataError(f"{players} players: an Order Deck of {deck} cannot fill a Pool "
                            f"and an Upcoming Pool of {size}")
    supports = []
    for i, item in enumerate(raw["support"]):
        if item["id"] != i or item["effect"] not in SUPPORT_EFFECTS:
            raise DataError(f"support card {i}: id and an effect of {SUPPORT_EFFECTS}")
        supports.append(Support(i, item["effect"], _support_condition(item, i)))
    if {s.effect for s in supports} != set(SUPPORT_EFFECTS):
        raise DataError(f"the Support Deck holds each of {SUPPORT_EFFECTS}")
    nations: dict[str, Nation] = {}
    cards: list[NationCard] = []
    for item in raw["nations"]:
        key = str(item["key"])
        ids = []
        for c in item["cards"]:
            if c["id"] != len(cards):
                raise DataError(f"{key}: nation card ids run 0.. in order ({c['id']})")
            cost = integer(c["cost"], f"{key} {c['name']} cost")
            if cost > 3:
                raise DataError(f"{key} {c['name']}: a cost is 0 to 3")
            cards.append(NationCard(c["id"], key, str(c["name"]), cost, c["timing"],
                                    _ability(c, f"{key} {c['name']}"),
                                    bool(c.get("x", False))))
            ids.append(c["id"])
        if len(ids) != 10 or sum(1 for i in ids if cards[i].x) != 1:
            raise DataError(f"{key}: 10 Nation Cards, one marked X")
        nations[key] = Nation(key, str(item["name"]), integer(item["hand_limit"], "hand limit", 1),
                              _ability(item["starting_ability"], f"{key} starting ability"),
                              _ability(item["titan_ability"], f"{key} titan ability"),
                              tuple(ids))
    outcomes = tuple(Outcome(integer(o["min"], "outcome min"), o["max"],
                             integer(o["destroy"], "destroy"), integer(o["cards"], "cards"),
                             integer(o["vp"], "vp")) for o in raw["battle_outcomes"])
    pairs = zip(outcomes, outcomes[1:], strict=False)
    if outcomes[0].low != 0 or outcomes[-1].high is not None or any(
            a.high is None or a.high + 1 != b.low for a, b in pairs):
        raise DataError("the Battle Outcome rows cover 0.. without gaps")
    sets = {effect: {int(k): dict(v) for k, v in by.items()}
            for effect, by in raw["support_sets"].items()}
    if set(sets) != set(SUPPORT_EFFECTS):
        raise DataError(f"support sets for each of {SUPPORT_EFFECTS}")
    rounds = {k: integer(v, "rounds", 1) for k, v in raw["rounds"].items()}
    discounts = {variant: {int(k): integer(v, "discount") for k, v in table.items()}
                 for variant, table in raw["discounts"].items()}
    tables = Tables(
        designed=(str(raw["designed"]),), supply=supply,
        control_tokens=integer(raw["control_tokens"], "control tokens", 1),
        strongholds=integer(raw["strongholds"], "strongholds"), dice=dice,
        order_pool_size=pool, rounds=rounds, discounts=discounts, outcomes=outcomes,
        bonus_vp={k: integer(v, k) for k, v in raw["bonus_vp"].items()},
        support_sets=sets, support_row=integer(raw["support_row"], "support row", 1),
        support_start={k: integer(v, "support start") for k, v in raw["support_start"].items()},
        inactive_tokens=integer(raw.get("inactive_tokens", 13), "inactive tokens"),
    )
    return tables, tuple(orders), tuple(supports), nations, tuple(cards)


def load_map(raw: Mapping[str, Any], nations: Mapping[str, Nation], supply: Supply,
             inactive_tokens: int) -> tuple[Board, dict[str, str | None], tuple[Setup, ...]]:
    board = Board.from_data(raw)
    homes = {str(r["key"]): r.get("home") for r in raw["regions"]}
    setups = []
    for item in raw["setups"]:
        key = str(item["key"])
        names = tuple(item["nations"])
        if len(names) != integer(item["players"], f"setup {key} players", 2) or len(
                set(names)) != len(names) or set(names) - set(nations):
            raise DataError(f"setup {key}: players distinct known Nations")
        inactive = tuple(item["inactive"])
        if set(inactive) - set(board.regions) or len(inactive) > inactive_tokens:
            raise DataError(f"setup {key}: at most {inactive_tokens} known inactive regions")
        if not board.connected(inactive):
            raise DataError(f"setup {key}: the active regions are not connected")
        starts: dict[str, Start] = {}
        for nation in names:
            st = item["start"][nation]
            units = {str(r): {str(k): integer(v, f"setup {key} units", 1) for k, v in u.items()}
                     for r, u in st["units"].items()}
            if any(supply.counts[k] < sum(u.get(k, 0) for u in units.values())
                   for k in supply.kinds):
                raise DataError(f"setup {key}: {nation} starts with more units than it has")
            if st["capitol"] not in units or set(units) & set(inactive) or set(units) - set(
                    board.regions):
                raise DataError(f"setup {key}: {nation} starts in active regions, its Capitol "
                                "among them")
            starts[nation] = Start(str(st["capitol"]), units)
        used = [r for s in starts.values() for r in s.units]
        if len(used) != len(set(used)):
            raise DataError(f"setup {key}: two Nations start in one region")
        setups.append(Setup(key, len(names), names, starts, inactive))
    for players in (2, 3, 4):
        if not any(s.players == players for s in setups):
            raise DataError(f"no board setup for {players} players")
    return board, homes, tuple(setups)


def load_objectives(raw: Mapping[str, Any], board: Board) -> tuple[Objective, ...]:
    out = []
    for i, item in enumerate(raw["objectives"]):
        cond = dict(item["condition"])
        if item["id"] != i or cond.get("kind") not in CONDITIONS:
            raise DataError(f"objective {i}: id and a condition of {CONDITIONS}")
        if cond["kind"] == "named_regions" and set(cond["regions"]) - set(board.regions):
            raise DataError(f"objective {i}: unknown regions")
        if "count" in cond:
            integer(cond["count"], f"objective {i} count", 1)
        if cond["kind"] == "unit_type_on_map" and cond["unit"] not in UNITS:
            raise DataError(f"objective {i}: unknown unit")
        out.append(Objective(i, str(item["name"]), integer(item["vp"], "vp", 1), cond))
    if len(out) != 18:
        raise DataError(f"18 Secret Objectives, not {len(out)}")
    return tuple(out)


def _path(variable: str, default: str) -> Path:
    return Path(os.environ.get(variable) or HERE / default)


_components = read_json(_path("TITANS_COMPONENTS", "components.json"))
TABLES, ORDERS, SUPPORTS, NATIONS, NATION_CARDS = load_components(_components)
_map = read_json(_path("TITANS_MAP", "map.json"))
BOARD, HOMES, SETUPS = validator("Titans map")(
    lambda raw: load_map(raw, NATIONS, TABLES.supply, TABLES.inactive_tokens))(_map)
_objectives = read_json(_path("TITANS_OBJECTIVES", "objectives.json"))
OBJECTIVES = validator("Titans objectives")(
    lambda raw: load_objectives(raw, BOARD))(_objectives)
DESIGNED = (_components["designed"], _map["designed"], _objectives["designed"])


def setups_for(players: int) -> list[Setup]:
    """The board setups for ``players`` (the rulebook's "Main Board Setup")."""
    return [s for s in SETUPS if s.players == players]


def order_deck(players: int) -> list[int]:
    """The Order Cards used with ``players`` (rulebook, Game Setup 4)."""
    return [o.id for o in ORDERS if o.used_with(players)]


def capitol_of(nation: str, setup: Setup) -> str:
    return setup.start[nation].capitol
