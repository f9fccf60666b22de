"""The Land of Enin's printed tables, loaded from ``data/enin.json``.

Every table of the rulebook lives in the JSON file; this module turns it into
frozen dataclasses at import and refuses malformed data loudly (a D10 chart
that does not cover 1..10 exactly, an unknown dice spec, an unknown item...).
Set ``ENIN_DATA`` to the path of a replacement file to load another copy.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from aggregates.kernel.data import DataError, Record, integer, read_json, validator

DATA_FILE = Path(__file__).parent / "data" / "enin.json"

MARKET_ITEMS = ("potion_of_healing", "potion_of_strength", "potion_of_fate", "map_of_enin")
MAGIC_ITEMS = ("damask_sword", "helm_of_vitality", "ring_of_reward", "shield_of_nines")
QUEST_ITEMS = ("key", "watchword", "maiden", "lodestone", "lost_book")


_TERM = re.compile(r"^(\d*)D(\d+)$")


class Dice(Record):
    """A dice spec as printed: ``"3"``, ``"D2"``, ``"2D6"``, ``"1D10+1D6"``, ``"1D6+4"``."""

    text: str
    sides: tuple[int, ...]
    bonus: int

    @property
    def fixed(self) -> bool:
        return not self.sides

    @property
    def single_d10(self) -> bool:
        """One D10 and nothing else: the only kind of XP roll luck can touch."""
        return self.sides == (10,) and self.bonus == 0

    def total(self, rolled: list[int]) -> int:
        return sum(rolled) + self.bonus

    @classmethod
    def parse(cls, text: str) -> Dice:
        sides: list[int] = []
        bonus = 0
        if not isinstance(text, str) or not text:
            raise DataError(f"bad dice spec {text!r}")
        for term in text.replace(" ", "").upper().split("+"):
            if term.isdigit():
                bonus += int(term)
                continue
            m = _TERM.match(term)
            if not m or int(m.group(2)) < 1:
                raise DataError(f"bad dice spec {text!r}")
            sides.extend([int(m.group(2))] * int(m.group(1) or "1"))
        return cls(text=text, sides=tuple(sides), bonus=bonus)


class Range(Record):
    low: int
    high: int

    def __contains__(self, roll: object) -> bool:
        return isinstance(roll, int) and self.low <= roll <= self.high


class Monster(Record):
    roll: Range
    name: str
    att: int
    dam: Dice
    poisons: bool
    xp: Dice
    flee: int
    treasure: int

    def as_state(self) -> dict[str, Any]:
        """The monster's printed line, as it is recorded in an event."""
        return {
            "name": self.name, "att": self.att, "dam": self.dam.text,
            "poisons": self.poisons, "xp": self.xp.text, "flee": self.flee,
            "treasure": self.treasure,
        }


class ChartRow(Record):
    roll: Range
    action: str  # rest | encounter | monster | bandits | treasure | trap
    hp: int = 0
    card: str = ""
    monster: str = ""
    dice: Dice | None = None
    count: int = 0


class QuestAttempt(Record):
    item: str
    requires: tuple[str, ...]
    text: str
    ranges: dict[int, Range]


class Location(Record):
    number: int
    key: str
    name: str
    chart: tuple[ChartRow, ...]
    quest: QuestAttempt


class Trap(Record):
    roll: Range
    trap: str
    name: str
    hp: int


class TreasureRow(Record):
    roll: Range
    find: str  # gold | magic_item
    name: str
    dice: Dice | None


class MagicItem(Record):
    item: str
    name: str
    attack: int
    hp: int
    luck: int
    poison_resist: bool
    reroll: bool


class MarketItem(Record):
    item: str
    name: str
    price: int
    effect: str  # heal | strength | luck | map


class Level(Record):
    level: int
    xp: int
    attack_bonus: int
    hp_bonus: int


class Tables(Record):
    hp_max: int
    luck_max: int
    xp_max: int
    gold_max: int
    gold_min: int
    setup_hp: Dice
    setup_luck: Dice
    levels: tuple[Level, ...]
    poison_attack_penalty: int
    start_table: tuple[tuple[Range, int], ...]
    quest_chain: tuple[str, ...]
    locations: dict[int, Location]
    market_location: int
    traps: tuple[Trap, ...]
    trap_dice: Dice
    encounter_cards: dict[str, dict[int, tuple[Monster, ...]]]
    monsters: dict[str, Monster]
    treasure: tuple[TreasureRow, ...]
    magic_items: dict[str, MagicItem]
    market: dict[str, MarketItem]

    def location(self, number: int) -> Location:
        return self.locations[number]


def _range(raw: Any, where: str) -> Range:
    if (
        not isinstance(raw, list) or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
        or raw[0] > raw[1]
    ):
        raise DataError(f"{where}: bad roll range {raw!r}")
    return Range(raw[0], raw[1])


def _covers(ranges: list[Range], sides: int, where: str) -> None:
    """The rows of a chart cover 1..sides exactly once each, in order."""
    expected = 1
    for r in ranges:
        if r.low != expected:
            raise DataError(f"{where}: rows do not cover 1..{sides} exactly (at {r.low})")
        expected = r.high + 1
    if expected != sides + 1:
        raise DataError(f"{where}: rows do not cover 1..{sides} exactly (end {expected - 1})")


def _int(raw: dict[str, Any], key: str, where: str, low: int = 0) -> int:
    return integer(raw.get(key), f"{where}: {key}", low)


def _monster(raw: dict[str, Any], where: str) -> Monster:
    if not isinstance(raw.get("name"), str) or not isinstance(raw.get("poisons"), bool):
        raise DataError(f"{where}: needs a name and a poisons flag")
    return Monster(
        roll=_range(raw.get("roll"), where), name=raw["name"],
        att=_int(raw, "att", where, 1), dam=Dice.parse(raw.get("dam", "")),
        poisons=raw["poisons"], xp=Dice.parse(raw.get("xp", "")),
        flee=_int(raw, "flee", where), treasure=_int(raw, "treasure", where),
    )


@validator("Enin")
def load(raw: dict[str, Any]) -> Tables:  # noqa: C901 - one pass over the whole file
    """Validate the parsed JSON and build the tables."""
    caps = raw["caps"]
    levels = tuple(
        Level(
            level=_int(lv, "level", "levels", 1), xp=_int(lv, "xp", "levels"),
            attack_bonus=int(lv.get("attack_bonus", 0)), hp_bonus=int(lv.get("hp_bonus", 0)),
        )
        for lv in raw["levels"]
    )
    if [lv.level for lv in levels] != list(range(1, len(levels) + 1)) or levels[0].xp != 0:
        raise DataError("levels must be numbered 1.. with level 1 at 0 XP")
    if any(a.xp >= b.xp for a, b in zip(levels, levels[1:], strict=False)):
        raise DataError("level thresholds must rise")
    level_keys = {lv.level for lv in levels}

    start = tuple(
        (_range(row["roll"], "start_table"), _int(row, "location", "start_table", 1))
        for row in raw["start_table"]
    )
    _covers([r for r, _ in start], 10, "start_table")

    chain = tuple(raw["quest_chain"])
    if chain != QUEST_ITEMS:
        raise DataError(f"quest_chain must be {QUEST_ITEMS}")

    cards: dict[str, dict[int, tuple[Monster, ...]]] = {}
    for card, bands in raw["encounter_cards"].items():
        cards[card] = {}
        for band, rows in bands.items():
            where = f"encounter_cards.{card}.{band}"
            band_rows = tuple(_monster(m, where) for m in rows)
            _covers([m.roll for m in band_rows], 10, where)
            cards[card][int(band)] = band_rows
        if set(cards[card]) != level_keys:
            raise DataError(f"encounter card {card} needs one band per level")
    monsters = {k: _monster(m, f"monsters.{k}") for k, m in raw["monsters"].items()}

    locations: dict[int, Location] = {}
    for loc in raw["locations"]:
        where = f"location {loc.get('number')}"
        chart = []
        for row in loc["chart"]:
            action = row["action"]
            if action not in ("rest", "encounter", "monster", "bandits", "treasure", "trap"):
                raise DataError(f"{where}: unknown action {action!r}")
            if action == "encounter" and row.get("card") not in cards:
                raise DataError(f"{where}: unknown encounter card {row.get('card')!r}")
            if action == "monster" and row.get("monster") not in monsters:
                raise DataError(f"{where}: unknown monster {row.get('monster')!r}")
            chart.append(ChartRow(
                roll=_range(row["roll"], where), action=action,
                hp=int(row.get("hp", 0)), card=row.get("card", ""),
                monster=row.get("monster", ""),
                dice=Dice.parse(row["dice"]) if "dice" in row else None,
                count=int(row.get("count", 0)),
            ))
        q = loc["quest"]
        if q["item"] not in QUEST_ITEMS or not set(q["requires"]) <= set(QUEST_ITEMS):
            raise DataError(f"{where}: unknown quest item")
        ranges = {int(k): _range(v, where) for k, v in q["ranges"].items()}
        if set(ranges) != level_keys or any(r.low < 1 or r.high > 10 for r in ranges.values()):
            raise DataError(f"{where}: quest ranges need one 1..10 range per level")
        location = Location(
            number=_int(loc, "number", where, 1), key=loc["key"], name=loc["name"],
            chart=tuple(chart),
            quest=QuestAttempt(q["item"], tuple(q["requires"]), q["text"], ranges),
        )
        locations[location.number] = location
    if sorted(locations) != list(range(1, len(locations) + 1)):
        raise DataError("locations must be numbered 1..n in a row")
    market_location = _int(raw, "market_location", "market_location", 1)
    for number, location in locations.items():
        if number == market_location:
            if location.chart:
                raise DataError("the market town has no questing chart")
        else:
            _covers([row.roll for row in location.chart], 10, f"location {number} chart")
    if any(loc not in locations for _, loc in start):
        raise DataError("start table names an unknown location")
    if sorted(loc.quest.item for loc in locations.values()) != sorted(QUEST_ITEMS):
        raise DataError("every quest item needs exactly one location")

    traps = tuple(
        Trap(_range(t["roll"], "traps"), t["trap"], t["name"], int(t.get("hp", 0)))
        for t in raw["traps"]
    )
    if sorted(t.trap for t in traps) != ["imp", "poison_gas", "spiked_pit"]:
        raise DataError("traps must be poison_gas, spiked_pit and imp")
    trap_rows = [r for loc in locations.values() for r in loc.chart if r.action == "trap"]
    trap_dice = trap_rows[0].dice if trap_rows and trap_rows[0].dice else Dice.parse("1D6")
    if len(trap_dice.sides) != 1 or trap_dice.bonus:
        raise DataError("the trap roll must be one die")
    _covers([t.roll for t in traps], trap_dice.sides[0], "traps")

    treasure = tuple(
        TreasureRow(
            _range(t["roll"], "treasure"), t["find"], t["name"],
            Dice.parse(t["dice"]) if "dice" in t else None,
        )
        for t in raw["treasure"]
    )
    _covers([t.roll for t in treasure], 10, "treasure")
    if any(t.find not in ("gold", "magic_item") or (t.find == "gold") != bool(t.dice)
           for t in treasure):
        raise DataError("treasure rows find gold (with dice) or a magic item")

    magic = {
        m["item"]: MagicItem(
            item=m["item"], name=m["name"], attack=int(m["attack"]), hp=int(m["hp"]),
            luck=int(m["luck"]), poison_resist=bool(m["poison_resist"]),
            reroll=bool(m["reroll"]),
        )
        for m in raw["magic_items"]
    }
    if tuple(magic) != MAGIC_ITEMS:
        raise DataError(f"magic items must be {MAGIC_ITEMS}")
    market = {
        m["item"]: MarketItem(m["item"], m["name"], _int(m, "price", "market", 1), m["effect"])
        for m in raw["market"]
    }
    if tuple(market) != MARKET_ITEMS or sorted(m.effect for m in market.values()) != [
        "heal", "luck", "map", "strength",
    ]:
        raise DataError(f"market items must be {MARKET_ITEMS} with one effect each")

    return Tables(
        hp_max=_int(caps, "hp_max", "caps", 1), luck_max=_int(caps, "luck_max", "caps", 1),
        xp_max=_int(caps, "xp_max", "caps", 1), gold_max=_int(caps, "gold_max", "caps", 1),
        gold_min=_int(caps, "gold_min", "caps"),
        setup_hp=Dice.parse(raw["setup"]["hp"]), setup_luck=Dice.parse(raw["setup"]["luck"]),
        levels=levels, poison_attack_penalty=_int(raw, "poison_attack_penalty", "poison"),
        start_table=start, quest_chain=chain, locations=locations,
        market_location=market_location, traps=traps, trap_dice=trap_dice,
        encounter_cards=cards, monsters=monsters, treasure=treasure,
        magic_items=magic, market=market,
    )


def load_file(path: Path | str) -> Tables:
    return load(read_json(path))


def lookup(rows: Any, roll: int) -> Any:
    """The row of a chart whose roll range holds ``roll``."""
    for row in rows:
        if roll in row.roll:
            return row
    raise LookupError(f"no row for roll {roll}")


TABLES = load_file(os.environ.get("ENIN_DATA") or DATA_FILE)
